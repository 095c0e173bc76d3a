"""The big screen in a real browser: a loopback table of bots for each built-in game, watched with
``atoll watch --web`` and opened in headless Debian chromium (through its chromedriver: no browser
download). The page shows the board, every seat's name, updates as the game goes without reloading,
and the result at the end; everything it received is public; it keeps updating across a host
hand-over. As root the whole file runs in a network namespace of its own, from
test_big_screen_isolated.py (:mod:`tests.web.isolated`)."""

from __future__ import annotations

import json
import socket
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from atoll_tools.big_screen import INSTALL, Party, chromium, open_browser, wait_for

from tests.table.harness import REGISTRY
from tests.web.isolated import elsewhere
from tests.web.public import GAME_S, replayed, the_log, the_page_showed

if chromium() is None:
    pytest.skip(f"no headless chromium on this machine; install it with: {INSTALL}", allow_module_level=True)

from selenium.webdriver.remote.webdriver import WebDriver

GAMES = sorted(REGISTRY.games)
pytestmark = pytest.mark.skipif(elsewhere(), reason="runs whole in a network namespace of its own "
                                "(test_big_screen_isolated.py)")


@dataclass
class Watched:
    """One game as the browser saw it, and what the page received."""

    party: Party
    board: str
    seats: str
    result: str
    updates: int
    reloaded: bool
    events: list[str] = field(default_factory=list)
    """The data of every Server-Sent Event the page received, in order."""
    fetched: list[str] = field(default_factory=list)
    """The body of every other response the page fetched (the page itself)."""


def text_of(driver: WebDriver, element: str) -> str:
    return str(driver.execute_script(f"return document.getElementById('{element}').innerText"))


def updates(driver: WebDriver) -> int:
    return int(driver.execute_script("return Number(document.body.dataset.updates || 0)"))


def received(driver: WebDriver, site: str) -> tuple[list[str], list[str]]:
    """Every event and every response body the page received from ``site``, from chromium's network
    log (the browser's own start page is left out)."""
    events, fetched = [], []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        params = message.get("params", {})
        if message["method"] == "Network.eventSourceMessageReceived":
            events.append(params["data"])
        elif message["method"] == "Network.responseReceived" and "event-stream" not in params[
            "response"
        ].get("mimeType", ""):
            url = params["response"]["url"]
            if not url.startswith(site):
                continue
            try:
                body = driver.execute_cdp_cmd("Network.getResponseBody", {"requestId": params["requestId"]})
            except Exception as exc:
                raise AssertionError(f"the body of {url} cannot be read back: {exc}") from None
            fetched.append(body["body"])
    return events, fetched


def watch_a_game(
    tmp: Path,
    game: str,
    *,
    before: Callable[[Party, WebDriver], None] | None = None,
    during: Callable[[Party, WebDriver], None] | None = None,
    host_web: bool = False,
    web_port: int = 0,
) -> Watched:
    """Open a table of ``game`` at its fewest seats, watch it in the browser from before the start to
    the result; ``before`` runs while the seats fill, ``during`` once the game has started (a host
    hand-over). ``host_web``: the page is the host's own (``atoll host --web``, the host's bot at a
    seat), not a spectator's."""
    seats = REGISTRY.game(game).info.min_seats
    with Party(tmp, game, seats, host_timeout=5 if during else None, host_web=host_web) as party:
        party.open()
        url = party.watch(web_port)
        driver = open_browser(tmp / "chromium")
        try:
            driver.get(url)
            wait_for(lambda: "waiting for players" in text_of(driver, "waiting"), 30, "the seats filling")
            driver.execute_script("window.sameDocument = true")  # gone if the page reloads
            if before is not None:
                before(party, driver)
            party.fill()
            if during is not None:
                during(party, driver)
            wait_for(lambda: text_of(driver, "headline"), GAME_S, "the result")
            events, fetched = received(driver, url)
            return Watched(
                party, text_of(driver, "board"), text_of(driver, "seats"), text_of(driver, "result"),
                updates(driver), not driver.execute_script("return window.sameDocument === true"),
                events, fetched,
            )
        except AssertionError as exc:  # what the page, the processes and the copies of the log say
            raise AssertionError(f"{exc}\n{page_now(driver)}\n{party.story()}") from None
        finally:
            driver.quit()


