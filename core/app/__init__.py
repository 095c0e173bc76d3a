"""The application around the table protocol: the asyncio loops that carry it over sockets
(``serve``, ``peer_loop``, ``follow``), start-up (``hosting``, ``joining``, with ``ports`` and
``tables`` beside them), the files a table keeps (``store``) and the glue to a person at a terminal
(``person``).

:mod:`atoll.table` is the protocol itself and knows none of this; the contracts in ``pyproject.toml``
keep it so.
"""
