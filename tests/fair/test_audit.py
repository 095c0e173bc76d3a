"""The audit: a saved fair game re-checked from its file alone.

A seat is named only for content it validly signed; a file that was changed, cut or forged is
"not a valid transcript" and names nobody; a clean audit means "consistent and signed by these
keys", and ``--expect`` pins the keys.
"""

from __future__ import annotations

import contextlib
import json
import shutil
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from nacl.signing import SigningKey

from atoll.bots.random_bot import RandomBot
from atoll.chance import Roll
from atoll.cli.main import main
from atoll.engine import LocalResolver, Match, run, save
from atoll.errors import AtollError, CheatDetected, CorruptSave
from atoll.fair.abort import TableAborted
from atoll.fair.audit import audit_file, check_transcript
from atoll.fair.hashing import PROTOCOL_VERSION
from atoll.fair.identity import binding_statement
from atoll.fair.messages import content_digest, sign
from atoll.fair.randomness import HashChain
from atoll.fair.referee import match_referee
from atoll.fair.resolver import FairResolver
from atoll.fair.saving import save_fair
from atoll.fair.transcript import DamagedTranscript, Transcript, genesis, step_head, step_seen
from atoll.jsondata import JSON
from atoll.net.encoding import fingerprint
from atoll.registry import load_registry
from tests.fair.helpers import Cheat, rewrite, table
from tests.games.highcard import HighCard

GAME = HighCard()

#: Rewrites a saved transcript's entries in place (the participants are there to re-sign).
Change = Callable[[list[dict[str, Any]], Sequence[Any]], None]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, FairResolver]:
    """One three-seat high-card game played on a fair table and saved."""
    resolver = table(3, "audit-table")
    match = Match(GAME, GAME.configure(3), resolver)
    run(match, [RandomBot(s) for s in range(3)])
    path = tmp_path_factory.mktemp("audit") / "highcard.jsonl"
    save_fair(match, path)
    return path, resolver


def footer_of(path: Path) -> tuple[list[str], dict[str, Any]]:
    lines = path.read_text().splitlines()
    return lines, json.loads(lines[-1])


def write(lines: list[str], footer: dict[str, Any], path: Path) -> Path:
    path.write_text("\n".join([*lines[:-1], json.dumps(footer)]) + "\n")
    return path


def tampered(played: tuple[Path, FairResolver], tmp_path: Path, change: Change) -> Path:
    """A copy of the saved game whose transcript entries ``change`` rewrote (saved head recomputed,
    as anyone can: it is not keyed)."""
    source, resolver = played
    lines, footer = footer_of(source)
    fair = footer["fair"]
    change(fair["entries"], resolver.participants)
    fair["head"] = Transcript.from_json(fair).head
    return write(lines, footer, tmp_path / "tampered.jsonl")


def messages(entries: list[dict[str, Any]], kind: str, seat: int) -> list[dict[str, Any]]:
    """The ``kind`` messages of ``seat`` in the transcript, in order."""
    return [e["msg"] for e in entries if "msg" in e and e["msg"]["kind"] == kind and e["msg"]["seat"] == seat]


def index_of(entries: list[dict[str, Any]], message: dict[str, Any]) -> int:
    return next(i for i, e in enumerate(entries) if e.get("msg") is message)


def cheated(cheat: Cheat, tmp_path: Path, seats: int = 3, game: Any = GAME,
            variant: str | None = None) -> Path:
    """Play a game in which ``cheat`` plays a seat until the table catches it; save what there is."""
    resolver = table(seats, "cheat-table", cheat=cheat)
    match = Match(game, game.configure(seats, variant), resolver)
    with pytest.raises(CheatDetected):
        run(match, [RandomBot(s) for s in range(seats)])
        resolver.finish()  # a cheat in the seeds shows when they open
    path = tmp_path / "cheated.jsonl"
    save_fair(match, path)
    return path


def named(path: Path, game: Any = GAME) -> CheatDetected:
    with pytest.raises(CheatDetected) as caught:
        audit_file(path, game)
    return caught.value


def damaged(path: Path) -> DamagedTranscript:
    with pytest.raises(DamagedTranscript) as caught:
        audit_file(path, GAME)
    assert not isinstance(caught.value, CheatDetected)
    return caught.value


