"""The big screen for ``atoll watch`` and ``atoll host --web``: a page server beside the table's loop.

``atoll watch`` is a spectator like ``atoll join --spectate`` (:func:`~atoll.app.joining.join_table`,
which follows the table through host hand-overs) whose table is shown on the page instead of a
terminal. ``atoll host --web`` shows the host's own copy of its table; the page reads only what a
spectator may see either way (:class:`~atoll.web.view.TablePage`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from atoll.app.joining import JoinPlan, Shown, join_table, resume_join
from atoll.app.store import TableOver, read_place, resumable
from atoll.errors import AtollError
from atoll.net.envelope import Envelope
from atoll.net.identity import Profile, tables_dir
from atoll.registry import Registry
from atoll.table.host import Sequencer
from atoll.table.peer import PeerSession
from atoll.table.table import Table
from atoll.web.server import PageServer, WebAddress
from atoll.web.view import TablePage


def page_urls(address: WebAddress, port: int) -> list[str]:
    """The addresses the page is opened at: loopback's, or every LAN address's for a page on all."""
    if address.host not in ("0.0.0.0", "::"):
        host = f"[{address.host}]" if ":" in address.host else address.host
        return [f"http://{host}:{port}/"]
    import ifaddr  # zeroconf's own dependency

    lan = [str(ip.ip) for adapter in ifaddr.get_adapters() for ip in adapter.ips
           if isinstance(ip.ip, str) and not ip.ip.startswith("127.")]
    return [f"http://{ip}:{port}/" for ip in lan] or [f"http://127.0.0.1:{port}/"]


async def open_page(address: WebAddress) -> PageServer:
    """A page server listening at ``address``, its address printed for the person to open."""
    server = PageServer()
    port = await server.start(address)
    urls = page_urls(address, port)
    where = "on this machine only (--web ADDR:PORT for the LAN)" if address.loopback else "on the LAN"
    print(f"the big screen, {where}: {' or '.join(urls)}", flush=True)
    return server


async def watch_table(
    plan: JoinPlan, found: Registry, profile: Profile, address: WebAddress, *, linger: float | None
) -> int:
    """Watch the table ``plan`` reaches and show it on the page until the game is over; then keep the
    result on the page for ``linger`` seconds (``None``: until interrupted). The exit status."""
    return await _on_page(
        address, lambda shown: join_table(plan, found, profile, shown=shown), linger=linger, quiet=plan.quiet
    )


async def resume_watch(
    table_id: str | None,
    found: Registry,
    profile: Profile,
    address: WebAddress,
    *,
    linger: float | None,
    quiet: bool,
) -> int:
    """Watch again a table this machine watched (the latest unfinished one, or ``table_id``) after a
    crash or a quit: its log is read back and checked, the rest comes from the table, as
    ``atoll join --resume`` does for a spectator; the page shows it as :func:`watch_table` does."""
    try:
        files = resumable(tables_dir(profile.home), hosting=False, table_id=table_id)
    except TableOver as over:
        print(f"{over}: nothing to watch again; `atoll audit {over.log}` checks its log")
        return 0
    if read_place(files).get("role") != "watch":
        raise AtollError(
            f"this machine sat at table {files.folder.name} rather than watching it; "
            "take the seat again with: atoll join --resume"
        )
    return await _on_page(
        address,
        lambda shown: resume_join(files.folder.name, found, profile, quiet=quiet, shown=shown),
        linger=linger,
        quiet=quiet,
    )


async def _on_page(
    address: WebAddress, watch: Callable[[Shown], Awaitable[int]], *, linger: float | None, quiet: bool
) -> int:
    """Open the page, ``watch`` the table with each table it reaches shown there, keep the result on the
    page for ``linger`` seconds (``None``: until interrupted), close the page; the exit status."""
    server = await open_page(address)

    def shown(table: Table, session: PeerSession) -> None:
        # the copy the session holds now is read (``table`` is the one it started with): a copy that sets
        # entries aside is a new one
        page = TablePage(lambda: session.table, lambda: session.away)
        session.on_chat = page.hear
        server.show(page)

    try:
        status = await watch(shown)
        await server.refresh()  # the end itself, before anything waits
        if linger is None:
            if not quiet:
                print("the game is over; the page shows its result until Ctrl-C", flush=True)
            await asyncio.Event().wait()
        else:
            await asyncio.sleep(linger)
        return status
    finally:
        await server.close()


class Overheard:
    """The host's hearing (its table talk and who is away), told to the page as well as to whoever
    listens on the host's own screen: the screen sets :attr:`on_chat`, the host calls both."""

    def __init__(self, host: Sequencer, page: TablePage) -> None:
        self._host = host
        self.on_chat: Callable[[Envelope], None] | None = None
        page_hears = page.hear

        def both(message: Envelope) -> None:
            page_hears(message)
            if self.on_chat is not None:
                self.on_chat(message)

        host.on_chat = both

    @property
    def away(self) -> tuple[int, ...]:
        """The seats the host shows as away (the host's own, read and written through)."""
        return self._host.away

    @away.setter
    def away(self, seats: tuple[int, ...]) -> None:
        self._host.away = seats

    @property
    def left(self) -> tuple[int, ...]:
        """The seats the host shows as gone (they said goodbye before the game was over)."""
        return self._host.left

    @left.setter
    def left(self, seats: tuple[int, ...]) -> None:
        self._host.left = seats


async def host_page(host: Sequencer, address: WebAddress) -> tuple[PageServer, Overheard]:
    """The page of the table ``host`` serves, and the hearing to hand the host's screen."""
    server = await open_page(address)
    page = TablePage(host.table, lambda: host.away)
    server.show(page)
    return server, Overheard(host, page)


def screen_field(address: WebAddress, port: int) -> str:
    """What the table's announcement says of its big screen (the ``web`` TXT field): the page's port
    when the LAN can open it, ``"here"`` when only the host's machine can."""
    return "here" if address.loopback else str(port)
