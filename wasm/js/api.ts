// The typed API of @ecaz/engine: a thin layer over the WASM module's JSON
// door (wasm/src/lib.rs). Objects in and out; the string forms stay available
// (`text`) for hosts that store the state as text.
//
// Loading is done by the entry points (node.ts, browser.ts, workerd.ts): each
// calls `install(glue, module)` with the wasm-bindgen glue and the compiled
// `WebAssembly.Module`. A trap inside the module (a Rust panic aborts it) is
// caught here: the module is instantiated afresh, the failing call throws
// `internal/panic`, and every handle created before it throws
// `internal/poisoned` from then on (its memory is gone).
//
// To add an export of wasm/src/lib.rs to the package: add it to `Glue`, then
// one function here that calls it through `call` (and `decode` its JSON).

import type {
  Actor,
  Command,
  Difference,
  ErrorCode,
  ErrorReport,
  Event,
  GameState,
  Options,
  Setup,
  TableFacts,
  View,
  Viewer,
} from "./types.js";

export { ENGINE_ERROR_CODES } from "./error-codes.js";
export { FRAME_KINDS, HOST_ACTION_KINDS, PACKAGE_ERROR_CODES } from "./kinds.js";
// D-260: the wire types, with `ErrorCode` (`EngineErrorCode | PackageErrorCode`),
// `FrameKind` and `Command` (`HostCommand | FactionCommand`) as unions. The
// package's own codes (`internal/…`, thrown below) are listed once, in
// wasm/tools/wire-schema.mjs: a new one is a compile error here until listed.
export type * from "./types.js";

// ---- errors ----

/** One problem of a setup or state error. */
export interface ErrorProblem {
  readonly path: string;
  readonly message: string;
}

/** Every error the package throws: the engine's stable code, the rule it enforces, the problems found. */
export class EcazError extends Error {
  override readonly name = "EcazError";
  /** Stable code such as `rule/stale_frame` or `decode/invalid_json`. */
  readonly code: ErrorCode;
  /** The rule or policy id (docs/RULES.md) the error enforces, where one applies. */
  readonly rule: string | undefined;
  /** Every problem of a setup or state error (empty otherwise). */
  readonly problems: readonly ErrorProblem[];

  constructor(code: ErrorCode, message: string, rule?: string, problems: readonly ErrorProblem[] = []) {
    super(message);
    this.code = code;
    this.rule = rule;
    this.problems = problems;
  }

  /** The error as the wire's `ErrorReport`. */
  toReport(): ErrorReport {
    const report: ErrorReport = { code: this.code, message: this.message };
    if (this.rule !== undefined) report.rule = this.rule;
    if (this.problems.length > 0) report.problems = this.problems.map((p) => ({ ...p }));
    return report;
  }
}

// ---- the module ----

/** @internal The wasm-bindgen glue (wasm-bindgen --target web), with the package's reset hook. */
export interface Glue {
  initSync(init: { module: object }): { memory: WebAssembly.Memory };
  __ecaz_reset(): void;
  version(): string;
  formatVersion(): number;
  newGameJson(setup: string): string;
  applyJson(state: string, command: string): { state: string; events: string };
  viewJson(state: string, viewer: string): string;
  optionsJson(state: string, actor: string): string;
  eventsForJson(events: string, viewer: string): string;
  narrate(state: string, item: string, viewer: string): string | null;
  exportSetupJson(state: string): string;
  boardJson(): string;
  botCommand(state: string, actor: string, profile: string, seed: number): string;
  tableOfJson(state: string): string;
  applyEventsJson(table: string, events: string): string;
  diffTableJson(a: string, b: string): string;
  Game: GlueGameClass;
}
/** @internal */
interface GlueGameClass {
  new (setup: string): GlueGame;
  fromState(state: string): GlueGame;
}
/** @internal */
interface GlueGame {
  apply(command: string): string;
  inputBuffer(len: number): number;
  releaseInput(): void;
  applyInput(len: number): number;
  takeError(): unknown;
  outputBuffer(): number;
  state(): string;
  view(viewer: string): string;
  options(actor: string): string;
  free(): void;
  /** Detaches the object from its memory and its finalizer (wasm-bindgen's; checked by scripts/package). */
  __destroy_into_raw?(): number;
}

let glue: Glue | undefined;
let wasmModule: object | undefined;
/** The instance's memory (for `applyText`'s buffers, D-152). */
let memory: WebAssembly.Memory | undefined;
/** Bumped at every re-instantiation: a handle of an older generation is poisoned. */
let generation = 0;
/** The live handles' glue objects, to detach them (no finalizer may free into a new instance). */
const live = new Set<{ deref(): GlueGame | undefined }>();
let loader: ((source: unknown) => Promise<object>) | undefined;

