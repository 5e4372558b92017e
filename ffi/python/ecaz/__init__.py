"""Python client of the Ecaz rules engine (GF9 Dune, Ecaz & Moritani), over
its C ABI.

    from ecaz import Game, EcazError

    game = Game.new({"seats": ["ecaz", "atreides"], "seed": 42})
    events = game.apply({"actor": "host", "action": {"kind": "endPhase", "phase": "storm"}})
    view = game.view("atreides")          # what Atreides may see (a typed model)
    try:
        game.apply({"actor": "ecaz", "action": {"kind": "endPhase", "phase": "storm"}})
    except EcazError as e:
        print(e.code)                      # rule/wrong_actor; the game is unchanged

Inputs are JSON text, plain dicts or the generated pydantic models of
`ecaz.models` (from schemas/); outputs are those models, and the `*_json`
methods give the engine's exact JSON text.
"""

from __future__ import annotations

import json
import threading
from typing import Any

from pydantic import BaseModel

from . import _native
from ._native import EcazError, format_version, version
from .models import Event, Options, View

__all__ = [
    "EcazError",
    "Game",
    "apply_events",
    "apply_json",
    "bot_command",
    "diff_table",
    "format_version",
    "new_game_json",
    "options_json",
    "table_of",
    "version",
    "view_json",
]


def to_json(document: Any) -> str:
    """A document as JSON text: text as is, a pydantic model as its wire form
    (fields it was given), anything else through `json.dumps`."""
    if isinstance(document, str):
        return document
    if isinstance(document, BaseModel):
        return document.model_dump_json(by_alias=True, exclude_unset=True)
    return json.dumps(document)


def _id(who: Any) -> str:
    """A viewer or actor id: `"ecaz"`, an enum member or a model holding one."""
    value = getattr(who, "root", who)
    value = getattr(value, "value", value)
    return json.dumps(str(value))


class Game:
    """A game kept inside the library (the C handle API); `apply` changes it
    in place, and a rejected command leaves it exactly as it was.

    A Game may be shared between threads: one lock per game lets one call
    at a time into its handle, as the C ABI requires (ctypes releases the
    GIL during a call), and `close()` waits for a running call (D-187)."""

    def __init__(self, handle: Any) -> None:
        self._lock = threading.Lock()
        self._handle = handle

    @classmethod
    def new(cls, setup: Any) -> "Game":
        """A game from a setup document (dict, JSON text or `models.Setup`)."""
        return cls(_native.game_open("ecaz_game_new", to_json(setup)))

    @classmethod
    def from_state(cls, state: str) -> "Game":
        """A game from a saved state (as `state_json()` gives it)."""
        return cls(_native.game_open("ecaz_game_from_state", state))

    def _call(self, name: str, *texts: str) -> str:
        """One call into the handle, under the game's lock."""
        with self._lock:
            if self._handle is None:
                raise ValueError("the game was closed")
            return _native.game_call(name, self._handle, *texts)

    def apply_json(self, command: Any) -> str:
        """Apply a command; the events as the engine's JSON array text."""
        return self._call("ecaz_game_apply", to_json(command))

    def apply(self, command: Any) -> list[Event]:
        """Apply a command; its events as typed models. Raises `EcazError`."""
        return [Event.model_validate(e) for e in json.loads(self.apply_json(command))]

    def state_json(self) -> str:
        """The saved state (JSON text; carries the RNG)."""
        return self._call("ecaz_game_state")

    def view_json(self, viewer: Any) -> str:
        return self._call("ecaz_game_view", _id(viewer))

    def view(self, viewer: Any) -> View:
        """What `viewer` (a faction id, `spectator` or `host`) may see."""
        return View.model_validate_json(self.view_json(viewer))

    def options_json(self, actor: Any) -> str:
        return self._call("ecaz_game_options", _id(actor))

    def options(self, actor: Any) -> Options:
        """The legal commands and choice descriptors of `actor` (`host` or a faction id)."""
        return Options.model_validate_json(self.options_json(actor))

    def close(self) -> None:
        """Free the handle (also done when the game is collected); waits
        for a call running in another thread."""
        lock = getattr(self, "_lock", None)
        if lock is None:  # __init__ did not run to the end
            return
        with lock:
            if self._handle is not None:
                _native.game_free(self._handle)
                self._handle = None

    def __enter__(self) -> "Game":
        return self

    def __exit__(self, *_: Any) -> None:
        self.close()

    def __del__(self) -> None:
        self.close()


def new_game_json(setup: Any) -> str:
    """The pure call: a setup document → the state JSON."""
    return _native.call("ecaz_new_game_json", to_json(setup))


def apply_json(state: str, command: Any) -> tuple[str, str]:
    """The pure call: (state, command) → (new state, events) as JSON text."""
    doc = json.loads(_native.call("ecaz_apply_json", state, to_json(command)))
    return (
        json.dumps(doc["state"], separators=(",", ":"), ensure_ascii=False),
        json.dumps(doc["events"], separators=(",", ":"), ensure_ascii=False),
    )


def view_json(state: str, viewer: Any) -> str:
    """The pure call: a state and a viewer → the view JSON."""
    return _native.call("ecaz_view_json", state, _id(viewer))


def options_json(state: str, actor: Any) -> str:
    """The pure call: a state and an actor → the options JSON."""
    return _native.call("ecaz_options_json", state, _id(actor))


def bot_command(state: str, actor: Any, profile: str, seed: int) -> dict[str, Any] | None:
    """What a bot of `profile` (`"random"` or `"heuristic"`) seeded with `seed`
    sends as `actor` in a state: the command as a dict, or `None` when the
    actor has nothing to send. Same inputs, same command."""
    result: dict[str, Any] | None = json.loads(_native.bot(state, _id(actor), profile, seed))
    return result


def table_of(state: str) -> dict[str, Any]:
    """D-231: the table of a state (the `TableFacts` document `syncTable` takes)."""
    result: dict[str, Any] = json.loads(_native.call("ecaz_table_of_json", state))
    return result


def apply_events(table: Any, events: Any) -> dict[str, Any]:
    """D-231: the table after one command's events (all of them, as `apply`
    returns them). Events that do not fit the table raise
    `sync/events_mismatch`."""
    result: dict[str, Any] = json.loads(_native.call("ecaz_apply_events_json", to_json(table), _events_json(events)))
    return result


def diff_table(a: Any, b: Any) -> list[dict[str, Any]]:
    """D-231: the facts that differ from table `a` to table `b`, as `tableSynced` lists them."""
    result: list[dict[str, Any]] = json.loads(_native.call("ecaz_diff_table_json", to_json(a), to_json(b)))
    return result


def _events_json(events: Any) -> str:
    """Events as JSON text: text as is, else a list of dicts or `Event` models."""
    if isinstance(events, str):
        return events
    return "[" + ",".join(to_json(e) for e in events) + "]"