# -- a clean game -------------------------------------------------------------------------------


def test_a_fair_game_audits_clean_from_its_file(played: tuple[Path, FairResolver]) -> None:
    report = audit_file(played[0], GAME)
    assert (report.seats, report.draws, report.cards, report.sealed) == (3, 1, 16, 3)
    assert report.fingerprints == tuple(played[1].transcript.fingerprints())


def test_the_header_records_each_seats_identity_fingerprint(played: tuple[Path, FairResolver]) -> None:
    _, footer = footer_of(played[0])
    identities = footer["fair"]["identities"]
    keys = [p.record.identities[s] for s, p in enumerate(played[1].participants)]
    assert [i["fingerprint"] for i in identities] == [fingerprint(k) for k in keys]


# -- real cheats, caught live and named again by the audit ----------------------------------------


def test_a_wrong_opening_names_its_seat(tmp_path: Path) -> None:
    path = cheated(rewrite(2, "chain/open", lambda b: b.update(link="99" * 32)), tmp_path)
    cheat = named(path)
    assert cheat.seat == 2 and "does not hash" in str(cheat)


def test_a_commitment_opened_to_another_value_names_its_seat(tmp_path: Path) -> None:
    def other_bet(body: dict[str, Any]) -> None:
        body["sealed"] = {h: dict(o, value="low" if o["value"] == "high" else "high")
                          for h, o in body["sealed"].items()}

    cheat = named(cheated(rewrite(0, "reveal", other_bet), tmp_path))
    assert cheat.seat == 0 and "not what it committed to" in str(cheat)


def test_a_wrong_card_key_names_its_seat(tmp_path: Path) -> None:
    def wrong_key(body: dict[str, Any]) -> None:
        if body["type"] == "deck/open":
            body["keys"] = [[body["keys"][0][0], (12345).to_bytes(32, "little").hex()], *body["keys"][1:]]

    cheat = named(cheated(rewrite(1, "deck", wrong_key, skip=2), tmp_path))
    assert cheat.seat == 1 and "wrong key" in str(cheat)


def test_a_seed_that_does_not_open_its_seats_steps_names_that_seat(tmp_path: Path) -> None:
    cheat = named(cheated(rewrite(2, "seed", lambda b: b.update(seed="42" * 32)), tmp_path))
    assert cheat.seat == 2 and "does not follow from its opened seed" in str(cheat)


def own_chain(seat: int, fake: bytes, epochs: set[int]) -> Cheat:
    """``seat`` follows hash chains of its own choosing (not from its seed) in ``epochs``."""

    def build(participants: Sequence[Any]) -> Any:
        def tamper(author: int, message: dict[str, Any]) -> dict[str, Any]:
            record = participants[seat].record
            if author != seat or message["kind"] not in ("hello", "chain/head", "chain/open"):
                return message
            epoch = record.epochs if message["kind"] != "chain/open" else (record.draws - 1) // 2
            if epoch not in epochs:
                return message
            chain = HashChain(fake, "table", seat, epoch, 2)
            body = dict(message["body"])
            if message["kind"] == "chain/open":
                body["link"] = chain.link((record.draws - 1) % 2 + 1)
            else:
                body["head"] = chain.head
            return participants[seat].sign(dict(message, body=body))
        return tamper

    return build


def test_a_chain_that_is_not_its_seeds_is_caught_when_the_seed_opens() -> None:
    """A seat may follow a chain of its own choosing; the opened seed shows it at the end."""
    resolver = table(2, "table", cheat=own_chain(1, b"another secret" * 3, {0, 1}), chain_length=2)
    for _ in range(3):
        resolver.resolve(Roll(1, 6))
    with pytest.raises(CheatDetected, match="step 0 does not follow from its opened seed") as caught:
        resolver.finish()
    assert caught.value.seat == 1


def test_when_two_seats_cheat_the_first_bad_step_is_named() -> None:
    cheats = [own_chain(0, b"zero's secret!" * 3, {1}), own_chain(2, b"two's secret!!" * 3, {0})]

    def both(participants: Sequence[Any]) -> Any:
        first, second = (c(participants) for c in cheats)
        return lambda author, message: second(author, first(author, message))

    resolver = table(3, "table", cheat=both, chain_length=2)
    for _ in range(3):
        resolver.resolve(Roll(1, 6))
    with pytest.raises(CheatDetected):
        resolver.finish()
    with pytest.raises(CheatDetected, match="step 0 does not follow") as caught:
        check_transcript(resolver.transcript)
    assert caught.value.seat == 2


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


