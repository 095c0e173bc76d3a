"""Announce DNS-SD services with raw TXT records, as a stranger on the LAN might (a test helper).

Run inside a network namespace only: ``raw_announce.py ADDRESS PORT SPEC``, where SPEC is a JSON
list of ``{"instance": NAME, "txt": [STRING, ...]}``. Each TXT string goes on the wire as it is,
so a test can announce what :class:`atoll.net.discovery.Announcer` would never make: missing
fields, bad keys, a huge record. Prints ``announced`` when registered; withdraws all when stdin ends.
"""

from __future__ import annotations

import asyncio
import json
import sys

from zeroconf.asyncio import AsyncServiceInfo, AsyncZeroconf

from atoll.net.discovery import SERVICE_TYPE


def raw_txt(strings: list[str]) -> bytes:
    """The TXT record's wire form: each string prefixed by its length (RFC 6763 section 6.1)."""
    encoded = [s.encode() for s in strings]
    return b"".join(bytes([len(s)]) + s for s in encoded)


async def announce(address: str, port: int, spec: list[dict[str, object]]) -> None:
    async with AsyncZeroconf(interfaces=[address]) as zeroconf:
        infos = [
            AsyncServiceInfo(
                SERVICE_TYPE,
                f"{service['instance']}.{SERVICE_TYPE}",
                port=port,
                properties=raw_txt(service["txt"]),  # type: ignore[arg-type]
                server=f"raw-{number}.local.",
                parsed_addresses=[address],
            )
            for number, service in enumerate(spec)
        ]
        # Registered together: each registration waits out its own probes.
        done = await asyncio.gather(*(zeroconf.async_register_service(info) for info in infos))
        await asyncio.gather(*done)
        print("announced", flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
        await zeroconf.async_unregister_all_services()


if __name__ == "__main__":
    asyncio.run(announce(sys.argv[1], int(sys.argv[2]), json.loads(sys.argv[3])))
