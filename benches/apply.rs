//! Benchmarks for the budgets of ARCHITECTURE §9, all in one run so the
//! ratios are taken side by side (results and ratios: `docs/PERFORMANCE.md`).
//!
//! Run with `cargo bench --bench apply -- --warm-up-time 1 --measurement-time 3`
//! (or `scripts/bench --warm-up-time 1 --measurement-time 3`).
//!
//! The workload is a 6-faction mid-game state (turn 4, forces spread over the
//! board, hands, traitors, leaders in the Tanks and captured, an alliance,
//! Nexus cards, Duke Vidal with Ecaz, an Ambassador already placed and one
//! used) and the full command stream of one Ecaz turn: the storm move, every
//! phase boundary, the end-of-Revival placement of three tokens (each
//! announced by Ecaz and allowed by the host), the finish, three host-reported
//! arrivals into strongholds holding tokens — each offered to Ecaz and
//! triggered (Atreides: look at the entrant's hand; Emperor: 5 spice; Ecaz:
//! an alliance offer the entrant refuses) — and the rest of the turn through
//! Mentat.
//!
//! Groups:
//! - `typed_apply/placement_turn`: the stream through `ecaz::apply` (the
//!   cloning door); `typed_apply/placement_turn_mut`: through `ecaz::apply_mut`.
//!   Throughput is in commands, so criterion's time divided by the stream
//!   length is the per-command time.
//! - `typed_apply_each/NN_kind`: each command of the stream alone, through
//!   `ecaz::apply`, from the state it meets in the stream (the median of these
//!   is "the median per command" of the budget).
//! - `json_apply/placement_turn`: the same stream through `ecaz::apply_json`
//!   (state JSON + command JSON in, state JSON + events JSON out).
//! - `json_floor/parse_serialize`: raw `serde_json` parse of the same input
//!   states into `ecaz::Game` plus `serde_json::to_string` of them — no
//!   version check, no integrity checks, no command, no events.
//! - `json_parts/*`: the pieces of the JSON door over the same stream, to see
//!   what the door adds to the floor.
//! - `view/all_viewers`: the six factions' views, the spectator's and the host's.
//! - `options/ecaz_placement_frame`: Ecaz's options at an open placement frame;
//!   `options/fremen_effect_frame` and `options/guild_effect_frame`: the
//!   beneficiary's options (choice descriptors) at a Fremen relocation and a
//!   Guild shipment frame.
//!
//! Before the benchmarks run, the serialized state size is printed (stderr)
//! for the mid-game state, after one scripted turn and after 20 scripted turns.

// A benchmark harness: a broken fixture must stop the run loudly.
#![allow(clippy::expect_used, clippy::panic)]

use std::collections::BTreeMap;
use std::hint::black_box;

use criterion::{criterion_group, BatchSize, Criterion, Throughput};
use ecaz::{
    apply, apply_json, apply_mut, game_to_json, options, view, Action, Actor, Ambassador, AmbassadorsSetup, CardId,
    Cause, Command, Decision, Destruction, DukeCustody, DukeSource, Event, EventKind, Faction, FactionSetup, Forces,
    Game, GameOptions, Leader, LeaderCustody, LeaderState, Origin, Phase, PlacementTurn, Setup, Stack, Territory,
    Viewer, Zone,
};

const SEATS: [Faction; 6] = [
    Faction::Ecaz,
    Faction::Atreides,
    Faction::Harkonnen,
    Faction::Emperor,
    Faction::Fremen,
    Faction::Guild,
];

/// Base-catalog card ids (board.md order: shield 9–12, snooper 13–16, karama 27–28 …).
const KARAMA_A: CardId = CardId(27);
const KARAMA_B: CardId = CardId(28);

fn stack(territory: Territory, sector: u8, normal: u32, elite: u32) -> Stack {
    Stack {
        territory,
        sector,
        normal,
        elite,
        advisors: 0,
    }
}

fn forces(normal: u32, elite: u32) -> Forces {
    Forces { normal, elite }
}

fn cards(ids: &[u16]) -> Vec<CardId> {
    ids.iter().map(|&i| CardId(i)).collect()
}

fn leader(leader: Leader, custody: LeaderCustody) -> LeaderState {
    LeaderState { leader, custody }
}

