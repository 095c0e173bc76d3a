"""The Debian packages the test suite needs beside Python's: headless chromium and its chromedriver, and
firefox-esr, for the big screen's browser tests (tests/web/). ``scripts/test`` installs them with apt-get
when they are missing and it runs as root on Debian (as CI does); anywhere else it says how, and those
tests skip.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

#: Debian package -> the program it brings.
PACKAGES = {"chromium": "chromium", "chromium-driver": "chromedriver", "firefox-esr": "firefox-esr"}


def missing() -> list[str]:
    """The packages whose program is not on the PATH."""
    return [package for package, program in PACKAGES.items() if shutil.which(program) is None]


def ensure_system_packages() -> None:
    """Install the missing packages with apt-get when this is Debian and we are root; otherwise say
    which command would, once (the browser tests skip without them)."""
    wanted = missing()
    if not wanted:
        return
    command = ["apt-get", "install", "-y", "--no-install-recommends", *wanted]
    root = hasattr(os, "geteuid") and os.geteuid() == 0
    if not (Path("/etc/debian_version").exists() and shutil.which("apt-get")):
        print(f"scripts/test: the browser tests skip here: they need {' and '.join(wanted)} "
              "(Debian's packages; elsewhere, install a headless chromium, its chromedriver and Firefox)",
              file=sys.stderr, flush=True)
        return
    if not root:
        print(f"scripts/test: the browser tests skip: install their browser with: sudo {' '.join(command)}",
              file=sys.stderr, flush=True)
        return
    print(f"== apt-get install {' '.join(wanted)} (for the browser tests)", file=sys.stderr, flush=True)
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    if subprocess.run(command, env=env).returncode != 0:
        # the package lists may be missing or stale on a fresh machine: read them once, then try again
        subprocess.run(["apt-get", "update"], env=env)
        if subprocess.run(command, env=env).returncode != 0:
            print(f"scripts/test: apt-get could not install {' '.join(wanted)}; the browser tests skip",
                  file=sys.stderr, flush=True)


if __name__ == "__main__":
    ensure_system_packages()