def test_a_sealed_choice_that_was_not_legal_is_named_by_the_table_when_the_seeds_open() -> None:
    """High card's seats hold a hidden card when their bets open: the choice is judged at the end."""
    resolver = LyingSealer(2, "lying-table")
    match = Match(GAME, GAME.configure(2), resolver)
    resolver.referee = match_referee(match)
    run(match, [RandomBot(s) for s in range(2)])
    with pytest.raises(CheatDetected, match="not a legal choice") as caught:
        resolver.finish()
    assert caught.value.seat == 1


# -- a file changed, cut or forged: not a valid transcript, nobody named ----------------------------


def test_a_message_changed_without_its_seats_key_is_damage_blaming_nobody(
    played: tuple[Path, FairResolver], tmp_path: Path
) -> None:
    def unsigned(entries: list[dict[str, Any]], seats: Sequence[Any]) -> None:
        messages(entries, "chain/open", 1)[0]["body"]["link"] = "99" * 32

    assert "signature does not verify" in str(damaged(tampered(played, tmp_path, unsigned)))


def test_a_message_re_signed_by_its_seat_after_the_game_is_damage_blaming_nobody(
    played: tuple[Path, FairResolver], tmp_path: Path
) -> None:
    """Later messages signed the history with the original: the file no longer holds together."""
    def resigned(entries: list[dict[str, Any]], seats: Sequence[Any]) -> None:
        message = messages(entries, "seal/commit", 0)[0]
        changed = dict(message, body={"commitments": {h: "77" * 32 for h in message["body"]["commitments"]}})
        entries[index_of(entries, message)] = {"msg": seats[0].sign(changed)}

    assert "another step or history" in str(damaged(tampered(played, tmp_path, resigned)))


def test_a_message_of_another_table_in_the_file_is_damage_blaming_nobody(
    played: tuple[Path, FairResolver], tmp_path: Path
) -> None:
    earlier = table(3, "earlier-table")
    earlier.resolve(Roll(1, 6))
    old = messages(earlier.transcript.entries, "chain/open", 1)[0]

    def replay(entries: list[dict[str, Any]], seats: Sequence[Any]) -> None:
        entries[index_of(entries, messages(entries, "chain/open", 1)[0])] = {"msg": old}

    assert "of table 'earlier-table'" in str(damaged(tampered(played, tmp_path, replay)))


@pytest.mark.parametrize("edit", ["deal target", "shuffle order"])
def test_an_edited_step_announcement_is_damage_blaming_nobody(
    played: tuple[Path, FairResolver], tmp_path: Path, edit: str
) -> None:
    def announce(entries: list[dict[str, Any]], seats: Sequence[Any]) -> None:
        step = next(e["step"] for e in entries if "step" in e and e["step"]["step"] in ("deal", "shuffle")
                    and e["step"]["step"] == edit.split()[0])
        if edit == "deal target":
            step["to"][0][0] = (step["to"][0][0] + 1) % 3
        else:
            step["faces"] = list(reversed(step["faces"]))

    assert "another step or history" in str(damaged(tampered(played, tmp_path, announce)))


@pytest.mark.parametrize("recode", ["upper-case signature", "upper-case body", "extra field"])
def test_a_genuine_message_re_encoded_is_damage_blaming_nobody(
    played: tuple[Path, FairResolver], tmp_path: Path, recode: str
) -> None:
    def recoded(entries: list[dict[str, Any]], seats: Sequence[Any]) -> None:
        message = messages(entries, "chain/open", 2)[0]
        if recode == "upper-case signature":
            message["sig"] = message["sig"].upper()
        elif recode == "upper-case body":
            message["body"]["link"] = message["body"]["link"].upper()
        else:
            message["relay"] = "hello"

    damage = damaged(tampered(played, tmp_path, recoded))
    assert damage.entry is not None