/// One faction's table: every faction totals exactly 20 forces.
#[allow(clippy::too_many_arguments)]
fn table(
    spice: u32,
    board: Vec<Stack>,
    reserves: Forces,
    tanks: Forces,
    hand: Vec<CardId>,
    traitors: Vec<Leader>,
    leaders: Vec<LeaderState>,
) -> FactionSetup {
    FactionSetup {
        spice: Some(spice),
        reserves: Some(reserves),
        tanks: Some(tanks),
        board: Some(board),
        leaders,
        hand,
        traitors: traitors.into_iter().map(ecaz::TraitorCard::Leader).collect(),
        ..FactionSetup::default()
    }
}

/// The 6-faction, turn-4 mid-game setup.
fn mid_game_setup() -> Setup {
    use Territory as T;
    let mut factions = BTreeMap::new();
    // Ecaz: 9 on the board + 9 reserves + 2 Tanks; Whitmore Bludd captured.
    factions.insert(
        Faction::Ecaz,
        table(
            14,
            vec![
                stack(T::ImperialBasin, 10, 4, 0),
                stack(T::Arrakeen, 10, 3, 0),
                stack(T::TheMinorErg, 6, 2, 0),
            ],
            forces(9, 0),
            forces(2, 0),
            cards(&[4, 11]),
            vec![Leader::Stilgar],
            vec![leader(
                Leader::WhitmoreBludd,
                LeaderCustody::Captured { by: Faction::Harkonnen },
            )],
        ),
    );
    // Atreides: 10 + 7 + 3; Duncan Idaho dead; holds a Karama.
    factions.insert(
        Faction::Atreides,
        table(
            9,
            vec![
                stack(T::Arrakeen, 10, 5, 0),
                stack(T::Basin, 9, 2, 0),
                stack(T::HaggaBasin, 12, 3, 0),
            ],
            forces(7, 0),
            forces(3, 0),
            vec![KARAMA_A, CardId(9), CardId(0)],
            vec![Leader::FeydRautha],
            vec![leader(Leader::DuncanIdaho, LeaderCustody::Tanks)],
        ),
    );
    // Harkonnen: 12 + 4 + 4; four traitors; allied with the Emperor.
    let mut harkonnen = table(
        11,
        vec![
            stack(T::Carthag, 11, 8, 0),
            stack(T::Tsimpo, 12, 2, 0),
            stack(T::BrokenLand, 11, 2, 0),
        ],
        forces(4, 0),
        forces(4, 0),
        cards(&[1, 10, 13, 21]),
        vec![Leader::ThufirHawat, Leader::Caid, Leader::StabanTuek, Leader::SanyaEcaz],
        Vec::new(),
    );
    harkonnen.ally = Some(Faction::Emperor);
    factions.insert(Faction::Harkonnen, harkonnen);
    // Emperor: 5 Sardaukar among 20; holds the other Karama.
    let mut emperor = table(
        17,
        vec![stack(T::Arsunt, 11, 3, 2), stack(T::PastyMesa, 6, 2, 0)],
        forces(8, 3),
        forces(2, 0),
        vec![KARAMA_B, CardId(2)],
        vec![Leader::Otheym],
        Vec::new(),
    );
    emperor.ally = Some(Faction::Harkonnen);
    factions.insert(Faction::Emperor, emperor);
    // Fremen: 3 Fedaykin among 20; Jamis dead; holds the Atreides Nexus card.
    let mut fremen = table(
        6,
        vec![
            stack(T::SietchTabr, 14, 4, 1),
            stack(T::HabbanyaRidgeSietch, 17, 3, 1),
            stack(T::FalseWallWest, 17, 2, 0),
            stack(T::TheGreatFlat, 15, 2, 0),
        ],
        forces(4, 1),
        forces(2, 0),
        cards(&[3, 14]),
        vec![Leader::PiterDeVries],
        vec![leader(Leader::Jamis, LeaderCustody::Tanks)],
    );
    fremen.nexus = Some(Faction::Atreides);
    factions.insert(Faction::Fremen, fremen);
    // Guild: 8 + 10 + 2; holds the Ecaz Nexus card (Betrayal mode).
    let mut guild = table(
        22,
        vec![stack(T::TueksSietch, 5, 6, 0), stack(T::SouthMesa, 4, 2, 0)],
        forces(10, 0),
        forces(2, 0),
        cards(&[8, 17, 22]),
        vec![Leader::Burseg],
        Vec::new(),
    );
    guild.nexus = Some(Faction::Ecaz);
    factions.insert(Faction::Guild, guild);

    // The cohort: the Harkonnen token already triggered (used); the Ecaz token
    // placed in Habbanya Ridge Sietch; four tokens left in supply.
    let mut zones = BTreeMap::new();
    zones.insert(Ambassador::Harkonnen, Zone::Used);
    zones.insert(
        Ambassador::Ecaz,
        Zone::Placed {
            territory: T::HabbanyaRidgeSietch,
        },
    );

    Setup {
        seats: SEATS.to_vec(),
        seed: Some(20_240_604),
        options: GameOptions {
            advanced: true,
            nexus: true,
            ..GameOptions::default()
        },
        turn: Some(4),
        phase: Some(Phase::Storm),
        storm: Some(3),
        factions,
        discard: cards(&[5, 6, 15]),
        nexus_discard: vec![Faction::Moritani],
        ambassadors: Some(AmbassadorsSetup {
            zones,
            cohort: vec![
                Ambassador::Atreides,
                Ambassador::Harkonnen,
                Ambassador::Choam,
                Ambassador::Emperor,
                Ambassador::Richese,
            ],
            cycle: 0,
            placement: Default::default(),
        }),
        duke: Some(DukeCustody::Controlled {
            by: Faction::Ecaz,
            source: DukeSource::EcazAmbassador,
        }),
        ..Setup::default()
    }
}

