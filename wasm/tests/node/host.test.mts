// D-100: a Node host that runs the rest of Dune itself keeps
// its OWN model of the table (this file's `HostTable`, not the engine's
// code), plays a scripted six-faction game of several turns through the npm
// package @ecaz/engine (the packed tarball, installed by scripts/host-test
// into a fresh project; its typed API, wasm/js/api.ts), reports in its natural order (also inside the host-reactions
// window), deliberately drifts once (a missed report) and recovers with one
// `syncTable`, exports a quiet moment to a Setup and re-imports it
// losslessly — and after every step its table equals the engine's host view.
//
// How the host keeps its table: a report it sends is a change of its own
// game, applied by its own logic (the engine's echo events are not applied
// again), except the Treachery deck, which is the engine's (D-41: the card
// drawn and a reshuffle's order come from the events); every change the
// engine makes — effects, placement costs, Duke Vidal — it learns from the
// events of the decisions it relays.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import {
  applyEvents,
  board,
  botCommand,
  type BotProfile,
  type Command,
  createGame,
  diffTable,
  EcazError,
  ENGINE_ERROR_CODES,
  type ErrorCode,
  type Event,
  type Faction,
  type FrameKind,
  type Game,
  HOST_ACTION_KINDS,
  type HostAction,
  type HostCommand,
  type Leader,
  type TraitorCard,
  type LeaderCustody,
  loadGame,
  PACKAGE_ERROR_CODES,
  type Phase,
  type Setup,
  type TableFacts,
  tableOf,
  type Territory,
  text,
  type View,
} from "@ecaz/engine";

type Side = string;
// The fields of a command or an event, read by kind (checked by the engine's schemas).
type Args = Record<string, any>;
type Custody = { kind: string; by?: Side };
interface Stack {
  territory: string;
  sector: number;
  normal: number;
  elite: number;
  advisors: number;
}
interface Forces {
  normal: number;
  elite: number;
}
interface FactionTable {
  spice: number;
  reserves: Forces;
  tanks: Forces;
  board: Stack[];
  leaders: Record<string, Custody>;
  hand: number[];
  handLimit: number;
  traitors: string[];
  faceDancers: string[];
  revealedFaceDancers: string[];
  ally: Side | null;
  nexus: Side | null;
}
interface Table {
  turn: number;
  phase: string;
  storm: number;
  factions: Record<Side, FactionTable>;
  deck: number[];
  discard: number[];
  outside: number[];
  nexusDiscard: Side[];
  duke: Custody;
}
// The parts of the engine's wire shapes this host reads.
interface Ev {
  audience: { kind: string };
  event: { kind: string; [k: string]: unknown };
}
interface ViewFaction {
  faction: Side;
  spice: number | null;
  reserves: Forces;
  tanks: Forces;
  board: Stack[];
  leaders: { leader: string; custody: Custody }[];
  hand: number[] | null;
  handLimit: number;
  traitors: string[] | null;
  faceDancers: string[] | null;
  revealedFaceDancers: string[];
  ally: Side | null;
  nexus: Side | null;
}
interface HostView {
  turn: number;
  phase: string;
  storm: number;
  factions: ViewFaction[];
  treachery: { deck: number[] | null; discard: number[]; outside: number[] };
  nexus: { discard: Side[] };
  duke: Custody;
  pending: { id: number; actor: string; kind: string }[];
}
interface Opts {
  frame: number | null;
  commands: { actor: string; action: { kind: string; [k: string]: unknown } }[];
  choices: { kind: string; destinations?: { territory: string; sector: number }[] }[];
}

const SEATS = ["ecaz", "atreides", "harkonnen", "fremen", "emperor", "guild"];
const PHASES = [
  "storm",
  "spiceBlow",
  "choamCharity",
  "bidding",
  "revival",
  "shipmentMovement",
  "battle",
  "collection",
  "mentat",
];

/** The host's own table, built from its own setup (printed starting values it knows). */
class HostTable {
  t: Table;
  constructor(view: HostView) {
    // The one read of the engine: the initial table (as a host would load
    // its own starting position); from here on it never reads the engine.
    this.t = project(view);
  }
  f(faction: Side): FactionTable {
    const x = this.t.factions[faction];
    assert.ok(x, `${faction} is not seated`);
    return x;
  }
  stack(faction: Side, territory: string, sector: number): Stack {
    const board = this.f(faction).board;
    let s = board.find((x) => x.territory === territory && x.sector === sector);
    if (!s) {
      s = { territory, sector, normal: 0, elite: 0, advisors: 0 };
      board.push(s);
    }
    return s;
  }
  prune(faction: Side): void {
    const x = this.f(faction);
    x.board = x.board.filter((s) => s.normal + s.elite + s.advisors > 0);
  }

  // ---- the host's own game logic, for the reports it sends ----
  own(action: { kind: string; [k: string]: unknown }): void {
    const a = action as Args;
    switch (action.kind) {
      case "gainSpice":
        this.f(a.faction).spice += a.amount;
        break;
      case "paySpice":
        this.f(a.faction).spice -= a.amount;
        if (a.to) this.f(a.to).spice += a.amount;
        break;
      case "discardCard": {
        const h = this.f(a.faction).hand;
        h.splice(h.indexOf(a.card), 1);
        this.t.discard.push(a.card);
        break;
      }
      case "loseForces": {
        const s = this.stack(a.faction, a.territory, a.sector);
        s.normal -= a.normal ?? 0;
        this.f(a.faction).tanks.normal += a.normal ?? 0;
        this.prune(a.faction);
        break;
      }
      case "reviveFromTanks":
        this.f(a.faction).tanks.normal -= a.normal ?? 0;
        this.f(a.faction).reserves.normal += a.normal ?? 0;
        break;
      case "setLeader": {
        const leader = a.leader as string;
        for (const x of Object.values(this.t.factions)) {
          if (leader in x.leaders) x.leaders[leader] = a.custody;
        }
        break;
      }
      case "arrive": {
        const from = a.from as { kind: string; territory?: string; sector?: number };
        if (from.kind === "reserves") {
          this.f(a.entrant).reserves.normal -= a.normal ?? 0;
        } else {
          this.stack(a.entrant, from.territory as string, from.sector as number).normal -= a.normal ?? 0;
        }
        this.stack(a.entrant, a.territory, a.sector).normal += a.normal ?? 0;
        this.prune(a.entrant);
        break;
      }
      case "moveStorm":
        this.t.storm = ((this.t.storm - 1 + (a.sectors as number)) % 18) + 1;
        break;
      case "endPhase": {
        const i = PHASES.indexOf(this.t.phase);
        if (this.t.phase === "revival" && "ecaz" in this.t.factions) {
          break; // Ecaz's placement window opens first (R-PLC-1); its close starts the next phase
        }
        if (i === PHASES.length - 1) {
          this.t.turn += 1;
          this.t.phase = "storm";
        } else {
          this.t.phase = PHASES[i + 1] as string;
        }
        break;
      }
      case "drawCard":
      case "allowPlacement":
      case "reactionsDone":
      case "syncTable":
        break; // the deck is the engine's; frames are not table facts
      default:
        assert.fail(`the host has no logic for ${action.kind}`);
    }
  }

