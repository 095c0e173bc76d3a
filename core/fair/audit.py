"""Audit a fair game from its saved log and transcript alone.

What the audit can say, and how it checks it, in this order (nothing is blamed until the file is
known to hold together):

1. **Authenticate** (:func:`authenticate_transcript`): the header's identity keys; every message's
   encoding, its seat's table key (vouched for by the seat's identity) and signature; that each
   message signed the history the file shows before it (``seen``); a timeout's stated head; the
   saved head. Any failure means the file is damaged or forged: :class:`DamagedTranscript`
   (``atoll audit`` exit 2), naming the entry, blaming nobody.
2. **Pair with the game log**: each roll, pick, shuffle, deal, reveal, seal and shown card must be
   the transcript's step, in order, and the log may not go on past a transcript that stops at a
   timeout (:class:`~atoll.errors.CorruptSave`, exit 2).
3. **Re-check** every step as a live peer did, with a fresh :class:`~atoll.fair.record.Record`:
   every chain link, commitment, proof and key, then every seat's history against its opened seed.
   Only now is a seat named (:class:`~atoll.errors.CheatDetected`, exit 1), and only for content it
   validly signed; a timeout witnessed by every other seat (two or more) is that seat's forfeit,
   one witnessed by fewer is :class:`~atoll.fair.abort.TableAborted` (exit 3, nobody blamed).
4. **Replay** the game on the faces the seeds open: every outcome as the log has it, every action
   and every sealed choice legal in the state it was made in.

A clean audit (exit 0) means: *the file is internally consistent and signed by these keys* (the
fingerprints it prints). It does not show that this game happened, nor who held the keys: compare
the fingerprints with the ones the table showed (``expect``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from nacl.signing import VerifyKey

from atoll.chance import Deal, Pick, Reveal, Roll, Shuffle, request_from_json
from atoll.engine.match import Event
from atoll.engine.save import SavedGame, replay
from atoll.errors import CheatDetected, CorruptSave, MalformedInput, ProtocolViolation
from atoll.fair.abort import TableAborted
from atoll.fair.messages import Unauthenticated, content_digest, parse, same, verify
from atoll.fair.record import Record, table_key_of
from atoll.fair.saving import load_fair
from atoll.fair.transcript import DamagedTranscript, StepRecord, Transcript, genesis, step_head, step_seen
from atoll.game import Game
from atoll.jsondata import JSON, canonical
from atoll.net.encoding import normal_fingerprint


@dataclass(frozen=True)
class AuditReport:
    """What an audit checked: counts a reader can compare with the game, and whose keys signed it."""

    game: str
    seats: int
    steps: int
    messages: int
    draws: int
    cards: int
    sealed: int
    fingerprints: tuple[str, ...]
    """Each seat's identity fingerprint: the file is signed by these keys, and by no others."""


class UnexpectedIdentity(CorruptSave):
    """The transcript is signed by another identity than the one expected for a seat."""


def check_identities(transcript: Transcript, expect: Mapping[int, str]) -> None:
    """Check each expected fingerprint (seat -> fingerprint, as people type it) against the header."""
    prints = transcript.fingerprints()
    for seat, wanted in sorted(expect.items()):
        if not 0 <= seat < transcript.seats:
            raise UnexpectedIdentity(f"--expect names seat {seat}, but the table has seats "
                                     f"0-{transcript.seats - 1}")
        if normal_fingerprint(wanted) != prints[seat]:
            raise UnexpectedIdentity(f"seat {seat} is signed by identity {prints[seat]}, not the expected "
                                     f"{normal_fingerprint(wanted)}: this is not the game you expected")


def authenticate_transcript(transcript: Transcript) -> None:
    """Check that every entry of ``transcript`` is authentic and in its place; blames nobody.

    Raises :class:`DamagedTranscript` naming the first entry that is not.
    """
    keys: dict[int, VerifyKey] = {}
    head = genesis(transcript.table, transcript.seats, transcript.chain_length, transcript.identities)
    for number, (index, step, messages) in enumerate(transcript.groups()):
        if step.get("n") != number:
            raise DamagedTranscript(f"step {number} expected, the file has {str(step)[:80]}", index)
        try:
            canonical(step)
        except MalformedInput as exc:
            raise DamagedTranscript(f"the step is not plain JSON: {exc}", index) from exc
        if step.get("step") == "timeout" and not same(str(step.get("head")), head):
            raise DamagedTranscript("the timeout states a head the transcript does not have at that point",
                                    index)
        seen = step_seen(head, step)
        digests = []
        for at, message in messages:
            try:
                msg = parse(message, table=transcript.table, seats=transcript.seats)
                seat = msg["seat"]
                key = keys.get(seat)
                if key is None:
                    if msg["kind"] != "hello":
                        raise Unauthenticated(f"a message in seat {seat}'s name before that seat's hello")
                    key = table_key_of(transcript.identities, transcript.table, seat, msg["body"])
                    keys[seat] = key
                verify(msg, key)
            except Unauthenticated as exc:
                raise DamagedTranscript(f"not authentic: {exc}", at) from exc
            if msg["n"] != step["n"] or msg["step"] != step.get("step") or not same(msg["seen"], seen):
                raise DamagedTranscript(f"seat {seat}'s {msg['kind']!r} message was signed for another step "
                                        "or history than the one the file shows before it: the file was "
                                        "changed", at)
            digests.append(content_digest(msg))
        head = step_head(seen, digests)
    transcript.check_head()


