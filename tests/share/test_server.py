"""The package index over HTTP on loopback: what pip asks for, it gets, checked against the hashes;
nothing else leaves the folder."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from atoll.share.index import PackageIndex
from atoll.share.server import IndexServer
from tests.share.wheelfiles import make_wheel

#: The index's URL, its folder, and the (client, wheel) pairs it has sent.
Served = tuple[str, Path, list[tuple[str, str]]]


def pip_env(tmp_path: Path) -> dict[str, str]:
    """An environment in which pip reads no configuration and so knows no index but the one given."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("PIP_")}
    return dict(env, PIP_CONFIG_FILE=os.devnull, HOME=str(tmp_path), PIP_NO_CACHE_DIR="1")


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    folder = tmp_path / "wheels"
    folder.mkdir()
    make_wheel(folder, "atoll_demo-1.0-py3-none-any.whl", requires_python=">=3.8")
    (folder / "atoll_demo-1.0.tar.gz").write_bytes(b"an sdist, never served")
    sent: list[tuple[str, str]] = []
    with IndexServer(
        PackageIndex.of_folder(folder), host="127.0.0.1", port=0, on_sent=lambda c, f: sent.append((c, f))
    ) as server:
        yield f"http://127.0.0.1:{server.port}", folder, sent


def test_pip_downloads_a_wheel_from_the_index_and_checks_its_hash(served: Served, tmp_path: Path) -> None:
    url, folder, sent = served
    done = subprocess.run(
        [sys.executable, "-m", "pip", "download", "--no-deps", "--index-url", f"{url}/simple/",
         "--dest", str(tmp_path / "got"), "atoll-demo"],
        env=pip_env(tmp_path), capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    got = tmp_path / "got" / "atoll_demo-1.0-py3-none-any.whl"
    assert got.read_bytes() == (folder / got.name).read_bytes()
    assert sent == [("127.0.0.1", got.name)]


def test_a_wheel_served_is_the_file_with_the_hash_of_its_link(served: Served) -> None:
    url, folder, _ = served
    page = urllib.request.urlopen(f"{url}/simple/atoll-demo/").read().decode()
    href = page.split('href="')[1].split('"')[0]
    path, digest = href.split("#sha256=")
    body = urllib.request.urlopen(url + path).read()
    assert hashlib.sha256(body).hexdigest() == digest
    assert body == (folder / "atoll_demo-1.0-py3-none-any.whl").read_bytes()


@pytest.mark.parametrize("path", ["/files/atoll_demo-1.0.tar.gz", "/files/../wheels/atoll_demo-1.0.tar.gz"])
def test_a_request_for_anything_but_a_listed_wheel_gets_404(served: Served, path: str) -> None:
    url, _, sent = served
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(url + path)
    assert refused.value.code == 404
    assert sent == []


def test_a_wheel_removed_after_the_index_was_made_gets_404(served: Served) -> None:
    url, folder, sent = served
    (folder / "atoll_demo-1.0-py3-none-any.whl").unlink()
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(f"{url}/files/atoll_demo-1.0-py3-none-any.whl")
    assert refused.value.code == 404
    assert sent == []
