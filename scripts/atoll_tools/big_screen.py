"""A table of bots on loopback watched by ``atoll watch --web`` and opened in headless Debian chromium:
what the big screen's browser tests (tests/web/) and its screenshots (scripts/big-screens) share.

Every process is started in a session of its own and stopped with its group when the party closes,
also on failure; the browser runs with a temporary profile and no network of its own.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from selenium.webdriver.remote.webdriver import WebDriver

T = TypeVar("T")

#: What installs the browser the tests drive (Debian's packages: no browser download).
INSTALL = "apt-get install -y chromium chromium-driver"
#: How headless chromium is started: no sandbox (root in CI), no GPU, nothing fetched behind our back,
#: and no media router (under Selenium it looks for cast devices: a multicast packet on the machine's
#: real interfaces each start, which nothing here may send).
FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
    "--window-size=1920,1080", "--hide-scrollbars",
    "--disable-features=MediaRouter,DialMediaRouteProvider,CastMediaRouteProvider",
)
#: A variant that keeps random games short where a game has one (as tests/table/test_loopback.py).
SHORT = {"kiribati": "professional"}


def chromium() -> tuple[str, str] | None:
    """Debian's chromium and its chromedriver, or ``None`` when either is missing."""
    browser, driver = shutil.which("chromium"), shutil.which("chromedriver")
    return (browser, driver) if browser and driver else None


