"""The version of maumau, in a module of its own so that parts of the package (the command
line) can read it without importing the package's facade ``maumau/__init__.py``."""

__version__ = "0.1.0"
