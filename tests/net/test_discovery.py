"""Finding tables on the LAN: what an announcement must hold, and DNS-SD between simulated machines.

The first half checks announcements without sockets. The second announces and browses between
hosts of the simulated LAN (``../shared/tools/lan``, network namespaces; needs root), never on
this machine's real interfaces.
"""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import json
import os
import queue
import re
import shlex
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import IO

import pytest
from zeroconf.asyncio import AsyncServiceInfo

from atoll.net.discovery import (
    MAX_TXT_BYTES,
    SERVICE_TYPE,
    Announcement,
    Announcer,
    BadAnnouncement,
    FoundTable,
    found_table,
    instance_name,
    main,
    parse_txt,
)
from atoll.net.identity import CurveKeyPair, Identity
from atoll.net.joinline import Address, Pin, parse_address, shell_key

GOOD = Announcement(
    table="t-7f3a9c",
    name="Ana's table",
    game="kariba",
    variant="experienced",
    taken=2,
    free=2,
    proto="1",
    fingerprint=Identity.generate().fingerprint,
    curve_key=CurveKeyPair.generate().public.decode(),
)


def txt(**changes: str | None) -> dict[bytes, bytes | None]:
    """GOOD's TXT record as zeroconf hands it over, with ``changes`` (None: key without value)."""
    fields: dict[str, str | None] = {**GOOD.txt(), **changes}
    return {k.encode(): None if v is None else v.encode() for k, v in fields.items()}


# --- what an announcement must hold --------------------------------------------------------------


def test_a_good_txt_record_reads_back_as_the_announcement() -> None:
    assert parse_txt(txt(), 250) == GOOD


def test_unknown_keys_are_ignored_so_later_versions_can_add_some() -> None:
    record = txt()
    record[b"spectators"] = b"yes"
    assert parse_txt(record, 260) == GOOD


def test_the_short_digest_of_the_games_build_travels_in_the_record() -> None:
    pinned = dataclasses.replace(GOOD, build="04dd7e73835802eb")
    assert pinned.txt()["build"] == "04dd7e73835802eb"
    assert parse_txt({k.encode(): v.encode() for k, v in pinned.txt().items()}, 270) == pinned


def test_a_record_without_a_build_reads_as_an_unnamed_build_as_earlier_hosts_announce_it() -> None:
    assert "build" not in GOOD.txt() and parse_txt(txt(), 250).build == ""


@pytest.mark.parametrize("key", ["table", "name", "game", "variant", "taken", "free", "proto", "fp", "curve"])
def test_a_record_missing_a_field_is_refused_naming_it(key: str) -> None:
    record = txt()
    del record[key.encode()]
    with pytest.raises(BadAnnouncement, match=repr(key)):
        parse_txt(record, 200)


def test_a_key_without_a_value_counts_as_missing() -> None:
    with pytest.raises(BadAnnouncement, match="'game'"):
        parse_txt(txt(game=None), 200)


@pytest.mark.parametrize(
    ("field", "value", "reason"),
    [
        ("taken", "-1", "taken seats"),
        ("taken", "1e3", "taken seats"),
        ("free", "many", "free seats"),
        ("free", "100", "free seats"),
        ("taken", "0", "1 to 64 seats"),
        ("taken", "40", "1 to 64 seats"),
        ("fp", "ABCD-EFGH-IJKL-MNOP", "fp"),
        ("fp", "abcd-efgh", "fp"),
        ("curve", "not-a-key", "curve"),
        ("curve", "#" * 40, "curve"),
        ("name", "x" * 33, "33 characters"),
        ("name", "evil\x1b[2J", "unprintable"),
        ("name", "", "empty"),
        ("table", "../../etc", "table"),
        ("game", "", "game"),
        ("game", "a game", "game"),
        ("proto", "1 2", "proto"),
        ("build", "not-hex!", "build"),
        ("build", "ABCDEF0123456789", "build"),
    ],
)
def test_a_record_with_a_bad_value_is_refused_saying_why(field: str, value: str, reason: str) -> None:
    changes = {field: value}
    if (field, value) == ("taken", "0"):
        changes["free"] = "0"
    if (field, value) == ("taken", "40"):
        changes["free"] = "40"
    with pytest.raises(BadAnnouncement, match=reason):
        parse_txt(txt(**changes), 200)


def test_a_value_that_is_not_utf8_is_refused() -> None:
    record = txt()
    record[b"name"] = b"\xff\xfe"
    with pytest.raises(BadAnnouncement, match="UTF-8"):
        parse_txt(record, 200)


