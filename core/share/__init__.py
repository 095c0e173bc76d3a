"""``atoll share``: atoll and its games as wheels, handed from one laptop to the others at a party.

While online, :mod:`atoll.share.prepare` fills a folder with wheels for atoll, its dependencies and
the installed third-party game plugins, for every platform and Python atoll supports. At the party,
:mod:`atoll.share.server` serves that folder on the LAN as a PEP 503 package index
(:mod:`atoll.share.index` makes its pages) and :mod:`atoll.share.announce` announces it over DNS-SD
(``_atoll-pkgs._tcp``) beside the tables. Whoever installs from it trusts the sharing laptop for
the code (docs/decisions/0014-sharing-wheels.md).
"""