def test_a_hello_key_with_spaces_is_damage_blaming_nobody(
    played: tuple[Path, FairResolver], tmp_path: Path
) -> None:
    def spaced(entries: list[dict[str, Any]], seats: Sequence[Any]) -> None:
        hello = messages(entries, "hello", 1)[0]
        hello["body"]["key"] = "    " + hello["body"]["key"][4:]

    assert "table key" in str(damaged(tampered(played, tmp_path, spaced)))


def test_a_transcript_cut_short_without_a_timeout_is_damage_blaming_nobody(
    played: tuple[Path, FairResolver], tmp_path: Path
) -> None:
    def drop(entries: list[dict[str, Any]], seats: Sequence[Any]) -> None:
        entries.remove({"msg": messages(entries, "seed", 1)[0]})

    assert "cut short" in str(damaged(tampered(played, tmp_path, drop)))


def test_a_saved_head_the_entries_do_not_hash_to_is_refused(
    played: tuple[Path, FairResolver], tmp_path: Path
) -> None:
    lines, footer = footer_of(played[0])
    footer["fair"]["head"] = "00" * 32
    assert "saved head" in str(damaged(write(lines, footer, tmp_path / "head.jsonl")))


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


def test_a_game_saved_without_a_transcript_is_not_audited(tmp_path: Path) -> None:
    match = Match(GAME, GAME.configure(2), LocalResolver(5))
    run(match, [RandomBot(s) for s in range(2)])
    save(match, tmp_path / "local.jsonl", seed=5, faces=match.resolver.faces())  # type: ignore[attr-defined]
    with pytest.raises(CorruptSave, match="not a fair game"):
        audit_file(tmp_path / "local.jsonl", GAME)


# -- a forced forfeit: cut a finished two-seat save and add a timeout -------------------------------


@pytest.fixture(scope="module")
def two_seats(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, FairResolver]:
    resolver = table(2, "two-table")
    match = Match(GAME, GAME.configure(2), resolver)
    run(match, [RandomBot(s) for s in range(2)])
    path = tmp_path_factory.mktemp("two") / "two.jsonl"
    save_fair(match, path)
    return path, resolver


def forced_forfeit(two_seats: tuple[Path, FairResolver], tmp_path: Path, *, cut_log: bool) -> Path:
    """Seat 0 alone cuts the transcript at seat 1's first opening of a draw and adds a timeout it
    witnesses (and, with ``cut_log``, cuts the game log there too and says the game did not end)."""
    source, resolver = two_seats
    lines, footer = footer_of(source)
    fair = footer["fair"]
    entries = fair["entries"]
    cut = index_of(entries, messages(entries, "chain/open", 1)[0])
    kept = entries[:cut]
    head = Transcript.from_json({**fair, "entries": kept}).head
    late = max(e["step"]["n"] for e in kept if "step" in e)
    timeout = {"n": late + 1, "step": "timeout", "missing": 1, "late": late, "head": head}
    witness = {"v": PROTOCOL_VERSION, "table": fair["table"], "n": late + 1, "step": "timeout", "seat": 0,
               "kind": "witness", "seen": step_seen(head, timeout),
               "body": {"missing": 1, "late": late, "head": head}}
    fair["entries"] = [*kept, {"step": timeout}, {"msg": resolver.participants[0].sign(witness)}]
    fair["head"] = Transcript.from_json(fair).head
    if cut_log:
        draw = next(i for i, line in enumerate(lines[1:-1], 1)
                    if json.loads(line).get("request", {}).get("kind") in ("roll", "pick"))
        lines = [*lines[:draw], lines[-1]]
        footer["end"] = None
    return write(lines, footer, tmp_path / "forced.jsonl")


def test_a_forced_forfeit_with_the_game_log_going_on_is_a_cut_transcript(
    two_seats: tuple[Path, FairResolver], tmp_path: Path
) -> None:
    with pytest.raises(CorruptSave, match="the transcript was cut") as caught:
        audit_file(forced_forfeit(two_seats, tmp_path, cut_log=False), GAME)
    assert not isinstance(caught.value, CheatDetected)


