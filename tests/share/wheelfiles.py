"""Small real wheel files for the index tests: a zip with a ``.dist-info/METADATA``."""

from __future__ import annotations

import zipfile
from pathlib import Path


def make_wheel(
    folder: Path, filename: str, requires_python: str = ">=3.11", requires: tuple[str, ...] = ()
) -> Path:
    """Write the wheel ``filename`` into ``folder``, its metadata naming ``requires_python`` and the
    ``requires`` (Requires-Dist lines)."""
    name, version = filename.split("-")[:2]
    path = folder / filename
    metadata = f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n"
    if requires_python:
        metadata += f"Requires-Python: {requires_python}\n"
    metadata += "".join(f"Requires-Dist: {line}\n" for line in requires)
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(f"{name}-{version}.dist-info/METADATA", metadata)
        archive.writestr(
            f"{name}-{version}.dist-info/WHEEL",
            "Wheel-Version: 1.0\nGenerator: tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
        )
        archive.writestr(f"{name}-{version}.dist-info/RECORD", "")
        archive.writestr(f"{name}/__init__.py", "")
    return path
