"""The whole scenario corpus (tests/scenarios/*.json, format 2)
replays through the Python client with every in-file expectation met, and
agrees with the native engine (`ecaz replay`) event for event."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from ecaz import conformance
from ecaz.models import ErrorReport, Event, Scenario

ROOT = Path(__file__).resolve().parents[3]
FILES = sorted((ROOT / "tests" / "scenarios").glob("*.json"))


def native_cli() -> str:
    explicit = os.environ.get("ECAZ_CLI")
    if explicit:
        return explicit
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    return str(target / "debug" / "ecaz")


def native(path: Path) -> list[dict]:
    """The native engine's run, brought to the transcript form."""
    out = subprocess.run([native_cli(), "replay", str(path)], capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    lines = []
    for text in out.stdout.splitlines():
        report = json.loads(text)
        if "events" in report:
            lines.append({"step": report["step"], "events": report["events"]})
        else:
            ErrorReport.model_validate(report["error"])
            lines.append({"step": report["step"], "error": report["error"]["code"]})
    return lines


def test_the_corpus_is_there():
    assert len(FILES) >= 20, FILES
    formats = {p.name: json.loads(p.read_text()).get("format", 1) for p in FILES}
    assert set(formats.values()) == {2}, f"every file is format 2: {formats}"


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_scenario_replays_with_every_expectation_met(path: Path):
    results = conformance.run(path)
    scenario = json.loads(path.read_text())
    assert len(results) == len(scenario["steps"])
    expectations = sum(bool(s.get("expect")) for s in scenario["steps"])
    assert expectations > 0, f"{path.name} asserts nothing in-file"
    failures = [f"step {r.step}: {m}" for r in results for m in r.mismatches]
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_scenario_agrees_with_the_native_engine_event_for_event(path: Path):
    mine = [r.transcript() for r in conformance.run(path)]
    theirs = native(path)
    assert len(mine) == len(theirs)
    for a, b in zip(mine, theirs):
        assert a == b, f"step {a['step']}:\n  python {json.dumps(a)}\n  native {json.dumps(b)}"
    # The typed models read every event back to the same document.
    for line in mine:
        for e in line.get("events", []):
            typed = Event.model_validate(e)
            assert typed.model_dump(mode="json", by_alias=True, exclude_unset=True) == e


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_the_typed_scenario_model_reads_every_file_back_unchanged(path: Path):
    doc = json.loads(path.read_text())
    assert Scenario.model_validate(doc).model_dump(mode="json", by_alias=True, exclude_unset=True) == doc
