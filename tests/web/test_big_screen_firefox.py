"""The big screen in Firefox too (issue 31: the page works in current Chromium and Firefox): Debian's
headless firefox-esr, driven over WebDriver BiDi, the protocol Firefox itself speaks (no geckodriver, no
browser download), opens ``atoll watch --web`` of a loopback table of bots from before the game to its
end. Each game's page is the same file, so one game shows that Firefox runs it; every game is checked in
Chromium (test_big_screen.py).

Firefox runs in a network namespace of its own, the whole party with it (:mod:`tests.web.isolated`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from atoll_tools.big_screen import Party, wait_for
from atoll_tools.firefox import INSTALL_FIREFOX, Firefox, firefox

from tests.table.harness import REGISTRY
from tests.web.isolated import elsewhere, run_in_own_netns
from tests.web.public import GAME_S, the_page_showed

if firefox() is None:
    pytest.skip(f"no Firefox on this machine; install it with: {INSTALL_FIREFOX}", allow_module_level=True)

GAME = "kariba"


def text_of(browser: Firefox, element: str) -> str:
    return str(browser.evaluate(f"document.getElementById('{element}').innerText"))


def test_firefox_shows_the_big_screen_in_a_network_namespace_of_its_own(tmp_path: Path) -> None:
    """Runs the Firefox check below in a fresh network namespace (:mod:`tests.web.isolated`)."""
    if not elsewhere():
        pytest.skip("runs the check below in a namespace; here it runs as it is")
    run_in_own_netns(__file__, tmp_path, GAME_S + 120)


def test_firefox_shows_the_board_every_seat_updates_without_reloading_and_the_result(tmp_path: Path) -> None:
    if elsewhere():
        pytest.skip("runs in a network namespace of its own (the test above)")
    with Party(tmp_path, GAME, REGISTRY.game(GAME).info.min_seats) as party:
        party.open()
        url = party.watch()
        with Firefox(tmp_path / "firefox") as browser:
            try:
                browser.open(url)
                wait_for(lambda: "waiting for players" in text_of(browser, "waiting"), 30, "the seats")
                browser.evaluate("window.sameDocument = true")  # gone if the page reloads
                party.fill()
                wait_for(lambda: text_of(browser, "headline"), GAME_S, "the result")
                shown = {element: text_of(browser, element) for element in ("board", "seats", "result")}
                updates = int(browser.evaluate("Number(document.body.dataset.updates || 0)"))
                reloaded = browser.evaluate("window.sameDocument === true") is not True
            except AssertionError as exc:
                raise AssertionError(f"{exc}\n{party.story()}") from None
        the_page_showed(party, board=shown["board"], seats=shown["seats"], result=shown["result"],
                        updates=updates, reloaded=reloaded)