  // ---- changes the engine makes, learned from events ----
  learn(events: Ev[], echo: boolean): void {
    for (const { event: e } of events) {
      const a = e as Args;
      switch (e.kind) {
        case "cardReceived": // D-41: the engine's deck
          this.t.deck.shift();
          this.f(a.faction).hand.push(a.card);
          break;
        case "deckOrder":
          this.t.discard = [];
          this.t.deck = [...(a.deck as number[])];
          break;
        case "dukeMoved":
          this.t.duke = a.custody;
          break;
        case "tableSynced":
          break; // the host's own table was sent: nothing to learn
        default:
          if (echo) break;
          switch (e.kind) {
            case "phaseStarted":
              this.t.turn = a.turn;
              this.t.phase = a.phase;
              break;
            case "spiceGained":
              this.f(a.faction).spice += a.amount;
              break;
            case "spicePaid":
              this.f(a.faction).spice -= a.amount;
              if (a.to) this.f(a.to).spice += a.amount;
              break;
            case "ambassadorPlaced":
              this.f("ecaz").spice -= a.cost;
              break;
            case "arrived": {
              const from = a.from as { kind: string };
              assert.equal(from.kind, "reserves", "this script's engine-made arrivals come from reserves");
              this.f(a.entrant).reserves.normal -= a.normal;
              this.stack(a.entrant, a.territory, a.sector).normal += a.normal;
              break;
            }
          }
      }
    }
  }
}

/** The host's shape of a host view (the comparison, and the initial table). */
function project(v: HostView): Table {
  const factions: Record<Side, FactionTable> = {};
  for (const x of v.factions) {
    const leaders: Record<string, Custody> = {};
    for (const l of x.leaders) leaders[l.leader] = l.custody;
    factions[x.faction] = {
      spice: x.spice ?? -1,
      reserves: { ...x.reserves },
      tanks: { ...x.tanks },
      board: x.board.map((s) => ({ ...s })),
      leaders,
      hand: [...(x.hand ?? [])],
      handLimit: x.handLimit,
      traitors: [...(x.traitors ?? [])],
      faceDancers: [...(x.faceDancers ?? [])],
      revealedFaceDancers: [...x.revealedFaceDancers],
      ally: x.ally,
      nexus: x.nexus,
    };
  }
  return {
    turn: v.turn,
    phase: v.phase,
    storm: v.storm,
    factions,
    deck: [...(v.treachery.deck ?? [])],
    discard: [...v.treachery.discard],
    outside: [...v.treachery.outside],
    nexusDiscard: [...v.nexus.discard],
    duke: v.duke,
  };
}

/** A canonical form: stacks and hands as sets (their order is no fact). */
function canonical(t: Table): unknown {
  const c = structuredClone(t);
  for (const x of Object.values(c.factions)) {
    x.board.sort((p, q) => (p.territory + p.sector).localeCompare(q.territory + q.sector));
    x.hand.sort((p, q) => p - q);
  }
  return c;
}

/** The whole table, as `syncTable` takes it, from the host's own model. */
function syncCommand(t: Table): string {
  const factions: Record<Side, unknown> = {};
  for (const [f, x] of Object.entries(t.factions)) {
    factions[f] = {
      spice: x.spice,
      reserves: x.reserves,
      tanks: x.tanks,
      board: x.board,
      leaders: Object.entries(x.leaders)
        .filter(([, c]) => c.kind !== "available")
        .map(([leader, custody]) => ({ leader, custody })),
      hand: x.hand,
      handLimit: x.handLimit,
      traitors: x.traitors,
      faceDancers: x.faceDancers,
      revealedFaceDancers: x.revealedFaceDancers,
      ally: x.ally,
      nexus: x.nexus,
    };
  }
  return JSON.stringify({
    actor: "host",
    action: {
      kind: "syncTable",
      table: { factions, deck: t.deck, discard: t.discard, outside: t.outside, nexusDiscard: t.nexusDiscard },
    },
  });
}

class Session {
  game: Game;
  host: HostTable;
  steps = 0;
  constructor(game: Game, host?: HostTable) {
    this.game = game;
    this.host = host ?? new HostTable(this.view());
  }
  view(): HostView {
    return this.game.view("host") as unknown as HostView;
  }
  check(what: string): void {
    assert.deepEqual(canonical(this.host.t), canonical(project(this.view())), `after ${what}`);
  }
  /** A host report: the host's own change, then the engine's events. */
  report(action: { kind: string; [k: string]: unknown }): Ev[] {
    this.host.own(action);
    const events = this.game.apply({ actor: "host", action } as Command) as Ev[];
    this.host.learn(events, true);
    this.steps++;
    this.check(action.kind);
    return events;
  }
  /** A decision relayed for `actor` (a player, or the host answering a window). */
  decide(actor: string, action: { kind: string; [k: string]: unknown }): Ev[] {
    const events = this.game.apply({ actor, action } as Command) as Ev[];
    if (actor === "host") this.host.own(action);
    this.host.learn(events, false);
    this.steps++;
    this.check(`${actor} ${action.kind}`);
    return events;
  }
  options(actor: string): Opts {
    return this.game.options(actor as Faction) as unknown as Opts;
  }
  open(): { id: number; actor: string; kind: string } | undefined {
    const p = this.view().pending;
    return p[p.length - 1];
  }
  endPhase(): Ev[] {
    return this.report({ kind: "endPhase", phase: this.host.t.phase });
  }
}

