"""The pages of a PEP 503 ("simple") package index over a folder of wheels, and which request gets
what: a page, a wheel, a redirect to a name's normal form, or nothing.

Only the wheels found when the index was made are served, looked up by exact file name, so no path
a client sends can reach another file. Every link carries the wheel's SHA-256 (``#sha256=``), which
pip checks after downloading, and its ``Requires-Python`` (``data-requires-python``, PEP 503).
"""

from __future__ import annotations

import enum
import html
import urllib.parse
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from atoll.share.wheels import NotAWheel, Wheel, normalize, read_wheel

#: Where the index lives on the server: pip's ``--index-url`` ends here.
SIMPLE_PATH = "/simple/"
#: Where the wheels themselves are served from.
FILES_PATH = "/files/"
HTML = "text/html; charset=utf-8"
WHEEL = "application/octet-stream"


class Outcome(enum.Enum):
    """What a request gets."""

    #: An index page (``body``).
    PAGE = "page"
    #: A wheel's bytes (``file``).
    FILE = "file"
    #: A permanent redirect to ``location`` (a project name that is not in its normal form).
    REDIRECT = "redirect"
    #: Nothing here.
    NOT_FOUND = "not found"


@dataclass(frozen=True)
class Response:
    """The answer to one request, before HTTP: what it is and what it carries."""

    outcome: Outcome
    body: bytes = b""
    file: Path | None = None
    location: str = ""
    content_type: str = HTML


@dataclass(frozen=True)
class PackageIndex:
    """A package index over the wheels of one folder, as they were when it was made."""

    folder: Path
    #: Every served wheel by its file name.
    wheels: Mapping[str, Wheel]
    #: Files in the folder that are not served, each with the reason.
    skipped: tuple[str, ...] = field(default=())

    @classmethod
    def of_folder(cls, folder: Path) -> PackageIndex:
        """The index of the wheels directly in ``folder`` (regular files, not links); anything else
        in it is not served, and a file named like a wheel that is not one is listed in ``skipped``."""
        wheels: dict[str, Wheel] = {}
        skipped: list[str] = []
        for path in sorted(folder.iterdir()):
            if not path.name.endswith(".whl"):
                continue
            if path.is_symlink() or not path.is_file():
                skipped.append(f"{path.name}: not a regular file")
                continue
            try:
                wheels[path.name] = read_wheel(path)
            except NotAWheel as exc:
                skipped.append(str(exc))
        return cls(folder, wheels, tuple(skipped))

    @property
    def projects(self) -> dict[str, list[Wheel]]:
        """The wheels of each project, by normalized name, both sorted."""
        found: dict[str, list[Wheel]] = {}
        for name in sorted(self.wheels):
            found.setdefault(self.wheels[name].project, []).append(self.wheels[name])
        return dict(sorted(found.items()))

    def root_page(self) -> bytes:
        """The index's root: one link per project."""
        links = [f'<a href="{SIMPLE_PATH}{name}/">{name}</a>' for name in self.projects]
        return _page("Simple index", links)

    def project_page(self, project: str) -> bytes:
        """The page of one (normalized) project: a link per wheel, with its hash and Python range."""
        links = []
        for wheel in self.projects[project]:
            href = f"{FILES_PATH}{urllib.parse.quote(wheel.filename)}#sha256={wheel.sha256}"
            requires = (
                f' data-requires-python="{html.escape(wheel.requires_python)}"'
                if wheel.requires_python
                else ""
            )
            links.append(f'<a href="{href}"{requires}>{html.escape(wheel.filename)}</a>')
        return _page(f"Links for {project}", links)

    def respond(self, target: str) -> Response:
        """What a GET of ``target`` (the request's path, with any query) gets."""
        path = urllib.parse.urlsplit(target).path
        if path in ("", "/", SIMPLE_PATH.rstrip("/")):
            return Response(Outcome.REDIRECT, location=SIMPLE_PATH)
        if path == SIMPLE_PATH:
            return Response(Outcome.PAGE, self.root_page())
        if path.startswith(SIMPLE_PATH):
            return self._project(urllib.parse.unquote(path[len(SIMPLE_PATH) :]))
        if path.startswith(FILES_PATH):
            wheel = self.wheels.get(urllib.parse.unquote(path[len(FILES_PATH) :]))
            if wheel is not None:
                return Response(Outcome.FILE, file=self.folder / wheel.filename, content_type=WHEEL)
        return Response(Outcome.NOT_FOUND, b"not found\n", content_type="text/plain; charset=utf-8")

    def _project(self, rest: str) -> Response:
        name = rest.removesuffix("/")
        project = normalize(name)
        if "/" in name or project not in self.projects:
            return Response(Outcome.NOT_FOUND, b"no such project\n", content_type="text/plain; charset=utf-8")
        if rest != f"{project}/":
            return Response(Outcome.REDIRECT, location=f"{SIMPLE_PATH}{project}/")
        return Response(Outcome.PAGE, self.project_page(project))


def _page(title: str, links: list[str]) -> bytes:
    lines = [
        "<!DOCTYPE html>",
        "<html>",
        '<head><meta name="pypi:repository-version" content="1.0">'
        f"<title>{html.escape(title)}</title></head>",
        f"<body><h1>{html.escape(title)}</h1>",
        *(f"{link}<br>" for link in links),
        "</body>",
        "</html>",
        "",
    ]
    return "\n".join(lines).encode("utf-8")
