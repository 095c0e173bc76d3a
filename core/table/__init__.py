"""Tables on a LAN: the signed, hash-chained table log, the host that orders it, and the peers that play.

Every peer keeps the whole log and runs the same engine and fair protocols on it; the host orders and
relays signed messages and is trusted with nothing else.
"""
