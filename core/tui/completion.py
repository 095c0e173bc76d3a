"""Completion of the legal action texts at the table prompt: fuzzy, best fit first, with what each
action does beside it."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document

from atoll.client.matching import ranked

#: How much of an action's help fits beside it in the menu.
META_WIDTH = 48

#: What begins table talk at the prompt.
CHAT_MARKS = ("'", '"', "/say ")


class ActionCompleter(Completer):
    """Completes the whole line with the legal texts that fit it (:func:`ranked`), then the commands.

    ``texts`` gives the legal texts now, ``commands`` the command names with
    what they do, ``explain`` what a legal text does (or ``None``).
    """

    def __init__(
        self,
        texts: Callable[[], Sequence[str]],
        commands: Callable[[], dict[str, str]],
        explain: Callable[[str], str | None],
    ) -> None:
        self._texts = texts
        self._commands = commands
        self._explain = explain

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterable[Completion]:
        """The fitting legal texts, best first, each with its help; commands after them (or only
        commands, when the line begins with ``/``)."""
        typed = document.text_before_cursor
        wanted = typed.strip()
        if wanted.lower().startswith(CHAT_MARKS):
            return  # table talk: no action or command to complete
        commands = self._commands()
        if not wanted.startswith("/"):
            for text in ranked(wanted, self._texts()):
                meta = self._explain(text) or ""
                if len(meta) > META_WIDTH:
                    meta = meta[: META_WIDTH - 1] + "…"
                yield Completion(text, start_position=-len(typed), display_meta=meta)
        name = wanted.lower().removeprefix("/")
        if wanted:
            for command, what in commands.items():
                if command.startswith(name):
                    shown = f"/{command}" if wanted.startswith("/") else command
                    yield Completion(shown, start_position=-len(typed), display_meta=what,
                                     style="class:command")
