"""The scenario corpus (tests/scenarios/*.json), run through this client:
the Python side of docs/conformance.md. `run(path)` replays one file through
a `Game` handle and checks every step's error code and format-2 expectations
(events by kind and listed fields in order, view fragments by JSON Pointer,
present/absent options), exactly as the native `ecaz replay` does.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import EcazError, Game

SUPPORTED_FORMATS = (1, 2)


@dataclass
class StepResult:
    """What one step did: its events (accepted) or error code (rejected), and
    every expectation it missed (empty when as expected)."""

    step: int
    events: list[dict[str, Any]] | None
    error: str | None
    mismatches: list[str] = field(default_factory=list)

    def transcript(self) -> dict[str, Any]:
        """The line examples/scenarios/transcript.py compares."""
        if self.events is not None:
            return {"step": self.step, "events": self.events}
        return {"step": self.step, "error": self.error}


def pointer(doc: Any, ptr: str) -> tuple[bool, Any]:
    """RFC 6901: (found, value)."""
    if ptr == "":
        return True, doc
    if not ptr.startswith("/"):
        return False, None
    for raw in ptr[1:].split("/"):
        token = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(doc, dict) and token in doc:
            doc = doc[token]
        elif isinstance(doc, list) and token.isdigit() and (token == "0" or not token.startswith("0")) and int(token) < len(doc):
            doc = doc[int(token)]
        else:
            return False, None
    return True, doc


def _matches(obj: Any, pattern: dict[str, Any]) -> bool:
    """`kind` equal and every other listed field present and equal."""
    return isinstance(obj, dict) and all(k in obj and obj[k] == v for k, v in pattern.items())


def _event_matches(event: dict[str, Any], pattern: dict[str, Any]) -> bool:
    fields = dict(pattern)
    audience = fields.pop("audience", None)
    if audience is not None and event.get("audience") != audience:
        return False
    return _matches(event.get("event"), fields)


def _shown(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def check(expect: dict[str, Any], events: list[dict[str, Any]] | None, game: Game) -> list[str]:
    """Every expectation of `expect` the step missed, as messages."""
    out: list[str] = []
    patterns = expect.get("events", [])
    count = expect.get("eventCount")
    if patterns or count is not None:
        if events is None:
            out.append("events expected, but the command was rejected")
        else:
            if count is not None and count != len(events):
                out.append(f"expected {count} event(s), got {len(events)}")
            rest = iter(events)
            for i, p in enumerate(patterns):
                if not any(_event_matches(e, p) for e in rest):
                    kinds = ", ".join(e["event"]["kind"] for e in events)
                    out.append(
                        f"expected event {i + 1} of {len(patterns)} not found (in order): {_shown(p)}; "
                        f"the step emitted [{kinds}]"
                    )
                    break
    for v in expect.get("views", []):
        doc = json.loads(game.view_json(v["viewer"]))
        for ptr, want in v.get("equals", {}).items():
            found, got = pointer(doc, ptr)
            if not found:
                out.append(f"view of {v['viewer']} at {ptr}: expected {_shown(want)}, found nothing")
            elif got != want:
                out.append(f"view of {v['viewer']} at {ptr}: expected {_shown(want)}, got {_shown(got)}")
        for ptr in v.get("absent", []):
            found, got = pointer(doc, ptr)
            if found and got is not None:
                out.append(f"view of {v['viewer']} at {ptr}: expected absent, got {_shown(got)}")
    for o in expect.get("options", []):
        listed = json.loads(game.options_json(o["actor"]))
        candidates = [c["action"] for c in listed["commands"]] + listed["choices"]
        for p in o.get("present", []):
            if not any(_matches(c, p) for c in candidates):
                out.append(f"options of {o['actor']}: nothing matches {_shown(p)}")
        for p in o.get("absent", []):
            found = next((c for c in candidates if _matches(c, p)), None)
            if found is not None:
                out.append(f"options of {o['actor']}: {_shown(p)} must be absent, but {_shown(found)} is listed")
    return out


def run(path: Path | str) -> list[StepResult]:
    """Replay a scenario file; one result per step."""
    scenario = json.loads(Path(path).read_text(encoding="utf-8"))
    fmt = scenario.get("format", 1)
    if fmt not in SUPPORTED_FORMATS:
        raise ValueError(f"{path}: scenario format {fmt} is not supported")
    results = []
    with Game.new(scenario["setup"]) as game:
        for n, step in enumerate(scenario["steps"], start=1):
            before = game.state_json()
            try:
                events: list[dict[str, Any]] | None = json.loads(game.apply_json(step["command"]))
                error = None
            except EcazError as e:
                events, error = None, e.code
                if game.state_json() != before:
                    error += " [BUG: the state changed]"
            result = StepResult(n, events, error)
            if step.get("error") != error:
                want = f"error {step['error']}" if step.get("error") else "acceptance"
                got = f"error {error}" if error else "acceptance"
                result.mismatches.append(f"expected {want}, got {got}")
            result.mismatches.extend(check(step.get("expect", {}), events, game))
            results.append(result)
    return results
