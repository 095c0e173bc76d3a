"""Saved games: JSON lines that replay to the same final state, and refusal of bad saves."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from atoll.bots.random_bot import RandomBot
from atoll.engine import LocalResolver, Match, load, replay, run, save
from atoll.errors import AtollError, CheatDetected, CorruptSave
from atoll.game import Game
from atoll.jsondata import digest


def finished(game: Game, seed: int = 3) -> Match:
    match = Match(game, game.configure(3), LocalResolver(seed))
    run(match, [RandomBot(s) for s in range(3)])
    return match


def saved(tmp_path: Path, match: Match) -> Path:
    path = tmp_path / "game.jsonl"
    assert isinstance(match.resolver, LocalResolver)
    save(match, path, seed=match.resolver.seed, faces=match.resolver.faces())
    return path


def test_a_saved_game_replays_to_the_same_final_state(tmp_path: Path, highcard: Game) -> None:
    match = finished(highcard)
    again = replay(highcard, load(saved(tmp_path, match)))
    assert digest(again.state) == digest(match.state)
    assert again.results() == match.results()


def test_a_save_is_one_json_object_a_line(tmp_path: Path, highcard: Game) -> None:
    match = finished(highcard)
    lines = saved(tmp_path, match).read_text().splitlines()
    assert len(lines) == len(match.events) + 2
    assert json.loads(lines[0])["game"] == "highcard"


def test_saving_never_overwrites_a_file(tmp_path: Path, highcard: Game) -> None:
    path = tmp_path / "mine.jsonl"
    path.write_text("precious")
    with pytest.raises(AtollError, match="already exists"):
        save(finished(highcard), path, seed=3, faces={})
    assert path.read_text() == "precious"


def test_a_changed_outcome_is_caught_on_replay(tmp_path: Path, highcard: Game) -> None:
    path = saved(tmp_path, finished(highcard))
    lines = path.read_text().splitlines()
    roll = next(i for i, line in enumerate(lines) if '"roll"' in line)
    event = json.loads(lines[roll])
    event["outcome"]["values"] = [7 - event["outcome"]["values"][0]]
    lines[roll] = json.dumps(event)
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(CorruptSave):
        replay(highcard, load(path))


def test_a_false_face_in_the_save_is_caught_on_replay(tmp_path: Path, highcard: Game) -> None:
    path = saved(tmp_path, finished(highcard))
    lines = path.read_text().splitlines()
    footer = json.loads(lines[-1])
    played = json.loads(next(line for line in lines if '"reveal"' in line))["action"]["play"]
    footer["faces"][played] = 9
    lines[-1] = json.dumps(footer)
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(CheatDetected, match="seat"):
        replay(highcard, load(path))


def test_a_save_cut_short_is_refused_with_a_reason(tmp_path: Path, highcard: Game) -> None:
    path = saved(tmp_path, finished(highcard))
    path.write_text("\n".join(path.read_text().splitlines()[:-1]) + "\n")
    with pytest.raises(CorruptSave, match="cut short"):
        load(path)


def test_a_line_that_is_not_json_is_named(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text('{"format": "atoll-game", "version": 1}\n{oops\n')
    with pytest.raises(CorruptSave, match=":2: not JSON"):
        load(path)


def test_a_file_that_is_not_a_save_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("[1, 2]\n[3]\n")
    with pytest.raises(CorruptSave, match="not an atoll saved game"):
        load(path)


def test_a_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(CorruptSave, match="cannot read"):
        load(tmp_path / "nowhere.jsonl")
