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
        "69f92615f9b15f83", "084fdcf07bba1864", "8011d496a56cf241", "aa25817369a34f61", "540a6ae2bc9d6e5d",
    ),
    ("children", 3): (
        "6c05990417632947", "10188ac7e109d506", "800b34a55bd9d1f1", "d51c2a158c2ab483", "921d9cac64f0c9a3",
        "e384f9d0fb9d95b7", "1c90a6a9fd19aada", "b3f68ab4a3dc1a76", "93df0e488ae58b4f", "9f4151ee93733816",
        "248bda3937d707f6", "a442327373af8a9f", "ecae49845b15e56c", "a31394d8751e59cf", "799f5cefc9340b3e",
        "d34a16c02f079532", "f24fd830d146cdbb", "13f00d7c99b5a565", "57c2e11ec4d80934", "6945617c35bff2d7",
    ),
    ("children", 4): (
        "cb2165320c1c7623", "3f4718432421135f", "6e1280b28ee3d5ef", "fe7d0d49ec211d26", "830cb2ba4de51e90",
    ),
    ("children", 5): (
        "b57e15e0611b258a", "6259c27425943113", "95a6a691315fa787", "72af8fe1fe6665c2", "bac343f736f1cecb",
    ),
    ("family", 2): (
        "9db233eab8c93100", "49b0d74898b1f6be", "2d53bb8f9ffd6600", "ff1441803cd44141", "651d8869b62491c1",
    ),
    ("family", 3): (
        "000fd4b30ca65c55", "f3cb4fb7ed8b9850", "7559c74226f5b8fd", "a0fc7d1720e168d9", "fbd8599a0a589de7",
        "298027e5b576e43e", "d979388199d4137f", "dcb64c5c1a5948e6", "d0743048ce4f10e0", "cd2ac74f8ff9c158",
        "9e51f870d56c76c6", "c708904972934c94", "61b5a1e6935c1e48", "941b687fdd9ca6ce", "0568f2c0c54a2cb8",
        "f275712a29af8bb4", "328790e126894cdf", "37597e84afd1a4ee", "850b6e02ffa12f41", "d2d8296fa0261625",
    ),
    ("family", 4): (
        "97acd1b08d87464f", "b6f083ee48591c95", "843b85cba6b3d4ec", "52401e41312caca1", "060383d6648b934d",
    ),
    ("family", 5): (
        "e37e880bc3d426c2", "6c5a7ba0c0f4e56d", "f7029db58cc27a8f", "e01b65e51b78aba9", "8587cba2703e2f27",
    ),
    ("professional", 2): (
        "52faf5c141edb2ec", "e1fa9a3b3177aa3b", "4f39d480800441ed", "7689086d0cd0698b", "a6022d6caa9bccb1",
    ),
    ("professional", 3): (
        "7c7d5679511791ab", "b88c0e47bf97e8a0", "79b130f729c266d2", "8c6a4e5dd6072354", "6446ad5b286c6575",
        "f318b1b097d2cafa", "c1fcdd55ac4b888d", "bdf0dab08dbc890c", "2d283d6603de46a2", "c0fcb253cacc918d",
        "9d670e2f064c3829", "8a22e030749ffe81", "0a4b751a12e87629", "ebd6a6454a00a9f1", "ae4b6d8b3d9a69d5",
        "39ab7d12f08b5262", "f9c487e9e0862c55", "bc4d6a7e36c40572", "512819ca861a168b", "977f4d6715b9440a",
    ),
    ("professional", 4): (
        "33e4b14ce4626adb", "2943269814ccaf76", "dfc4e456516cb7f4", "fec5471fa1c28fd6", "047b5e898891a725",
    ),
    ("professional", 5): (
        "168bce7df94ae828", "362a2877654752ef", "5f57602746d99683", "fb85cbb47d2faae0", "ef82e28c10397416",
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
