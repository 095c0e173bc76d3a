"""The big screen: a read-only live page of a table for a web browser (``atoll watch``, ``atoll host
--web``), built only from what a spectator may see; served with the standard library's asyncio streams
(HTTP and Server-Sent Events), with no JavaScript build step."""
