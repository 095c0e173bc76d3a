"""The console prints a game's styled fragments and keeps a plain transcript."""

from __future__ import annotations

from prompt_toolkit.output import DummyOutput

from atoll.client.console import Console, usable_style


def test_a_style_prompt_toolkit_cannot_parse_loses_only_its_bad_parts() -> None:
    assert usable_style("fg:ansibrightwhite bold") == "bold"
    assert usable_style("fg:ansired bg:#112233 underline class:board") == (
        "fg:ansired bg:#112233 underline class:board"
    )


def test_fragments_with_a_bad_colour_are_printed_once_in_full() -> None:
    console = Console(DummyOutput())
    console.show([("fg:ansibrightwhite bold", "zebra"), ("", " giraffe\n")])
    assert console.transcript == ["zebra giraffe"]