def check_transcript(transcript: Transcript, *, authenticated: bool = False
                     ) -> tuple[Record, list[tuple[StepRecord, dict[str, JSON]]]]:
    """Authenticate, then re-check every step and message of ``transcript``; return the record and
    each completed step's outcome.

    Raises :class:`DamagedTranscript` (nothing blamed), :class:`CheatDetected` naming the first
    seat whose signed content does not check (a forfeit included), or
    :class:`~atoll.fair.abort.TableAborted` when the table stopped at a timeout nobody can be
    blamed for. ``authenticated`` skips :func:`authenticate_transcript` when it was just run.
    """
    if not authenticated:
        authenticate_transcript(transcript)
    record, outcomes = _recheck(transcript)
    if record.cheat is not None:
        raise record.cheat
    _check_end(record)
    return record, outcomes


def _recheck(transcript: Transcript) -> tuple[Record, list[tuple[StepRecord, dict[str, JSON]]]]:
    """Run a fresh record over an authenticated transcript, up to the first cheat (kept in
    ``record.cheat``, not raised, so the caller can first check the file holds together)."""
    record = Record(transcript.table, transcript.seats, transcript.chain_length,
                    identities=transcript.identities)
    outcomes: list[tuple[StepRecord, dict[str, JSON]]] = []
    for index, step, messages in transcript.groups():
        try:
            record.begin(step)
        except ProtocolViolation as exc:
            raise DamagedTranscript(f"step {step.get('n')} cannot follow: {exc}", index) from exc
        for at, message in messages:
            try:
                record.receive(message)
            except CheatDetected:
                if at != len(transcript.entries) - 1:
                    raise DamagedTranscript("the table stops at a cheat here, yet the transcript goes on",
                                            at + 1) from None
                return record, outcomes
            except ProtocolViolation as exc:
                raise DamagedTranscript(f"a message out of place: {exc}", at) from exc
        if record.complete():
            outcomes.append((step, record.result or {}))
    return record, outcomes


def _check_end(record: Record) -> None:
    """How the transcript ends: the seeds opened, a forfeit, an abort, or cut short."""
    witnesses = [s for s in record.active() if s != record.step.get("missing")]
    if record.forfeited is not None:
        late = record.step["late"]
        raise CheatDetected(record.forfeited, f"forfeited: seats {witnesses} each signed that its message "
                                              f"for step {late} had not reached them by the deadline")
    if record.step.get("step") == "timeout":
        late, missing = record.step["late"], record.step["missing"]
        signed = sorted(seat for seat in witnesses if (seat, "witness") not in record.owed())
        raise TableAborted(missing, f"the table stopped at step {late}, waiting for seat {missing}; only "
                                    f"seats {signed} signed that (a seat's word against another's)")
    if record.owed():
        seat, kind = record.owed()[0]
        raise DamagedTranscript(f"the transcript ends while step {record.n} ({record.step['step']}) "
                                f"still waits for seat {seat}'s {kind!r} message, with no timeout: it was "
                                "cut short")
    if not record.finished:
        raise DamagedTranscript("the transcript ends before the seeds were opened; the game cannot be "
                                "audited")