/// The same table at Shipment and Movement, with the Fremen token placed in
/// Arrakeen and the Guild token in Carthag (for the effect-frame options).
fn effect_frames_setup() -> Setup {
    let mut s = mid_game_setup();
    s.phase = Some(Phase::ShipmentMovement);
    let mut zones = BTreeMap::new();
    zones.insert(
        Ambassador::Ecaz,
        Zone::Placed {
            territory: Territory::HabbanyaRidgeSietch,
        },
    );
    zones.insert(
        Ambassador::Fremen,
        Zone::Placed {
            territory: Territory::Arrakeen,
        },
    );
    zones.insert(
        Ambassador::Guild,
        Zone::Placed {
            territory: Territory::Carthag,
        },
    );
    s.ambassadors = Some(AmbassadorsSetup {
        zones,
        cohort: vec![
            Ambassador::Fremen,
            Ambassador::Guild,
            Ambassador::Choam,
            Ambassador::Emperor,
            Ambassador::Richese,
        ],
        cycle: 0,
        placement: PlacementTurn {
            placed: 0,
            closed: true,
            prevented_by: None,
        },
    });
    s
}

fn host(action: Action) -> Command {
    Command::host(action)
}

fn end(phase: Phase) -> Command {
    host(Action::EndPhase { phase })
}

fn open_frame(game: &Game) -> ecaz::FrameId {
    game.open_frame().map(|f| f.id).expect("a frame is open")
}

/// A host-reported arrival of ordinary forces.
fn arrive(entrant: Faction, cause: Cause, from: Origin, territory: Territory, sector: u8, normal: u32) -> Command {
    host(Action::Arrive {
        entrant,
        cause,
        from,
        territory,
        sector,
        normal,
        elite: 0,
        advisors: false,
        parent: None,
        reactions_first: false,
    })
}

fn board(territory: Territory, sector: u8) -> Origin {
    Origin::Board { territory, sector }
}

fn trigger_for_ecaz(game: &Game) -> Command {
    Command::faction(
        Faction::Ecaz,
        Action::Trigger {
            frame: open_frame(game),
            beneficiary: Faction::Ecaz,
        },
    )
}

/// Apply and keep the command, for the recorded stream.
fn step(game: &mut Game, stream: &mut Vec<Command>, command: Command) {
    apply_mut(game, &command).unwrap_or_else(|e| panic!("fixture command {command:?} rejected: {e}"));
    stream.push(command);
}

