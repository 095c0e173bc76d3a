"""How typed text finds legal action texts: fuzzy ranking for completion, the common part for Tab,
and the natural short forms a person types (``play mouse`` for the one ``play 1 mouse``)."""

from __future__ import annotations

from collections.abc import Sequence

from atoll.engine.match import normal_text


def words_match(typed: str, text: str) -> bool:
    """Whether every typed word begins a word of ``text``, in order (``"pl mo"`` fits ``"play 1 mouse"``)."""
    wanted = normal_text(typed).split()
    words = normal_text(text).split()
    at = 0
    for word in wanted:
        while at < len(words) and not words[at].startswith(word):
            at += 1
        if at == len(words):
            return False
        at += 1
    return bool(wanted)


def subsequence(typed: str, text: str) -> bool:
    """Whether the typed letters (spaces ignored) occur in ``text`` in order."""
    rest = iter(normal_text(text))
    return all(char in rest for char in normal_text(typed).replace(" ", ""))


def ranked(typed: str, texts: Sequence[str]) -> list[str]:
    """The ``texts`` that fit ``typed``, best first: those it begins, then those whose words it begins,
    then those holding its letters in order; the game's order within each group."""
    wanted = normal_text(typed)
    if not wanted:
        return list(texts)
    starts = [t for t in texts if normal_text(t).startswith(wanted)]
    words = [t for t in texts if t not in starts and words_match(wanted, t)]
    letters = [t for t in texts if t not in starts and t not in words and subsequence(wanted, t)]
    return starts + words + letters


def common_part(typed: str, texts: Sequence[str]) -> str:
    """What Tab completes ``typed`` to: the longest beginning shared by every text that begins with it
    (ignoring case), or by every text whose words it begins; ``typed`` itself when that adds nothing."""
    wanted = normal_text(typed)
    fitting = [t for t in texts if normal_text(t).startswith(wanted)]
    if not fitting:
        fitting = [t for t in texts if words_match(wanted, t)]
    if not fitting:
        return typed
    shared = fitting[0]
    for text in fitting[1:]:
        length = 0
        while length < min(len(shared), len(text)) and shared[length].lower() == text[length].lower():
            length += 1
        shared = shared[:length]
    return shared if len(normal_text(shared)) > len(wanted) or len(fitting) == 1 else typed


def short_form(typed: str, texts: Sequence[str]) -> list[str]:
    """The legal texts a natural short form could mean: those whose words the typed words begin, in
    order (``"play mouse"`` -> ``["play 1 mouse"]``). One text means the short form is understood."""
    return [t for t in texts if words_match(typed, t)]
