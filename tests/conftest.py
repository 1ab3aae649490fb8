"""Shared fixtures: our own compiled inputs (tests/fixtures), compiler discovery, and the steering repo's
reference samples in ../shared/samples, which only extra checks read: without them those tests are not
collected (each of their assertions also runs on an own fixture), so a fresh clone skips none of them."""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from tests.fixtures.build import AcoOutput, LlvmOutputs

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
SAMPLES = SHARED / "samples"
EXAMPLES = ROOT / "examples"
FIXTURES = ROOT / "tests" / "fixtures"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-golden", action="store_true", help="rewrite golden report files")


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-golden"))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Without ../shared/samples the extra checks on them are deselected, not skipped."""
    if SAMPLES.is_dir():
        return
    extra = [item for item in items if "samples" in getattr(item, "fixturenames", ())]
    if extra:
        config.hook.pytest_deselected(items=extra)
        items[:] = [item for item in items if item not in extra]


@pytest.fixture
def samples() -> Path:
    """../shared/samples (tests using it are deselected when it is absent)."""
    return SAMPLES


@pytest.fixture(scope="session")
def own_llvm(tmp_path_factory: pytest.TempPathFactory) -> LlvmOutputs:
    """clang-19 output for our own kernel, made now (tests/fixtures/build.py)."""
    from tests.fixtures.build import llvm_outputs

    return llvm_outputs(tmp_path_factory.mktemp("own_llvm"))


@pytest.fixture(scope="session")
def own_aco(tmp_path_factory: pytest.TempPathFactory) -> dict[str, AcoOutput]:
    """RADV/ACO output for our own compute shader, by family, made now (tests/fixtures/build.py)."""
    from tests.fixtures.build import aco_outputs

    return aco_outputs(tmp_path_factory.mktemp("own_aco"))


def require_tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        pytest.skip(f"{name} is not installed (run scripts/setup.sh)")
    return path


def load_tool(name: str) -> ModuleType:
    """The script ``tools/<name>.py`` as a module (tools/ is not a package: the table generator and the ROCm
    LLVM disassembler serve tests as oracles)."""
    module = sys.modules.get(name)
    if module is not None:
        return module
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