/// The command stream of one full Ecaz turn from `start` (turn start through
/// Mentat), with three placements and three triggered entries. Returns the
/// stream and the state at the open placement frame (for the options
/// benchmark).
fn placement_turn(start: &Game) -> (Vec<Command>, Game) {
    use Territory as T;
    let mut g = start.clone();
    let mut s = Vec::new();
    step(&mut g, &mut s, host(Action::MoveStorm { sectors: 4 }));
    for phase in [
        Phase::Storm,
        Phase::SpiceBlow,
        Phase::ChoamCharity,
        Phase::Bidding,
        Phase::Revival,
    ] {
        step(&mut g, &mut s, end(phase));
    }
    let at_placement = g.clone();
    for (token, territory) in [
        (Ambassador::Atreides, T::Carthag),
        (Ambassador::Choam, T::SietchTabr),
        (Ambassador::Emperor, T::TueksSietch),
    ] {
        let frame = open_frame(&g);
        step(
            &mut g,
            &mut s,
            Command::faction(
                Faction::Ecaz,
                Action::Place {
                    frame,
                    token,
                    territory,
                },
            ),
        );
        let frame = open_frame(&g);
        step(&mut g, &mut s, host(Action::AllowPlacement { frame }));
    }
    let frame = open_frame(&g);
    step(
        &mut g,
        &mut s,
        Command::faction(Faction::Ecaz, Action::FinishPlacement { frame }),
    );
    // Shipment and Movement: three entries into strongholds holding tokens.
    // Harkonnen reinforce Carthag (Atreides token: Ecaz sees their hand).
    step(
        &mut g,
        &mut s,
        arrive(Faction::Harkonnen, Cause::Shipment, Origin::Reserves, T::Carthag, 11, 2),
    );
    let c = trigger_for_ecaz(&g);
    step(&mut g, &mut s, c);
    // Atreides move into Tuek's Sietch (Emperor token: Ecaz gains 5 spice).
    step(
        &mut g,
        &mut s,
        arrive(
            Faction::Atreides,
            Cause::Movement,
            board(T::Arrakeen, 10),
            T::TueksSietch,
            5,
            2,
        ),
    );
    let c = trigger_for_ecaz(&g);
    step(&mut g, &mut s, c);
    // The Guild ship into Habbanya Ridge Sietch (Ecaz token: Ecaz already
    // holds the Duke, so the alliance branch runs; the Guild refuse).
    step(
        &mut g,
        &mut s,
        arrive(
            Faction::Guild,
            Cause::Shipment,
            Origin::Reserves,
            T::HabbanyaRidgeSietch,
            17,
            2,
        ),
    );
    let c = trigger_for_ecaz(&g);
    step(&mut g, &mut s, c);
    let frame = open_frame(&g);
    step(
        &mut g,
        &mut s,
        Command::faction(Faction::Guild, Action::AnswerAlliance { frame, accept: false }),
    );
    assert!(g.open_frame().is_none(), "every reaction settled");
    for phase in [Phase::ShipmentMovement, Phase::Battle, Phase::Collection, Phase::Mentat] {
        step(&mut g, &mut s, end(phase));
    }
    assert_eq!(g.turn(), start.turn() + 1, "the stream covers exactly one turn");
    assert_eq!(g.phase(), Phase::Storm);
    (s, at_placement)
}

/// The states at an open Fremen relocation frame and an open Guild shipment
/// frame (Ecaz triggered the token for itself).
fn effect_frames() -> (Game, Game) {
    use Territory as T;
    let start = effect_frames_setup().build().expect("effect setup builds");
    let open = |entry: Command, kind: &str| {
        let mut g = start.clone();
        apply_mut(&mut g, &entry).expect("entry accepted");
        let c = trigger_for_ecaz(&g);
        apply_mut(&mut g, &c).expect("trigger accepted");
        let frame = g.open_frame().expect("an effect frame");
        assert_eq!(frame.decision.name(), kind);
        assert_eq!(frame.actor, Actor::Faction(Faction::Ecaz));
        g
    };
    let fremen = open(
        arrive(
            Faction::Atreides,
            Cause::Movement,
            board(T::Basin, 9),
            T::Arrakeen,
            10,
            2,
        ),
        "fremenRelocation",
    );
    let guild = open(
        arrive(
            Faction::Harkonnen,
            Cause::Movement,
            board(T::Tsimpo, 12),
            T::Carthag,
            11,
            2,
        ),
        "guildShipment",
    );
    (fremen, guild)
}

