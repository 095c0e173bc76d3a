"""The transport's own refusals: what a peer will not put on the wire."""

from __future__ import annotations

import asyncio
import os

import pytest
from nacl.signing import SigningKey

from atoll.net.envelope import MAX_MESSAGE, MessageTooLarge
from atoll.net.transport import PeerSocket, curve_keys


def test_a_peer_refuses_to_send_a_message_over_the_tables_limit_naming_both_sizes() -> None:
    # ZeroMQ would drop such a message and the connection with it, and its sender would never know
    async def run() -> None:
        link = PeerSocket(SigningKey(os.urandom(32)), curve_keys(SigningKey(os.urandom(32)))[0])
        try:
            with pytest.raises(
                MessageTooLarge,
                match=f"message of {MAX_MESSAGE + 1} bytes is over the table's limit of {MAX_MESSAGE} bytes",
            ):
                await link.send(b"x" * (MAX_MESSAGE + 1))
        finally:
            link.close()

    asyncio.run(run())
