"""The same seeds give the same games as before the rules were made faster: a regression guard.

The digests below were recorded from the plugin as it was before its rules were made several times
faster (its states now share what an action does not change, and it checks an action against only
the legal actions that could be it). Random players choose by position in the list of legal actions,
so any change in a legal list, its order, or what an action does shows up here as a different log.

When a rule changes what happens, the digests are recorded again in the same commit, whose message
names the rules that changed the games (issue 8: K39 Cloudy and the cards; then the others there).
"""

from __future__ import annotations

import pytest

from atoll.bots.random_bot import RandomBot
from atoll.engine import LocalResolver, Match, run
from atoll.jsondata import digest
from tests.kiribati.scenario import GAME

#: For each variant and seat count, the first 16 hex digits of the SHA-256 of the public log
#: (``match.events``, canonical JSON) of the random games with seeds 0, 1, 2, ... in order.
LOGS: dict[tuple[str, int], tuple[str, ...]] = {
    ("children", 2): (
        "69f92615f9b15f83", "6fdf44dba1722604", "04b222efa5362d28", "aa25817369a34f61", "f48f773ed95a0491",
    ),
    ("children", 3): (
        "6c05990417632947", "f0ec99782f9ed53a", "800b34a55bd9d1f1", "a47d2db852c59825", "f59d173b3d36aa69",
        "6b8aaedc5948df94", "219b13c4235545fc", "c190e4f2b183d7d8", "4ea47bbd138c440c", "d5dabca44c4cbdef",
        "248bda3937d707f6", "5bd806ca81070edf", "fa92a2012d56caa1", "42ca112630641839", "799f5cefc9340b3e",
        "2b13b357fde5cda8", "36a0e9a895462821", "b7516a567802f755", "c8f04e4eab51c65c", "e089fbed376eb309",
    ),
    ("children", 4): (
        "02b745f0ad479ef0", "eff681b405ee84cc", "6d280e8661c5fce1", "8418b7e8daa2a10e", "e556b6e0ba116d73",
    ),
    ("children", 5): (
        "b85e4ff5a53755e4", "d166f4cfe41a77ba", "d896ffc379c3b8b7", "a37c9118bd2dc76f", "937600f2cdf0c434",
    ),
    ("family", 2): (
        "11ad091b852cacbf", "f0ae31ede11fde81", "fd7e1f8597374a99", "a552a94a01071c06", "68fd07e55b5c54ef",
    ),
    ("family", 3): (
        "bdd3a583504168e7", "2b8fece416957927", "9a1812de66f9e26c", "084fe5873c98e04d", "ef95c3b24165f041",
        "622f25d249409485", "45191feab29a0973", "3f48ffd6065851a5", "6998b4fb94910720", "a378564da3282765",
        "1e9f9a73c1a182c1", "49abcb797c2882b0", "383d2f2254b8c15a", "f65c96fb0a242cac", "d8a17773a3e5cf9b",
        "6261bd865024916b", "8f3c7b881e3eb466", "2a486258b93cb593", "6d5e5334dbac7bc6", "b58a8960ae767e91",
    ),
    ("family", 4): (
        "2f18a994ead88cd6", "1bbde0eef5fdcae2", "16e9d34419fc83b0", "674cdbe2b3e30efe", "761d1354594199fa",
    ),
    ("family", 5): (
        "899679bcc47152c3", "013299c3d6088ee7", "dcde8a3ef1a7aab3", "8ed8bb742968108e", "501676fa50b174d0",
    ),
    ("professional", 2): (
        "28e0ddc7398efcef", "e1fa9a3b3177aa3b", "b933035c9b6bdf1a", "7689086d0cd0698b", "a6022d6caa9bccb1",
    ),
    ("professional", 3): (
        "7c7d5679511791ab", "b88c0e47bf97e8a0", "d95f615fae912d1c", "7aa8c51debd322cb", "6446ad5b286c6575",
        "f318b1b097d2cafa", "c1fcdd55ac4b888d", "bdf0dab08dbc890c", "f52d19e5ddec334f", "bc60486841b38d57",
        "4bdc6c4b58fa3e4d", "8a22e030749ffe81", "0a4b751a12e87629", "5ba88cbe39738303", "097c83a16fff0a7b",
        "2c7417ce1d782477", "f9c487e9e0862c55", "00b544ac236889c1", "512819ca861a168b", "61d13d759445c581",
    ),
    ("professional", 4): (
        "abaa5102241209bf", "3e1af9539465a0e2", "3af5a9d2a8425dd3", "e1dd3e5e40f4a2da", "5bdd127305894940",
    ),
    ("professional", 5): (
        "d14890e9c2cc7860", "d6da4d2fdfa39c7c", "e1587d9c5aa469d7", "e08abae009289a34", "da91e5d2e4596f3e",
    ),
}
#: The seeds checked on every run; the slow run checks them all.
QUICK = 2


def public_log(variant: str, seats: int, seed: int) -> str:
    """The digest of the public log of a game between random players, seeded as in test_random_games."""
    match = Match(GAME, GAME.configure(seats, variant), LocalResolver(seed))
    run(match, [RandomBot(seed * 10 + seat) for seat in range(seats)], max_steps=500_000)
    return digest(match.events)[:16]


@pytest.mark.parametrize(("variant", "seats"), sorted(LOGS))
def test_the_first_seeds_play_the_same_games_as_ever(variant: str, seats: int) -> None:
    """The first seeds of each variant and seat count give the public logs recorded before."""
    recorded = LOGS[variant, seats][:QUICK]
    assert [public_log(variant, seats, seed) for seed in range(len(recorded))] == list(recorded)


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "seats"), sorted(LOGS))
def test_every_recorded_seed_plays_the_same_game_as_ever(variant: str, seats: int) -> None:
    """Every recorded seed (twenty with three players, five otherwise) gives the same public log."""
    recorded = LOGS[variant, seats]
    assert [public_log(variant, seats, seed) for seed in range(len(recorded))] == list(recorded)