/** @internal Used by the entry points: the glue and the compiled module. */
export function install(g: Glue, module: object, through: TextBridge = standardText): void {
  bridge = through;
  useMemory(g.initSync({ module }).memory);
  glue = g;
  wasmModule = module;
}

/** @internal Used by the browser entry: how `init(source)` compiles a module. */
export function setLoader(load: (source: unknown) => Promise<object>, g: Glue): void {
  loader = load;
  pendingGlue = g;
}
let pendingGlue: Glue | undefined;

/**
 * Load the module explicitly. Node and Workers need no call (the package
 * loads itself on import); in a browser the package tries `ecaz_wasm_bg.wasm`
 * next to its own file on import, and `init(url | bytes | module)` loads it
 * from elsewhere. Resolves at once when already loaded.
 */
export async function init(source?: string | ArrayBuffer | ArrayBufferView | object): Promise<void> {
  if (glue !== undefined) return;
  if (loader === undefined || pendingGlue === undefined) {
    throw new EcazError("internal/not_loaded", "this build of the package loads its module on import");
  }
  install(pendingGlue, await loader(source));
}

function loaded(): Glue {
  if (glue === undefined) {
    throw new EcazError(
      "internal/not_loaded",
      "the WASM module is not loaded: `await init()` (or init(url)) first",
    );
  }
  return glue;
}

function isTrap(error: unknown): boolean {
  const runtimeError = (globalThis as { WebAssembly?: { RuntimeError?: new () => object } }).WebAssembly?.RuntimeError;
  return runtimeError !== undefined && error instanceof runtimeError;
}

/** After a trap: detach every live handle, instantiate the module afresh. */
function recover(): void {
  for (const ref of live) {
    ref.deref()?.__destroy_into_raw?.();
  }
  live.clear();
  generation += 1;
  const g = glue;
  if (g !== undefined && wasmModule !== undefined) {
    g.__ecaz_reset();
    useMemory(g.initSync({ module: wasmModule }).memory);
  }
}

function convert(error: unknown): unknown {
  if (error instanceof Error && error.name === "EcazError") {
    const fields = error as Error & { code?: unknown; rule?: unknown; problems?: unknown };
    if (typeof fields.code === "string") {
      const problems = Array.isArray(fields.problems) ? (fields.problems as ErrorProblem[]) : [];
      const rule = typeof fields.rule === "string" ? fields.rule : undefined;
      return new EcazError(fields.code as ErrorCode, error.message, rule, problems);
    }
  }
  return error;
}

/** Every call into the module goes through here. */
function call<T>(body: (g: Glue) => T): T {
  const g = loaded();
  try {
    return body(g);
  } catch (error) {
    throw failure(error);
  }
}

/** What a call into the module that threw throws: after a trap the module is restarted. */
function failure(error: unknown): unknown {
  if (isTrap(error)) {
    recover();
    const detail = error instanceof Error ? error.message : String(error);
    return new EcazError("internal/panic", `the engine trapped (${detail}); it was restarted, older games are unusable`);
  }
  return convert(error);
}

// ---- the input policy (D-180, docs/integration.md "Input policy") ----

/** The longest input, in bytes of UTF-8, any call reads: 16 MiB (the engine's `MAX_INPUT_BYTES`). */
export const MAX_INPUT_BYTES = 16 * 1024 * 1024;

/** The UTF-8 length of `text` (a lone surrogate counts as the 3 bytes of U+FFFD, as the encoder writes it). */
function utf8Length(text: string): number {
  let len = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) len += 1;
    else if (unit < 0x800) len += 2;
    else if (unit >= 0xd800 && unit < 0xdc00 && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next < 0xe000) {
        len += 4;
        i += 1;
      } else len += 3;
    } else len += 3;
  }
  return len;
}

/**
 * The UTF-8 length of an input string, refused (`decode/input_too_large`)
 * over `MAX_INPUT_BYTES` before anything is copied into the module. A
 * non-string passes: the module refuses it (`decode/invalid_json`).
 */
function checked(text: unknown, what: string): number {
  if (typeof text !== "string") return 0;
  // Each UTF-16 unit is at least one byte, at most three.
  const len = text.length > MAX_INPUT_BYTES ? text.length : text.length * 3 <= MAX_INPUT_BYTES ? text.length * 3 : utf8Length(text);
  if (len > MAX_INPUT_BYTES) {
    throw new EcazError(
      "decode/input_too_large",
      `${what} is at least ${len} bytes; the limit is ${MAX_INPUT_BYTES} (docs/integration.md, input policy)`,
    );
  }
  return len;
}

