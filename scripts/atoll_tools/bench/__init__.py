"""Benchmarks run by ``scripts/bench``: each module is one suite with a ``main`` and ``--json``."""
