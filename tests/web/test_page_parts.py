"""The big screen's parts without a browser: styled text as HTML, the announcement's ``web`` field and
the lobby's line for it, the page's HTTP answers, and ``atoll host --web`` serving its own table."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from atoll.errors import AtollError
from atoll.net.discovery import BadAnnouncement, FoundTable, parse_txt
from atoll.tui.lobby import big_screen_line
from atoll.web.server import PageServer, WebAddress
from atoll.web.styles import to_html
from atoll.web.view import TablePage
from atoll.wire import Kind
from tests.net.test_discovery import GOOD
from tests.table.harness import open_table


def test_styled_text_keeps_its_palette_colours_and_weights_and_escapes_the_text() -> None:
    drawn = to_html([("fg:ansired bold", "<red>"), ("", " & "), ("reverse", "x"), ("class:news", "y")])
    assert drawn == ('<span style="font-weight:bold;color:#d55e00">&lt;red&gt;</span> &amp; '
                     '<span style="color:#111418;background:#e8e8e8">x</span>y')


def test_a_colour_a_plugin_misspelt_is_dropped_not_drawn() -> None:
    assert to_html([("fg:#12345 bg:url(x)", "z")]) == "z"


def test_the_big_screen_travels_in_the_announcement_and_the_lobby_says_where_to_open_it() -> None:
    shown = dataclasses.replace(GOOD, web="8480")
    record = {k.encode(): v.encode() for k, v in shown.txt().items()}
    assert parse_txt(record, 280) == shown
    found = FoundTable("t", shown, ("10.0.0.2",), 47000)
    assert big_screen_line(found) == "on a big screen: http://10.0.0.2:8480/"
    here = dataclasses.replace(found, announcement=dataclasses.replace(GOOD, web="here"))
    assert big_screen_line(here) == "on a big screen at the host's machine"
    assert "web" not in GOOD.txt() and big_screen_line(dataclasses.replace(found, announcement=GOOD)) == ""


@pytest.mark.parametrize("bad", ["0", "99999x", "http://evil", "here!"])
def test_a_web_field_that_is_no_port_is_refused(bad: str) -> None:
    with pytest.raises(BadAnnouncement, match="web"):
        dataclasses.replace(GOOD, web=bad)


def test_the_page_address_is_loopback_unless_an_address_is_given() -> None:
    assert WebAddress.parse("8480") == WebAddress("127.0.0.1", 8480)
    assert WebAddress.parse("0.0.0.0:8480") == WebAddress("0.0.0.0", 8480)
    assert WebAddress.parse("8480").loopback and not WebAddress.parse("0.0.0.0:1").loopback
    with pytest.raises(AtollError, match="--web wants PORT or ADDR:PORT"):
        WebAddress.parse("eighty")


def test_the_page_only_reads_a_post_is_refused_and_an_unknown_path_is_not_found() -> None:
    async def ask() -> list[bytes]:
        server = PageServer()
        port = await server.start(WebAddress("127.0.0.1", 0))
        answers = []
        try:
            for request in (b"POST /state HTTP/1.1\r\n\r\n", b"GET /secrets HTTP/1.1\r\n\r\n",
                            b"GET /state HTTP/1.1\r\n\r\n"):
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
                writer.write(request)
                answers.append(await reader.read())
                writer.close()
        finally:
            await server.close()
        return answers

    post, unknown, state = asyncio.run(ask())
    assert post.startswith(b"HTTP/1.1 405") and unknown.startswith(b"HTTP/1.1 404")
    assert state.startswith(b"HTTP/1.1 200") and b"connecting to the table" in state


def test_a_host_with_web_shows_its_own_table_to_the_end(tmp_path: Path) -> None:
    env = dict(os.environ, ATOLL_HOME=str(tmp_path), HOME=str(tmp_path))
    command = [sys.executable, "-m", "atoll.cli.main", "host", "kariba", "--seats", "2", "--bots", "2",
               "--bot-kind", "random", "--headless", "--no-announce", "--bind", "127.0.0.1", "--web", "0"]
    with subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          start_new_session=True) as host:
        try:
            assert host.stdout is not None
            line = next(line for line in host.stdout if "the big screen" in line)
            url = line.split()[-1]
            shown: dict[str, object] = {}
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline and shown.get("result") is None:
                try:
                    shown = json.loads(urllib.request.urlopen(url + "state", timeout=5).read())
                except (urllib.error.URLError, ConnectionError):
                    break  # the host closed the page with the table
                time.sleep(0.05)
            assert "on this machine only" in line and url.startswith("http://127.0.0.1:")
            assert shown.get("result") is not None, shown
            assert sorted(seat["who"] for seat in shown["seats"]) == ["bot 1", "bot 2"]  # type: ignore[attr-defined]
        finally:
            os.killpg(host.pid, signal.SIGKILL)
            host.wait()


def test_the_page_shows_table_talk_relayed_to_a_spectator_and_who_is_away() -> None:
    net = open_table("kariba", 2, watchers=1)
    watcher = net.peers[2]
    page = TablePage(watcher.table, lambda: (1,))
    watcher.session.on_chat = page.hear
    net.run()
    net.send(0, net.peers[0].table.compose(Kind.CHAT, {"text": "good game <3"}))
    shown = page.snapshot()
    assert shown["talk"] == ["p0 (player 1): good game <3"]
    assert [seat["presence"] for seat in shown["seats"]] == ["here", "away"]
    assert [seat["who"] for seat in shown["seats"]] == ["p0", "p1"]
    assert shown["result"] is not None and shown["result"]["headline"].startswith("game over")