def test_a_huge_txt_record_is_refused_before_it_is_read() -> None:
    with pytest.raises(BadAnnouncement, match=f"over the limit of {MAX_TXT_BYTES}"):
        parse_txt(txt(), MAX_TXT_BYTES + 1)


def test_an_empty_variant_is_allowed() -> None:
    assert parse_txt(txt(variant=""), 200).variant == ""


def test_a_host_cannot_announce_a_bad_announcement_either() -> None:
    with pytest.raises(BadAnnouncement, match="fp"):
        dataclasses.replace(GOOD, fingerprint="nope")


def test_an_instance_name_fits_one_dns_label_and_tells_tables_of_one_name_apart() -> None:
    long_name = dataclasses.replace(GOOD, name="Éloïse.🐢" * 4)
    assert len(instance_name(long_name).encode()) <= 63
    assert "." not in instance_name(long_name)
    other = dataclasses.replace(GOOD, table="t-0000aa")
    assert instance_name(GOOD) != instance_name(other)


def local_info(properties: bytes | dict[str, str], addresses: list[str]) -> AsyncServiceInfo:
    """A resolved service as zeroconf would hand it to the browser (made locally, no sockets)."""
    return AsyncServiceInfo(
        SERVICE_TYPE, f"x.{SERVICE_TYPE}", port=5555, properties=properties, parsed_addresses=addresses
    )


def test_a_resolved_service_gives_the_table_and_where_to_connect() -> None:
    table = found_table(f"x.{SERVICE_TYPE}", local_info(GOOD.txt(), ["10.0.0.5"]))
    assert table.announcement == GOOD
    assert table.address == "10.0.0.5:5555"
    assert table.pinned_address == f"10.0.0.5:5555#{shell_key(GOOD.curve_key)}"


def test_the_pinned_address_names_every_address_and_a_key_a_shell_leaves_alone() -> None:
    table = found_table(f"x.{SERVICE_TYPE}", local_info(GOOD.txt(), ["10.0.0.5", "192.168.1.20"]))
    line = f"atoll join --address {table.pinned_address}"
    assert shlex.split(line) == line.split()
    assert re.fullmatch(r"[a-z0-9 .,:#-]+", line)
    assert parse_address(table.pinned_address) == Address(
        ("10.0.0.5", "192.168.1.20"), 5555, Pin(curve=GOOD.curve_key.encode())
    )


def test_an_ipv6_address_is_bracketed() -> None:
    table = FoundTable(instance="x", announcement=GOOD, addresses=("fe80::1",), port=7)
    assert table.address == "[fe80::1]:7"


def test_a_resolved_service_with_a_huge_txt_record_is_refused() -> None:
    padding = b"".join(bytes([250]) + b"x" * 250 for _ in range(6))
    with pytest.raises(BadAnnouncement, match="over the limit"):
        found_table(f"x.{SERVICE_TYPE}", local_info(padding, ["10.0.0.5"]))


def test_a_resolved_service_without_an_address_is_refused() -> None:
    with pytest.raises(BadAnnouncement, match="no address"):
        found_table(f"x.{SERVICE_TYPE}", local_info(GOOD.txt(), []))


def test_an_announcer_needs_the_addresses_it_serves() -> None:
    with pytest.raises(ValueError, match="interface addresses"):
        Announcer(GOOD, port=5555, interfaces=[])


