"""atoll.net: transport, identities, signed envelopes and LAN discovery (knows nothing of games)."""
