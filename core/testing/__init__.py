"""Tools for testing games: a rigged resolver for scenarios and the conformance kit."""

from atoll.testing.rigged import RiggedResolver

__all__ = ["RiggedResolver"]
