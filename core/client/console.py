"""Printing for the line-by-line client: styled text through prompt_toolkit, and a plain transcript."""

from __future__ import annotations

from prompt_toolkit import print_formatted_text
from prompt_toolkit.formatted_text import FormattedText
from prompt_toolkit.output import Output
from prompt_toolkit.styles import Style

from atoll.game import Fragments


def usable_style(style: str) -> str:
    """``style`` without the parts prompt_toolkit cannot parse (an unknown colour such as
    ``ansibrightwhite``), which would otherwise stop the printing halfway."""
    usable = []
    for part in style.split():
        try:
            if not part.startswith("class:"):
                Style([("probe", part)])
        except ValueError:
            continue
        usable.append(part)
    return " ".join(usable)


class Console:
    """Prints styled fragments (colour where the terminal has it) and keeps their plain text.

    ``output`` is prompt_toolkit's output (``None``: this terminal, or plain
    text when stdout is a file or pipe); ``plain`` prints bare text with no
    escape codes (``TERM=dumb``). ``transcript`` holds every printed
    block as plain text, which is what tests read.
    """

    def __init__(self, output: Output | None = None, *, plain: bool = False) -> None:
        self._output = output
        self._plain = plain
        self.transcript: list[str] = []

    def show(self, fragments: Fragments) -> None:
        """Print styled ``fragments``, ending the line if they do not."""
        text = "".join(part for _, part in fragments)
        end = "" if text.endswith("\n") else "\n"
        self.transcript.append(text.rstrip("\n"))
        if self._plain:  # a dumb terminal or a pipe gets the text and no escape codes at all
            print(text, end=end, flush=True)
            return
        checked = FormattedText([(usable_style(style), part) for style, part in fragments])
        print_formatted_text(checked, end=end, output=self._output)

    def say(self, text: str, style: str = "") -> None:
        """Print one line (or several) of text in ``style``."""
        self.show([(style, text)])
