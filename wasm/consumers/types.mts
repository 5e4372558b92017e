// D-260, D-261: the package's types catch the mistakes the engine refuses at
// run time. Type-checked by scripts/npm-test against the packed tarball
// (strict, no skipLibCheck, moduleResolution node16 and bundler): every
// `@ts-expect-error` line below is a typo that must be a compile error (tsc
// fails if it compiles: the directive is then unused), and every other line
// is the correct form, which must compile. Run by nothing: compiling is the
// test.
import {
  createGame,
  EcazError,
  type Blocked,
  type Command,
  type EngineErrorCode,
  type ErrorCode,
  type ErrorReport,
  type Event,
  type FactionAction,
  type FactionCommand,
  type FrameKind,
  type FrameView,
  type HostAction,
  type HostCommand,
  type Setup,
  type Step,
  type TableFacts,
} from "@ecaz/engine";

export function typos(frame: FrameView, blocked: Blocked, report: ErrorReport, event: Event, table: TableFacts): void {
  // ---- frame kinds (FrameView.kind, decisionOpened.decisionKind): FrameKind ----
  if (frame.kind === "triggerOffer") void frame.id;
  // @ts-expect-error — "tiggerOffer" is no frame kind
  if (frame.kind === "tiggerOffer") void frame.id;
  const kind: FrameKind = "hostReactions";
  // @ts-expect-error — "hostReaction" is no frame kind
  const wrongKind: FrameKind = "hostReaction";
  if (event.event.kind === "decisionOpened" && event.event.decisionKind === "placement") void kind;
  // @ts-expect-error — "placment" is no frame kind
  if (event.event.kind === "decisionOpened" && event.event.decisionKind === "placment") void wrongKind;

  // ---- blocked codes (Options.blocked[].code): EngineErrorCode ----
  if (blocked.code === "rule/stronghold_in_storm") void blocked.command;
  // @ts-expect-error — "rule/stronghold_in_strom" is no code
  if (blocked.code === "rule/stronghold_in_strom") void blocked.command;
  // @ts-expect-error — a package code is never a blocked command's reason
  if (blocked.code === "internal/panic") void blocked.command;

  // ---- error-report codes (ErrorReport.code, EcazError.code): ErrorCode ----
  if (report.code === "rule/stale_revision" || report.code === "internal/poisoned") void report.message;
  // @ts-expect-error — "rule/stale_revison" is no code
  if (report.code === "rule/stale_revison") void report.message;
  try {
    createGame({ seats: ["ecaz", "atreides"], seed: 1 }).free();
  } catch (error) {
    if (error instanceof EcazError && error.code === "setup/missing_seed") void error.rule;
    // @ts-expect-error — "setup/missing_sed" is no code
    if (error instanceof EcazError && error.code === "setup/missng_seed") void error.rule;
  }
  const code: EngineErrorCode = "rule/not_karama";
  const anyCode: ErrorCode = code;
  // @ts-expect-error — a package code is not an engine code
  const notEngine: EngineErrorCode = "internal/freed";
  const step: Step = { command: { actor: "host", action: { kind: "endPhase", phase: "storm" } }, error: "rule/wrong_phase" };
  // @ts-expect-error — a scenario step's expected error is an engine code
  const wrongStep: Step = { command: { actor: "host", action: { kind: "endPhase", phase: "storm" } }, error: "rule/wrong_phaze" };
  void [anyCode, notEngine, step, wrongStep];

  // ---- Setup.factions and TableFacts.factions keyed by Faction ----
  const setup: Setup = { seats: ["ecaz", "atreides"], seed: 1, factions: { atreides: { spice: 12 } } };
  // @ts-expect-error — "atriedes" is no faction
  const wrongSetup: Setup = { seats: ["ecaz", "atreides"], seed: 1, factions: { atriedes: { spice: 12 } } };
  const zones: Setup = { seats: ["ecaz"], seed: 1, ambassadors: { cohort: [], zones: { beneGesserit: { kind: "supply" } } } };
  // @ts-expect-error — Ambassador zones are keyed by token: "bene_gesserit" is not one
  const wrongZones: Setup = { seats: ["ecaz"], seed: 1, ambassadors: { cohort: [], zones: { bene_gesserit: { kind: "supply" } } } };
  const spice: number | undefined = table.factions.atreides?.spice;
  // @ts-expect-error — "harkonen" is no faction
  const wrongSpice = table.factions.harkonen;
  void [setup, wrongSetup, zones, wrongZones, spice, wrongSpice];

  // ---- Command: host actions with actor "host", faction actions with a faction ----
  const report1: Command = { actor: "host", action: { kind: "gainSpice", faction: "fremen", amount: 2 } };
  const answer: Command = { actor: "ecaz", action: { kind: "finishPlacement", frame: 3 } };
  const window: Command = { actor: "host", action: { kind: "reactionsDone", frame: 4 }, ifRevision: 12 };
  // @ts-expect-error — a faction may not report a phase end (host action)
  const factionReport: Command = { actor: "ecaz", action: { kind: "endPhase", phase: "storm" } };
  // @ts-expect-error — the host may not answer a faction's decision (faction action)
  const hostAnswer: Command = { actor: "host", action: { kind: "finishPlacement", frame: 3 } };
  // @ts-expect-error — the host's Karama window is answered by the host, not a faction
  const factionWindow: Command = { actor: "atreides", action: { kind: "allowPlacement", frame: 3 } };
  // @ts-expect-error — "atriedes" is no actor
  const wrongActor: Command = { actor: "atriedes", action: { kind: "pass", frame: 3 } };
  // @ts-expect-error — "gainSpise" is no action kind
  const wrongAction: Command = { actor: "host", action: { kind: "gainSpise", faction: "fremen", amount: 2 } };
  void [report1, answer, window, factionReport, hostAnswer, factionWindow, wrongActor, wrongAction];
}

/** The union narrows on `actor`: a host's router needs no cast. */
export function route(command: Command): HostAction | FactionAction {
  if (command.actor === "host") {
    const host: HostCommand = command;
    return host.action;
  }
  const faction: FactionCommand = command;
  // @ts-expect-error — after the narrowing, a faction's command holds no host action
  const leaked: HostAction = faction.action;
  void leaked;
  return faction.action;
}
