"""The audit: a saved fair game re-checked from its file alone, naming the first seat that does not check."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from atoll.bots.random_bot import RandomBot
from atoll.chance import Roll
from atoll.cli.main import main
from atoll.engine import LocalResolver, Match, run, save
from atoll.errors import CheatDetected, CorruptSave
from atoll.fair.audit import audit_file
from atoll.fair.randomness import HashChain
from atoll.fair.resolver import FairResolver
from atoll.fair.saving import save_fair
from atoll.fair.transcript import Transcript
from atoll.jsondata import JSON
from atoll.registry import load_registry
from tests.fair.helpers import table
from tests.games.highcard import HighCard

GAME = HighCard()


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, FairResolver]:
    """One three-seat high-card game played on a fair table and saved."""
    resolver = table(3, "audit-table")
    match = Match(GAME, GAME.configure(3), resolver)
    run(match, [RandomBot(s) for s in range(3)])
    path = tmp_path_factory.mktemp("audit") / "highcard.jsonl"
    save_fair(match, path)
    return path, resolver


def tampered(played: tuple[Path, FairResolver], tmp_path: Path,
             change: Callable[[list[dict[str, Any]], Sequence[Any]], None]) -> Path:
    """A copy of the saved game whose transcript entries ``change`` rewrote (head recomputed)."""
    source, resolver = played
    lines = source.read_text().splitlines()
    footer = json.loads(lines[-1])
    fair = footer["fair"]
    change(fair["entries"], resolver.participants)
    fair["head"] = Transcript(fair["table"], fair["seats"], fair["chain_length"], fair["entries"]).head
    lines[-1] = json.dumps(footer)
    path = tmp_path / "tampered.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


def messages(entries: list[dict[str, Any]], kind: str, seat: int) -> list[dict[str, Any]]:
    """The ``kind`` messages of ``seat`` in the transcript, in order."""
    return [e["msg"] for e in entries if "msg" in e and e["msg"]["kind"] == kind and e["msg"]["seat"] == seat]


def resign(entries: list[dict[str, Any]], participants: Sequence[Any], message: dict[str, Any]) -> None:
    """Re-sign ``message`` in place with its own seat's key: the seat itself sent the changed message."""
    index = next(i for i, e in enumerate(entries) if e.get("msg") is message)
    entries[index] = {"msg": participants[message["seat"]].sign(message)}


def test_a_fair_game_audits_clean_from_its_file(played: tuple[Path, FairResolver]) -> None:
    report = audit_file(played[0], GAME)
    assert (report.seats, report.draws, report.cards, report.sealed) == (3, 1, 16, 3)


def test_a_wrong_opening_in_the_transcript_names_its_seat(
    played: tuple[Path, FairResolver], tmp_path: Path
) -> None:
    def wrong_link(entries: list[dict[str, Any]], seats: Sequence[Any]) -> None:
        message = messages(entries, "chain/open", 2)[0]
        message["body"]["link"] = "99" * 32
        resign(entries, seats, message)

    with pytest.raises(CheatDetected, match="does not hash") as caught:
        audit_file(tampered(played, tmp_path, wrong_link), GAME)
    assert caught.value.seat == 2


def test_a_message_changed_without_its_seats_signature_names_that_seat(
    played: tuple[Path, FairResolver], tmp_path: Path
) -> None:
    def unsigned(entries: list[dict[str, Any]], seats: Sequence[Any]) -> None:
        messages(entries, "chain/open", 1)[0]["body"]["link"] = "99" * 32

    with pytest.raises(CheatDetected, match="signature") as caught:
        audit_file(tampered(played, tmp_path, unsigned), GAME)
    assert caught.value.seat == 1


def test_a_commitment_opened_to_another_value_names_its_seat(
    played: tuple[Path, FairResolver], tmp_path: Path
) -> None:
    def other_bet(entries: list[dict[str, Any]], seats: Sequence[Any]) -> None:
        message = messages(entries, "reveal", 0)[0]
        for opening in message["body"]["sealed"].values():
            opening["value"] = "low" if opening["value"] == "high" else "high"
        resign(entries, seats, message)

    with pytest.raises(CheatDetected, match="not what it committed to") as caught:
        audit_file(tampered(played, tmp_path, other_bet), GAME)
    assert caught.value.seat == 0