/// The states the stream meets: `states[i]` is the state before command `i`.
fn states_along(start: &Game, stream: &[Command]) -> Vec<Game> {
    let mut out = Vec::with_capacity(stream.len());
    let mut g = start.clone();
    for c in stream {
        out.push(g.clone());
        apply_mut(&mut g, c).expect("stream replays");
    }
    out
}

// ---- state size over many turns ----

/// Answer every open frame from `options` until none is open: Ecaz triggers
/// each offered token for the first beneficiary; every other frame takes its
/// first listed command (decline a purchase, pass a board effect, refuse an
/// alliance …); the host allows placements except on turn 3, when it cancels
/// one with a Karama if one is held.
fn settle_frames(g: &mut Game, k: u32, placed: &mut u32, run: &mut impl FnMut(&mut Game, Command)) {
    while let Some(frame) = g.open_frame().cloned() {
        let opts = options(g, frame.actor);
        let pick = match &frame.decision {
            Decision::Placement => opts
                .commands
                .iter()
                .find(|c| matches!(c.action, Action::Place { .. }) && *placed < 2)
                .or_else(|| {
                    opts.commands
                        .iter()
                        .find(|c| matches!(c.action, Action::FinishPlacement { .. }))
                }),
            Decision::PlacementResponse { .. } => {
                *placed += 1;
                opts.commands
                    .iter()
                    .find(|c| matches!(c.action, Action::CancelPlacement { .. }) && k == 3)
                    .or_else(|| opts.commands.first())
            }
            Decision::TriggerOffer { .. } => opts
                .commands
                .iter()
                .find(|c| matches!(c.action, Action::Trigger { .. })),
            _ => opts.commands.first(),
        };
        let c = pick.cloned().expect("options list an answer");
        run(g, c);
    }
}

/// A faction that may enter `territory` to meet its token (not Ecaz, not
/// its ally, not the token's identity), with a force to bring from reserves
/// or from a stack elsewhere; the arrival command.
fn entry_into(g: &Game, territory: Territory, sector: u8, token: Ambassador) -> Option<Command> {
    let ecaz_ally = g.faction(Faction::Ecaz).and_then(|s| s.ally);
    g.seats()
        .iter()
        .filter(|&&f| f != Faction::Ecaz && Some(f) != ecaz_ally && f != token.faction())
        .find_map(|&f| {
            let s = g.faction(f)?;
            if s.reserves.normal > 0 {
                return Some(arrive(f, Cause::Shipment, Origin::Reserves, territory, sector, 1));
            }
            let from = s.board.iter().find(|st| st.territory != territory && st.normal > 0)?;
            Some(arrive(
                f,
                Cause::Movement,
                board(from.territory, from.sector),
                territory,
                sector,
                1,
            ))
        })
}

/// One scripted turn: the storm moves, Ecaz places up to two affordable
/// tokens, every placed token is entered once in Shipment and Movement and
/// triggered (effects answered from `options`, so cohorts complete and
/// recycle), a Lasgun/Shield explosion returns a placed token on even turns,
/// and the Shield Wall falls on turn 10.
fn scripted_turn(game: &mut Game, k: u32, max_bytes: &mut usize) {
    let mut run = |g: &mut Game, c: Command| {
        apply_mut(g, &c).unwrap_or_else(|e| panic!("scripted command {c:?} rejected: {e}"));
        let bytes = game_to_json(g).expect("serializes").len();
        *max_bytes = (*max_bytes).max(bytes);
    };
    if k == 10 && game.shield_wall_standing() {
        run(game, host(Action::DestroyShieldWall {}));
    }
    run(
        game,
        host(Action::MoveStorm {
            sectors: (k * 5) % 9 + 1,
        }),
    );
    for phase in [
        Phase::Storm,
        Phase::SpiceBlow,
        Phase::ChoamCharity,
        Phase::Bidding,
        Phase::Revival,
    ] {
        run(game, end(phase));
    }
    let mut placed = 0;
    settle_frames(game, k, &mut placed, &mut run);
    let targets: Vec<(Ambassador, Territory)> = game
        .ambassadors()
        .tokens
        .iter()
        .filter_map(|t| match t.zone {
            Zone::Placed { territory } => Some((t.token, territory)),
            _ => None,
        })
        .collect();
    for (token, territory) in targets {
        let sector = ecaz::territory_info(territory).sectors.first().copied().unwrap_or(0);
        if let Some(c) = entry_into(game, territory, sector, token) {
            run(game, c);
            settle_frames(game, k, &mut placed, &mut run);
        }
    }
    if k % 2 == 0 {
        let placed_in = game.ambassadors().tokens.iter().find_map(|t| match t.zone {
            Zone::Placed { territory } => Some(territory),
            _ => None,
        });
        if let Some(territory) = placed_in {
            run(
                game,
                host(Action::DestroyTerritory {
                    territory,
                    cause: Destruction::LasgunShield,
                }),
            );
        }
    }
    for phase in [Phase::ShipmentMovement, Phase::Battle, Phase::Collection, Phase::Mentat] {
        run(game, end(phase));
    }
}

