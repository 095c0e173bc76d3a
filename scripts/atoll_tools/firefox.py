"""Headless Firefox driven over WebDriver BiDi, the remote protocol Firefox itself speaks: no geckodriver
and no browser download, only Debian's ``firefox-esr``. What the big screen's Firefox test (tests/web/)
uses to open the page as a person's Firefox does.

Firefox starts with a temporary profile and ``HOME``, and preferences that keep it off the network
except for the page it is sent to: no captive-portal or connectivity check, no remote settings, safe
browsing, updates, telemetry, DNS prefetch or WebRTC (each looked an outside name up, or could send on
the machine's interfaces, at a bare start).
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import queue
import re
import shutil
import signal
import subprocess
import threading
from pathlib import Path
from types import TracebackType
from typing import Any

#: What installs the Firefox the test drives (Debian's package).
INSTALL_FIREFOX = "apt-get install -y firefox-esr"
#: Seconds Firefox may take to start and say where its remote agent listens.
START_S = 60.0
#: Seconds one command may take to be answered.
COMMAND_S = 60.0
#: Preferences of the temporary profile: nothing fetched or announced behind the test's back.
PREFS: dict[str, bool | int | str] = {
    "network.captive-portal-service.enabled": False,
    "network.connectivity-service.enabled": False,
    "services.settings.server": "data:,#remote-settings-off/v1",  # honoured with MOZ_REMOTE_SETTINGS_DEVTOOLS
    "browser.safebrowsing.malware.enabled": False,
    "browser.safebrowsing.phishing.enabled": False,
    "browser.safebrowsing.downloads.enabled": False,
    "browser.safebrowsing.update.enabled": False,
    "app.update.disabledForTesting": True,
    "app.normandy.enabled": False,
    "datareporting.policy.dataSubmissionEnabled": False,
    "datareporting.healthreport.uploadEnabled": False,
    "toolkit.telemetry.enabled": False,
    "network.dns.disablePrefetch": True,
    "network.predictor.enabled": False,
    "network.prefetch-next": False,
    "network.http.speculative-parallel-limit": 0,
    "network.trr.mode": 5,  # no DNS over HTTPS
    "media.peerconnection.enabled": False,  # no WebRTC, so no mDNS candidates
    "extensions.update.enabled": False,
    "extensions.getAddons.cache.enabled": False,
    "browser.newtabpage.enabled": False,
    "browser.startup.homepage_override.mstone": "ignore",
    "browser.shell.checkDefaultBrowser": False,
    "browser.aboutwelcome.enabled": False,
}


def firefox() -> str | None:
    """Debian's Firefox (``firefox-esr``, or a ``firefox``), or ``None`` when there is none."""
    return shutil.which("firefox-esr") or shutil.which("firefox")


class BrowserError(RuntimeError):
    """Firefox did not start, or refused or failed a command: what it said."""


class Firefox:
    """One headless Firefox with one tab, at 1920x1080, driven over WebDriver BiDi.

    Use as a context manager: Firefox (its whole process group) is stopped on leaving.

    :param folder: an empty folder for its profile and ``HOME``.
    """

    def __init__(self, folder: Path) -> None:
        import websocket  # websocket-client, Selenium's own dependency (the dev extra)

        program = firefox()
        if program is None:
            raise BrowserError(f"no Firefox here; install it with: {INSTALL_FIREFOX}")
        profile, home = folder / "profile", folder / "home"
        profile.mkdir(parents=True)
        home.mkdir()
        (profile / "user.js").write_text(
            "".join(f"user_pref({json.dumps(name)}, {json.dumps(value)});\n" for name, value in PREFS.items())
        )
        env = dict(os.environ, HOME=str(home), MOZ_REMOTE_SETTINGS_DEVTOOLS="1")
        self._process = subprocess.Popen(
            [program, "--headless", "--no-remote", "--profile", str(profile), "--remote-debugging-port", "0",
             "about:blank"],
            env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
            start_new_session=True,
        )
        self._said: list[str] = []
        self._socket: Any = None
        self._numbers = itertools.count(1)
        try:
            address = self._listening()
            self._socket = websocket.create_connection(
                f"{address}/session", timeout=COMMAND_S, suppress_origin=True  # Firefox refuses an Origin
            )
            self.command("session.new", {"capabilities": {}})
            tree = self.command("browsingContext.getTree", {})
            self.context: str = tree["contexts"][0]["context"]
            self.command("browsingContext.setViewport",
                         {"context": self.context, "viewport": {"width": 1920, "height": 1080}})
        except BaseException:
            self.close()
            raise

    def __enter__(self) -> Firefox:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def _listening(self) -> str:
        """The remote agent's address, from what Firefox says as it starts."""
        lines: queue.Queue[str | None] = queue.Queue()

        def read() -> None:
            assert self._process.stderr is not None
            for line in self._process.stderr:
                self._said.append(line)
                lines.put(line)
            lines.put(None)

        threading.Thread(target=read, daemon=True).start()
        while True:
            try:
                line = lines.get(timeout=START_S)
            except queue.Empty:
                line = None
            if line is None:
                said = "".join(self._said)[-1500:]
                raise BrowserError(
                    f"Firefox did not start its remote agent within {START_S:g} s; it said: {said}"
                )
            found = re.search(r"WebDriver BiDi listening on (ws://\S+)", line)
            if found:
                return found.group(1)

    def command(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        """Send one command and return its result (events that come meanwhile are not kept)."""
        number = next(self._numbers)
        self._socket.send(json.dumps({"id": number, "method": method, "params": params}))
        while True:
            answer = json.loads(self._socket.recv())
            if answer.get("id") != number:
                continue
            if answer.get("type") == "error":
                raise BrowserError(f"{method}: {answer.get('error')}: {answer.get('message')}")
            result: dict[str, Any] = answer["result"]
            return result

    def open(self, url: str) -> None:
        """Load ``url`` in the tab and wait until it has loaded."""
        self.command("browsingContext.navigate", {"context": self.context, "url": url, "wait": "complete"})

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript ``expression`` in the page (a string, number, boolean or ``None``)."""
        asked = {"expression": expression, "target": {"context": self.context}, "awaitPromise": False}
        result = self.command("script.evaluate", asked)
        if result.get("type") == "exception":
            raise BrowserError(f"{expression!r} failed in the page: {result['exceptionDetails'].get('text')}")
        value = result["result"]
        return value.get("value")

    def close(self) -> None:
        """End the session and stop Firefox with its process group; closing again does nothing."""
        if self._socket is not None:
            with contextlib.suppress(Exception):
                self._socket.close()
            self._socket = None
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self._process.pid, signal.SIGKILL)
        self._process.wait()
