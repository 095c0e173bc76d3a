"""The in-memory table the table tests play on: :mod:`atoll_tools.memory_table` (shared with the fair
tests and ``scripts/bench fair``), re-exported under the name these tests have always used."""

from atoll_tools.memory_table import REGISTRY, Net, Peer, Relay, observe_seat, open_table

__all__ = ["REGISTRY", "Net", "Peer", "Relay", "observe_seat", "open_table"]
