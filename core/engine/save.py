"""Saved games as JSON lines, and replaying them to the same final state.

A save holds a header (game, config, seed), the public log one event a line,
and a footer with the final state's digest, the results and every hidden face
(the local resolver opens its secrets at the end, as fair players open their
seeds), so a replay can check every deal and every reveal.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from atoll.chance import Deal, Request, Roll, request_from_json
from atoll.engine.match import Event, Match
from atoll.engine.resolver import Resolution
from atoll.errors import AtollError, CheatDetected, CorruptSave, IllegalAction
from atoll.game import Game
from atoll.jsondata import JSON, canonical, digest
from atoll.net.encoding import parse_json
from atoll.types import Config

FORMAT = "atoll-game"
VERSION = 1


@dataclass(frozen=True)
class SavedGame:
    """A saved game read back: its header fields, public log and footer."""

    game: str
    config: Config
    seed: int | None
    events: list[Event]
    faces: dict[str, JSON]
    state_digest: str | None
    results: JSON


def save(
    match: Match, path: Path, *, seed: int | None, faces: Mapping[str, JSON],
    extra: Mapping[str, JSON] | None = None,
) -> None:
    """Write ``match`` to ``path``; never overwrites an existing file.

    ``extra`` adds fields to the footer (a fair game's transcript goes under ``"fair"``).
    """
    end = match.results()
    lines = [
        {"format": FORMAT, "version": VERSION, "game": match.game.info.name,
         "config": match.config.to_json(), "seed": seed},
        *match.events,
        {**(extra or {}), "end": end.results.to_json() if end else None, "state": digest(match.state),
         "faces": dict(faces)},
    ]
    try:
        with path.open("x", encoding="utf-8", newline="\n") as out:  # the same bytes on Windows
            for line in lines:
                out.write(canonical(line) + "\n")
    except FileExistsError as exc:
        raise AtollError(f"{path} already exists; choose another file name") from exc


def load(path: Path) -> SavedGame:
    """Read a save written by :func:`save`; raises :class:`CorruptSave` naming the bad line."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise CorruptSave(f"cannot read {path}: {exc.strerror}") from exc
    rows = []
    for number, line in enumerate(data.splitlines(), 1):
        try:
            rows.append(parse_json(line, integers=True))
        except ValueError as exc:
            raise CorruptSave(f"{path}:{number}: {exc}") from exc
    if len(rows) < 2 or not isinstance(rows[0], dict) or rows[0].get("format") != FORMAT:
        raise CorruptSave(f"{path} is not an atoll saved game")
    header, footer, events = rows[0], rows[-1], rows[1:-1]
    if header.get("version") != VERSION:
        raise CorruptSave(f"{path}:1: save format version {header.get('version')!r} is not {VERSION}")
    if not isinstance(footer, dict) or not isinstance(footer.get("faces"), dict):
        raise CorruptSave(f"{path}:{len(rows)}: the last line is not a footer; the save is cut short")
    wrong = next((number for number, event in enumerate(events, 2) if not isinstance(event, dict)), None)
    if wrong is not None:
        raise CorruptSave(f"{path}:{wrong}: an event is a JSON object")
    try:
        config = Config.from_json(header.get("config"))
    except (AtollError, KeyError, TypeError, ValueError, AttributeError) as exc:
        raise CorruptSave(f"{path}:1: the game's settings do not read ({exc})") from exc
    return SavedGame(
        str(header.get("game")), config, header.get("seed"),
        events, dict(footer["faces"]), footer.get("state"), footer.get("end"),
    )


class ReplayResolver:
    """Answers chance from a recorded log, checking that the game asks what was recorded."""

    def __init__(self, events: Sequence[Event], faces: Mapping[str, JSON]) -> None:
        self._chance = deque(e for e in events if "request" in e)
        self._faces = dict(faces)

    def resolve(self, request: Request) -> Resolution:
        """The recorded outcome of the next chance event."""
        if not self._chance:
            raise CorruptSave(f"the game asks for {request.to_json()} but the log has no more chance")
        event = self._chance.popleft()
        if canonical(request_from_json(event["request"]).to_json()) != canonical(request.to_json()):
            raise CorruptSave(f"the game asks for {request.to_json()}, the log has {event['request']}")
        private: dict[int, dict[str, JSON]] = {}
        if isinstance(request, Deal):
            private = {seat: self._lookup(handles) for seat, handles in request.to}
        elif isinstance(request, Roll) and request.to is not None:
            private = {request.to: self._lookup(request.handles())}
        return Resolution(dict(event["outcome"]), private)

    def seal(self, seat: int, handles: Sequence[str], values: Sequence[JSON]) -> None:
        """Check the sealed values against the opened faces."""
        self.prove(seat, dict(zip(handles, values, strict=True)))

    def prove(self, seat: int, claims: Mapping[str, JSON]) -> None:
        """Check claimed faces against the opened faces."""
        for handle, face in claims.items():
            if self._faces.get(handle, object()) != face:
                raise CheatDetected(seat, f"card {handle!r} is not {face!r} in the opened faces")

    def _lookup(self, handles: Sequence[str]) -> dict[str, JSON]:
        missing = [h for h in handles if h not in self._faces]
        if missing:
            raise CorruptSave(f"the save does not open the faces of {', '.join(missing)}")
        return {h: self._faces[h] for h in handles}


def replay(game: Game, saved: SavedGame, faces: Mapping[str, JSON] | None = None) -> Match:
    """Play ``saved`` back on ``game``; raises if any step differs from the log or the end state.

    ``faces`` are the opened hidden faces (default: the save's own). A claim or a sealed
    choice that does not check raises :class:`CheatDetected` naming its seat; anything
    else that does not fit raises :class:`CorruptSave` naming the line.
    """
    opened = saved.faces if faces is None else dict(faces)
    match = Match(game, saved.config, ReplayResolver(saved.events, opened))
    for number, event in enumerate(saved.events, 2):
        try:
            if "request" in event:
                match.advance()
            elif "sealed" in event:
                _replay_seal(match, int(event["seat"]), [opened[h] for h in event["sealed"]])
            else:
                match.act(int(event["seat"]), event["action"])
        except CheatDetected:
            raise
        except (KeyError, IndexError, TypeError, ValueError, AttributeError, RecursionError) as exc:
            raise CorruptSave(f"line {number}: malformed event {str(event)[:120]}") from exc
        except AtollError as exc:
            raise CorruptSave(f"line {number}: {exc}") from exc
    if saved.state_digest is not None and digest(match.state) != saved.state_digest:
        raise CorruptSave("the replayed final state differs from the saved one")
    end = match.results()
    if saved.results is not None and (end is None or end.results.to_json() != saved.results):
        raise CorruptSave("the replayed results differ from the saved ones")
    return match


def _replay_seal(match: Match, seat: int, values: list[JSON]) -> None:
    try:
        match.act(seat, {"secret": values})
    except IllegalAction as exc:
        raise CheatDetected(seat, f"sealed {values!r}, which was not a legal choice then: {exc}") from exc