def page_now(driver: WebDriver) -> str:
    """What the page shows now, in a few lines: its link, what the table waits for, the last moves."""
    try:
        return "the page: " + " | ".join(text_of(driver, element) for element in ("link", "waiting", "moves"))
    except Exception as exc:  # the browser itself may be what failed
        return f"the page cannot be read: {exc}"


@pytest.fixture(scope="module", params=GAMES)
def watched(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Watched]:
    yield watch_a_game(tmp_path_factory.mktemp(request.param), request.param)


def test_the_page_shows_the_board_every_seat_updates_without_reloading_and_the_result(
    watched: Watched,
) -> None:
    the_page_showed(watched.party, board=watched.board, seats=watched.seats, result=watched.result,
                    updates=watched.updates, reloaded=watched.reloaded)


def received_only_public(watched: Watched) -> None:
    """Every event the page received shows a board the game renders for ``view(None)`` after some
    entry of the log (or the lobby before the game), and move lines a keyless copy of the table words
    the same; no participant's master secret is in any event or fetch."""
    boards: set[str] = set()
    public = replayed(the_log(watched.party), boards)
    lobby = {shown["board"] for shown in public if shown["board"] not in boards and not shown["result"]}
    moves = {line for shown in public for line in shown["moves"]}
    assert watched.events, "the page received no event"
    games = 0
    for data in watched.events:
        snapshot = json.loads(data)
        if not snapshot["seats"]:
            continue  # before the table opened: nothing of it
        games += snapshot["board"] in boards
        assert snapshot["board"] in boards | lobby
        assert set(snapshot["moves"]) <= moves
        assert snapshot["result"] in (None, public[-1]["result"])
    assert games >= 3
    secrets = [
        json.loads(path.read_text())["master"] for path in watched.party.home.rglob("secrets.json")
    ]
    assert len(secrets) >= 2
    for body in [*watched.events, *watched.fetched]:
        assert not any(secret in body for secret in secrets)


def test_everything_the_page_received_is_public(watched: Watched) -> None:
    received_only_public(watched)


def test_everything_the_hosts_own_page_received_is_public_though_the_host_holds_a_hand(
    tmp_path: Path,
) -> None:
    received_only_public(watch_a_game(tmp_path, "kariba", host_web=True))


def test_the_page_keeps_updating_across_a_host_hand_over(tmp_path: Path) -> None:
    before: list[int] = []

    def kill_the_host(party: Party, driver: WebDriver) -> None:
        # once the game is on: a host killed while the seats fill takes its table with it
        wait_for(lambda: "waiting for players" not in text_of(driver, "waiting"), 60, "the game starting")
        party.kill_host()
        before.append(updates(driver))

    seen = watch_a_game(tmp_path, "kiribati", during=kill_the_host)
    assert seen.updates >= before[0] + 3 and not seen.reloaded
    log = [json.loads(data) for data in seen.events]
    assert any("the host is gone" in line for shown in log for line in shown["moves"])


def test_the_page_reconnects_by_itself_when_its_watcher_comes_back(tmp_path: Path) -> None:
    with socket.socket() as probe:  # a port the watcher listens on again when it comes back
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    before: list[int] = []

    def restart_the_watcher(party: Party, driver: WebDriver) -> None:
        party.stop_watch()
        wait_for(lambda: "reconnecting" in text_of(driver, "link"), 15, "that it lost the stream")
        before.append(updates(driver))
        party.watch(port, resume=True)
        wait_for(lambda: text_of(driver, "link") == "live", 30, "the stream again")

    # the watcher comes back while the seats fill: a bot game is over in seconds, sooner than a restart
    seen = watch_a_game(tmp_path, "kariba", before=restart_the_watcher, web_port=port)
    assert seen.updates >= before[0] + 3 and not seen.reloaded and "game over" in seen.result