def test_a_wrong_card_key_names_its_seat(played: tuple[Path, FairResolver], tmp_path: Path) -> None:
    def wrong_key(entries: list[dict[str, Any]], seats: Sequence[Any]) -> None:
        message = next(m for m in messages(entries, "deck", 1) if m["body"]["type"] == "deck/open")
        message["body"]["keys"][0][1] = (12345).to_bytes(32, "little").hex()
        resign(entries, seats, message)

    with pytest.raises(CheatDetected, match="wrong key") as caught:
        audit_file(tampered(played, tmp_path, wrong_key), GAME)
    assert caught.value.seat == 1


def test_a_replayed_message_of_an_earlier_table_names_its_seat(
    played: tuple[Path, FairResolver], tmp_path: Path
) -> None:
    earlier = table(3, "earlier-table")
    earlier.resolve(Roll(1, 6))
    old = messages(earlier.transcript.entries, "chain/open", 1)[0]

    def replay(entries: list[dict[str, Any]], seats: Sequence[Any]) -> None:
        first = messages(entries, "chain/open", 1)[0]
        index = next(i for i, e in enumerate(entries) if e.get("msg") is first)
        entries[index] = {"msg": old}

    with pytest.raises(CheatDetected, match="replayed a message of table 'earlier-table'") as caught:
        audit_file(tampered(played, tmp_path, replay), GAME)
    assert caught.value.seat == 1


def test_a_seed_that_does_not_open_its_seats_steps_names_that_seat(
    played: tuple[Path, FairResolver], tmp_path: Path
) -> None:
    def other_seed(entries: list[dict[str, Any]], seats: Sequence[Any]) -> None:
        message = messages(entries, "seed", 2)[0]
        message["body"]["seed"] = "42" * 32
        resign(entries, seats, message)

    with pytest.raises(CheatDetected, match="does not follow from its opened seed") as caught:
        audit_file(tampered(played, tmp_path, other_seed), GAME)
    assert caught.value.seat == 2


def test_when_two_seats_cheat_the_first_bad_step_is_named(
    played: tuple[Path, FairResolver], tmp_path: Path
) -> None:
    def both(entries: list[dict[str, Any]], seats: Sequence[Any]) -> None:
        seed = messages(entries, "seed", 0)[0]
        seed["body"]["seed"] = "42" * 32
        resign(entries, seats, seed)
        link = messages(entries, "chain/open", 2)[0]
        link["body"]["link"] = "99" * 32
        resign(entries, seats, link)

    with pytest.raises(CheatDetected) as caught:
        audit_file(tampered(played, tmp_path, both), GAME)
    assert caught.value.seat == 2


def test_a_missing_seed_opening_names_the_seat_that_withheld_it(
    played: tuple[Path, FairResolver], tmp_path: Path
) -> None:
    def drop(entries: list[dict[str, Any]], seats: Sequence[Any]) -> None:
        entries.remove({"msg": messages(entries, "seed", 1)[0]})

    with pytest.raises(CheatDetected, match="never sent its 'seed'") as caught:
        audit_file(tampered(played, tmp_path, drop), GAME)
    assert caught.value.seat == 1


def test_a_saved_head_the_entries_do_not_hash_to_is_refused(
    played: tuple[Path, FairResolver], tmp_path: Path
) -> None:
    path = tmp_path / "head.jsonl"
    lines = played[0].read_text().splitlines()
    footer = json.loads(lines[-1])
    footer["fair"]["head"] = "00" * 32
    path.write_text("\n".join([*lines[:-1], json.dumps(footer)]) + "\n")
    with pytest.raises(CorruptSave, match="do not hash to its saved head"):
        audit_file(path, GAME)


def test_a_message_changed_after_the_game_names_its_seat_and_the_damage(
    played: tuple[Path, FairResolver], tmp_path: Path
) -> None:
    path = tmp_path / "changed-transcript.jsonl"
    lines = played[0].read_text().splitlines()
    footer = json.loads(lines[-1])
    messages(footer["fair"]["entries"], "chain/open", 0)[0]["body"]["link"] = "99" * 32
    path.write_text("\n".join([*lines[:-1], json.dumps(footer)]) + "\n")
    with pytest.raises(CheatDetected, match="changed, lost or moved after the game") as caught:
        audit_file(path, GAME)
    assert caught.value.seat == 0