def test_a_forced_forfeit_at_a_two_seat_table_is_not_attributable(
    two_seats: tuple[Path, FairResolver], tmp_path: Path
) -> None:
    with pytest.raises(TableAborted, match="not attributable") as caught:
        audit_file(forced_forfeit(two_seats, tmp_path, cut_log=True), GAME)
    assert caught.value.missing == 1


def test_a_timeout_stating_another_head_is_damage(
    two_seats: tuple[Path, FairResolver], tmp_path: Path
) -> None:
    path = forced_forfeit(two_seats, tmp_path, cut_log=True)
    lines, footer = footer_of(path)
    fair = footer["fair"]
    fair["entries"][-2]["step"]["head"] = "00" * 32
    fair["head"] = Transcript.from_json(fair).head
    assert "timeout states a head" in str(damaged(write(lines, footer, tmp_path / "head.jsonl")))


# -- saving: no secrets before the end ----------------------------------------------------------------


def test_saving_a_game_that_is_not_over_is_refused_and_opens_nothing(tmp_path: Path) -> None:
    resolver = table(2, "mid-table")
    match = Match(GAME, GAME.configure(2), resolver)
    match.advance()
    with pytest.raises(Exception, match="the game is not over"):
        save_fair(match, tmp_path / "mid.jsonl")
    assert not (tmp_path / "mid.jsonl").exists()
    assert not resolver.finished and all(e["msg"]["kind"] != "seed" for e in resolver.transcript.entries
                                         if "msg" in e)


def test_after_the_seeds_are_open_no_step_is_taken(played: tuple[Path, FairResolver]) -> None:
    with pytest.raises(Exception, match="the game is over"):
        played[1].resolve(Roll(1, 6))


# -- identities: a whole game re-signed by other keys ---------------------------------------------


def re_signed(played: tuple[Path, FairResolver], tmp_path: Path) -> Path:
    """Every message re-signed by strangers' keys, each bound to a stranger's identity."""
    source, _ = played
    lines, footer = footer_of(source)
    fair = footer["fair"]
    strangers = [SigningKey(bytes([200, s]) * 16) for s in range(fair["seats"])]
    table_keys = [SigningKey(bytes([201, s]) * 16) for s in range(fair["seats"])]
    idents = [k.verify_key.encode() for k in strangers]
    fair["identities"] = [{"seat": s, "key": k.hex(), "fingerprint": fingerprint(k)}
                          for s, k in enumerate(idents)]
    head = genesis(fair["table"], fair["seats"], fair["chain_length"], idents)
    entries, seen, digests = fair["entries"], "", []
    for number, entry in enumerate(entries):
        if "step" in entry:
            if number:
                head = step_head(seen, digests)
            seen, digests = step_seen(head, entry["step"]), []
            continue
        message = dict(entry["msg"], seen=seen)
        seat = message["seat"]
        if message["kind"] == "hello":
            key = table_keys[seat].verify_key.encode()
            binding = strangers[seat].sign(binding_statement(fair["table"], seat, key)).signature
            message["body"] = dict(message["body"], key=key.hex(), binding=binding.hex())
        entry["msg"] = sign(message, table_keys[seat])
        digests.append(content_digest(entry["msg"]))
    fair["head"] = Transcript.from_json(fair).head
    return write(lines, footer, tmp_path / "re-signed.jsonl")


def test_a_game_re_signed_by_other_keys_is_consistent_but_shows_other_fingerprints(
    played: tuple[Path, FairResolver], tmp_path: Path
) -> None:
    report = audit_file(re_signed(played, tmp_path), GAME)
    assert set(report.fingerprints).isdisjoint(played[1].transcript.fingerprints())


def test_a_game_re_signed_by_other_keys_is_refused_when_the_fingerprints_are_expected(
    played: tuple[Path, FairResolver], tmp_path: Path
) -> None:
    expected = played[1].transcript.fingerprints()
    with pytest.raises(CorruptSave, match="seat 0 is signed by identity") as caught:
        audit_file(re_signed(played, tmp_path), GAME, dict(enumerate(expected)))
    assert not isinstance(caught.value, CheatDetected)


# -- atoll audit ----------------------------------------------------------------------------------


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


