"""The idiomatic API over the C ABI — `Game.new(setup)`,
`game.apply(cmd)`, `game.view(viewer)`, `game.options(actor)` — typed models
in and out, and errors as `EcazError` carrying the stable code, with the game
unchanged (ARCHITECTURE §7)."""

from __future__ import annotations

import json

import pytest

import ecaz
from ecaz import EcazError, Game
from ecaz.models import Command, Setup, View

SETUP = {"seats": ["ecaz", "atreides"], "seed": 7, "factions": {"ecaz": {"hand": [30]}}}
END_STORM = {"actor": "host", "action": {"kind": "endPhase", "phase": "storm"}}


def test_new_apply_view_options():
    with Game.new(SETUP) as game:
        events = game.apply(END_STORM)
        kinds = [e.model_dump(mode="json")["event"]["kind"] for e in events]
        assert "phaseStarted" in kinds
        view = game.view("ecaz")
        assert isinstance(view, View)
        dumped = view.model_dump(mode="json", by_alias=True)
        assert dumped["phase"] == "spiceBlow"
        # Hidden information: Ecaz sees its hand, Atreides does not.
        assert dumped["factions"][0]["hand"] == [30]
        other = game.view("atreides").model_dump(mode="json", by_alias=True)
        assert other["factions"][0]["hand"] is None
        host = game.options("host").model_dump(mode="json", by_alias=True)
        assert host["commands"][0]["action"] == {"kind": "endPhase", "phase": "spiceBlow"}


def test_typed_models_go_in():
    setup = Setup.model_validate(SETUP)
    command = Command.model_validate(END_STORM)
    with Game.new(setup) as game:
        assert game.apply(command)


def test_a_rule_rejection_is_an_exception_with_the_code_and_leaves_the_game_unchanged():
    with Game.new(SETUP) as game:
        before = game.state_json()
        with pytest.raises(EcazError) as caught:
            game.apply({"actor": "host", "action": {"kind": "endPhase", "phase": "revival"}})
        assert caught.value.code == "rule/wrong_phase"
        assert game.state_json() == before
        with pytest.raises(EcazError) as caught:
            game.apply({"actor": "ecaz", "action": {"kind": "endPhase", "phase": "storm"}})
        assert caught.value.code == "rule/wrong_actor"
        assert game.state_json() == before


@pytest.mark.parametrize(
    ("call", "code"),
    [
        (lambda: Game.new("{ not json"), "decode/invalid_json"),
        (lambda: Game.new({"seats": ["ecaz"], "seed": 1}), "setup/invalid"),
        (lambda: Game.from_state('{"version": 1}'), "decode/invalid_state"),
        (lambda: Game.from_state("[]"), "state/unsupported_version"),
        (lambda: Game.new(SETUP).view("sardaukar"), "decode/invalid_viewer"),
        (lambda: Game.new(SETUP).apply({"actor": "host", "action": {"kind": "fly"}}), "decode/invalid_command"),
    ],
)
def test_decode_errors_carry_stable_codes(call, code):
    with pytest.raises(EcazError) as caught:
        call()
    assert caught.value.code == code
    assert caught.value.report["code"] == code


def test_the_pure_calls_agree_with_the_handle():
    state = ecaz.new_game_json(SETUP)
    with Game.from_state(state) as game:
        assert game.state_json() == state
        new_state, events = ecaz.apply_json(state, END_STORM)
        assert json.loads(events) == json.loads(game.apply_json(END_STORM))
        assert json.loads(new_state) == json.loads(game.state_json())
        assert json.loads(ecaz.view_json(new_state, "spectator")) == json.loads(game.view_json("spectator"))
        assert json.loads(ecaz.options_json(new_state, "host")) == json.loads(game.options_json("host"))
    assert ecaz.format_version() == json.loads(state)["version"]
    assert ecaz.version()
