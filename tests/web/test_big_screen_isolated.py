"""The Chromium big-screen tests (test_big_screen.py), run whole in a network namespace of their own
(:mod:`tests.web.isolated`): Chromium now and then asks the kernel for a route to an outside IPv6
address, which on this kind of machine sends a neighbour solicitation on the real interface."""

from __future__ import annotations

from pathlib import Path

import pytest
from atoll_tools.big_screen import INSTALL, chromium

from tests.web.isolated import elsewhere, run_in_own_netns

#: Seconds the whole file may take in the namespace (a dozen browser games, one after another).
FILE_S = 1500


@pytest.mark.timeout(FILE_S + 60)
def test_the_chromium_big_screen_tests_pass_in_a_network_namespace_of_its_own(tmp_path: Path) -> None:
    if chromium() is None:
        pytest.skip(f"no headless chromium on this machine; install it with: {INSTALL}")
    if not elsewhere():
        pytest.skip("test_big_screen.py runs as it is here")
    run_in_own_netns(str(Path(__file__).with_name("test_big_screen.py")), tmp_path, FILE_S)
