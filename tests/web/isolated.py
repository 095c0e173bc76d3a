"""Browser tests in a network namespace of their own (``unshare --net``, loopback only, as root, which
CI has): a browser asks the kernel for routes to outside IPv6 addresses (Chromium now and then, Firefox's
link service at every start), and on a machine whose IPv6 router does not answer, the kernel then sends
a neighbour solicitation (multicast) on the real interface. In the namespace there is nothing to send on.

A file of browser tests runs whole in one namespace, from one outer test (:func:`run_in_own_netns`);
inside it (:func:`inside`) its tests run as usual. Without root they run where they are."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

#: Set in the namespace's own run of a file: its tests run there, on its loopback.
INSIDE = "ATOLL_TEST_OWN_NETNS"
ROOT = Path(__file__).parents[2]
#: How the outer test of a file ends its name (it is not run again inside).
OUTER = "in_a_network_namespace_of_its_own"


def inside() -> bool:
    """Whether this run is the namespace's own."""
    return bool(os.environ.get(INSIDE))


def can_isolate() -> bool:
    """Whether a network namespace of its own can be made here (root, ``unshare`` and ``ip``)."""
    return os.geteuid() == 0 and shutil.which("unshare") is not None and shutil.which("ip") is not None


def elsewhere() -> bool:
    """Whether a browser test here is run instead by its file's outer test, in a namespace."""
    return can_isolate() and not inside()


def run_in_own_netns(target: str, tmp_path: Path, timeout: float) -> str:
    """Run the pytest ``target`` (a file, or one test) in a fresh network namespace with only a loopback;
    fails, with what it printed, unless every test there passed (none failed, none skipped); what it
    printed."""
    command = ["unshare", "--net", "sh", "-c", 'ip link set lo up && exec "$0" "$@"', sys.executable, "-m",
               "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly", "-n", "0", "--basetemp",
               str(tmp_path / "inner"), "-k", f"not {OUTER}", target]
    done = subprocess.run(command, env=dict(os.environ, **{INSIDE: "1"}), capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT)
    said = done.stdout[-6000:] + done.stderr[-2000:]
    summary = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""
    assert done.returncode == 0 and re.search(r"\d+ passed", summary), said
    assert not re.search(r"failed|skipped|error", summary), said
    return done.stdout
