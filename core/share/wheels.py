"""Wheel files as a package index sees them: the project a file name belongs to, its hash, and the
Python versions its metadata says it needs."""

from __future__ import annotations

import email.parser
import hashlib
import re
import zipfile
from dataclasses import dataclass
from pathlib import Path

#: The characters a wheel's file name may hold to be served: those the wheel specification's names,
#: versions and tags use. Anything else (a slash, a space, ``%``) is not a wheel of ours.
_FILE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+!-]*\.whl")
_PROJECT = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9._]*[A-Za-z0-9])?")
_CHUNK = 1 << 20


class NotAWheel(ValueError):
    """A file whose name or contents are not those of a wheel."""


def normalize(name: str) -> str:
    """A project name as PEP 503 compares it: runs of ``-``, ``_`` and ``.`` as one ``-``, lower case."""
    return re.sub(r"[-_.]+", "-", name).lower()


@dataclass(frozen=True)
class Wheel:
    """One wheel file in a shared folder: what the index says of it."""

    #: The file's name, as served (``atoll-0.1.0-py3-none-any.whl``).
    filename: str
    #: The project it belongs to, normalized (``atoll``).
    project: str
    #: The SHA-256 of the file's bytes, in hex.
    sha256: str
    #: The ``Requires-Python`` of its metadata (``>=3.11``), or empty if it names none.
    requires_python: str


def project_of(filename: str) -> str:
    """The normalized project a wheel's file name belongs to, or :class:`NotAWheel`.

    A wheel is named ``{name}-{version}(-{build})?-{python}-{abi}-{platform}.whl``: five or six
    parts between dashes, none of them empty.
    """
    if not _FILE_NAME.fullmatch(filename):
        raise NotAWheel(f"{filename!r} is not a wheel's file name")
    parts = filename[: -len(".whl")].split("-")
    if len(parts) not in (5, 6) or not all(parts) or not _PROJECT.fullmatch(parts[0]):
        raise NotAWheel(f"{filename!r} is not name-version-python-abi-platform.whl")
    return normalize(parts[0])


def read_wheel(path: Path) -> Wheel:
    """The index's view of the wheel at ``path``: its project, hash and ``Requires-Python``."""
    project = project_of(path.name)
    digest = hashlib.sha256()
    with path.open("rb") as file:
        while chunk := file.read(_CHUNK):
            digest.update(chunk)
    return Wheel(path.name, project, digest.hexdigest(), _requires_python(path))


def _requires_python(path: Path) -> str:
    try:
        with zipfile.ZipFile(path) as archive:
            names = [n for n in archive.namelist() if re.fullmatch(r"[^/]+\.dist-info/METADATA", n)]
            if len(names) != 1:
                raise NotAWheel(f"{path.name} holds {len(names)} .dist-info/METADATA files, not one")
            metadata = archive.read(names[0]).decode("utf-8")
    except (zipfile.BadZipFile, OSError, UnicodeDecodeError) as exc:
        raise NotAWheel(f"{path.name} cannot be read as a wheel: {exc}") from None
    return email.parser.HeaderParser().parsestr(metadata).get("Requires-Python", "").strip()
