"""The package version (one place: the command, the benchmark and `jsondrip.__version__`)."""

__version__ = "0.1.0"
