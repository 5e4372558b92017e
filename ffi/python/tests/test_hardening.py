"""The Python door's input policy and thread safety (D-180, D-187): one
lock per Game (calls from several threads and close() never meet inside the
handle), inputs over the engine's cap and strings that are not UTF-8 refused
as `EcazError` before anything reaches the engine, other games unharmed."""

from __future__ import annotations

import json
import threading
import time

import pytest

from ecaz import EcazError, Game, new_game_json, view_json
from ecaz._native import MAX_INPUT_BYTES

SETUP = {"seats": ["ecaz", "atreides", "harkonnen"], "seed": 7}
GAIN = {"actor": "host", "action": {"kind": "gainSpice", "faction": "ecaz", "amount": 1}}


def spice(game: Game) -> int:
    return json.loads(game.state_json())["factions"][0]["spice"]


def test_shared_game_threads_one_call_at_a_time_d187():
    game = Game.new(SETUP)
    before = spice(game)
    codes: list[str] = []
    applied = [0]
    count = threading.Lock()

    def work(i: int) -> None:
        for _ in range(150):
            try:
                if i % 2:
                    game.apply(GAIN)
                    with count:
                        applied[0] += 1
                else:
                    json.loads(game.state_json())
            except EcazError as e:
                codes.append(e.code)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert codes == []
    assert spice(game) == before + applied[0]
    game.close()


def test_close_racing_calls_d187():
    for _ in range(20):
        game = Game.new(SETUP)
        outcomes: list[str] = []

        def work() -> None:
            deadline = time.perf_counter() + 0.05
            while time.perf_counter() < deadline:
                try:
                    game.state_json()
                    outcomes.append("ok")
                except ValueError:
                    outcomes.append("closed")
                    return

        threads = [threading.Thread(target=work) for _ in range(4)]
        for t in threads:
            t.start()
        game.close()
        for t in threads:
            t.join()
        assert set(outcomes) <= {"ok", "closed"}
        with pytest.raises(ValueError):
            game.state_json()


def test_lone_surrogate_is_an_ecaz_error_d187():
    with Game.new(SETUP) as game:
        with pytest.raises(EcazError) as refused:
            game.apply('{"actor":"host\ud800","action":{}}')
        assert refused.value.code == "decode/invalid_utf8"
        # An id goes as a JSON string (the surrogate escaped): refused as JSON.
        with pytest.raises(EcazError) as refused:
            game.view("ecaz\udfff")
        assert refused.value.code == "decode/invalid_json"
    with pytest.raises(EcazError):
        new_game_json('{"seats":["\ud800"]}')


def test_large_input_refused_before_parse_d180():
    state = new_game_json(SETUP)
    other = Game.new(SETUP)
    before = other.state_json()
    # Over the cap in characters, and in bytes only (3 bytes a character).
    for huge in ["x" * (MAX_INPUT_BYTES + 1), "\u20ac" * (MAX_INPUT_BYTES // 3 + 1)]:
        started = time.perf_counter()
        for call in (
            lambda: Game.new(huge),
            lambda: Game.from_state(huge),
            lambda: other.apply(huge),
            lambda: view_json(huge, "host"),
            lambda: view_json(state, huge),
        ):
            with pytest.raises(EcazError) as refused:
                call()
            assert refused.value.code == "decode/input_too_large"
            assert len(refused.value.message) < 200
        assert time.perf_counter() - started < 5
    # The other game is unharmed.
    assert other.state_json() == before
    other.apply(GAIN)
    other.close()
