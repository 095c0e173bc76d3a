"""atoll's developer tools, outside the wheel: the benchmarks (``bench``) and the soak test (``soak``).

Run them through ``scripts/bench`` and ``scripts/soak``, which put this folder on ``PYTHONPATH``.
"""
