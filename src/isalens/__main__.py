"""``python -m isalens``."""

from isalens.cli import run

run()