fn report_state_sizes(mid: &Game) {
    let size = |g: &Game| game_to_json(g).expect("serializes").len();
    let mut fresh = Setup {
        options: GameOptions {
            nexus: true,
            ..GameOptions::default()
        },
        ..Setup::for_seats(&SEATS, 1)
    };
    // A starting position the player chooses (the Fremen's) must be given
    // (board.md §Factions, D-56): here all in reserves.
    for f in SEATS {
        if ecaz::printed_start(f, false, fresh.options.advanced).is_none() {
            fresh.factions.entry(f).or_default().board = Some(Vec::new());
        }
    }
    let fresh = fresh.build().expect("fresh setup builds");
    let mut g = mid.clone();
    let mut max_bytes = size(&g);
    let mut after = Vec::new();
    for k in 1..=20 {
        scripted_turn(&mut g, k, &mut max_bytes);
        after.push(size(&g));
    }
    let first = after.first().copied().unwrap_or_default();
    let last = after.last().copied().unwrap_or_default();
    let a = g.ambassadors();
    eprintln!("state size (serialized JSON bytes):");
    eprintln!("  fresh 6-faction game, turn 1 ........ {}", size(&fresh));
    eprintln!("  mid-game state, turn {} ............. {}", mid.turn(), size(mid));
    eprintln!("  after 1 scripted turn ............... {first}");
    eprintln!("  after 20 scripted turns (turn {}) ... {last}", g.turn());
    eprintln!("  largest after any command, 20 turns . {max_bytes}");
    eprintln!("  after each turn: {after:?}");
    eprintln!(
        "  at the end: tokens placed {}, used {}, supply {}, pool {}; cycle {}; knowledge records {}; discard {}",
        a.tokens
            .iter()
            .filter(|t| matches!(t.zone, Zone::Placed { .. }))
            .count(),
        a.in_zone(Zone::Used).count(),
        a.in_zone(Zone::Supply).count(),
        a.in_zone(Zone::Pool).count(),
        a.cycle,
        g.knowledge().len(),
        g.treachery().discard.len(),
    );
}

// ---- benchmarks ----

struct Fixture {
    start: Game,
    stream: Vec<Command>,
    states: Vec<Game>,
    at_placement: Game,
    at_fremen: Game,
    at_guild: Game,
    start_json: String,
    stream_json: Vec<String>,
    states_json: Vec<String>,
}

fn fixture() -> Fixture {
    let start = mid_game_setup().build().expect("mid-game setup builds");
    let (stream, at_placement) = placement_turn(&start);
    let (at_fremen, at_guild) = effect_frames();
    let states = states_along(&start, &stream);
    let start_json = game_to_json(&start).expect("serializes");
    let stream_json = stream
        .iter()
        .map(|c| serde_json::to_string(c).expect("serializes"))
        .collect();
    let states_json = states.iter().map(|g| game_to_json(g).expect("serializes")).collect();
    Fixture {
        start,
        stream,
        states,
        at_placement,
        at_fremen,
        at_guild,
        start_json,
        stream_json,
        states_json,
    }
}

fn elements(n: usize) -> Throughput {
    Throughput::Elements(u64::try_from(n).unwrap_or(u64::MAX))
}

