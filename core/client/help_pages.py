"""The game's own pages, as any client shows them: its rules summary, its cards, tiles or pieces, and
its board's legend, from the game's guide, with plain words when a game says nothing. Nothing here
is game-specific: every game word comes from the plugin."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from atoll.game import Fragments, Game
from atoll.types import Config

#: The width the pages are wrapped to (an 80-column terminal, with a margin).
WIDTH = 76


def rules_help(game: Game, config: Config) -> Fragments:
    """The rules summary the game provides, or its one-line summary and a word that there is none."""
    info = game.info
    head: Fragments = [("bold", f"{info.title} ({config.variant}), {config.seats} seats\n\n")]
    summary = game.rules_summary(config).strip()
    if summary:
        paragraphs = [wrap(p) for p in summary.split("\n\n")]
        return [*head, ("", "\n\n".join(paragraphs) + "\n")]
    return [*head, ("", wrap(info.summary or "") + "\n\n"),
            ("italic", f"{info.title} gives no rules summary; its rules page has the rules in full.\n")]


def pairs_help(title: str, pairs: Sequence[tuple[str, str]], missing: str) -> Fragments:
    """A list of ``(name, meaning)`` pairs (cards, or the legend), or ``missing`` when there are none."""
    if not pairs:
        return [("bold", f"{title}\n\n"), ("italic", missing + "\n")]
    width = min(max(len(name) for name, _ in pairs), 18)
    lines: Fragments = [("bold", f"{title}\n\n")]
    for name, meaning in pairs:
        wrapped = textwrap.wrap(meaning, WIDTH - width - 4) or [""]
        lines.append(("bold", f"  {name:<{width}}  "))
        lines.append(("", wrapped[0] + "\n"))
        lines.extend(("", " " * (width + 4) + more + "\n") for more in wrapped[1:])
    return lines


def cards_help(game: Game, config: Config) -> Fragments:
    """The game's cards, tiles or pieces and what each does."""
    return pairs_help("Cards, tiles and pieces", game.glossary(config),
                      f"{game.info.title} lists no cards or tiles; the rules summary (F2) has the rules.")


def legend_help(game: Game, config: Config) -> Fragments:
    """What the board's symbols mean, and the seat marks the client adds."""
    return pairs_help("Legend", game.legend(config),
                      f"{game.info.title} gives no legend; its board names what it shows in words.")


def wrap(text: str) -> str:
    """``text`` with its spaces evened out, wrapped to :data:`WIDTH` columns."""
    return "\n".join(textwrap.wrap(" ".join(text.split()), WIDTH))