test("D-100: a Node host keeps its own table equal to the engine's through a 6-faction game", () => {
  const setup = {
    seats: SEATS,
    seed: 13,
    options: { nexus: true },
    // The Fremen place their starting forces themselves (base rules).
    factions: { fremen: { board: [{ territory: "sietch_tabr", sector: 14, normal: 10 }] } },
    ambassadors: { cohort: ["emperor", "guild", "choam", "fremen", "richese"] },
  } as Setup;
  let s = new Session(createGame(setup));
  s.check("setup");
  const placements: Record<number, [string, string] | null> = {
    1: ["emperor", "arrakeen"],
    2: ["guild", "carthag"],
    3: null,
  };
  let drifted = false;
  let exported = false;
  let windows = 0;
  let triggered = 0;

  for (let turn = 1; turn <= 3; turn++) {
    // Export a quiet moment and go on with the re-imported game (turn 3).
    if (turn === 3) {
      const state = s.game.stateText();
      const setupDoc: Setup = s.game.exportSetup();
      const setupText = text.exportSetup(state);
      assert.deepEqual(JSON.parse(setupText), setupDoc, "the typed and the string form agree");
      assert.equal(text.newGame(setupText), state, "the exported Setup imports back byte for byte");
      const steps = s.steps;
      s.game.free();
      s = new Session(createGame(setupDoc), s.host);
      s.steps = steps;
      s.check("re-import");
      exported = true;
    }
    // Storm, Spice Blow, CHOAM Charity.
    s.report({ kind: "moveStorm", sectors: 2 });
    s.endPhase();
    s.report({ kind: "gainSpice", faction: "fremen", amount: 2 });
    s.endPhase();
    s.report({ kind: "gainSpice", faction: "harkonnen", amount: 1 });
    s.endPhase();
    // Bidding: Atreides buys a card from the Emperor.
    s.report({ kind: "drawCard", faction: "atreides" });
    s.report({ kind: "paySpice", faction: "atreides", amount: 2, to: "emperor" });
    s.endPhase();
    // Revival, then Ecaz's placement window.
    const tanks = s.host.f("atreides").tanks.normal;
    if (tanks > 0) s.report({ kind: "reviveFromTanks", faction: "atreides", normal: Math.min(tanks, 2) });
    s.endPhase();
    const placement = placements[turn];
    if (placement) {
      const [token, territory] = placement;
      s.decide("ecaz", { kind: "place", frame: s.open()?.id, token, territory });
      s.decide("host", { kind: "allowPlacement", frame: s.open()?.id });
    }
    if (s.open()?.kind === "placement") s.decide("ecaz", { kind: "finishPlacement", frame: s.open()?.id });

    // Shipment & Movement.
    if (turn === 1) {
      // Atreides ship into Arrakeen: the Emperor token; Ecaz takes 5 spice.
      s.report({
        kind: "arrive",
        entrant: "atreides",
        cause: "shipment",
        from: { kind: "reserves" },
        territory: "arrakeen",
        sector: 10,
        normal: 3,
      });
      assert.equal(s.open()?.kind, "triggerOffer");
      s.decide("ecaz", { kind: "trigger", frame: s.open()?.id, beneficiary: "ecaz" });
      triggered++;
      s.report({ kind: "paySpice", faction: "atreides", amount: 3, to: "guild" });
    }
    if (turn === 2) {
      // Harkonnen ship into Carthag: the Guild token; Ecaz ships 2 for free.
      s.report({
        kind: "arrive",
        entrant: "harkonnen",
        cause: "shipment",
        from: { kind: "reserves" },
        territory: "carthag",
        sector: 11,
        normal: 4,
      });
      s.decide("ecaz", { kind: "trigger", frame: s.open()?.id, beneficiary: "ecaz" });
      triggered++;
      const choice = s.options("ecaz").choices.find((c) => c.kind === "ship");
      const to = choice?.destinations?.find((d) => d.territory === "the_great_flat");
      assert.ok(to, "the Great Flat is a legal destination");
      s.decide("ecaz", { kind: "ship", frame: s.open()?.id, territory: to.territory, sector: to.sector, normal: 2 });
      // The engine-made arrival opens the host's own reactions window: the
      // host resolves its reactions in its own order — the Guild's income for
      // the shipment and a Terror token's loss — then closes it.
      assert.equal(s.open()?.kind, "hostReactions");
      windows++;
      s.report({ kind: "gainSpice", faction: "guild", amount: 1 });
      s.report({ kind: "loseForces", faction: "harkonnen", territory: "carthag", sector: 11, normal: 1 });
      assert.equal(s.open()?.kind, "hostReactions", "the window stays open for the host's reports");
      s.decide("host", { kind: "reactionsDone", frame: s.open()?.id });
      assert.equal(s.open(), undefined);
    }
    s.endPhase();
    // Battle, Collection.
    s.report({ kind: "loseForces", faction: "ecaz", territory: "imperial_basin", sector: 10, normal: 1 });
    if (turn === 1) s.report({ kind: "setLeader", leader: "thufir_hawat", custody: { kind: "tanks" } });
    const card = s.host.f("atreides").hand[0];
    if (card !== undefined) s.report({ kind: "discardCard", faction: "atreides", card });
    s.endPhase();
    if (turn === 2) {
      // The deliberate drift: the host's own table gains the Fremen's
      // collection, but the report never reaches the engine.
      s.host.own({ kind: "gainSpice", faction: "fremen", amount: 3 });
      drifted = true;
      // The host pays with spice the engine does not know about: refused.
      const all = s.host.f("fremen").spice;
      assert.throws(
        () => s.game.applyText(JSON.stringify({ actor: "host", action: { kind: "paySpice", faction: "fremen", amount: all } })),
        (e: { code?: string }) => e.code === "rule/insufficient_spice",
      );
      // One reconcile: exactly the missed fact differs, and nothing else.
      const events = JSON.parse(s.game.applyText(syncCommand(s.host.t))) as Ev[];
      assert.equal(events.length, 1);
      const synced = events[0]?.event as { kind: string; differences: { path: string; before: number; after: number }[] };
      assert.equal(synced.kind, "tableSynced");
      assert.deepEqual(
        synced.differences.map((d) => [d.path, d.after - d.before]),
        [["factions.fremen.spice", 3]],
      );
      s.check("reconcile");
      s.report({ kind: "paySpice", faction: "fremen", amount: all });
    } else {
      s.report({ kind: "gainSpice", faction: "fremen", amount: 1 });
    }
    s.endPhase();
    s.endPhase(); // Mentat ends: the next turn
  }
  assert.equal(s.host.t.turn, 4);
  assert.ok(drifted && exported && windows === 1 && triggered === 2);
  assert.ok(s.steps > 60, `${s.steps} steps`);
  s.game.free();
});