function decode<T>(text: string): T {
  return JSON.parse(text) as T;
}

// ---- text through the module's memory (D-152, D-153) ----

/**
 * @internal How text goes into and comes out of the module's memory. The
 * default uses `TextEncoder.encodeInto` and `TextDecoder`; the Node entry
 * passes one over `Buffer` (`utf8Write` and `utf8Slice`, or `write` and
 * `toString`), which needs no view of each piece and is quicker there
 * (D-153).
 */
export interface TextBridge {
  /** A view of a whole memory buffer (taken again when the memory grows). */
  view(buffer: ArrayBuffer): Uint8Array;
  /** Writes `text` as UTF-8 at `at` of `bytes` (`room` bytes free there); returns the bytes written. */
  write(bytes: Uint8Array, text: string, at: number, room: number): number;
  /** The `len` bytes of UTF-8 at `at` of `bytes`, as a string. */
  read(bytes: Uint8Array, at: number, len: number): string;
}

const encoder = new TextEncoder();
let decoder = new TextDecoder("utf-8", { ignoreBOM: true, fatal: false });
/** Safari's TextDecoder fails after about 2 GiB; a fresh one is taken before that (as wasm-bindgen's glue does). */
let decoded = 0;

const standardText: TextBridge = {
  view: (buffer) => new Uint8Array(buffer),
  write: (bytes, text, at, room) => encoder.encodeInto(text, bytes.subarray(at, at + room)).written,
  read: (bytes, at, len) => {
    decoded += len;
    if (decoded > 2_000_000_000) {
      decoder = new TextDecoder("utf-8", { ignoreBOM: true, fatal: false });
      decoded = len;
    }
    return decoder.decode(bytes.subarray(at, at + len));
  },
};
let bridge: TextBridge = standardText;

/** A view of the whole memory, renewed when the memory grows (which detaches the old one). */
let bytes: Uint8Array = new Uint8Array(0);

/** A new instance's memory; the old view is dropped. */
function useMemory(instanceMemory: WebAssembly.Memory | undefined): void {
  memory = instanceMemory;
  bytes = new Uint8Array(0);
}

function memoryBytes(): Uint8Array {
  // A grown memory detaches the old buffer (its views' length drops to 0);
  // a new instance resets `bytes` (`install`). No `memory.buffer` read per call (D-153).
  if (bytes.length === 0 && memory !== undefined) bytes = bridge.view(memory.buffer);
  return bytes;
}

/** What `applyInput` returns for a failed command (then `takeError` has the error): `usize::MAX`. */
const FAILED = 0xffff_ffff;

/** A handle keeps its input buffer for commands of up to this many bytes of room (D-153). */
const KEEP_INPUT = 64 * 1024;
/** The least room a handle's input buffer is made with. */
const MIN_INPUT = 2048;

// ---- the handle ----

/** Registry that frees a dropped handle's memory (only if its instance is still the current one). */
const finalizer =
  typeof FinalizationRegistry === "undefined"
    ? undefined
    : new FinalizationRegistry<{ inner: GlueGame; generation: number }>((held) => {
        if (held.generation === generation) held.inner.free();
      });

/** A game kept inside the WASM module: commands in, events out; the state is produced only when asked for. */
export class Game {
  #inner: GlueGame | undefined;
  #ref: { deref(): GlueGame | undefined };
  /** Where this handle's input buffer is, and its room in bytes (0: none yet). */
  #inputAt = 0;
  #inputRoom = 0;
  readonly #generation: number;

