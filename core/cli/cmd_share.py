"""``atoll share``: give atoll and the games installed here to the laptops around you, no internet needed.

``atoll share --prepare`` (online, once) fills a folder with wheels for every platform and Python
atoll supports; ``atoll share`` (at the party) serves that folder on the LAN as a package index,
announces it over DNS-SD, and prints the line the others run. Whoever installs from it trusts this
laptop for the code they run (docs/decisions/0014-sharing-wheels.md).
"""

from __future__ import annotations

import argparse
import signal
import threading
from pathlib import Path
from types import FrameType

from atoll.cli.main import version
from atoll.errors import AtollError
from atoll.paths import data_root
from atoll.share.announce import ShareAnnouncer, index_url
from atoll.share.index import SIMPLE_PATH, PackageIndex
from atoll.share.prepare import Goal, prepare, shared_distributions
from atoll.share.server import IndexServer
from atoll.share.targets import PYTHONS, SYSTEMS, chosen_targets
from atoll.share.wheels import normalize

HELP = (
    "share atoll and its games with the laptops around you: prepare a folder of wheels while online "
    "(--prepare), then serve it on the LAN as a package index and print the line that installs it"
)
#: The port the index listens on unless told: a fixed one, so a firewall rule made once holds.
DEFAULT_PORT = 8473


def default_folder() -> Path:
    """Where the wheels are kept unless ``--folder`` says: ``wheels/`` in atoll's data folder."""
    return data_root() / "wheels"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``share`` options."""
    parser.add_argument(
        "--prepare",
        action="store_true",
        help="while online: put into the folder the wheels of atoll, its dependencies and the installed "
        "game plugins for Windows, macOS and Linux on Python " + ", ".join(PYTHONS),
    )
    parser.add_argument("--folder", type=Path, help="the folder of wheels (default: $ATOLL_HOME/wheels)")
    parser.add_argument(
        "--system", action="append", choices=SYSTEMS, help="with --prepare: only this system (repeatable)"
    )
    parser.add_argument(
        "--python", action="append", choices=PYTHONS, help="with --prepare: only this Python (repeatable)"
    )
    parser.add_argument(
        "--local",
        action="store_true",
        help="with --prepare: only for laptops like this one (system and Python)",
    )
    parser.add_argument(
        "--port", type=int, default=DEFAULT_PORT, help=f"the port to serve on (default: {DEFAULT_PORT})"
    )
    parser.add_argument(
        "--bind", default="0.0.0.0", metavar="ADDR", help="the address to serve on (default: every interface)"
    )
    parser.add_argument(
        "--no-announce", action="store_true", help="do not announce the index on the LAN (nothing multicasts)"
    )


def run(args: argparse.Namespace) -> int:
    """Prepare the folder, or serve it until Ctrl-C."""
    folder: Path = args.folder or default_folder()
    if args.prepare:
        return _prepare(folder, args)
    if args.system or args.python or args.local:
        raise AtollError("--system, --python and --local choose what --prepare downloads; add --prepare")
    return _serve(folder, args)


def _prepare(folder: Path, args: argparse.Namespace) -> int:
    if args.local:
        goals: list[Goal] = [(None, None)]
    else:
        pythons = args.python or list(PYTHONS)
        goals = [(target, python) for target in chosen_targets(args.system or SYSTEMS) for python in pythons]
    wheels = prepare(folder, goals, lambda line: print(line, flush=True))
    size = sum(wheel.stat().st_size for wheel in wheels)
    print(f"{len(wheels)} wheels ({size / 1e6:.1f} MB) in {folder}")
    print("at the party, run `atoll share` to serve them on the LAN")
    return 0


def _serve(folder: Path, args: argparse.Namespace) -> int:
    if not folder.is_dir():
        raise AtollError(
            f"no folder of wheels at {folder}: prepare it while online with `atoll share --prepare`"
        )
    index = PackageIndex.of_folder(folder)
    for problem in index.skipped:
        print(f"atoll share: warning: not served: {problem}", flush=True)
    if "atoll" not in index.projects:
        raise AtollError(
            f"{folder} holds no wheel of atoll: prepare it while online with `atoll share --prepare`"
        )
    addresses = [args.bind] if args.bind not in ("0.0.0.0", "::") else lan_addresses()
    if not addresses:
        raise AtollError(
            "no network interface besides loopback to serve on: connect to the LAN or use --bind"
        )
    try:
        server = IndexServer(index, host=args.bind, port=args.port, on_sent=_tell_sent)
    except OSError as exc:
        raise AtollError(
            f"cannot serve on {args.bind}:{args.port} ({exc.strerror}): choose another --port"
        ) from None
    with server:
        url = index_url(addresses[0], server.port, SIMPLE_PATH)
        names = [s.name for s in shared_distributions() if normalize(s.name) in index.projects]
        print(f"sharing {len(index.wheels)} wheels of {len(index.projects)} projects from {folder}")
        for line in install_lines(url, addresses[0], names):
            print(line)
        if len(addresses) > 1:
            print(
                f"(this laptop is also at {', '.join(addresses[1:])}: use the address the others can reach)"
            )
        if args.no_announce:
            _wait_for_stop()
        else:
            with ShareAnnouncer(
                port=server.port, path=SIMPLE_PATH, version=version(), interfaces=addresses
            ) as ann:
                print(f"announced on the LAN as {ann.instance!r}; Ctrl-C stops sharing", flush=True)
                _wait_for_stop()
    print("stopped sharing", flush=True)
    return 0


def install_lines(url: str, host: str, names: list[str]) -> list[str]:
    """What the others are told to run: one pip line, or one pipx line, that installs atoll and the
    shared game plugins from ``url`` (plain HTTP, so pip must be told to trust ``host``)."""
    plugins = [name for name in names if normalize(name) != "atoll"]
    preinstall = "".join(f" --preinstall {name}" for name in plugins)
    return [
        "the others install atoll from this laptop with",
        f"    pip install --index-url {url} --trusted-host {host} atoll{''.join(' ' + n for n in plugins)}",
        "or, with pipx,",
        f"    pipx install --index-url {url} --pip-args=--trusted-host={host}{preinstall} atoll",
    ]


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback."""
    import ifaddr  # zeroconf's own dependency

    ips = (ip.ip for adapter in ifaddr.get_adapters() for ip in adapter.ips)
    return [ip for ip in ips if isinstance(ip, str) and not ip.startswith("127.")]


def _tell_sent(client: str, filename: str) -> None:
    print(f"sent {filename} to {client}", flush=True)


def _wait_for_stop() -> None:
    """Return on Ctrl-C or SIGTERM, so the announcement is withdrawn and the port released."""
    stop = threading.Event()

    def on_signal(signum: int, frame: FrameType | None) -> None:
        stop.set()

    previous = {signum: signal.signal(signum, on_signal) for signum in (signal.SIGINT, signal.SIGTERM)}
    try:
        while not stop.wait(0.5):  # a timeout, so Ctrl-C is seen on Windows too
            pass
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
