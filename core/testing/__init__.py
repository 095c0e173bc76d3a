"""Tools for testing games: a rigged resolver for scenarios and the conformance kit."""

from atoll.testing.conformance import (
    CHECKS,
    ConformanceCase,
    ConformanceError,
    Moment,
    Playout,
    check_action_texts,
    check_determinism,
    check_game,
    check_hidden_faces,
    check_hidden_inputs,
    check_illegal_actions,
    check_json,
    check_no_mutation,
    check_public_replay,
    check_render,
    conformance_cases,
    play,
)
from atoll.testing.fast import check_fast_path
from atoll.testing.rigged import RiggedResolver
from atoll.testing.texts import check_owner_marks, check_score_sheet, check_texts

__all__ = [
    "CHECKS",
    "ConformanceCase",
    "ConformanceError",
    "Moment",
    "Playout",
    "RiggedResolver",
    "check_action_texts",
    "check_determinism",
    "check_fast_path",
    "check_game",
    "check_hidden_faces",
    "check_hidden_inputs",
    "check_illegal_actions",
    "check_json",
    "check_no_mutation",
    "check_owner_marks",
    "check_public_replay",
    "check_render",
    "check_score_sheet",
    "check_texts",
    "conformance_cases",
    "play",
]