def open_browser(profile: Path) -> WebDriver:
    """Headless chromium at 1920x1080 through Selenium, logging every network event (the secrecy
    test reads what the page received from there). ``profile``: an empty folder for its user data."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    found = chromium()
    if found is None:
        raise RuntimeError(f"no chromium here; install it with: {INSTALL}")
    options = webdriver.ChromeOptions()
    options.binary_location = found[0]
    for flag in (*FLAGS, f"--user-data-dir={profile}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    service = Service(found[1], log_output=subprocess.DEVNULL)  # a path given: Selenium downloads nothing
    driver = webdriver.Chrome(options=options, service=service)
    # the page itself at 1920x1080, as a projector shows it (a window's size counts its frame too)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 1920, "height": 1080, "deviceScaleFactor": 1, "mobile": False})
    return driver


class Party:
    """A loopback table of ``seats`` bot peers playing ``game``, opened with all but one seat taken so
    the watcher and the browser are there before the game starts; :meth:`fill` seats the last bot.

    Use as a context manager: every process it started is stopped (its whole group) on leaving.
    """

    def __init__(
        self, home: Path, game: str, seats: int, *, host_timeout: int | None = None, host_web: bool = False
    ) -> None:
        self.home = home
        self.game = game
        self.seats = seats
        self.host_timeout = host_timeout
        self.host_web = host_web
        """Whether the host shows its own table (``atoll host --web``, a bot at its own seat) instead
        of a spectator (``atoll watch``)."""
        self.processes: list[subprocess.Popen[str]] = []
        self.outputs: dict[int, Output] = {}
        self.names: dict[int, str] = {}
        self.address = ""
        self.url = ""
        self.host_process: subprocess.Popen[str] | None = None
        self.watcher: subprocess.Popen[str] | None = None

    def __enter__(self) -> Party:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def _start(self, name: str, *args: str) -> subprocess.Popen[str]:
        env = dict(os.environ, ATOLL_HOME=str(self.home / name), HOME=str(self.home / name))
        process = subprocess.Popen(
            [sys.executable, "-m", "atoll.cli.main", *args], env=env, stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True,
        )
        self.processes.append(process)
        self.outputs[process.pid] = Output(process)
        self.names[process.pid] = name
        return process

    def open(self) -> str:
        """Host the table (headless, its bots but one) and return its ``HOST:PORT#KEY``."""
        variant = ["--variant", SHORT[self.game]] if self.game in SHORT else []
        timeout = ["--host-timeout", str(self.host_timeout)] if self.host_timeout else []
        own = ["--bot", "random", "--web", "127.0.0.1:0"] if self.host_web else ["--headless"]
        bots = self.seats - 1 - (1 if self.host_web else 0)
        self.host_process = self._start(
            "host", "host", self.game, "--seats", str(self.seats), "--bots", str(bots),
            "--bot-kind", "random", "--no-announce", "--bind", "127.0.0.1", "--quiet",
            *own, *variant, *timeout,
        )
        line = self.read_until(self.host_process, r"^atoll join --address (\S+)", 60)  # its own line
        self.address = line
        return line

    def watch(self, port: int = 0, *, resume: bool = False) -> str:
        """Start ``atoll watch --web`` on a loopback ``port`` (0: a free one; ``resume``: watch the table
        again after the watcher was stopped) or, for a host that shows its own table, find its page;
        the page's URL."""
        if self.host_web:
            assert self.host_process is not None
            self.url = self.read_until(self.host_process, r"(http://127\.0\.0\.1:\d+/)", 60)
            return self.url
        where = ["--resume"] if resume else ["--address", self.address]
        self.watcher = self._start("watch", "watch", *where, "--web", f"127.0.0.1:{port}", "--linger", "120",
                                   "--quiet", "--name", "big screen")
        self.url = self.read_until(self.watcher, r"(http://127\.0\.0\.1:\d+/)", 60)
        return self.url

    def stop_watch(self) -> None:
        """The watcher's machine dies: ``atoll watch`` and its page, at once."""
        assert self.watcher is not None
        _stop_group(self.watcher)

    def fill(self) -> None:
        """Seat the last bot: the game starts."""
        self._start("last-bot", "join", "--address", self.address, "--bot", "random", "--quiet",
                    "--name", f"bot {self.seats}")

    def kill_host(self) -> None:
        """The host machine dies: its process alone, at once (its bots play on and take over)."""
        assert self.host_process is not None
        os.kill(self.host_process.pid, signal.SIGKILL)

    def read_until(self, process: subprocess.Popen[str], pattern: str, timeout: float) -> str:
        """Wait until a line ``process`` printed matches ``pattern``; its first group. RuntimeError with
        what was printed when the process ends or ``timeout`` passes first."""
        output = self.outputs[process.pid]
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for line in list(output.lines):
                match = re.search(pattern, line)
                if match:
                    return match.group(1)
            if process.poll() is not None and not output.reading():
                break
            time.sleep(0.05)
        printed = "".join(output.lines)[-2000:]
        raise RuntimeError(f"no line matching {pattern!r} within {timeout:g} s; printed: {printed}")

    def story(self) -> str:
        """What happened, for a failure to explain itself: each process's exit status and the end of what
        it printed (the host's bots print into the host's output), and how long each copy of the log is
        (a copy that stopped growing tells who lost the table), with any refusals a copy kept."""
        parts = []
        for process in self.processes:
            status = "running" if process.poll() is None else f"exit status {process.returncode}"
            printed = "".join(self.outputs[process.pid].lines)[-1500:].strip() or "(nothing)"
            parts.append(f"-- {self.names[process.pid]} ({status}) printed:\n{printed}")
        for log in sorted(self.home.rglob("log.jsonl")):
            with log.open("rb") as lines:
                entries = sum(1 for _ in lines)
            parts.append(f"-- {log.relative_to(self.home)}: {entries} entries")
            refusals = log.with_name("refusals.log")
            if refusals.exists():
                parts.append(refusals.read_text(errors="replace")[-1500:].strip())
        return "\n".join(parts)

    def close(self) -> None:
        """Stop every process started, with its group (the host's bots too)."""
        with ExitStack() as stack:
            for process in self.processes:
                stack.callback(_stop_group, process)


def _stop_group(process: subprocess.Popen[str]) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait()


class Output:
    """What a process printed, read line by line on a thread of its own (so a pipe never fills)."""

    def __init__(self, process: subprocess.Popen[str]) -> None:
        self.lines: list[str] = []
        self._thread = threading.Thread(target=self._read, args=(process,), daemon=True)
        self._thread.start()

    def reading(self) -> bool:
        """Whether the process's output may still bring lines."""
        return self._thread.is_alive()

    def _read(self, process: subprocess.Popen[str]) -> None:
        assert process.stdout is not None
        with process.stdout:
            for line in process.stdout:
                self.lines.append(line)


def wait_for(condition: Callable[[], T], timeout: float, what: str, *, every: float = 0.05) -> T:
    """The first true value of ``condition``, asked every ``every`` seconds; AssertionError saying
    ``what`` was not seen when ``timeout`` passes first."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(every)
    raise AssertionError(f"{what} not seen within {timeout:g} s")
