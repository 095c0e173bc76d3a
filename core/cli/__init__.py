"""The ``atoll`` command line."""
