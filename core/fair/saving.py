"""Saving a game played on a fair table: the ordinary save, with the transcript in its footer.

The file is an ordinary saved game (``atoll replay`` reads it; the footer's faces are the ones the
seeds opened at the end), with one more footer field, ``"fair"``, holding the whole transcript, so
``atoll audit FILE`` can re-check the game from the file alone.
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
    """Open every seat's seed (if not yet done) and save ``match`` with its transcript to ``path``."""
    resolver = match.resolver
    if not isinstance(resolver, FairResolver):
        raise ProtocolViolation("only a match played on a FairResolver has a fair transcript to save")
    resolver.finish()
    save(match, path, seed=None, faces=resolver.faces(), extra={FOOTER_FIELD: resolver.transcript.to_json()})


def load_fair(path: Path) -> tuple[SavedGame, Transcript]:
    """Read a saved fair game: the save itself and the transcript in its footer."""
    saved = load(path)
    try:
        footer = json.loads(path.read_text(encoding="utf-8").splitlines()[-1])
    except (OSError, json.JSONDecodeError, IndexError) as exc:
        raise CorruptSave(f"cannot read the footer of {path}") from exc
    if not isinstance(footer, dict) or FOOTER_FIELD not in footer:
        raise CorruptSave(f"{path} is not a fair game: it holds no transcript "
                          "(it was not played on a fair table)")
    return saved, Transcript.from_json(footer[FOOTER_FIELD])