fn bench_typed(c: &mut Criterion, fx: &Fixture) {
    let n = fx.stream.len();
    let mut group = c.benchmark_group("typed_apply");
    group.throughput(elements(n));
    group.bench_function("placement_turn", |b| {
        let (first, rest) = fx.stream.split_first().expect("a non-empty stream");
        b.iter(|| {
            let mut events: usize = 0;
            let (mut g, ev) = apply(black_box(&fx.start), black_box(first)).expect("accepted");
            events += ev.len();
            for cmd in rest {
                let (next, ev) = apply(black_box(&g), black_box(cmd)).expect("accepted");
                events += ev.len();
                g = next;
            }
            (g, events)
        })
    });
    group.bench_function("placement_turn_mut", |b| {
        b.iter_batched(
            || fx.start.clone(),
            |mut g| {
                let mut events: Vec<Vec<Event>> = Vec::with_capacity(n);
                for cmd in &fx.stream {
                    events.push(apply_mut(black_box(&mut g), black_box(cmd)).expect("accepted"));
                }
                (g, events)
            },
            BatchSize::SmallInput,
        )
    });
    group.finish();

    let mut each = c.benchmark_group("typed_apply_each");
    each.throughput(Throughput::Elements(1));
    for (i, (state, cmd)) in fx.states.iter().zip(&fx.stream).enumerate() {
        let id = format!("{:02}_{}", i + 1, cmd.action.name());
        each.bench_function(id, |b| {
            b.iter(|| apply(black_box(state), black_box(cmd)).expect("accepted"))
        });
    }
    each.finish();
}

fn bench_json(c: &mut Criterion, fx: &Fixture) {
    let n = fx.stream.len();
    let mut group = c.benchmark_group("json_apply");
    group.throughput(elements(n));
    group.bench_function("placement_turn", |b| {
        b.iter(|| {
            let mut state = fx.start_json.clone();
            let mut events = 0;
            for cmd in &fx.stream_json {
                let out = apply_json(black_box(&state), black_box(cmd)).expect("accepted");
                events += out.events.len();
                state = out.state;
            }
            (state, events)
        })
    });
    group.finish();

    let mut floor = c.benchmark_group("json_floor");
    floor.throughput(elements(n));
    floor.bench_function("parse_serialize", |b| {
        b.iter(|| {
            let mut bytes = 0;
            for text in &fx.states_json {
                let g: Game = serde_json::from_str(black_box(text)).expect("parses");
                bytes += serde_json::to_string(&g).expect("serializes").len();
            }
            bytes
        })
    });
    floor.finish();

    // The pieces of the door, each over the whole stream (per-unit times are
    // criterion's time divided by the stream length): what `apply_json` does
    // beyond the floor is the integrity check inside `game_from_json`, the
    // command decode, the rule work and the events' serialization.
    let outputs: Vec<(Game, Vec<Event>)> = fx
        .states
        .iter()
        .zip(&fx.stream)
        .map(|(g, c)| apply(g, c).expect("accepted"))
        .collect();
    let mut parts = c.benchmark_group("json_parts");
    parts.throughput(elements(n));
    parts.bench_function("serde_parse", |b| {
        b.iter(|| {
            fx.states_json
                .iter()
                .map(|t| serde_json::from_str::<Game>(black_box(t)).expect("parses"))
                .collect::<Vec<_>>()
        })
    });
    parts.bench_function("game_from_json", |b| {
        b.iter(|| {
            fx.states_json
                .iter()
                .map(|t| ecaz::game_from_json(black_box(t)).expect("loads"))
                .collect::<Vec<_>>()
        })
    });
    parts.bench_function("serialize_state", |b| {
        b.iter(|| {
            outputs
                .iter()
                .map(|(g, _)| serde_json::to_string(black_box(g)).expect("serializes"))
                .collect::<Vec<_>>()
        })
    });
    parts.bench_function("serialize_events", |b| {
        b.iter(|| {
            outputs
                .iter()
                .map(|(_, e)| serde_json::to_string(black_box(e)).expect("serializes"))
                .collect::<Vec<_>>()
        })
    });
    parts.bench_function("command_from_json", |b| {
        b.iter(|| {
            fx.stream_json
                .iter()
                .map(|t| ecaz::command_from_json(black_box(t)).expect("decodes"))
                .collect::<Vec<_>>()
        })
    });
    parts.finish();
}