def test_atoll_audit_exits_zero_printing_the_fingerprints_and_what_that_means(
    kiribati_file: tuple[Path, FairResolver], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["audit", str(kiribati_file[0])]) == 0
    out = capsys.readouterr().out
    assert "every step checks" in out and "internally consistent and signed by these keys" in out
    assert "does not show that this game happened" in out
    prints = kiribati_file[1].transcript.fingerprints()
    assert all(f"seat {s}: identity {fp}" in out for s, fp in enumerate(prints))


def test_atoll_audit_accepts_the_expected_fingerprints(
    kiribati_file: tuple[Path, FairResolver], capsys: pytest.CaptureFixture[str]
) -> None:
    prints = kiribati_file[1].transcript.fingerprints()
    assert main(["audit", str(kiribati_file[0]), "--expect", f"0={prints[0].upper()}",
                 "--expect", f"1={prints[1].replace('-', '')}"]) == 0


def test_atoll_audit_refuses_another_fingerprint_than_expected(
    kiribati_file: tuple[Path, FairResolver], capsys: pytest.CaptureFixture[str]
) -> None:
    other = "1=aaaa-bbbb-cccc-dddd-eeee-ffff"
    assert main(["audit", "--json", str(kiribati_file[0]), "--expect", other]) == 2
    result = json.loads(capsys.readouterr().out)
    assert result["outcome"] == "invalid" and result["seat"] is None
    assert "seat 1 is signed by" in result["problem"]


def test_atoll_audit_exits_one_naming_the_seat_that_cheated(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = load_registry().game("kiribati")
    path = cheated(rewrite(1, "chain/open", lambda b: b.update(link="99" * 32), skip=2), tmp_path, 2,
                   game, "professional")
    assert main(["audit", "--json", str(path)]) == 1
    result = json.loads(capsys.readouterr().out)
    assert result["ok"] is False and result["outcome"] == "cheat" and result["seat"] == 1


def test_atoll_audit_exits_two_naming_the_line_of_a_damaged_file(
    kiribati_file: tuple[Path, FairResolver], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def forged(entries: list[dict[str, Any]], seats: Sequence[Any]) -> None:
        messages(entries, "chain/open", 1)[0]["sig"] = "00" * 64

    path = tampered(kiribati_file, tmp_path, forged)
    assert main(["audit", str(path)]) == 2
    err = capsys.readouterr().err
    lines = path.read_text().count("\n")
    assert f"{path}:{lines}: not a valid transcript: transcript entry" in err and "does not check" not in err


def test_atoll_audit_exits_three_when_the_table_was_aborted_with_nobody_to_blame(
    kiribati_file: tuple[Path, FairResolver], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = forced_forfeit(kiribati_file, tmp_path, cut_log=True)
    assert main(["audit", "--json", str(path)]) == 3
    result = json.loads(capsys.readouterr().out)
    assert result["outcome"] == "aborted" and result["seat"] is None
    assert "not attributable" in result["problem"]


def test_atoll_audit_refuses_a_file_that_is_not_a_fair_game(tmp_path: Path) -> None:
    path = tmp_path / "nothing.jsonl"
    shutil.copy(Path(__file__), path)
    assert main(["audit", str(path)]) == 2


def _leaves(value: Any, where: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in _leaves(v, (*where, k))] or [where]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in _leaves(v, (*where, i))] or [where]
    return [where]


ODD_VALUES = st.sampled_from([None, True, 0, -1, 1.5, "", "zz", "00" * 32, "AB" * 32, [], {}, [1], 10**30])


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_field_of_a_saved_transcript_changed_ends_in_an_outcome_never_a_traceback(
    played: tuple[Path, FairResolver], tmp_path: Path, data: st.DataObject
) -> None:
    source, _ = played
    lines, footer = footer_of(source)
    fair = footer["fair"]
    where = data.draw(st.sampled_from([p for p in _leaves(fair) if p and p[0] != "head"]))
    parent = fair
    for key in where[:-1]:
        parent = parent[key]
    parent[where[-1]] = data.draw(ODD_VALUES)
    with contextlib.suppress(AtollError):
        fair["head"] = Transcript.from_json(fair).head
    path = write(lines, footer, tmp_path / f"odd-{abs(hash(where))}.jsonl")
    with contextlib.suppress(CorruptSave, CheatDetected, TableAborted):  # an outcome, not a traceback
        audit_file(path, GAME)
