// The consumer every proof of the packed package runs (scripts/npm-test):
// typed against the package's .d.ts (strict, lib es2022, no skipLibCheck),
// it plays the bindings scenario and returns its transcript and Ecaz's final
// view. Compiled as ESM (play.mts) and as CommonJS (play.cts, the same text).
import {
  createGame,
  EcazError,
  eventsFor,
  narrate,
  type ErrorCode,
  type Event,
  type PlaceAction,
  type Scenario,
  type View,
} from "@ecaz/engine";

export interface Line {
  step: number;
  events?: Event[];
  error?: ErrorCode;
}

export interface Played {
  lines: Line[];
  view: View;
  /** Per-viewer events of the last accepted step: the kinds the spectator was sent. */
  spectatorKinds: string[];
  /** The last accepted step's first event, told to the spectator in English. */
  story: string | null;
}

export function play(scenario: Scenario): Played {
  const game = createGame(scenario.setup);
  const lines: Line[] = [];
  let spectatorKinds: string[] = [];
  let story: string | null = null;
  scenario.steps.forEach((step, i) => {
    const action = step.command.action;
    if (action.kind === "place") {
      // A named variant type: autocompletion on `kind` and its fields.
      const place: PlaceAction = action;
      void place.territory;
    }
    try {
      const events = game.apply(step.command);
      const first = events[0];
      if (first !== undefined) story = narrate(game.state(), first, "spectator");
      spectatorKinds = eventsFor(events, "spectator").map((e) => e.event.kind);
      lines.push({ step: i + 1, events });
    } catch (error) {
      if (!(error instanceof EcazError)) throw error;
      lines.push({ step: i + 1, error: error.code });
    }
  });
  const view = game.view("ecaz");
  game.free();
  return { lines, view, spectatorKinds, story };
}
