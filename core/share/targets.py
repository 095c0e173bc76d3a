"""The platforms and Pythons a shared folder holds wheels for, as pip's ``download`` options name them.

Every runtime dependency of atoll ships binary wheels for these: Windows x86-64, macOS 11 or newer
on arm64 and x86-64, and Linux with glibc 2.17 or newer on x86-64 and arm64, for CPython 3.11 to
3.14. Windows on ARM is left out (rbcl has no wheel for it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

#: The Pythons atoll supports.
PYTHONS: Final = ("3.11", "3.12", "3.13", "3.14")
#: The newest glibc a Linux wheel may need (2.28: Debian 10, Ubuntu 20.04, RHEL 8), and the oldest
#: that still has wheels (2.17, the manylinux2014 floor).
NEWEST_GLIBC: Final = 28
OLDEST_GLIBC: Final = 17


def manylinux(arch: str) -> tuple[str, ...]:
    """Every manylinux tag a Linux laptop of ``arch`` with a glibc from 2.17 to 2.28 installs.

    pip expands a ``macosx_`` platform to the older releases it runs on, but takes a ``manylinux_``
    one literally, so the tags are listed (with the legacy ``manylinux2014`` alias).
    """
    return (
        *(f"manylinux_2_{minor}_{arch}" for minor in range(NEWEST_GLIBC, OLDEST_GLIBC - 1, -1)),
        f"manylinux2014_{arch}",
    )


@dataclass(frozen=True)
class Target:
    """A kind of laptop to prepare wheels for: its system, processor and pip platform tags."""

    #: ``windows``, ``macos`` or ``linux``, as ``--platform`` takes it.
    system: str
    #: The processor, as shown (``x86-64``, ``arm64``).
    arch: str
    #: The platform tags pip may pick wheels for.
    platforms: tuple[str, ...]

    @property
    def label(self) -> str:
        """How a person reads it: ``macOS arm64``."""
        return f"{ {'windows': 'Windows', 'macos': 'macOS', 'linux': 'Linux'}[self.system] } {self.arch}"


#: Every kind of laptop a shared folder serves.
TARGETS: Final = (
    Target("windows", "x86-64", ("win_amd64",)),
    Target("macos", "arm64", ("macosx_11_0_arm64",)),
    Target("macos", "x86-64", ("macosx_11_0_x86_64",)),
    Target("linux", "x86-64", manylinux("x86_64")),
    Target("linux", "arm64", manylinux("aarch64")),
)
SYSTEMS: Final = ("windows", "macos", "linux")


def binary_options(target: Target | None, python: str | None) -> list[str]:
    """pip's options choosing wheels only, for ``target`` and ``python`` (this machine's own when None)."""
    options = ["--only-binary=:all:"]
    if target is not None:
        options += ["--implementation", "cp"]
        for platform in target.platforms:
            options += ["--platform", platform]
    if python is not None:
        options += ["--python-version", python]
    return options


def chosen_targets(systems: Sequence[str]) -> list[Target]:
    """The targets of the named systems (each of :data:`SYSTEMS`), in :data:`TARGETS` order."""
    unknown = sorted(set(systems) - set(SYSTEMS))
    if unknown:
        raise ValueError(f"unknown system {', '.join(unknown)}: choose from {', '.join(SYSTEMS)}")
    return [target for target in TARGETS if target.system in systems]
