#!/usr/bin/env bash
# Set up (with test tools) and run every check: ruff, mypy, the import-linter layer contract, pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --dev
export PATH="$PWD/.venv/bin:$PATH"
echo "== ruff"; ruff check src tests benchmarks tools examples
echo "== mypy"; mypy
echo "== import-linter"; lint-imports
echo "== pytest"; python -m pytest -q "$@"