  /** @internal Use `createGame` or `loadGame`. */
  constructor(inner: unknown) {
    const glueGame = inner as GlueGame;
    this.#inner = glueGame;
    this.#generation = generation;
    this.#ref = new WeakRef(glueGame);
    live.add(this.#ref);
    finalizer?.register(this, { inner: glueGame, generation }, this);
  }

  #use(): GlueGame {
    if (this.#generation !== generation) {
      throw new EcazError("internal/poisoned", "this game was created before the engine trapped; load its saved state again");
    }
    if (this.#inner === undefined) throw new EcazError("internal/freed", "this game was freed");
    return this.#inner;
  }

  /** Apply a command in place; returns its events. On error nothing changed. */
  apply(command: Command): Event[] {
    return decode(this.applyText(JSON.stringify(command)));
  }

  /** `apply` in text form: a `Command` document in, the `Event[]` document out. */
  applyText(command: string): string {
    const inner = this.#use();
    // A non-string is refused by the module's own `apply` (decode/invalid_json).
    if (typeof command !== "string") return call(() => inner.apply(command));
    // As `call`, without a closure per command (D-153).
    try {
      // At most 3 bytes per UTF-16 unit, and never more than the input cap
      // (D-180): the exact length when 3 per unit would pass it. The input
      // buffer's address holds until `inputBuffer` or `releaseInput` is
      // called again (D-153).
      const room = checked(command, "command");
      if (room > this.#inputRoom) {
        // Room for most commands at once, so a new game asks once.
        const want = Math.max(room, MIN_INPUT);
        this.#inputAt = inner.inputBuffer(want);
        this.#inputRoom = want;
      }
      const len = inner.applyInput(bridge.write(memoryBytes(), command, this.#inputAt, room));
      if (room > KEEP_INPUT) {
        inner.releaseInput();
        this.#inputRoom = 0;
      }
      if (len === FAILED) throw inner.takeError();
      return bridge.read(memoryBytes(), inner.outputBuffer(), len);
    } catch (error) {
      throw failure(error);
    }
  }

  /** What `viewer` may see of the game. */
  view(viewer: Viewer): View {
    const inner = this.#use();
    checked(viewer, "viewer");
    return decode(call(() => inner.view(viewer)));
  }

  /** The legal commands of `actor` now. */
  options(actor: Actor): Options {
    const inner = this.#use();
    checked(actor, "actor");
    return decode(call(() => inner.options(actor)));
  }

  /** The state (to persist it, or for the pure calls). */
  state(): GameState {
    return decode(this.stateText());
  }

  /** The state as text, exactly as a host stores it. */
  stateText(): string {
    const inner = this.#use();
    return call(() => inner.state());
  }

  /** D-231: the game's table as `TableFacts` (see `tableOf`). */
  table(): TableFacts {
    return tableOf(this.stateText());
  }

  /** This quiet moment as a `Setup` (no pending decision); `createGame` of it restores the game. */
  exportSetup(): Setup {
    return exportSetup(this.stateText());
  }

  /** Release the game's memory now (the garbage collector does it otherwise). */
  free(): void {
    const inner = this.#inner;
    if (inner === undefined) return;
    this.#inner = undefined;
    live.delete(this.#ref);
    finalizer?.unregister(this);
    if (this.#generation === generation) call(() => inner.free());
  }
}

/** Build a new game from a setup. */
export function createGame(setup: Setup): Game {
  return createGameText(JSON.stringify(setup));
}

/** `createGame` from a `Setup` document in text form. */
export function createGameText(setup: string): Game {
  checked(setup, "setup");
  return new Game(call((g) => new g.Game(setup)));
}

/** Restore a game from a saved state (an object or its text). */
export function loadGame(state: GameState | string): Game {
  const text = typeof state === "string" ? state : JSON.stringify(state);
  checked(text, "state");
  return new Game(call((g) => g.Game.fromState(text)));
}

// ---- the pure calls: state in, state out ----

/** What `apply` returns: the new state and the command's events. */
export interface ApplyResult {
  readonly state: GameState;
  readonly events: Event[];
}

/** A new game's state from a setup. */
export function newState(setup: Setup): GameState {
  return decode(text.newGame(JSON.stringify(setup)));
}

/** Apply a command to a state; the given state is not changed. */
export function apply(state: GameState, command: Command): ApplyResult {
  const outcome = text.apply(JSON.stringify(state), JSON.stringify(command));
  return { state: decode(outcome.state), events: decode(outcome.events) };
}

/** What `viewer` may see of a state. */
export function view(state: GameState, viewer: Viewer): View {
  return decode(text.view(JSON.stringify(state), viewer));
}

/** The legal commands of `actor` in a state. */
export function options(state: GameState, actor: Actor): Options {
  return decode(text.options(JSON.stringify(state), actor));
}

/**
 * The events of one command that `viewer` may see, in order (the engine's
 * audience rule, as views follow it). Forward each player only this.
 */
export function eventsFor(events: readonly Event[], viewer: Viewer): Event[] {
  return decode(text.eventsFor(JSON.stringify(events), viewer));
}

/**
 * One English sentence telling `item` (an event or a command) as `viewer`
 * may know it, or `null` when the viewer does not see the event. `state` is
 * the game the event came out of, or the command is applied to.
 */
export function narrate(state: GameState, item: Event | Command, viewer: Viewer): string | null {
  return text.narrate(JSON.stringify(state), JSON.stringify(item), viewer);
}

/**
 * A quiet moment (no pending decision) of a game as a `Setup` that
 * `createGame` imports back to the same state (an object or its text).
 */
export function exportSetup(state: GameState | string): Setup {
  return decode(text.exportSetup(typeof state === "string" ? state : JSON.stringify(state)));
}

/** The engine's static board data (territories, sectors, neighbours, printed names), as parsed JSON. */
export function board(): Readonly<Record<string, unknown>> {
  return decode(call((g) => g.boardJson()));
}

// ---- the host kit: bots and the table mirror ----

/** The bot profiles (docs/RULES.md, "Bots and self-play"): `random` picks any legal command, `heuristic` plays to win. */
export type BotProfile = "random" | "heuristic";

/**
 * What a bot of `profile` seeded with `seed` (an integer 0 ..= 2^53 − 1)
 * sends as `actor` in a state, or `null` when the actor has nothing to send.
 * Same inputs, same command.
 */
export function botCommand(state: GameState | string, actor: Actor, profile: BotProfile, seed: number): Command | null {
  return decode(text.botCommand(stateText(state), actor, profile, seed));
}

/**
 * D-231: the table of a state as `TableFacts` (the document `syncTable`
 * takes): what a host that keeps its own table starts from.
 */
export function tableOf(state: GameState | string): TableFacts {
  return decode(text.tableOf(stateText(state)));
}

/**
 * D-231: the table after one command's events — all of them, as `apply`
 * returns them (not a viewer's share). For every accepted command,
 * `applyEvents(tableOf(before), events)` equals `tableOf(after)`; events that
 * do not fit the table throw `sync/events_mismatch`.
 */
export function applyEvents(table: TableFacts, events: readonly Event[]): TableFacts {
  return decode(text.applyEvents(JSON.stringify(table), JSON.stringify(events)));
}

/** D-231: the facts that differ from table `a` to table `b`, as `tableSynced` lists them (empty: equal). */
export function diffTable(a: TableFacts, b: TableFacts): Difference[] {
  return decode(text.diffTable(JSON.stringify(a), JSON.stringify(b)));
}

function stateText(state: GameState | string): string {
  return typeof state === "string" ? state : JSON.stringify(state);
}

/** The string forms, for hosts that keep the state as text (every value is a JSON document). */
export const text = {
  botCommand: (state: string, actor: string, profile: string, seed: number): string => (
    checked(state, "state"), call((g) => g.botCommand(state, actor, profile, seed))
  ),
  tableOf: (state: string): string => (checked(state, "state"), call((g) => g.tableOfJson(state))),
  applyEvents: (table: string, events: string): string => (
    checked(table, "table"), checked(events, "events"), call((g) => g.applyEventsJson(table, events))
  ),
  diffTable: (a: string, b: string): string => (
    checked(a, "table"), checked(b, "table"), call((g) => g.diffTableJson(a, b))
  ),
  newGame: (setup: string): string => (checked(setup, "setup"), call((g) => g.newGameJson(setup))),
  apply: (state: string, command: string): { state: string; events: string } => {
    checked(state, "state");
    checked(command, "command");
    const outcome = call((g) => g.applyJson(state, command));
    return { state: outcome.state, events: outcome.events };
  },
  view: (state: string, viewer: string): string => (
    checked(state, "state"), checked(viewer, "viewer"), call((g) => g.viewJson(state, viewer))
  ),
  options: (state: string, actor: string): string => (
    checked(state, "state"), checked(actor, "actor"), call((g) => g.optionsJson(state, actor))
  ),
  eventsFor: (events: string, viewer: string): string => (
    checked(events, "events"), checked(viewer, "viewer"), call((g) => g.eventsForJson(events, viewer))
  ),
  narrate: (state: string, item: string, viewer: string): string | null => (
    checked(state, "state"), checked(item, "item"), checked(viewer, "viewer"), call((g) => g.narrate(state, item, viewer))
  ),
  exportSetup: (state: string): string => (checked(state, "state"), call((g) => g.exportSetupJson(state))),
} as const;

/**
 * @internal Test builds only: calls the module's deliberate panic entry
 * (cargo feature `test-panic`), which the released package does not have.
 */
export function __testPanic(): void {
  call((g) => {
    const entry = (g as unknown as { testPanic?: () => void }).testPanic;
    if (entry === undefined) throw new Error("this build has no test panic entry");
    entry();
  });
}

/** The engine's version (the crate's, which is the package's). */
export function version(): string {
  return call((g) => g.version());
}

/** The state format version this engine writes and reads. */
export function formatVersion(): number {
  return call((g) => g.formatVersion());
}
