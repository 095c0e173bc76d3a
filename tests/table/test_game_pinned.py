"""The game is pinned in the signed ``open`` entry (decision 0017): a peer whose installed build of the
game differs is told at the door, before it sits, and nobody is blamed; the audit says when the
install it runs under differs. In memory (tests/table/harness.py), no sockets, except the handshake."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
from pathlib import Path

import pytest
from nacl.signing import SigningKey

from atoll.app.peer_loop import handshake
from atoll.app.serve import run_host
from atoll.app.tables import check_installed
from atoll.net.encoding import fingerprint
from atoll.net.envelope import seal
from atoll.net.transport import HostSocket, PeerSocket, curve_keys
from atoll.pin import GameDiffers, GamePin, atoll_version, code_digest, differs
from atoll.registry import Registry
from atoll.table.audit import audit_command, audit_log
from atoll.table.frames import frame, read_frame
from atoll.table.host import Sequencer
from atoll.table.peer import PeerSession, TableFailed
from atoll.table.table import Table
from atoll.wire import PROTOCOL
from tests.table.harness import REGISTRY, Net, open_table

KARIBA = REGISTRY.pin("kariba")
#: The same version of the same distribution, with one byte of its code changed.
EDITED = dataclasses.replace(KARIBA, digest=("0" if KARIBA.digest[0] != "0" else "1") + KARIBA.digest[1:])


def _blamed(net: Net) -> list[str]:
    return [e.text for p in [*net.peers] for e in p.table.events if e.blame is not None] + [
        e.text for e in net.host.table.events if e.blame is not None
    ]


def _sat(net: Net) -> list[str]:
    return [e.message.author for e in net.host.table.log.entries if e.message.kind == "sit"]


# -- the open entry --------------------------------------------------------------------------------


def test_the_open_entry_pins_the_plugins_distribution_version_code_digest_and_atolls_version() -> None:
    net = open_table("kariba", 2)
    body = net.host.table.log.entries[0].message.body
    assert body["pin"] == {"dist": "atoll", "version": atoll_version(), "digest": KARIBA.digest,
                           "atoll": atoll_version()}
    net.run()
    assert all(p.table.pinned == ("kariba", KARIBA) for p in net.peers)


def test_an_open_entry_without_a_pin_opens_no_table_and_blames_nobody() -> None:
    key = SigningKey(os.urandom(32))
    table = Table("kariba-unpinned", key.verify_key.encode(), key, REGISTRY.game)
    body = {"game": "kariba", "variant": "standard", "seats": 2, "name": "t", "options": {}}
    Sequencer(table, key).local(table.compose("open", body))
    assert table.lobby is None and table.ended is not None
    assert "cannot be played here: a game pin has the fields dist, version, digest and atoll" in table.ended
    assert all(e.blame is None for e in table.events)


# -- the door --------------------------------------------------------------------------------------


def test_a_peer_with_another_build_of_the_game_is_told_at_the_door_and_never_sits() -> None:
    net = open_table("kariba", 2)
    newcomer = net.peers[1]
    newcomer.session.installed = lambda game: EDITED
    with pytest.raises(GameDiffers) as told:
        net.send(1, newcomer.session.hello())
    line = str(told.value)
    assert "\n" not in line
    assert line == (
        f"this table plays kariba from atoll {atoll_version()} (code {KARIBA.digest[:12]}); this machine has "
        f"kariba from atoll {atoll_version()} (code {EDITED.digest[:12]}): the same version with other code "
        f"(one copy was changed), so install the host's copy of atoll {atoll_version()}"
    )
    assert newcomer.key.verify_key.encode().hex() not in _sat(net)
    assert not _blamed(net)


def test_the_host_names_the_pinned_game_in_its_first_welcome_so_a_peer_can_turn_back_before_writing() -> None:
    net = open_table("kariba", 2)
    peer = net.peers[0]
    first = read_frame(net.host.receive(peer.connection, peer.curve, peer.session.hello())[0][1])
    assert first["t"] == "welcome" and first["game"] == "kariba"
    assert GamePin.from_json(first["pin"]) == KARIBA
    later = peer.table.compose("sync", {"have": 0})
    again = read_frame(net.host.receive(peer.connection, peer.curve, later)[0][1])
    assert "pin" not in again  # a heartbeat carries no more than it did


def test_a_peer_that_does_not_have_the_game_is_told_what_to_install() -> None:
    net = open_table("kariba", 2)
    net.peers[0].session.installed = lambda game: None
    with pytest.raises(GameDiffers, match=(
        f"^this table plays kariba from atoll {atoll_version()} \\(code {KARIBA.digest[:12]}\\), which is "
        f"not installed here: install atoll {atoll_version()} \\(pip install 'atoll=={atoll_version()}'\\)$"
    )):
        net.send(0, net.peers[0].session.hello())


def test_a_seat_coming_back_under_another_build_is_stopped_before_it_plays_on() -> None:
    net = open_table("kariba", 2)
    net.run()
    peer = net.peers[0]
    back = Table(peer.table.id, net.host.key.verify_key.encode(), peer.key, REGISTRY.game)
    for entry in peer.table.log.entries[:6]:  # its log up to where it stopped, its seat in it
        back.receive(entry.to_json())
    assert back.my_seat == 0
    session = PeerSession(back, "sit", "p0", lambda game: EDITED)
    welcome = frame("welcome", host=net.host.key.verify_key.encode().hex(), table=back.id, proto=PROTOCOL,
                    length=len(net.host.table.log.entries), run=net.host.run)
    with pytest.raises(GameDiffers, match="the same version with other code"):
        session.on_frame(welcome)


def test_a_table_read_back_from_disk_under_another_build_is_refused_before_it_is_resumed() -> None:
    net = open_table("kariba", 2)
    net.run()
    back = Table(net.host.table.id, net.host.key.verify_key.encode(), net.host.key, REGISTRY.game)
    for entry in net.host.table.log.entries:
        back.receive(entry.to_json())
    check_installed(back, REGISTRY)  # the same build: nothing to say
    edited = Registry(REGISTRY.games, REGISTRY.bots)
    edited.installed_pin = lambda game: EDITED  # type: ignore[method-assign]
    with pytest.raises(GameDiffers, match="the same version with other code"):
        check_installed(back, edited)


def test_what_a_person_is_told_names_both_versions_and_the_distribution_to_install() -> None:
    theirs = GamePin("atoll-kariba", "0.2.0", "a" * 64, "0.1.0")
    mine = GamePin("atoll-kariba", "0.1.0", "b" * 64, "0.1.0")
    assert differs("kariba", theirs, theirs) is None
    assert differs("kariba", theirs, mine) == (
        "this table plays kariba from atoll-kariba 0.2.0 (code aaaaaaaaaaaa) on atoll 0.1.0; this machine "
        "has kariba from atoll-kariba 0.1.0 (code bbbbbbbbbbbb) on atoll 0.1.0: install atoll-kariba 0.2.0 "
        "(pip install 'atoll-kariba==0.2.0') with atoll 0.1.0"
    )


# -- the protocol version at the door (issue 24) ---------------------------------------------------


def test_the_host_welcomes_a_peer_of_an_older_version_with_its_own_and_the_peer_is_told_in_one_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    net = open_table("kariba", 2)
    older = net.peers[0]
    sync = seal(older.key, v="atoll-table/3", kind="sync", table="", n=0, seen={}, body={"have": -1})
    welcome = net.host.receive(older.connection, older.curve, sync)[0][1]
    assert read_frame(welcome)["proto"] == PROTOCOL  # not the peer's own version echoed back
    monkeypatch.setattr("atoll.table.peer.PROTOCOL", "atoll-table/3")  # this peer runs the older atoll
    with pytest.raises(TableFailed) as told:
        older.session.on_frame(welcome)
    assert str(told.value) == (
        f"this table speaks {PROTOCOL!r}, this atoll speaks 'atoll-table/3': install atoll {atoll_version()} "
        f"(pip install 'atoll=={atoll_version()}') to join it"
    )


def test_an_older_peer_is_refused_at_the_handshake_over_a_real_socket(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    host = open_table("kariba", 2).host
    for module in ("atoll.app.peer_loop", "atoll.table.peer"):  # the peer's atoll is the older one
        monkeypatch.setattr(f"{module}.PROTOCOL", "atoll-table/3")

    async def knock() -> str:
        socket = HostSocket(curve_keys(host.key), host.admit)
        key = SigningKey(os.urandom(32))
        peer = PeerSocket(key, curve_keys(host.key)[0])
        serving: asyncio.Future[None] | None = None
        try:
            port = socket.bind("127.0.0.1", None)
            serving = asyncio.ensure_future(run_host(host, socket))
            peer.connect("127.0.0.1", port)
            with pytest.raises(TableFailed) as told:
                await handshake(peer, key, timeout=10)
            return str(told.value)
        finally:
            if serving is not None:
                serving.cancel()
            peer.close()
            socket.close()

    line = asyncio.run(knock())
    assert line == (
        f"this table speaks {PROTOCOL!r}, this atoll speaks 'atoll-table/3': install atoll {atoll_version()} "
        f"(pip install 'atoll=={atoll_version()}') to join it"
    )


def test_a_table_opened_in_an_earlier_version_is_refused_at_its_open_entry(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with monkeypatch.context() as older:  # a host of version 3, which echoed a peer's own version back
        older.setattr("atoll.table.table.PROTOCOL", "atoll-table/3")
        net = open_table("kariba", 2)
    told = f"^this table speaks 'atoll-table/3', this atoll speaks {PROTOCOL!r}: install the host's atoll"
    with pytest.raises(TableFailed, match=told):
        net.send(0, net.peers[0].session.hello())
    assert not _sat(net)


# -- the audit -------------------------------------------------------------------------------------


def _finished_log(tmp_path: Path) -> Path:
    net = open_table("kariba", 2)
    net.run()
    log = tmp_path / "log.jsonl"
    log.write_bytes(b"".join(e.to_bytes() + b"\n" for e in net.host.table.log.entries))
    return log


def test_the_audit_reports_the_pinned_build(tmp_path: Path) -> None:
    report = audit_log(_finished_log(tmp_path), REGISTRY.game, fingerprint, REGISTRY.installed_pin)
    assert report.clean and report.pinned == KARIBA and report.differs is None


def test_an_audit_under_another_build_says_so_and_which_verdict_is_unreliable_naming_nobody(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = _finished_log(tmp_path)
    status = audit_command(log, REGISTRY.game, fingerprint, {}, as_json=False, installed=lambda game: EDITED)
    assert status == 2
    err = capsys.readouterr().err
    assert f"  game build: atoll {atoll_version()} (code {KARIBA.digest[:12]})" in err
    assert f"  installed here: atoll {atoll_version()} (code {EDITED.digest[:12]})" in err
    assert "the game installed here differs from the table's" in err
    assert "Under this install every entry checks, with results" in err
    assert "a verdict by other rules than the table's, so it is unreliable and blames nobody" in err
    status = audit_command(log, REGISTRY.game, fingerprint, {}, as_json=True, installed=lambda game: EDITED)
    answer = json.loads(capsys.readouterr().out)
    assert status == 2 and answer["outcome"] == "game differs" and answer["seat"] is None
    assert answer["pin"] == KARIBA.to_json() and answer["installed_pin"] == EDITED.to_json()


# -- the digest of a plugin's code -----------------------------------------------------------------


def test_the_code_digest_covers_paths_and_contents_and_leaves_caches_and_hidden_files_out(
    tmp_path: Path,
) -> None:
    package = tmp_path / "plugin"
    (package / "data").mkdir(parents=True)
    (package / "__init__.py").write_text("X = 1\n")
    (package / "data" / "board.txt").write_text("~~~\n")
    first = code_digest((str(package),))
    (package / "__pycache__").mkdir()
    (package / "__pycache__" / "x.cpython-311.pyc").write_bytes(b"\x00")
    (package / ".rules.py.swp").write_bytes(b"\x00")
    assert code_digest.__wrapped__((str(package),)) == first
    (package / "data" / "board.txt").write_text("~~+\n")  # one data byte
    assert code_digest.__wrapped__((str(package),)) != first
    (package / "data" / "board.txt").write_text("~~~\n")
    (package / "data" / "board.txt").rename(package / "data" / "boards.txt")  # only a name
    assert code_digest.__wrapped__((str(package),)) != first
