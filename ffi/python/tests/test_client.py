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


def test_d230_a_retried_write_with_its_revision_never_applies_twice():
    with Game.new(SETUP) as game:
        state = json.loads(game.state_json())
        assert state["revision"] == 0
        guarded = dict(END_STORM, ifRevision=0)
        game.apply(guarded)
        before = game.state_json()
        with pytest.raises(EcazError) as e:
            game.apply(guarded)
        assert e.value.code == "rule/stale_revision"
        assert game.state_json() == before
        assert game.view("host").model_dump(mode="json", by_alias=True)["revision"] == 1


def test_d231_the_table_mirror_and_bots_over_the_c_abi():
    with Game.new({"seats": ["ecaz", "atreides", "harkonnen"], "seed": 11}) as game:
        table = ecaz.table_of(game.state_json())
        assert sorted(table["factions"]) == ["atreides", "ecaz", "harkonnen"]
        played = decided = 0
        for step in range(60):
            state = game.state_json()
            pending = game.view("host").model_dump(mode="json", by_alias=True)["pending"]
            if pending:
                # A bot answers the open decision, whoever's it is.
                command = ecaz.bot_command(state, pending[-1]["actor"], "heuristic", step)
                assert command is not None, f"step {step}: the decision's actor has a command"
                decided += 1
            else:
                # The host's own report: the first it may send (the phase's end).
                command = game.options("host").model_dump(mode="json", by_alias=True)["commands"][0]
            events = json.loads(game.apply_json(command))
            table = ecaz.apply_events(table, events)
            assert ecaz.diff_table(table, ecaz.table_of(game.state_json())) == []
            played += 1
        assert decided > 0
        assert played == 60
        # A host report is mirrored too.
        drawn = json.loads(game.apply_json({"actor": "host", "action": {"kind": "gainSpice", "faction": "ecaz", "amount": 2}}))
        table = ecaz.apply_events(table, drawn)
        assert ecaz.diff_table(table, ecaz.table_of(game.state_json())) == []
        with pytest.raises(EcazError) as e:
            ecaz.bot_command(game.state_json(), "ecaz", "clever", 1)
        assert e.value.code == "decode/invalid_bot"