// ---- The worked port (docs/integration.md §12, D-230, D-231, D-262) ----
//
// A host that runs the rest of Dune keeps ITS OWN table, in ITS OWN ids —
// players are seats ("seat-3"), houses, territories, leaders and phases are
// printed names, Treachery cards are "kind#n" — and never writes event
// logic: after every accepted command its table is
// `toHost(applyEvents(toEngine(table), events))`, a translation of ids
// around the package's mirror. Its storage is one row per game holding its
// own game and the engine's state text under one revision, written by one
// compare-and-swap (D-230: the command carries `ifRevision` = the row's
// revision). Each request is stateless (load the row, apply, save). Bots
// answer every decision (the players' and the host's windows); the host
// sends its own reports, in its own vocabulary, from a small plan per
// phase. Every write is retried (a network retry: refused
// `rule/stale_revision`, nothing changes) and some are raced (two requests
// read the same row: the engine accepts both, the row's compare-and-swap
// keeps one). Each seat's screen is projected from `view` + `options`. Every
// refusal is handled by its code, from one table that covers every code
// (`HANDLING`, checked against the porting guide's table).

type SeatId = `seat-${number}`;
interface HostForces {
  troops: number;
  elite: number;
}
interface HostGroup {
  area: string;
  sector: number;
  troops: number;
  elite: number;
  advisors: number;
}
interface HostLeader {
  name: string;
  status: "free" | "dead" | "captured" | "ghola";
  by: SeatId | null;
}
interface HostPlayer {
  seat: SeatId;
  house: string;
  spice: number;
  reserve: HostForces;
  tanks: HostForces;
  groups: HostGroup[];
  cards: string[];
  handLimit: number;
  leaders: HostLeader[];
  traitors: string[];
  faceDancers: string[];
  revealedFaceDancers: string[];
  ally: SeatId | null;
  nexusCard: string | null;
}
interface HostTableModel {
  players: HostPlayer[];
  deck: string[];
  discard: string[];
  outside: string[];
  nexusDeck: string[] | null;
  nexusDiscard: string[];
}
interface HostGame {
  round: number;
  step: string;
  table: HostTableModel;
}
/** One stored row: the host's game and the engine's state, one revision. */
interface Row {
  revision: number;
  game: string;
  engine: string;
}

