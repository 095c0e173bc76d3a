"""Shared fixtures: the test games and a match factory."""

from __future__ import annotations

import importlib.util
import os
import signal
import sys
from pathlib import Path

import pytest

from atoll.engine import LocalResolver, Match
from atoll.game import Game
from tests.games.highcard import HighCard

ROOT = Path(__file__).resolve().parent.parent

#: scripts/, where the developer tools outside the wheel live (``atoll_tools``: benchmarks, soak).
TOOLS = ROOT / "scripts"
if str(TOOLS) not in sys.path:
    sys.path.insert(0, str(TOOLS))


def unlinked_modules() -> list[str]:
    """Source files of atoll that its strict editable install has no link to yet (added since it was
    installed), as paths from the repository root; none when atoll is installed any other way."""
    spec = importlib.util.find_spec("atoll")
    if spec is None or spec.origin is None:
        return []
    package = Path(spec.origin).parent
    if package.resolve() == (ROOT / "core").resolve() or not (ROOT / "core").is_dir():
        return []  # the source folder itself, or an install from elsewhere: nothing to be linked
    places = {"core": package, "net": package / "net", "plugins": package / "plugins"}
    return [
        path.relative_to(ROOT).as_posix()
        for folder, linked in places.items()
        for path in sorted((ROOT / folder).rglob("*.py"))
        if "__pycache__" not in path.parts and not (linked / path.relative_to(ROOT / folder)).exists()
    ]


#: Test workers a core under ``-n auto`` (scripts/test). Much of a network or terminal test's time is
#: waiting (for processes to start, peers to answer, turn times and host timeouts to run out), and a
#: core left idle meanwhile is wasted: a second worker a core runs another test then. Measured on the
#: 2-core machine at load 6-8, the whole suite: 1,182 s with one worker a core, 1,040 s with two (whose
#: tests took 1,311 s of CPU, children included, in 4,026 s of their time); at commit 2dace4c with
#: nothing else running, 781 s with one worker a core and 614 s with two.
WORKERS_PER_CORE = 2


@pytest.hookimpl(optionalhook=True)  # the suite also runs where pytest-xdist is not installed (the sdist's)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """How many workers ``-n auto`` starts: :data:`WORKERS_PER_CORE` a core, unless
    ``PYTEST_XDIST_AUTO_NUM_WORKERS`` says (pytest-xdist's own setting, left to it)."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    return WORKERS_PER_CORE * (os.cpu_count() or 1)


def pytest_configure(config: pytest.Config) -> None:
    """Stop before collecting when a module was added since atoll was installed: it would not import
    (docs/decisions/0003-typed-installs.md), and the error would not say why. Ctrl-C reaches the
    processes the tests start, however the suite itself was started (:func:`ctrl_c_reaches_children`)."""
    ctrl_c_reaches_children()
    missing = unlinked_modules()
    if missing:
        pytest.exit(
            f"atoll's editable install has no link to {', '.join(missing[:3])}"
            f"{' ...' if len(missing) > 3 else ''} (added since it was installed): run scripts/typecheck, "
            "which links them, then the tests again",
            returncode=4,
        )


def ctrl_c_reaches_children() -> None:
    """Undo an ignored SIGINT in this process, which every process a test starts would inherit.

    A shell without job control starts a command run in the background (``pytest ... &`` in a script)
    with SIGINT ignored, and Python then installs no Ctrl-C handler in its children: the tests that
    press Ctrl-C in an ``atoll`` process (a seat leaving mid-game) would find it playing on."""
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(autouse=True)
def private_atoll_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test writes under a temporary ATOLL_HOME, also the code it runs in this process (a fault
    recorded in-process goes to ``faults.log`` in the data folder, read at each fault): nothing lands
    in the real data folder. A test that wants a home of its own sets ATOLL_HOME again."""
    home = tmp_path_factory.getbasetemp() / "atoll-home"
    monkeypatch.setenv("ATOLL_HOME", str(home))
    return home


@pytest.fixture
def highcard() -> Game:
    """The high-card test game."""
    return HighCard()


@pytest.fixture
def highcard_match(highcard: Game) -> Match:
    """A fresh three-seat high-card match on a seeded local resolver."""
    return Match(highcard, highcard.configure(3), LocalResolver(11))
