// The bindings scenario through the WASM package from Node: the handle
// (`Game`) and the pure call (`applyJson`) side by side, the same assertions
// as the C test, and the transcript compared with the native engine's and the
// C client's, event for event.

import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";

import {
  applyJson,
  formatVersion,
  Game,
  newGameJson,
  optionsJson,
  version,
  viewJson,
} from "../../pkg/nodejs/ecaz_wasm.js";
import type { Command, Event, GameState, Options, View } from "../../pkg/types/index.js";
import {
  codeOf,
  firstDifference,
  type Line,
  outDir,
  readScenario,
  readTranscript,
  writeTranscript,
} from "./common.mjs";

/** Play the scenario; returns the transcript and the final game. */
function play(): { lines: Line[]; game: Game; state: string } {
  const scenario = readScenario();
  const setup = JSON.stringify(scenario.setup);
  const game = new Game(setup);
  let state = newGameJson(setup);
  assert.equal(game.state(), state, "the handle and the pure call build the same game");

  const lines: Line[] = [];
  scenario.steps.forEach((step, i) => {
    const command: Command = step.command;
    const text = JSON.stringify(command);
    let events: string;
    try {
      events = game.apply(text);
    } catch (error) {
      const code = codeOf(error);
      // The pure call refuses it the same way, and nothing changed.
      assert.throws(() => applyJson(state, text), (e: unknown) => codeOf(e) === code);
      assert.equal(game.state(), state, `step ${i + 1}: a refused command changed the state`);
      lines.push({ step: i + 1, error: code });
      return;
    }
    const outcome = applyJson(state, text);
    assert.equal(outcome.events, events, `step ${i + 1}: the pure call's events differ`);
    assert.equal(outcome.state, game.state(), `step ${i + 1}: the pure call's state differs`);
    state = outcome.state;
    lines.push({ step: i + 1, events: JSON.parse(events) as Event[] });
  });
  return { lines, game, state };
}

test("the scenario: placement, arrival, trigger, effect, resume, stale frame", () => {
  const { lines, game } = play();
  assert.equal(lines.length, 11);

  const trigger = lines[9]?.events ?? [];
  const kinds = trigger.map((e) => e.event.kind);
  assert.deepEqual(kinds, ["ambassadorTriggered", "spiceGained", "effectResolved", "resume"]);
  const gained = trigger.find((e) => e.event.kind === "spiceGained")?.event;
  assert.ok(gained?.kind === "spiceGained");
  assert.equal(gained.faction, "ecaz");
  assert.equal(gained.amount, 5);
  const resume = trigger.at(-1)?.event;
  assert.ok(resume?.kind === "resume");
  assert.equal(resume.arrival, 1);

  assert.deepEqual(lines[10], { step: 11, error: "rule/stale_frame" });
  game.free();
});

test("the Node client agrees with the native engine and the C client, event for event", () => {
  const { lines } = play();
  const path = writeTranscript("node.jsonl", lines);
  const native = readTranscript(join(outDir, "native.jsonl"));
  const c = readTranscript(join(outDir, "c.jsonl"));
  assert.equal(firstDifference(native, lines), null, `${path} differs from the native run`);
  assert.equal(firstDifference(native, c), null, "the C transcript differs from the native run");
});

test("views, options and saved states agree between the handle and the pure calls", () => {
  const { game, state } = play();
  const view = JSON.parse(game.view("ecaz")) as View;
  assert.equal(game.view("ecaz"), viewJson(state, '"ecaz"'), "bare and JSON-quoted ids are the same viewer");
  assert.equal(game.view("spectator"), viewJson(state, "spectator"));
  assert.ok(view.factions.length > 0);
  const options = JSON.parse(game.options("host")) as Options;
  assert.equal(game.options("host"), optionsJson(state, "host"));
  assert.ok(options.commands.length > 0, "the host can always end the phase");

  const saved = JSON.parse(game.state()) as GameState;
  assert.equal(saved.version, formatVersion());
  assert.match(version(), /^\d+\.\d+\.\d+/);
  const restored = Game.fromState(game.state());
  assert.equal(restored.state(), game.state());
  restored.free();
  game.free();
});
