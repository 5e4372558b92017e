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
import { test } from "node:test";

import {
  type Actor,
  applyEvents,
  botCommand,
  type BotProfile,
  type Command,
  createGame,
  diffTable,
  type Game,
  type Setup,
  type TableFacts,
  tableOf,
  text,
} from "@ecaz/engine";

type Faction = string;
// The fields of a command or an event, read by kind (checked by the engine's schemas).
type Args = Record<string, any>;
type Custody = { kind: string; by?: Faction };
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
  ally: Faction | null;
  nexus: Faction | null;
}
interface Table {
  turn: number;
  phase: string;
  storm: number;
  factions: Record<Faction, FactionTable>;
  deck: number[];
  discard: number[];
  outside: number[];
  nexusDiscard: Faction[];
  duke: Custody;
}
// The parts of the engine's wire shapes this host reads.
interface Ev {
  audience: { kind: string };
  event: { kind: string; [k: string]: unknown };
}
interface ViewFaction {
  faction: Faction;
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
  ally: Faction | null;
  nexus: Faction | null;
}
interface HostView {
  turn: number;
  phase: string;
  storm: number;
  factions: ViewFaction[];
  treachery: { deck: number[] | null; discard: number[]; outside: number[] };
  nexus: { discard: Faction[] };
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
  f(faction: Faction): FactionTable {
    const x = this.t.factions[faction];
    assert.ok(x, `${faction} is not seated`);
    return x;
  }
  stack(faction: Faction, territory: string, sector: number): Stack {
    const board = this.f(faction).board;
    let s = board.find((x) => x.territory === territory && x.sector === sector);
    if (!s) {
      s = { territory, sector, normal: 0, elite: 0, advisors: 0 };
      board.push(s);
    }
    return s;
  }
  prune(faction: Faction): void {
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
  const factions: Record<Faction, FactionTable> = {};
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
  const factions: Record<Faction, unknown> = {};
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
    return this.game.options(actor as Actor) as unknown as Opts;
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

// D-230, D-231, D-160: the host kit. A host whose own table is the
// package's `TableFacts`, kept with `applyEvents` alone (no hand-written
// mirror), plays six-faction turns: the bots answer every decision (the
// players' and the host's own windows), the host sends its own reports by a
// small plan per phase. Every write carries `ifRevision` and is sent twice (a
// network retry): the retry is refused with `rule/stale_revision` and changes
// nothing; a report the rules refuse changes nothing either; and after every
// accepted command the host's table equals the engine's.
test("D-230/D-231: a host keeps its table with applyEvents, bots decide, retried writes never apply twice", () => {
  const seats: Actor[] = ["ecaz", "atreides", "harkonnen", "fremen", "emperor", "guild"];
  const game = createGame({
    seats,
    seed: 26,
    options: { nexus: true },
    factions: { fremen: { board: [{ territory: "sietch_tabr", sector: 14, normal: 10 }] } },
  } as Setup);
  let table: TableFacts = tableOf(game.stateText());
  let revision = game.view("host").revision;
  assert.equal(revision, 0);
  const stats = { accepted: 0, retried: 0, refused: 0, decisions: 0 };
  let plan: Args[] = [];
  let planFor = "";
  // The bot profiles are a union: a typo is a compile error (strict tsc).
  const profile: BotProfile = "heuristic";
  // @ts-expect-error — "heuristc" is not a BotProfile
  const typo: BotProfile = "heuristc";
  assert.notEqual(typo, profile);

  /** The host's own reports for a phase, then its end. */
  const phasePlan = (turn: number, phase: string): Args[] => {
    const who = seats[turn % seats.length] as string;
    const strongholds: [string, number][] = [
      ["arrakeen", 10],
      ["carthag", 11],
    ];
    const reports: Args[] = [];
    if (phase === "storm") reports.push({ kind: "moveStorm", sectors: 1 + (turn % 3) });
    if (phase === "spiceBlow") reports.push({ kind: "gainSpice", faction: who, amount: 2 });
    if (phase === "bidding") reports.push({ kind: "drawCard", faction: who });
    if (phase === "shipmentMovement") {
      for (const [i, [territory, sector]] of strongholds.entries()) {
        const entrant = seats[(turn + i + 1) % seats.length];
        reports.push({ kind: "arrive", entrant, cause: "shipment", from: { kind: "reserves" }, territory, sector, normal: 1 });
      }
    }
    if (phase === "battle") reports.push({ kind: "loseForces", faction: "ecaz", territory: "imperial_basin", sector: 10, normal: 1 });
    reports.push({ kind: "endPhase", phase });
    return reports;
  };

  /** Send a command guarded by the revision, and once more as a retry. */
  const write = (command: Command): boolean => {
    const guarded = { ...command, ifRevision: revision } as Command;
    let events;
    try {
      events = game.apply(guarded);
    } catch (e) {
      assert.notEqual((e as { code?: string }).code, "rule/stale_revision");
      stats.refused++;
      return false;
    }
    table = applyEvents(table, events);
    assert.deepEqual(diffTable(table, tableOf(game.stateText())), [], JSON.stringify(command));
    revision = game.view("host").revision;
    stats.accepted++;
    assert.equal(revision, stats.accepted);
    const before = game.stateText();
    assert.throws(() => game.apply(guarded), (e: { code?: string }) => e.code === "rule/stale_revision");
    assert.equal(game.stateText(), before);
    stats.retried++;
    return true;
  };

  for (let step = 0; step < 2000 && game.view("host").turn <= 3; step++) {
    const v = game.view("host");
    const open = v.pending.at(-1);
    if (open !== undefined) {
      const command = botCommand(game.stateText(), open.actor as Actor, profile, step);
      assert.ok(command !== null, `step ${step}: the ${open.kind} frame's actor has a command`);
      assert.ok(write(command), `step ${step}: the bot's answer is accepted`);
      stats.decisions++;
      continue;
    }
    if (planFor !== `${v.turn}/${v.phase}`) {
      planFor = `${v.turn}/${v.phase}`;
      plan = phasePlan(v.turn, v.phase);
    }
    const next = plan.shift();
    assert.ok(next !== undefined, `step ${step}: the plan for ${planFor} ran out`);
    write({ actor: "host", action: next } as Command);
  }
  assert.ok(game.view("host").turn > 3, `turn ${game.view("host").turn}: ${JSON.stringify(stats)}`);
  assert.equal(stats.retried, stats.accepted);
  assert.ok(stats.decisions > 5, JSON.stringify(stats));
  // Events from another table do not fit: the mirror says so rather than drift.
  const other = tableOf(text.newGame(JSON.stringify({ seats: ["ecaz", "atreides"], seed: 1 })));
  assert.throws(
    () => applyEvents(other, [{ audience: { kind: "public" }, event: { kind: "spicePaid", faction: "ecaz", amount: 999, to: null } }]),
    (e: { code?: string }) => e.code === "sync/events_mismatch",
  );
  game.free();
});