fn bench_view_options(c: &mut Criterion, fx: &Fixture) {
    let viewers: Vec<Viewer> = SEATS
        .iter()
        .map(|&f| Viewer::Faction(f))
        .chain([Viewer::Spectator, Viewer::Host])
        .collect();
    let mut group = c.benchmark_group("view");
    group.throughput(elements(viewers.len()));
    group.bench_function("all_viewers", |b| {
        b.iter(|| {
            viewers
                .iter()
                .map(|&v| view(black_box(&fx.at_placement), v))
                .collect::<Vec<_>>()
        })
    });
    group.finish();

    let ecaz = Actor::Faction(Faction::Ecaz);
    let mut group = c.benchmark_group("options");
    group.bench_function("ecaz_placement_frame", |b| {
        b.iter(|| options(black_box(&fx.at_placement), ecaz))
    });
    group.bench_function("fremen_effect_frame", |b| {
        b.iter(|| options(black_box(&fx.at_fremen), ecaz))
    });
    group.bench_function("guild_effect_frame", |b| {
        b.iter(|| options(black_box(&fx.at_guild), ecaz))
    });
    group.finish();
}

fn describe_fixture(fx: &Fixture) {
    let kinds: Vec<&str> = fx.stream.iter().map(|c| c.action.name()).collect();
    eprintln!(
        "fixture: {} seats, turn {}, stream of {} commands: {}",
        fx.start.seats().len(),
        fx.start.turn(),
        fx.stream.len(),
        kinds.join(" "),
    );
    let events: Vec<Event> = fx
        .states
        .iter()
        .zip(&fx.stream)
        .flat_map(|(g, c)| apply(g, c).expect("accepted").1)
        .collect();
    let count = |f: fn(&EventKind) -> bool| events.iter().filter(|e| f(&e.event)).count();
    let placed = count(|e| matches!(e, EventKind::AmbassadorPlaced { .. }));
    let triggered = count(|e| matches!(e, EventKind::AmbassadorTriggered { .. }));
    assert_eq!(placed, 3, "the stream places three tokens");
    assert_eq!(triggered, 3, "the stream triggers three tokens");
    eprintln!(
        "fixture: {} events; {placed} placements, {triggered} triggers",
        events.len()
    );
    for (name, g) in [
        ("placement", &fx.at_placement),
        ("fremen", &fx.at_fremen),
        ("guild", &fx.at_guild),
    ] {
        let o = options(g, Actor::Faction(Faction::Ecaz));
        let size = serde_json::to_string(&o).expect("serializes").len();
        eprintln!(
            "fixture: Ecaz options at the {name} frame: {} commands, {} choice descriptors, {size} bytes of JSON",
            o.commands.len(),
            o.choices.len(),
        );
    }
}

/// The JSON budget is a ratio; on a shared machine the load drifts between
/// two criterion benchmarks. This measures the door and the floor in
/// alternation (same rounds, same load) and prints the median ratio.
fn interleaved_json_ratio(fx: &Fixture) {
    use std::time::Instant;
    let door = || {
        let mut state = fx.start_json.clone();
        for cmd in &fx.stream_json {
            state = apply_json(black_box(&state), black_box(cmd)).expect("accepted").state;
        }
        state.len()
    };
    let floor = || {
        let mut bytes = 0;
        for text in &fx.states_json {
            let g: Game = serde_json::from_str(black_box(text)).expect("parses");
            bytes += serde_json::to_string(&g).expect("serializes").len();
        }
        bytes
    };
    let time = |f: &dyn Fn() -> usize| {
        let t = Instant::now();
        black_box(f());
        t.elapsed().as_secs_f64()
    };
    for _ in 0..20 {
        time(&door);
        time(&floor);
    }
    let mut ratios = Vec::new();
    let (mut doors, mut floors) = (Vec::new(), Vec::new());
    for _ in 0..300 {
        let (d, f) = (time(&door), time(&floor));
        ratios.push(d / f);
        doors.push(d);
        floors.push(f);
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
    };
    let n = fx.stream.len() as f64;
    eprintln!(
        "interleaved JSON door vs floor, 300 rounds: median ratio {:.3}; door {:.2} µs/command, floor {:.2} µs/state",
        median(&mut ratios),
        median(&mut doors) / n * 1e6,
        median(&mut floors) / n * 1e6,
    );
}

fn all(c: &mut Criterion) {
    let fx = fixture();
    describe_fixture(&fx);
    interleaved_json_ratio(&fx);
    report_state_sizes(&fx.start);
    bench_typed(c, &fx);
    bench_json(c, &fx);
    bench_view_options(c, &fx);
}

criterion_group!(benches, all);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
}
