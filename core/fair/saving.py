"""Saving a game played on a fair table: the ordinary save, with the transcript in its footer.

The file is an ordinary saved game (``atoll replay`` reads it; the footer's faces are the ones the
seeds opened at the end), with one more footer field, ``"fair"``, holding the whole transcript, so
``atoll audit FILE`` can re-check the game from the file alone.

Only a game that is over is saved with its seeds: opening them shows every hand and sealed value,
so a save while the game goes on is refused (nothing it could hold would be safe to give away).
A table stopped by a timeout is saved without opening anything.
"""

from __future__ import annotations

import json
from pathlib import Path

from atoll.engine.match import Match
from atoll.engine.save import SavedGame, load, save
from atoll.errors import CorruptSave, ProtocolViolation
from atoll.fair.resolver import FairResolver
from atoll.fair.transcript import Transcript

#: The footer field of a saved game that holds its fair transcript.
FOOTER_FIELD = "fair"


def save_fair(match: Match, path: Path) -> None:
    """Save ``match`` with its transcript to ``path``: at the end (every seed opened), or after a
    timeout stopped the table (nothing opened). Refused while the game goes on."""
    resolver = match.resolver
    if not isinstance(resolver, FairResolver):
        raise ProtocolViolation("only a match played on a FairResolver has a fair transcript to save")
    transcript = {FOOTER_FIELD: resolver.transcript.to_json()}
    if resolver.stopped() and not resolver.finished:
        save(match, path, seed=None, faces={}, extra=transcript)
        return
    if match.results() is None:
        raise ProtocolViolation("the game is not over: saving it now would open every seat's seed (every "
                                "hand and sealed value) while play goes on; save when it ends")
    resolver.finish()
    save(match, path, seed=None, faces=resolver.faces(), extra={FOOTER_FIELD: resolver.transcript.to_json()})


def load_fair(path: Path) -> tuple[SavedGame, Transcript]:
    """Read a saved fair game: the save itself and the transcript in its footer."""
    saved = load(path)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
        footer = json.loads(lines[-1])
    except (OSError, json.JSONDecodeError, IndexError) as exc:
        raise CorruptSave(f"cannot read the footer of {path}") from exc
    if not isinstance(footer, dict) or FOOTER_FIELD not in footer:
        raise CorruptSave(f"{path} is not a fair game: it holds no transcript "
                          "(it was not played on a fair table)")
    return saved, Transcript.from_json(footer[FOOTER_FIELD], line=len(lines))
