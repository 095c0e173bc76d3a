"""Audit a fair game from its saved log and transcript alone, naming the first seat that does not check.

The audit trusts nothing in the file. It runs a fresh :class:`~atoll.fair.record.Record` over the
transcript, exactly as a live peer did (every signature, chain link, commitment, shuffle proof and
key share), then checks every seat's whole history against the seed it opened at the end. It then
walks the game log beside the transcript (every roll, pick, shuffle, deal, reveal, seal and shown
card must be the step the transcript resolved, with the same outcome) and replays the game on the
faces the seeds open, which also checks that every sealed choice was legal when it was sealed.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from pathlib import Path

from atoll.chance import Deal, Pick, Reveal, Roll, Shuffle, request_from_json
from atoll.engine.match import Event, Match
from atoll.engine.save import SavedGame, replay
from atoll.errors import CheatDetected, CorruptSave, ProtocolViolation
from atoll.fair.messages import author
from atoll.fair.record import Record
from atoll.fair.saving import load_fair
from atoll.fair.transcript import StepRecord, Transcript
from atoll.game import Game
from atoll.jsondata import JSON, canonical


@dataclass(frozen=True)
class AuditReport:
    """What an audit checked: counts a reader can compare with the game."""

    game: str
    seats: int
    steps: int
    messages: int
    draws: int
    cards: int
    sealed: int


def check_transcript(transcript: Transcript) -> tuple[Record, list[tuple[StepRecord, dict[str, JSON]]]]:
    """Re-check every step and message of ``transcript``; return the record and each step's outcome.

    Raises :class:`CheatDetected` naming the first seat whose message or history does not check
    (a forfeit included), or :class:`CorruptSave` when the transcript itself is cut short.
    """
    record = Record(transcript.table, transcript.seats, transcript.chain_length)
    outcomes: list[tuple[StepRecord, dict[str, JSON]]] = []
    for step, messages in transcript.steps():
        try:
            record.begin(step)
        except ProtocolViolation as exc:
            if record.forfeited is not None:
                break
            raise CorruptSave(f"transcript step {step.get('n')}: {exc}") from exc
        for message in messages:
            try:
                record.receive(message)
            except ProtocolViolation as exc:
                raise CheatDetected(author(message), f"step {step.get('n')}: {exc}") from exc
        if record.forfeited is not None:
            late = step.get("late")
            raise CheatDetected(record.forfeited, f"forfeited: sent nothing for step {late} before the "
                                                  f"deadline (witnessed by seats {record.active()})")
        if record.complete():
            outcomes.append((step, record.result or {}))
    if record.owed():
        seat, kind = record.owed()[0]
        name = record.step["step"]
        raise CheatDetected(seat, f"never sent its {kind!r} message for step {record.n} ({name})")
    if record.step.get("step") != "finish":
        raise CorruptSave("the transcript ends before the seeds were opened; the game cannot be audited")
    return record, outcomes


def audit(game: Game, saved: SavedGame, transcript: Transcript) -> AuditReport:
    """Audit a saved game against its transcript; raises :class:`CheatDetected` naming a seat, or
    :class:`CorruptSave` when the log and the transcript do not belong together."""
    if transcript.seats != saved.config.seats:
        raise CorruptSave(f"the transcript has {transcript.seats} seats, the game {saved.config.seats}")
    try:
        record, outcomes = check_transcript(transcript)
    except CheatDetected as exc:
        try:
            transcript.check_head()
        except CorruptSave as damage:
            raise CheatDetected(exc.seat, f"{_without_seat(exc)} (and {damage})") from exc
        raise
    transcript.check_head()
    _match_log(saved.events, outcomes)
    faces = record.sealed_values()
    faces.update(record.deck.all_faces(record.seeds))
    for handle, face in saved.faces.items():
        if handle not in faces or canonical(faces[handle]) != canonical(face):
            raise CorruptSave(f"the save says {handle!r} is {face!r}; the opened seeds say otherwise")
    _replay(game, saved, faces)
    return AuditReport(
        game=saved.game, seats=transcript.seats, steps=len(outcomes),
        messages=sum(1 for e in transcript.entries if "msg" in e), draws=record.draws,
        cards=record.deck.card_count(), sealed=len(record.sealed_values()),
    )


def audit_file(path: Path, game: Game) -> AuditReport:
    """Audit the saved fair game at ``path`` played with ``game``."""
    saved, transcript = load_fair(path)
    if saved.game != game.info.name:
        raise CorruptSave(f"{path} is a game of {saved.game}, not {game.info.name}")
    return audit(game, saved, transcript)


def _without_seat(exc: CheatDetected) -> str:
    text = str(exc)
    prefix = f"seat {exc.seat}: "
    return text[len(prefix):] if text.startswith(prefix) else text


_PAIRS = {Roll: "draw", Pick: "draw", Shuffle: "shuffle", Deal: "deal", Reveal: "reveal"}


def _match_log(events: list[Event], outcomes: list[tuple[StepRecord, dict[str, JSON]]]) -> None:
    """Walk the game log beside the transcript's steps: each must be the other's counterpart."""
    steps = deque((s, r) for s, r in outcomes if s["step"] not in ("setup", "chain", "leave", "finish"))
    for line, event in enumerate(events, 2):
        expected = _expected_step(event)
        if expected is None:
            continue
        if not steps:
            raise CorruptSave(f"line {line}: the game log goes on after the fair transcript's last step")
        step, outcome = steps.popleft()
        fields = {k: v for k, v in step.items() if k not in ("n", "draw")}
        if canonical(fields) != canonical(expected):
            raise CorruptSave(f"line {line}: the game log has {expected}, "
                              f"the transcript step {step['n']} {fields}")
        if "request" in event and canonical(outcome) != canonical(event["outcome"] or {}):
            raise CorruptSave(f"line {line}: the log's outcome {event['outcome']} "
                              f"is not the transcript's {outcome}")
    if steps:
        extra = steps[0][0]["n"]
        raise CorruptSave(f"the fair transcript has step {extra} with no counterpart in the game log")


def _expected_step(event: Event) -> dict[str, JSON] | None:
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
    except (KeyError, TypeError, AttributeError) as exc:
        raise CorruptSave(f"malformed event in the game log: {str(event)[:120]}") from exc


def _replay(game: Game, saved: SavedGame, faces: dict[str, JSON]) -> Match:
    """Play the log back on the opened faces; a sealed choice that was not legal names its seat."""
    return replay(game, saved, faces)
