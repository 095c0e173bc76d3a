"""The table screen's keys: help screens, leaving (asked first), the hot-seat handover, Tab, rematch.

Each binding reads the screen's mode through a filter and calls one of its public methods, so what
a key does can be read (and tested) on :class:`~atoll.tui.screen.TableScreen` itself.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from prompt_toolkit.filters import Condition
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent

if TYPE_CHECKING:
    from atoll.tui.screen import TableScreen

#: Function keys and the commands they give.
FUNCTION_KEYS = (("f1", "help"), ("f2", "rules"), ("f3", "cards"), ("f4", "legend"), ("f5", "log"),
                 ("f6", "undo"), ("f7", "result"))


def table_keys(screen: TableScreen) -> KeyBindings:
    """The key bindings of ``screen``."""
    keys = KeyBindings()
    asking = Condition(lambda: screen.asking)
    overlay = Condition(lambda: screen.overlay is not None and not screen.asking)
    handoff = Condition(lambda: screen.handoff is not None and screen.overlay is None and not screen.asking)
    typing = Condition(lambda: screen.handoff is None and screen.overlay is None and not screen.asking)
    over = Condition(lambda: screen.source.waiting().over and not screen.buffer.text
                     and screen.overlay is None and not screen.asking)

    def run(action: Callable[[], object]) -> Callable[[KeyPressEvent], None]:
        def handler(event: KeyPressEvent) -> None:
            action()

        return handler

    keys.add("c-c")(run(screen.ask_to_leave))  # pressed again while asked: the answer is yes
    keys.add("c-d")(run(screen.ask_to_leave))
    keys.add("y", filter=asking, eager=True)(run(screen.leave))
    keys.add("Y", filter=asking, eager=True)(run(screen.leave))
    keys.add("<any>", filter=asking, eager=True)(run(screen.stay))
    # the table asks the host's person what happens to a seat that left: one key answers (w, e, h)
    questioned = Condition(lambda: screen.source.question() is not None and not screen.asking
                           and not screen.buffer.text)  # a move being typed keeps its letters
    def answering(key: str) -> Callable[[KeyPressEvent], None]:
        return run(lambda: screen.answer(key))

    for key in ("w", "e", "h"):
        keys.add(key, filter=questioned, eager=True)(answering(key))
    def command(name: str) -> Callable[[KeyPressEvent], None]:
        return run(lambda: screen.command(name))

    for key, name in FUNCTION_KEYS:
        keys.add(key, filter=~asking)(command(name))
    for key in ("escape", "q", "enter"):
        keys.add(key, filter=overlay, eager=True)(run(screen.close_help))
    keys.add("down", filter=overlay)(run(lambda: screen.scroll(1)))
    keys.add("up", filter=overlay)(run(lambda: screen.scroll(-1)))
    keys.add("pagedown", filter=overlay)(run(lambda: screen.scroll(screen.page())))
    keys.add("pageup", filter=overlay)(run(lambda: screen.scroll(-screen.page())))
    keys.add("<any>", filter=overlay)(run(lambda: None))  # a help screen takes no typing
    keys.add("enter", filter=handoff, eager=True)(run(screen.take_keyboard))
    keys.add("<any>", filter=handoff)(run(lambda: None))  # nothing reaches the game before the handover
    rematch = Condition(lambda: screen.can_rematch)
    keys.add("r", filter=over & rematch, eager=True)(run(screen.rematch))
    keys.add("tab", filter=typing)(run(screen.tab))
    keys.add("s-tab", filter=typing)(run(screen.tab_back))
    return keys
