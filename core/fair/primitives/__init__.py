"""The fair protocols' primitives: hashing, the group and its proofs, commitments, hash chains.

They import nothing else of :mod:`atoll.fair` (a contract in ``pyproject.toml`` checks it).
"""
