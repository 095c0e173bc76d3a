"""The process's budget of open file descriptors: raised where the OS allows, and shared out.

Every TCP connection a host's port accepts holds a descriptor, before it has said a word; under the
usual soft limit of 1,024 a thousand idle connections leave the host none for its own files, its
threads' needs and new seats (``EMFILE``). The host raises its soft limit towards the hard one at
start-up, and caps the connections that have not finished their handshake (:mod:`atoll.net.door`)
at a share of what the limit leaves.
"""

from __future__ import annotations

import logging

log = logging.getLogger("atoll.net.descriptors")

#: The soft limit the host asks for (never above the hard limit): plenty for a LAN table and the
#: caps below, without making the processes it starts slow to close what they inherit.
WANTED = 65_536

#: Descriptors kept for the host itself whatever the connections do: its log and secrets files,
#: ZeroMQ's own (threads, mailboxes, monitors), bot processes' pipes, seated peers' links.
RESERVED = 64

#: The fewest and the most connections a door lets wait for their handshake at once. A LAN table
#: sees a handful of people knock at the same moment; past a few thousand the memory each
#: connection holds matters more than the descriptor.
FEWEST_PENDING = 8
MOST_PENDING = 4_096


def soft_limit() -> int | None:
    """The soft limit on open descriptors, or ``None`` where the platform has no ``resource`` module
    (Windows) or no finite limit."""
    try:
        import resource
    except ImportError:
        return None
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return None if soft == resource.RLIM_INFINITY else int(soft)


def raise_limit(wanted: int = WANTED) -> int | None:
    """Raise the soft limit on open descriptors towards ``wanted``, never above the hard limit; the
    soft limit now (``None``: unknown, see :func:`soft_limit`). A platform that refuses a value (macOS
    refuses more than its ``OPEN_MAX`` even under an unlimited hard limit) is asked for half as much,
    down to the limit it has."""
    try:
        import resource
    except ImportError:
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    ceiling = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    asked = ceiling
    while soft != resource.RLIM_INFINITY and asked > soft:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (asked, hard))
        except (ValueError, OSError):
            asked //= 2
            continue
        log.debug("descriptor limit raised from %d to %d", soft, asked)
        break
    limit = soft_limit()
    if limit is not None and limit < RESERVED * 4:
        log.warning(
            "only %d file descriptors may be open (hard limit %s): a flood of connections closes the "
            "table's door sooner; raise it with `ulimit -n`",
            limit,
            hard,
        )
    return limit


def pending_cap(doors: int, limit: int | None = None) -> int:
    """How many connections each of ``doors`` bound ports lets wait for their handshake at once, out
    of the soft ``limit`` (the current one when not given) less :data:`RESERVED`."""
    limit = soft_limit() if limit is None else limit
    if limit is None:
        return MOST_PENDING
    share = (limit - RESERVED) // max(1, doors)
    return max(FEWEST_PENDING, min(MOST_PENDING, share))