def test_a_changed_outcome_in_the_game_log_is_refused(
    played: tuple[Path, FairResolver], tmp_path: Path
) -> None:
    lines = played[0].read_text().splitlines()
    roll = next(i for i, line in enumerate(lines) if '"kind":"roll"' in line)
    event = json.loads(lines[roll])
    event["outcome"]["values"] = [7 - event["outcome"]["values"][0]]
    lines[roll] = json.dumps(event)
    path = tmp_path / "changed.jsonl"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(CorruptSave, match="is not the transcript's"):
        audit_file(path, GAME)


class LyingSealer(FairResolver):
    """A table where seat 1's software commits to another value than the one its player chose."""

    def seal(self, seat: int, handles: Sequence[str], values: Sequence[JSON]) -> None:
        super().seal(seat, handles, ["medium"] if seat == 1 else values)


def test_a_sealed_choice_that_was_not_legal_is_named_when_the_seeds_open(tmp_path: Path) -> None:
    match = Match(GAME, GAME.configure(2), LyingSealer(2, "lying-table"))
    run(match, [RandomBot(s) for s in range(2)])
    save_fair(match, tmp_path / "lying.jsonl")
    with pytest.raises(CheatDetected, match="not a legal choice") as caught:
        audit_file(tmp_path / "lying.jsonl", GAME)
    assert caught.value.seat == 1


def test_a_chain_that_is_not_its_seeds_is_caught_when_the_seed_opens() -> None:
    """A seat may follow a chain of its own choosing; the opened seed shows it at the end."""
    fake = HashChain(b"another secret" * 3, "table", 1, 0)

    def own_chain(participants: Sequence[Any]) -> Any:
        def tamper(author: int, message: dict[str, Any]) -> dict[str, Any]:
            if author != 1 or message["kind"] not in ("hello", "chain/open"):
                return message
            body = dict(message["body"])
            if message["kind"] == "hello":
                body["head"] = fake.head
            else:
                body["link"] = fake.link(participants[1].record.draws)
            return participants[1].sign(dict(message, body=body))
        return tamper

    resolver = table(2, "table", cheat=own_chain)
    for _ in range(3):
        resolver.resolve(Roll(1, 6))
    with pytest.raises(CheatDetected, match="step 0 does not follow from its opened seed") as caught:
        resolver.finish()
    assert caught.value.seat == 1


def test_a_game_saved_without_a_transcript_is_not_audited(tmp_path: Path) -> None:
    match = Match(GAME, GAME.configure(2), LocalResolver(5))
    run(match, [RandomBot(s) for s in range(2)])
    save(match, tmp_path / "local.jsonl", seed=5, faces=match.resolver.faces())  # type: ignore[attr-defined]
    with pytest.raises(CorruptSave, match="not a fair game"):
        audit_file(tmp_path / "local.jsonl", GAME)


@pytest.fixture(scope="module")
def kiribati_file(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, FairResolver]:
    """A two-seat Kiribati game (a registered game, so the command line can find it)."""
    game = load_registry().game("kiribati")
    resolver = table(2, "cli-table")
    match = Match(game, game.configure(2, "professional"), resolver)
    run(match, [RandomBot(s) for s in range(2)])
    path = tmp_path_factory.mktemp("cli") / "kiribati.jsonl"
    save_fair(match, path)
    return path, resolver


def test_atoll_audit_exits_zero_when_everything_checks(
    kiribati_file: tuple[Path, FairResolver], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["audit", str(kiribati_file[0])]) == 0
    assert "every step checks" in capsys.readouterr().out


def test_atoll_audit_exits_non_zero_naming_the_seat_that_cheated(
    kiribati_file: tuple[Path, FairResolver], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def wrong_link(entries: list[dict[str, Any]], seats: Sequence[Any]) -> None:
        message = messages(entries, "chain/open", 1)[2]
        message["body"]["link"] = "99" * 32
        resign(entries, seats, message)

    path = tampered(kiribati_file, tmp_path, wrong_link)
    assert main(["audit", "--json", str(path)]) == 1
    result = json.loads(capsys.readouterr().out)
    assert result["ok"] is False and result["seat"] == 1


def test_atoll_audit_refuses_a_file_that_is_not_a_fair_game(tmp_path: Path) -> None:
    path = tmp_path / "nothing.jsonl"
    shutil.copy(Path(__file__), path)
    assert main(["audit", str(path)]) == 2