/** A one-to-one map between the engine's ids and the host's. */
class TwoWay<E, H> {
  readonly #to = new Map<E, H>();
  readonly #from = new Map<H, E>();
  constructor(pairs: Iterable<readonly [E, H]>) {
    for (const [e, h] of pairs) {
      assert.ok(!this.#to.has(e) && !this.#from.has(h), `id ${String(e)} / ${String(h)} mapped twice`);
      this.#to.set(e, h);
      this.#from.set(h, e);
    }
  }
  host(e: E): H {
    const h = this.#to.get(e);
    assert.ok(h !== undefined, `no host id for ${String(e)}`);
    return h;
  }
  engine(h: H): E {
    const e = this.#from.get(h);
    assert.ok(e !== undefined, `no engine id for ${String(h)}`);
    return e;
  }
}

/** The host's id maps: seats by seating order, the rest by printed name (`board()`), cards from the catalog. */
class Ids {
  readonly seat: TwoWay<Faction, SeatId>;
  readonly house: TwoWay<Faction, string>;
  readonly area: TwoWay<Territory, string>;
  readonly leader: TwoWay<Leader, string>;
  /** Traitor cards: a leader's, by the leader's printed name, or the one Cheap Hero/Heroine card (D-170). */
  readonly traitor: TwoWay<TraitorCard, string>;
  readonly phase: TwoWay<Phase, string>;
  readonly card: TwoWay<number, string>;
  constructor(seats: readonly Faction[], catalog: readonly string[]) {
    const printed = board() as unknown as Board;
    this.seat = new TwoWay(seats.map((f, i) => [f, `seat-${i + 1}` as SeatId] as const));
    this.house = new TwoWay(printed.factions.map((f) => [f.id, f.name] as const));
    this.area = new TwoWay(printed.territories.map((t) => [t.territory, t.name] as const));
    this.leader = new TwoWay(printed.leaders.map((l) => [l.id, l.name] as const));
    this.traitor = new TwoWay<TraitorCard, string>([
      ...printed.leaders.map((l) => [l.id, l.name] as const),
      ["cheap_hero", "Cheap Hero/Heroine"] as const,
    ]);
    this.phase = new TwoWay(printed.phases.map((p) => [p.id, p.name] as const));
    const copies = new Map<string, number>();
    this.card = new TwoWay(
      catalog.map((kind, id) => {
        const n = (copies.get(kind) ?? 0) + 1;
        copies.set(kind, n);
        return [id, `${kind}#${n}`] as const;
      }),
    );
  }
}
interface Board {
  factions: { id: Faction; name: string }[];
  territories: { territory: Territory; name: string }[];
  leaders: { id: Leader; name: string }[];
  phases: { id: Phase; name: string }[];
}

/** The engine's table in the host's shape and ids (players in seat order). */
function toHost(ids: Ids, seats: readonly Faction[], t: TableFacts): HostTableModel {
  const players = seats.map((faction): HostPlayer => {
    const x = t.factions[faction];
    assert.ok(x !== undefined, `${faction} is seated but not in the table`);
    return {
      seat: ids.seat.host(faction),
      house: ids.house.host(faction),
      spice: x.spice,
      reserve: { troops: x.reserves.normal ?? 0, elite: x.reserves.elite ?? 0 },
      tanks: { troops: x.tanks.normal ?? 0, elite: x.tanks.elite ?? 0 },
      groups: x.board.map((s) => ({
        area: ids.area.host(s.territory),
        sector: s.sector,
        troops: s.normal ?? 0,
        elite: s.elite ?? 0,
        advisors: s.advisors ?? 0,
      })),
      cards: x.hand.map((c) => ids.card.host(c)),
      handLimit: x.handLimit,
      leaders: (x.leaders ?? []).map(({ leader, custody }) => ({
        name: ids.leader.host(leader),
        status: custody.kind === "tanks" ? "dead" : custody.kind === "available" ? "free" : custody.kind,
        by: "by" in custody ? ids.seat.host(custody.by) : null,
      })),
      traitors: (x.traitors ?? []).map((l) => ids.traitor.host(l)),
      faceDancers: (x.faceDancers ?? []).map((l) => ids.traitor.host(l)),
      revealedFaceDancers: (x.revealedFaceDancers ?? []).map((l) => ids.traitor.host(l)),
      ally: x.ally ? ids.seat.host(x.ally) : null,
      nexusCard: x.nexus ? ids.house.host(x.nexus) : null,
    };
  });
  return {
    players,
    deck: t.deck.map((c) => ids.card.host(c)),
    discard: t.discard.map((c) => ids.card.host(c)),
    outside: (t.outside ?? []).map((c) => ids.card.host(c)),
    nexusDeck: t.nexusDeck ? t.nexusDeck.map((f) => ids.house.host(f)) : null,
    nexusDiscard: (t.nexusDiscard ?? []).map((f) => ids.house.host(f)),
  };
}

/** The host's table as the engine's `TableFacts` (what `applyEvents` and `syncTable` take). */
function toEngine(ids: Ids, h: HostTableModel): TableFacts {
  const factions: TableFacts["factions"] = {};
  for (const p of h.players) {
    const custody = (l: HostLeader): LeaderCustody => {
      if (l.status === "free") return { kind: "available" };
      if (l.status === "dead") return { kind: "tanks" };
      assert.ok(l.by !== null, `${l.name} is ${l.status} by nobody`);
      return { kind: l.status, by: ids.seat.engine(l.by) };
    };
    factions[ids.seat.engine(p.seat)] = {
      spice: p.spice,
      reserves: { normal: p.reserve.troops, elite: p.reserve.elite },
      tanks: { normal: p.tanks.troops, elite: p.tanks.elite },
      board: p.groups.map((g) => ({
        territory: ids.area.engine(g.area),
        sector: g.sector,
        normal: g.troops,
        elite: g.elite,
        advisors: g.advisors,
      })),
      hand: p.cards.map((c) => ids.card.engine(c)),
      handLimit: p.handLimit,
      leaders: p.leaders.map((l) => ({ leader: ids.leader.engine(l.name), custody: custody(l) })),
      traitors: p.traitors.map((l) => ids.traitor.engine(l)),
      faceDancers: p.faceDancers.map((l) => ids.traitor.engine(l)),
      revealedFaceDancers: p.revealedFaceDancers.map((l) => ids.traitor.engine(l)),
      ally: p.ally ? ids.seat.engine(p.ally) : null,
      nexus: p.nexusCard ? ids.house.engine(p.nexusCard) : null,
    };
  }
  const table: TableFacts = {
    factions,
    deck: h.deck.map((c) => ids.card.engine(c)),
    discard: h.discard.map((c) => ids.card.engine(c)),
    outside: h.outside.map((c) => ids.card.engine(c)),
    nexusDiscard: h.nexusDiscard.map((f) => ids.house.engine(f)),
  };
  if (h.nexusDeck !== null) table.nexusDeck = h.nexusDeck.map((f) => ids.house.engine(f));
  return table;
}

/** The host's own reports, in its own vocabulary. */
type HostReport =
  | { type: "storm"; sectors: number }
  | { type: "income"; seat: SeatId; amount: number }
  | { type: "draw"; seat: SeatId }
  | { type: "ship"; seat: SeatId; area: string; sector: number; troops: number }
  | { type: "casualties"; seat: SeatId; area: string; sector: number; troops: number }
  | { type: "nextPhase"; step: string };

/** A host report as the engine's command (ids translated; the union checks every field). */
function translate(ids: Ids, r: HostReport): HostCommand {
  const action = ((): HostAction => {
    switch (r.type) {
      case "storm":
        return { kind: "moveStorm", sectors: r.sectors };
      case "income":
        return { kind: "gainSpice", faction: ids.seat.engine(r.seat), amount: r.amount };
      case "draw":
        return { kind: "drawCard", faction: ids.seat.engine(r.seat) };
      case "ship":
        return {
          kind: "arrive",
          entrant: ids.seat.engine(r.seat),
          cause: "shipment",
          from: { kind: "reserves" },
          territory: ids.area.engine(r.area),
          sector: r.sector,
          normal: r.troops,
        };
      case "casualties":
        return {
          kind: "loseForces",
          faction: ids.seat.engine(r.seat),
          territory: ids.area.engine(r.area),
          sector: r.sector,
          normal: r.troops,
        };
      case "nextPhase":
        return { kind: "endPhase", phase: ids.phase.engine(r.step) };
    }
  })();
  return { actor: "host", action };
}

/**
 * What the host does on each code (docs/integration.md §12.6 lists the
 * same; host-test checks both agree). `satisfies` makes it exhaustive: a
 * code added to the engine is a compile error here until it is handled.
 */
type Handling = "reread" | "settle" | "resync" | "refused" | "reload" | "bug";
const HANDLING = {
  "decode/invalid_json": "bug",
  "decode/invalid_command": "bug",
  "decode/invalid_setup": "bug",
  "decode/invalid_viewer": "bug",
  "decode/invalid_bot": "bug",
  "decode/invalid_state": "bug",
  "decode/invalid_events": "bug",
  "decode/invalid_table": "bug",
  "decode/invalid_utf8": "bug",
  "decode/null_input": "bug",
  "decode/input_too_large": "bug",
  "state/unsupported_version": "bug",
  "state/inconsistent": "bug",
  "state/too_large": "bug",
  "state/ids_exhausted": "bug",
  "setup/invalid": "bug",
  "setup/too_large": "bug",
  "setup/missing_seed": "bug",
  "rule/wrong_actor": "refused",
  "rule/not_seated": "refused",
  "rule/stale_frame": "reread",
  "rule/stale_revision": "reread",
  "rule/not_your_decision": "settle",
  "rule/wrong_decision": "settle",
  "rule/decision_pending": "settle",
  "rule/frame_depends": "settle",
  "sync/invalid_table": "resync",
  "sync/events_mismatch": "resync",
  "state/not_quiet": "settle",
  "rule/card_not_outside": "refused",
  "rule/wrong_phase": "resync",
  "rule/token_not_in_supply": "refused",
  "rule/not_a_stronghold": "refused",
  "rule/hms_not_in_play": "refused",
  "rule/stronghold_in_storm": "refused",
  "rule/stronghold_has_ambassador": "refused",
  "rule/insufficient_spice": "refused",
  "rule/own_placement": "refused",
  "rule/card_not_held": "refused",
  "rule/not_karama": "refused",
  "rule/storm_amount": "refused",
  "rule/shield_wall_destroyed": "refused",
  "rule/invalid_hms_pointer": "refused",
  "rule/empty_arrival": "refused",
  "rule/group_mismatch": "refused",
  "rule/no_movement": "refused",
  "rule/no_elite_forces": "refused",
  "rule/no_advisors": "refused",
  "rule/invalid_position": "refused",
  "rule/not_enough_forces": "refused",
  "rule/not_a_beneficiary": "refused",
  "rule/effect_unavailable": "refused",
  "rule/not_copyable": "refused",
  "rule/duplicate_card": "refused",
  "rule/hand_full": "refused",
  "rule/deck_empty": "refused",
  "rule/branch_unavailable": "refused",
  "rule/terror_excluded_from_hms": "refused",
  "rule/nexus_not_held": "refused",
  "rule/wrong_nexus_mode": "refused",
  "rule/allied_nexus": "refused",
  "rule/nexus_window": "refused",
  "rule/not_shared": "refused",
  "rule/nexus_deal": "refused",
  "rule/nexus_off": "refused",
  "rule/zero_amount": "refused",
  "rule/token_gone": "refused",
  "rule/engine_cause": "refused",
  "rule/spice_limit": "refused",
  "rule/same_faction": "refused",
  "rule/too_many_traitors": "refused",
  "rule/traitor_unavailable": "refused",
  "rule/leader_move": "refused",
  "rule/alliance_impossible": "refused",
  "rule/not_allied": "refused",
  "rule/hand_limit": "refused",
  "rule/stronghold_full": "refused",
  "rule/ally_present": "refused",
  "rule/hms_entry": "refused",
  "rule/in_storm": "refused",
  "rule/too_many_forces": "refused",
  "rule/elite_revival_used": "refused",
  "rule/ghola_tleilaxu_only": "refused",
  "rule/leader_not_in_tanks": "refused",
  "rule/duke_revival_ecaz_only": "refused",
  "rule/parent_settled": "refused",
  "rule/duplicate_sector": "refused",
  "rule/duke_not_in_play": "refused",
  "rule/duke_unavailable": "refused",
  "rule/duke_not_in_tanks": "refused",
  "rule/duke_not_captured": "refused",
  "rule/duke_already_controlled": "refused",
  "internal/panic": "reload",
  "internal/poisoned": "reload",
  "internal/not_loaded": "bug",
  "internal/freed": "bug",
} as const satisfies Record<ErrorCode, Handling>;

/** The host's server: one row per game, each request stateless. */
class Server {
  row: Row;
  readonly ids: Ids;
  readonly seats: readonly Faction[];
  writes = 0;
  constructor(setup: Setup) {
    const game = createGame(setup);
    const v = game.view("host");
    this.seats = v.seats;
    this.ids = new Ids(v.seats, v.treachery.catalog);
    const own: HostGame = {
      round: v.turn,
      step: this.ids.phase.host(v.phase),
      table: toHost(this.ids, v.seats, tableOf(game.stateText())),
    };
    this.row = { revision: v.revision, game: JSON.stringify(own), engine: game.stateText() };
    game.free();
  }
  /** Read the row (a SELECT). */
  read(): Row {
    return { ...this.row };
  }
  /** The one write: `UPDATE … WHERE revision = ?` (false: another write came first). */
  swap(expected: number, next: Row): boolean {
    if (this.row.revision !== expected) return false;
    this.row = next;
    this.writes++;
    return true;
  }
  /**
   * One request, up to the write: load the row read, apply the command
   * guarded by the revision its sender saw, carry the host's table over the
   * events. Returns the row to write, or the refusal's code (nothing changed).
   */
  prepare(read: Row, command: Command, seen: number): { next: Row; events: Event[] } | { refused: ErrorCode } {
    const game = loadGame(read.engine);
    try {
      const events = game.apply({ ...command, ifRevision: seen });
      const own = JSON.parse(read.game) as HostGame;
      // No event logic here: the package's mirror, between two id translations.
      own.table = toHost(this.ids, this.seats, applyEvents(toEngine(this.ids, own.table), events));
      const v = game.view("host");
      own.round = v.turn;
      own.step = this.ids.phase.host(v.phase);
      return { next: { revision: v.revision, game: JSON.stringify(own), engine: game.stateText() }, events };
    } catch (error) {
      if (error instanceof EcazError) return { refused: error.code };
      throw error;
    } finally {
      game.free();
    }
  }
  /** A whole request (a command and the revision its sender saw): read, apply, write. */
  request(command: Command, seen: number): { events: Event[] } | { refused: ErrorCode } | { lost: true } {
    const read = this.read();
    const outcome = this.prepare(read, command, seen);
    if ("refused" in outcome) return outcome;
    return this.swap(read.revision, outcome.next) ? { events: outcome.events } : { lost: true };
  }
  own(): HostGame {
    return JSON.parse(this.row.game) as HostGame;
  }
  /** One seat's screen: what its player sees and may do, from `view` + `options`. */
  screen(seat: SeatId): {
    spice: number | null;
    cards: string[];
    handsSeen: number;
    deciding: FrameKind | null;
    details: boolean;
    legal: number;
  } {
    const faction = this.ids.seat.engine(seat);
    const game = loadGame(this.row.engine);
    const v = game.view(faction);
    const o = game.options(faction);
    game.free();
    assertActors(o.commands, faction);
    const me = v.factions.find((x) => x.faction === faction);
    assert.ok(me !== undefined);
    const open = v.pending.at(-1);
    return {
      spice: me.spice ?? null,
      cards: (me.hand ?? []).map((c) => this.ids.card.host(c)),
      handsSeen: v.factions.filter((x) => x.hand !== null && x.hand !== undefined).length,
      deciding: open !== undefined && open.actor === faction ? open.kind : null,
      details: open !== undefined && open.decision !== null && open.decision !== undefined,
      legal: o.commands.length,
    };
  }
}

test("D-262: the worked port — own ids, own table by applyEvents, one row under compare-and-swap, bots, retried and raced writes", () => {
  const seats: Faction[] = ["ecaz", "atreides", "harkonnen", "fremen", "emperor", "guild"];
  // The Atreides start with a Karama (the printed catalog's card of that kind).
  const fremen = { board: [{ territory: "sietch_tabr" as const, sector: 14, normal: 10 }] };
  const probe = createGame({ seats, seed: 26, factions: { fremen } });
  const catalog = probe.view("host").treachery.catalog;
  probe.free();
  // The host's Karama windows, in the order the port answers them (§12.5):
  // its rules let a Baliset count as a Karama (listed in the setup,
  // P-KARAMA-HOST), a Truthtrance counts once in a situation the engine
  // does not model (vouched on the report, D-251), then a printed Karama.
  const KARAMAS = [
    { kind: "baliset", holder: "harkonnen", vouched: false },
    { kind: "truthtrance", holder: "emperor", vouched: true },
    { kind: "karama", holder: "atreides", vouched: false },
  ] as const;
  const hand = (kind: string): number[] => {
    const card = catalog.indexOf(kind);
    assert.ok(card >= 0, kind);
    return [card];
  };
  const server = new Server({
    seats,
    seed: 26,
    options: { nexus: true },
    // Seat-private decisions (P-FRAME-VIS), the host's own Karama card
    // kind (P-KARAMA-HOST) and its own entry reactions before Ecaz's offer
    // (P-REACT-ORDER).
    policies: { frameVisibility: "actorOnly", karamaKinds: ["baliset"], reactionOrder: "hostFirst" },
    factions: {
      fremen,
      harkonnen: { hand: hand("baliset") },
      emperor: { hand: hand("truthtrance") },
      atreides: { hand: hand("karama") },
    },
  });
  const ids = server.ids;
  let karamaPlayed = 0;
  const ROUNDS = 5;
  const stats = { accepted: 0, retried: 0, raced: 0, refused: 0, decisions: 0, screens: 0, reactionsFirst: 0, offersAfter: 0, detailsHidden: 0 };
  const profile: BotProfile = "heuristic";
  let plan: HostReport[] = [];
  let planFor = "";

  /** The host's plan for a phase, in its own ids: a few reports, then the phase's end. */
  const phasePlan = (round: number, step: string): HostReport[] => {
    const seat = (i: number): SeatId => ids.seat.host(seats[(round + i) % seats.length] as Faction);
    const reports: HostReport[] = [];
    if (step === "Storm") reports.push({ type: "storm", sectors: 1 + (round % 3) });
    if (step === "Spice Blow") reports.push({ type: "income", seat: seat(0), amount: 2 });
    if (step === "Bidding") reports.push({ type: "draw", seat: seat(0) });
    if (step === "Shipment and Movement") {
      reports.push({ type: "ship", seat: seat(1), area: "Arrakeen", sector: 10, troops: 1 });
      reports.push({ type: "ship", seat: seat(2), area: "Carthag", sector: 11, troops: 1 });
    }
    if (step === "Battle") reports.push({ type: "casualties", seat: "seat-1", area: "Imperial Basin", sector: 10, troops: 1 });
    reports.push({ type: "nextPhase", step });
    return reports;
  };

  /** The host's table equals the engine's, and the ids translate both ways without loss. */
  const check = (what: string): void => {
    const own = server.own();
    assert.deepEqual(diffTable(toEngine(ids, own.table), tableOf(server.row.engine)), [], what);
    assert.deepEqual(toHost(ids, seats, toEngine(ids, own.table)), own.table, `${what}: the id maps are lossless`);
    assert.equal(server.row.revision, loadGameRevision(server.row.engine), `${what}: one revision for the row and the engine`);
  };

  /** Send a command as the host's request path does, then retry it, and race some. */
  const send = (command: Command): boolean => {
    const read = server.read();
    // The revision the sender saw (a client's last read of the game).
    const seen = read.revision;
    // Every seventh write races a duplicate of itself (two workers read the same row).
    const racer = stats.accepted % 7 === 3 ? server.prepare(read, command, seen) : undefined;
    const outcome = server.request(command, seen);
    if ("refused" in outcome) {
      const handling: Handling = HANDLING[outcome.refused];
      assert.equal(handling, "refused", `${JSON.stringify(command)}: ${outcome.refused}`);
      assert.deepEqual(server.row, read, "a refused write changes nothing");
      stats.refused++;
      return false;
    }
    assert.ok("events" in outcome, "nobody else writes this row");
    stats.accepted++;
    assert.equal(server.row.revision, read.revision + 1);
    check(JSON.stringify(command));
    const after = server.read();
    if (racer !== undefined) {
      // The engine accepted the duplicate too (it loaded the same row); the
      // row's compare-and-swap keeps only the first.
      assert.ok("next" in racer, "the raced duplicate was accepted by its own engine");
      assert.equal(server.swap(read.revision, racer.next), false);
      assert.deepEqual(server.row, after, "the raced duplicate is not written");
      stats.raced++;
    }
    // The retry: the same request again, with the revision its sender saw.
    const retry = server.request(command, seen);
    assert.deepEqual(retry, { refused: "rule/stale_revision" });
    assert.equal(HANDLING["rule/stale_revision"], "reread");
    assert.deepEqual(server.row, after, "a retried write never applies twice");
    stats.retried++;
    return true;
  };

  for (let step = 0; step < 4000 && server.own().round <= ROUNDS; step++) {
    const v = loadGameView(server.row.engine);
    const open = v.pending.at(-1);
    if (step % 10 === 0 || open !== undefined) {
      // Each seat's screen: its own hand and nobody else's; the decision
      // only for its decider, and (P-FRAME-VIS actorOnly) a faction's
      // decision's details only for that faction; the host's windows are public.
      for (const faction of seats) {
        const screen = server.screen(ids.seat.host(faction));
        assert.equal(screen.handsSeen, 1, `${faction} sees only its own hand`);
        assert.equal(screen.deciding !== null, open?.actor === faction);
        if (open !== undefined) {
          assert.equal(screen.details, open.actor === "host" || open.actor === faction, `${faction} and the ${open.kind} frame's details`);
          if (!screen.details) stats.detailsHidden++;
        }
        if (screen.deciding !== null) assert.ok(screen.legal > 0, `${faction} has a legal command for ${screen.deciding}`);
        stats.screens++;
      }
    }
    if (open !== undefined) {
      if (open.actor === "host") {
        const game = loadGame(server.row.engine);
        assertActors(game.options("host").commands, "host");
        game.free();
      }
      const next = KARAMAS[karamaPlayed];
      if (open.kind === "placementResponse" && next !== undefined) {
        // The host's Karama window (§12.5): it asks every player holding a
        // card its rules count as a Karama in ITS table; here the next
        // holder plays it. One answer to the engine's one frame, in the
        // host's ids translated.
        const holder = server.own().table.players.find((p) => p.cards.some((c) => c.startsWith(`${next.kind}#`)));
        const card = holder?.cards.find((c) => c.startsWith(`${next.kind}#`));
        assert.ok(holder !== undefined && card !== undefined, `the ${next.kind} is still in a hand`);
        assert.equal(ids.seat.engine(holder.seat), next.holder);
        const action = {
          kind: "cancelPlacement",
          frame: open.id,
          faction: ids.seat.engine(holder.seat),
          card: ids.card.engine(card),
          ...(next.vouched ? { hostVouchedKarama: true } : {}),
        } as const;
        // A listed kind is among the host's options; a vouched card is not
        // (any held card could be vouched for).
        const game = loadGame(server.row.engine);
        const listed = game.options("host").commands.some((c) => c.action.kind === "cancelPlacement" && c.action.card === action.card);
        game.free();
        assert.equal(listed, !next.vouched, `${next.kind} listed in the host's options`);
        assert.ok(send({ actor: "host", action }), `the ${next.kind} cancels the placement`);
        const after = server.own().table;
        assert.ok(!after.players.some((p) => p.cards.includes(card)) && after.discard.includes(card), `${card} left ${holder.seat}'s hand`);
        karamaPlayed++;
        stats.decisions++;
        continue;
      }
      if (open.kind === "hostReactions" && open.decision?.kind === "hostReactions" && open.decision.offerAfter === true) {
        // Its own entry reactions first (§12.6, P-REACT-ORDER hostFirst):
        // here a spice report for the seat on the clock, then the window's
        // close, which opens Ecaz's offer if the entry still triggers.
        const own = server.own();
        assert.ok(send(translate(ids, { type: "income", seat: ids.seat.host(seats[own.round % seats.length] as Faction), amount: 1 })));
        assert.ok(send({ actor: "host", action: { kind: "reactionsDone", frame: open.id } }));
        stats.reactionsFirst++;
        const after = loadGameView(server.row.engine).pending.at(-1);
        if (after?.kind === "triggerOffer") stats.offersAfter++;
        continue;
      }
      const command = botCommand(server.row.engine, open.actor, profile, step);
      assert.ok(command !== null, `step ${step}: the ${open.kind} frame's actor has a command`);
      // The generated union: a bot's command for the host is a host action.
      assert.equal(command.actor === "host", (HOST_ACTION_KINDS as readonly string[]).includes(command.action.kind));
      assert.ok(send(command), `step ${step}: the bot's answer is accepted`);
      stats.decisions++;
      continue;
    }
    const own = server.own();
    if (planFor !== `${own.round}/${own.step}`) {
      planFor = `${own.round}/${own.step}`;
      plan = phasePlan(own.round, own.step);
    }
    const next = plan.shift();
    assert.ok(next !== undefined, `step ${step}: the plan for ${planFor} ran out`);
    send(translate(ids, next));
  }
  const own = server.own();
  console.log(`the worked port: ${JSON.stringify(stats)}, ${server.writes} row writes`);
  assert.ok(own.round > ROUNDS, `round ${own.round}: ${JSON.stringify(stats)}`);
  assert.equal(server.writes, stats.accepted, "one row write per accepted command");
  assert.equal(server.row.revision, stats.accepted);
  assert.equal(stats.retried, stats.accepted);
  assert.ok(stats.raced > 5 && stats.decisions > 5 && stats.screens > 0 && stats.detailsHidden > 0, JSON.stringify(stats));
  assert.equal(karamaPlayed, KARAMAS.length, "each of the host's Karama cards was played in a window");
  assert.ok(stats.reactionsFirst > 0 && stats.offersAfter > 0, `the host's reactions came first: ${JSON.stringify(stats)}`);
  // The host's table is in its own ids.
  assert.ok(own.table.players.every((p) => p.seat.startsWith("seat-")));
  assert.ok(own.table.deck.every((c) => /^[a-z_]+#\d+$/.test(c)), own.table.deck.join(","));
  // Events from another table do not fit: the mirror says so rather than drift.
  const other = tableOf(text.newGame(JSON.stringify({ seats: ["ecaz", "atreides"], seed: 1 })));
  assert.throws(
    () => applyEvents(other, [{ audience: { kind: "public" }, event: { kind: "spicePaid", faction: "ecaz", amount: 999, to: null } }]),
    (e: unknown) => e instanceof EcazError && HANDLING[e.code] === "resync",
  );
});

test("D-262: the handling table covers every code, as the porting guide lists it", () => {
  const codes = [...ENGINE_ERROR_CODES, ...PACKAGE_ERROR_CODES].sort();
  assert.deepEqual(Object.keys(HANDLING).sort(), codes);
  const guide = process.env.ECAZ_PORTING_GUIDE;
  assert.ok(guide, "ECAZ_PORTING_GUIDE names docs/integration.md (scripts/host-test sets it)");
  const text = readFileSync(guide, "utf8");
  const start = text.indexOf("<!-- error handling: checked by scripts/host-test -->");
  const end = text.indexOf("<!-- end of error handling -->");
  assert.ok(start >= 0 && end > start, "the guide's error-handling table is marked");
  const rows = new Map<string, string>();
  for (const m of text.slice(start, end).matchAll(/^\| `([a-z0-9_]+\/[a-z0-9_]+)` \| ([a-z]+) \|/gm)) {
    assert.ok(!rows.has(m[1] as string), `${m[1]} listed twice`);
    rows.set(m[1] as string, m[2] as string);
  }
  assert.deepEqual(Object.fromEntries([...rows].sort()), Object.fromEntries(Object.entries(HANDLING).sort()));
});

/** D-261 at run time: what the engine lists for `actor` is of the actor's half of the union. */
function assertActors(commands: readonly Command[], actor: Faction | "host"): void {
  for (const c of commands) {
    assert.equal(c.actor, actor);
    const hostKind = (HOST_ACTION_KINDS as readonly string[]).includes(c.action.kind);
    assert.equal(hostKind, actor === "host", `${actor} may send ${c.action.kind}`);
  }
}

function loadGameView(state: string): View {
  const game = loadGame(state);
  const v = game.view("host");
  game.free();
  return v;
}

function loadGameRevision(state: string): number {
  return loadGameView(state).revision;
}
