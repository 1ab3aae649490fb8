"""The isalens version (its own module so any layer may print it without importing the package's API)."""

__version__ = "0.1.0"
