"""The package's version (from its installed metadata), for records and reports."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("chameleon_lab")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0+unknown"