def test_the_command_line_refuses_to_announce_a_bad_table_before_opening_a_socket(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["announce", "--interface=10.0.0.1", "--port=5555", "--table=../x", "--name=A", "--game=kariba"]
    assert main(args) == 2
    assert "table '../x'" in capsys.readouterr().err


# --- on the simulated LAN ------------------------------------------------------------------------

LAN_TOOL = Path(__file__).resolve().parents[3] / "shared" / "tools" / "lan"
RAW_ANNOUNCE = Path(__file__).with_name("raw_announce.py")
WAIT = 30.0  # seconds before a missing line counts as a hang, not a timing target
_tags = itertools.count()


def lan_unavailable() -> str | None:
    if os.geteuid() != 0:
        return "the simulated LAN needs root"
    if not LAN_TOOL.exists():
        return f"no simulated LAN tool at {LAN_TOOL}"
    if shutil.which("ip") is None:
        return "iproute2 ('ip') is not installed"
    if subprocess.run(["ip", "netns", "list"], capture_output=True).returncode != 0:
        return "'ip netns' is not available here"
    return None


@contextlib.contextmanager
def simulated_lan(hosts: int, prefix: str) -> Iterator[str]:
    """A simulated LAN of ``hosts`` hosts, its tag made unique from ``prefix``; taken down on leaving,
    also on failure. Skips the test where the simulated LAN cannot run."""
    reason = lan_unavailable()
    if reason:
        pytest.skip(reason)
    tag = f"{prefix}{os.getpid() % 100000:x}{next(_tags)}"
    subprocess.run([str(LAN_TOOL), "up", str(hosts), tag], check=True, capture_output=True)
    try:
        yield tag
    finally:
        subprocess.run([str(LAN_TOOL), "down", tag], capture_output=True)


class Process:
    """A process on a simulated host whose output lines are read in the background."""

    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        self.popen = subprocess.Popen(
            argv, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        self.lines: dict[str, queue.Queue[str]] = {"out": queue.Queue(), "err": queue.Queue()}
        self.stderr: list[str] = []
        self.pumps = [
            threading.Thread(target=self._pump, args=(name, stream), daemon=True)
            for name, stream in (("out", self.popen.stdout), ("err", self.popen.stderr))
        ]
        for pump in self.pumps:
            pump.start()

    def _pump(self, name: str, stream: IO[str] | None) -> None:
        assert stream is not None
        for line in stream:
            if name == "err":
                self.stderr.append(line)
            self.lines[name].put(line.rstrip("\n"))

    def expect(self, wanted: str, *, stream: str = "out") -> str:
        """The next line on ``stream`` that contains ``wanted``; fails after WAIT seconds."""
        while True:
            try:
                line = self.lines[stream].get(timeout=WAIT)
            except queue.Empty:
                pytest.fail(f"no line with {wanted!r} within {WAIT}s; stderr: {''.join(self.stderr)}")
            if wanted in line:
                return line

    def event(self, kind: str) -> dict[str, object]:
        """The next JSON event of ``kind`` printed on stdout."""
        value = json.loads(self.expect(f'"event": "{kind}"'))
        assert isinstance(value, dict)
        return value

    def send(self, line: str) -> None:
        assert self.popen.stdin is not None
        self.popen.stdin.write(line + "\n")
        self.popen.stdin.flush()

    def finish(self) -> int:
        """Close stdin (the helpers' signal to withdraw and exit) and wait for the exit code."""
        if self.popen.stdin is not None and not self.popen.stdin.closed:
            self.popen.stdin.close()
        code = self.popen.wait(timeout=WAIT)
        for pump in self.pumps:
            pump.join(timeout=WAIT)
        return code

    def rest(self) -> list[str]:
        """The stdout lines not yet read (all of them, once the process has finished)."""
        lines = []
        while not self.lines["out"].empty():
            lines.append(self.lines["out"].get_nowait())
        return lines

    def kill(self) -> None:
        if self.popen.poll() is None:
            self.popen.kill()
            self.popen.wait()


class Lan:
    """Three simulated hosts with their own tag, and the processes started on them."""

    def __init__(self, tag: str) -> None:
        self.tag = tag
        self.env = {**os.environ, "LAN_TAG": tag}
        self.processes: list[Process] = []

    def addr(self, host: int) -> str:
        return subprocess.run(
            [str(LAN_TOOL), "addr", str(host)], env=self.env, check=True, capture_output=True, text=True
        ).stdout.strip()

    def run(self, host: int, *argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(LAN_TOOL), "exec", str(host), *argv],
            env=self.env,
            capture_output=True,
            text=True,
            timeout=WAIT,
        )

    def start(self, host: int, *argv: str) -> Process:
        process = Process([str(LAN_TOOL), "exec", str(host), *argv], self.env)
        self.processes.append(process)
        return process

    def discovery(self, host: int, *args: str) -> Process:
        return self.start(host, sys.executable, "-m", "atoll.net.discovery", *args)

    def announce(self, host: int, *extra: str) -> Process:
        """Announce GOOD from ``host``, and wait until it is registered."""
        process = self.discovery(
            host,
            "announce",
            f"--interface={self.addr(host)}",
            "--port=5555",
            f"--table={GOOD.table}",
            f"--name={GOOD.name}",
            f"--game={GOOD.game}",
            f"--variant={GOOD.variant}",
            f"--taken={GOOD.taken}",
            f"--free={GOOD.free}",
            f"--proto={GOOD.proto}",
            f"--fp={GOOD.fingerprint}",
            f"--curve={GOOD.curve_key}",
            *extra,
        )
        process.event("announced")
        return process

    def watch(self, host: int) -> Process:
        """A live browser on ``host``, once it is listening."""
        process = self.discovery(host, "browse", "--watch", f"--interface={self.addr(host)}")
        process.event("browsing")
        return process


@pytest.fixture
def lan() -> Iterator[Lan]:
    """A fresh simulated LAN of three hosts, taken down with every process on it, also on failure."""
    reason = lan_unavailable()
    if reason:
        pytest.skip(reason)
    tag = f"d{os.getpid() % 100000:x}{next(_tags)}"
    subprocess.run([str(LAN_TOOL), "up", "3", tag], check=True, capture_output=True)
    network = Lan(tag)
    try:
        yield network
    finally:
        for process in network.processes:
            process.kill()
        subprocess.run([str(LAN_TOOL), "down", tag], capture_output=True)


def found(event: dict[str, object]) -> Announcement:
    fields = {f.name: event[f.name] for f in dataclasses.fields(Announcement)}
    return Announcement(**fields)  # type: ignore[arg-type]


def test_a_browser_on_another_host_finds_the_table_with_every_field(lan: Lan) -> None:
    browser = lan.watch(2)
    lan.announce(1)
    event = browser.event("added")
    assert found(event) == GOOD
    assert (event["addresses"], event["port"]) == ([lan.addr(1)], 5555)


def test_a_change_of_seats_is_seen_by_the_browser(lan: Lan) -> None:
    browser = lan.watch(2)
    host = lan.announce(1)
    browser.event("added")
    host.send("seats 3 1")
    host.event("updated")
    event = browser.event("updated")
    assert (event["taken"], event["free"]) == (3, 1)
    assert found(event) == dataclasses.replace(GOOD, taken=3, free=1)


def test_the_table_disappears_when_the_announcer_closes(lan: Lan) -> None:
    browser = lan.watch(2)
    host = lan.announce(1)
    browser.event("added")
    assert host.finish() == 0
    assert browser.event("removed")["table"] == GOOD.table


def test_a_one_shot_browse_lists_the_tables_announced(lan: Lan) -> None:
    lan.announce(1)
    listing = lan.run(2, sys.executable, "-m", "atoll.net.discovery", "browse", "--timeout=3")
    assert listing.returncode == 0, listing.stderr
    [line] = listing.stdout.splitlines()
    assert found(json.loads(line)) == GOOD


def test_a_browser_waits_for_a_table_named_before_it_appears(lan: Lan) -> None:
    seeker = lan.discovery(2, "browse", f"--find={GOOD.name}", f"--timeout={WAIT}")
    lan.announce(1)
    assert found(seeker.event("found")) == GOOD
    assert seeker.finish() == 0


def test_a_malformed_announcement_is_skipped_with_a_warning(lan: Lan) -> None:
    bad_key = [f"{k}={v}" for k, v in {**GOOD.txt(), "table": "t-bad", "curve": "not-a-key"}.items()]
    missing = [f"{k}={v}" for k, v in GOOD.txt().items() if k != "fp"]
    huge = [f"{k}={v}" for k, v in {**GOOD.txt(), "table": "t-huge"}.items()]
    huge += [f"pad{i}=" + "x" * 240 for i in range(6)]
    spec = [
        {"instance": "bad key", "txt": bad_key},
        {"instance": "no fingerprint", "txt": missing},
        {"instance": "huge", "txt": huge},
    ]
    browser = lan.watch(2)
    stranger = lan.start(3, sys.executable, str(RAW_ANNOUNCE), lan.addr(3), "5555", json.dumps(spec))
    stranger.expect("announced")
    lan.announce(1)
    assert found(browser.event("added")) == GOOD
    reasons = {
        "bad key": "curve: a CURVE key",
        "no fingerprint": "no value for 'fp'",
        "huge": "over the limit",
    }
    warnings: dict[str, str] = {}
    while len(warnings) < len(reasons):  # they come in any order
        warning = browser.expect("skipped the announcement", stream="err")
        instance = warning.split("'")[1].removesuffix(f".{SERVICE_TYPE}")
        warnings[instance] = warning
    assert all(reasons[instance] in warning for instance, warning in warnings.items()), warnings
    assert browser.finish() == 0
    assert not [line for line in browser.rest() if '"event"' in line], "only the good table was listed"


def test_a_unicast_dns_sd_query_from_another_tool_sees_the_table(lan: Lan) -> None:
    if shutil.which("dig") is None:
        pytest.skip("dig is not installed (apt-get install dnsutils)")
    lan.announce(1)
    answer = lan.run(
        2, "dig", "+time=3", "+tries=2", "-p", "5353", f"@{lan.addr(1)}", "_atoll._tcp.local", "PTR"
    )
    assert answer.returncode == 0, answer.stderr
    assert "status: NOERROR" in answer.stdout
    assert re.search(rf"^_atoll\._tcp\.local\.\s+\d+\s+IN\s+PTR\s+.*{GOOD.table}", answer.stdout, re.M)
    assert f'"fp={GOOD.fingerprint}"' in answer.stdout
    assert re.search(rf"\sA\s+{re.escape(lan.addr(1))}$", answer.stdout, re.M)