def audit(game: Game, saved: SavedGame, transcript: Transcript,
          expect: Mapping[int, str] | None = None) -> AuditReport:
    """Audit a saved game against its transcript (see the module docstring for the order and the
    outcomes); ``expect`` maps seats to the identity fingerprints they must have."""
    if transcript.seats != saved.config.seats:
        raise CorruptSave(f"the transcript has {transcript.seats} seats, the game {saved.config.seats}")
    check_identities(transcript, expect or {})
    authenticate_transcript(transcript)
    record, outcomes = _recheck(transcript)
    pairs = _pair_with_log(saved, transcript, record)
    if record.cheat is not None:
        raise record.cheat
    _check_end(record)
    results = {step["n"]: outcome for step, outcome in outcomes}
    for line, event, step in pairs:
        if "request" in event and canonical(results.get(step["n"])) != canonical(event["outcome"] or {}):
            raise CorruptSave(f"line {line}: the log's outcome {event['outcome']} "
                              f"is not the transcript's {results.get(step['n'])}")
    faces = record.sealed_values()
    faces.update(record.deck.all_faces(record.seeds))
    faces.update(record.cups.all_faces(record.seeds))
    for handle, face in saved.faces.items():
        if handle not in faces or canonical(faces[handle]) != canonical(face):
            raise CorruptSave(f"the save says {handle!r} is {face!r}; the opened seeds say otherwise")
    replay(game, saved, faces)
    return AuditReport(
        game=saved.game, seats=transcript.seats, steps=len(outcomes),
        messages=sum(1 for e in transcript.entries if "msg" in e), draws=record.draws,
        cards=record.deck.card_count(), sealed=len(record.sealed_values()),
        fingerprints=tuple(transcript.fingerprints()),
    )


def audit_file(path: Path, game: Game, expect: Mapping[int, str] | None = None) -> AuditReport:
    """Audit the saved fair game at ``path`` played with ``game``."""
    saved, transcript = load_fair(path)
    if saved.game != game.info.name:
        raise CorruptSave(f"{path} is a game of {saved.game}, not {game.info.name}")
    return audit(game, saved, transcript, expect)


_PAIRS = {Roll: "draw", Pick: "draw", Shuffle: "shuffle", Deal: "deal", Reveal: "reveal"}
#: Steps with no event of their own in the game log (a cup's commitment is part of its roll's draw).
_UNLOGGED = ("setup", "chain", "cup", "leave", "finish", "timeout")


def _pair_with_log(saved: SavedGame, transcript: Transcript, record: Record
                   ) -> list[tuple[int, Event, StepRecord]]:
    """Walk the game log beside the transcript's steps: each must be the other's counterpart.

    The engine logs an event once its step is done, so a step the table stopped in (a cheat caught,
    or a timeout's late step) has no counterpart, and nothing may follow it in the log.
    """
    all_steps = [s for s, _ in transcript.steps()]
    stopped: int | None = None
    if record.cheat is not None:
        stopped = record.n
    elif record.step.get("step") == "timeout":
        stopped = record.step.get("late")
    steps = [s for s in all_steps if s.get("step") not in _UNLOGGED and s.get("n") != stopped]
    pairs = []
    position = 0
    for line, event in enumerate(saved.events, 2):
        expected = _expected_step(line, event)
        if expected is None:
            continue
        if position == len(steps):
            if stopped is not None:
                raise CorruptSave(f"line {line}: the table stopped at step {stopped}, yet the game log goes "
                                  "on: the transcript was cut")
            raise CorruptSave(f"line {line}: the game log goes on after the fair transcript's last step")
        step = steps[position]
        position += 1
        fields = {k: v for k, v in step.items() if k not in ("n", "draw")}
        if canonical(fields) != canonical(expected):
            raise CorruptSave(f"line {line}: the game log has {expected}, "
                              f"the transcript step {step['n']} {fields}")
        pairs.append((line, event, step))
    if position < len(steps):
        raise CorruptSave(f"the fair transcript has step {steps[position]['n']} with no counterpart in "
                          "the game log")
    stopped_step = next((s for s in all_steps if s.get("n") == stopped), {})
    if stopped is not None and saved.results is not None and stopped_step.get("step") != "finish":
        raise CorruptSave(f"the save says the game ended, but its table stopped at step {stopped}")
    return pairs


def _expected_step(line: int, event: Event) -> dict[str, JSON] | None:
    try:
        if "request" in event:
            request = request_from_json(event["request"])
            fields: dict[str, JSON] = {"step": _PAIRS[type(request)]}
            data = request.to_json()
            if isinstance(request, Roll | Pick):
                fields["request"] = data
            else:
                fields.update({k: v for k, v in data.items() if k != "kind"})
            return fields
        if "sealed" in event:
            return {"step": "seal", "seat": event["seat"], "handles": event["sealed"]}
        reveal = event["action"].get("reveal")
        return {"step": "prove", "seat": event["seat"], "claims": reveal} if reveal else None
    except (KeyError, TypeError, AttributeError, MalformedInput) as exc:
        raise CorruptSave(f"line {line}: malformed event in the game log: {str(event)[:120]}") from exc
