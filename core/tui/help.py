"""The help screens: keys and commands, and the game's own texts (rules summary, cards or tiles,
legend) from its optional hooks, with plain words when a game provides none. Nothing here is
game-specific: every game word comes from the plugin."""

from __future__ import annotations

from collections.abc import Sequence

from atoll.client.help_pages import WIDTH, cards_help, legend_help, pairs_help, rules_help, wrap
from atoll.client.source import LogLine
from atoll.engine.match import normal_text
from atoll.game import Fragments, Game
from atoll.types import Config

#: Help topics: the command a player types, the key, and what it shows.
TOPICS: dict[str, tuple[str, str]] = {
    "help": ("F1", "these keys and commands"),
    "rules": ("F2", "a summary of the rules"),
    "cards": ("F3", "the cards, tiles or pieces and what each does"),
    "legend": ("F4", "what the symbols on the board mean"),
    "log": ("F5", "the whole game log"),
}
#: Commands besides the help topics.
COMMANDS: dict[str, tuple[str, str]] = {
    "undo": ("F6", "take back your latest move (local games)"),
    "result": ("F7", "after the game: the result, or the board again"),
    "quit": ("Ctrl-C", "leave the game (asks first; a local game is saved to resume)"),
}
__all__ = ["COMMANDS", "TOPICS", "WIDTH", "cards_help", "glossary_for", "keys_help", "legend_help",
           "log_help", "pairs_help", "rules_help"]


def keys_help() -> Fragments:
    """The keys and commands, and how to type an action."""
    lines: Fragments = [
        ("bold", "Typing a move\n"),
        ("", wrap("Type an action as listed, or any unique beginning of it; case and extra spaces do not "
                   "matter, and short forms work when only one action fits (\"play mouse\" for "
                   "\"play 1 mouse\"). The list of fitting actions opens as you type; Tab completes the "
                   "part they share, or steps through them; Enter plays. A refused text stays in the "
                   "line with the reason below it.") + "\n\n"),
        ("bold", "Keys and commands\n"),
    ]
    for name, (key, what) in {**TOPICS, **COMMANDS}.items():
        lines.append(("", f"  {key:<7} {name:<7} {what}\n"))
    lines.append(("", "\n  A command typed at the prompt works too (/command if an action has its name).\n"
                      "  Esc or q closes a help screen; PgUp/PgDn scroll.\n"
                      "  At a network table, ' (or /say) and a text talks to the table; a spectator's\n"
                      "  plain text does too. Table talk is marked and never part of the game's log.\n"))
    return lines


def log_help(lines: Sequence[LogLine], viewer: int | None) -> Fragments:
    """The whole game log as ``viewer`` may read it, numbered."""
    if not lines:
        return [("bold", "Game log\n\n"), ("italic", "nothing has happened yet\n")]
    out: Fragments = [("bold", f"Game log ({len(lines)} lines)\n\n")]
    out.extend(("", f"{number:>4}  {line.seen_by(viewer)}\n") for number, line in enumerate(lines, 1))
    return out


def glossary_for(game: Game, config: Config, text: str) -> str | None:
    """The glossary entries of the names an action text mentions, as one line (``"rest: ...; sleep:
    ..."``), or ``None`` when it mentions none: what an action does when the game does not say."""
    words = normal_text(text).split()
    found = []
    for name, meaning in game.glossary(config):
        key = normal_text(name)
        if key and (key in words or (" " in key and key in normal_text(text))):
            found.append(f"{name}: {meaning}")
    return "; ".join(found) if found else None
