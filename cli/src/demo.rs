//! `ecaz demo`: a seeded, scripted six-faction game told in English.
//!
//! Turn 1: the host walks the turn to the end of Revival; Ecaz places a token
//! in a Shield Wall stronghold (the first such `place` in its options), the
//! host allows it; Ecaz announces a second one (cost 2) and the host reports
//! Atreides' Karama against it (R-PLC-5), which ends placement for the turn;
//! the host finishes the turn. Turn 2: Family Atomics bring the Shield Wall
//! down and the storm sweeps across Arrakeen and Carthag, so the placed token
//! goes back to Ecaz's supply (R-TRG-9).
//!
//! Then a second act, in the rest of turn 2: Ecaz places a token (the Emperor
//! Ambassador when it is in supply) in a sietch, out of the storm's reach;
//! in Shipment and Movement the host reports Harkonnen shipping into that
//! sietch; the entry offers Ecaz the trigger (R-TRG-1), Ecaz takes it for
//! itself (R-TRG-5), the effect runs, and the `resume` event — printed last —
//! tells the host it may go on with Harkonnen's turn (R-TRG-4).
//!
//! Every choice comes from `ecaz::options` in its stable order, and the seed
//! only feeds the game's own RNG, so the same seed prints the same text.

use std::io::Write;

use ecaz::narrate;
use ecaz::{
    apply, options, Action, Actor, Command, Event, EventKind, Faction, FactionSetup, Game, Phase, Setup, Viewer,
};
use ecaz::{Ambassador, CardId, Cause, Origin, Territory, Zone};

use crate::error::CliError;
use crate::say;

/// The seed `ecaz demo` uses without `--seed`.
pub const DEFAULT_SEED: u64 = 2026;

/// The six seats of the demo, in seating order.
const SEATS: [Faction; 6] = [
    Faction::Ecaz,
    Faction::Atreides,
    Faction::Harkonnen,
    Faction::Emperor,
    Faction::Fremen,
    Faction::BeneGesserit,
];

/// The faction that holds the Karama.
const KARAMA_HOLDER: Faction = Faction::Atreides;

/// Where the storm starts: just before Arrakeen (10) and Carthag (11), so
/// both are open for placement on turn 1 and on the storm's path on turn 2.
const STORM_START: ecaz::Sector = 8;

/// The strongholds the Shield Wall protects until it falls.
const SHIELD_WALL_STRONGHOLDS: [Territory; 2] = [Territory::Arrakeen, Territory::Carthag];

/// Who enters in the second act, and how many forces it ships.
const ENTRANT: Faction = Faction::Harkonnen;
const SHIPPED: u32 = 3;

/// The token the second act prefers, when it is in Ecaz's supply.
const ACT_TWO_TOKEN: Ambassador = Ambassador::Emperor;

/// Most decisions the second act answers before it gives up (a guard: the
/// effects of the script's tokens need at most a couple).
const MAX_ANSWERS: usize = 12;

fn demo_error(message: impl Into<String>) -> CliError {
    CliError::new("cli/demo", message)
}

/// The first Karama in the base catalog.
fn karama_card() -> Result<CardId, CliError> {
    let index = ecaz::base_catalog()
        .iter()
        .position(|kind| kind == ecaz::KARAMA)
        .ok_or_else(|| demo_error("the base Treachery catalog has no Karama"))?;
    u16::try_from(index)
        .map(CardId)
        .map_err(|_| demo_error("the Karama's card id does not fit in a card id"))
}

/// The sector of a territory (its first one).
fn sector_of(t: Territory) -> ecaz::Sector {
    ecaz::territory_info(t).sectors.first().copied().unwrap_or(0)
}

/// How many sectors the storm moves from `from` to reach `to` (1..=18).
fn storm_distance(from: ecaz::Sector, to: ecaz::Sector) -> u32 {
    let d = (u32::from(to) + 18 - u32::from(from) % 18) % 18;
    if d == 0 {
        18
    } else {
        d
    }
}

/// The game the demo starts from.
fn setup(seed: u64) -> Result<(Game, CardId), CliError> {
    let karama = karama_card()?;
    let mut setup = Setup::for_seats(&SEATS, seed);
    setup.storm = Some(STORM_START);
    setup.factions.insert(
        KARAMA_HOLDER,
        FactionSetup {
            hand: vec![karama],
            ..FactionSetup::default()
        },
    );
    // The Fremen choose where their 10 starting forces stand (base rules;
    // the setup must say): all in Sietch Tabr.
    setup.factions.insert(
        Faction::Fremen,
        FactionSetup {
            board: Some(vec![ecaz::Stack {
                territory: Territory::SietchTabr,
                sector: 14,
                normal: 10,
                elite: 0,
                advisors: 0,
            }]),
            ..FactionSetup::default()
        },
    );
    Ok((setup.build()?, karama))
}

/// A running demo: the game, where the text goes, and a tally for the summary.
struct Demo<'a> {
    game: Game,
    catalog: Vec<String>,
    out: &'a mut dyn Write,
    placed: Vec<String>,
    cancelled: u32,
    returned: u32,
    triggered: Vec<String>,
    /// Spice Ecaz paid for placements, and gained from the bank.
    paid: u32,
    gained: u32,
}

impl Demo<'_> {
    /// Print the command, apply it, print its events.
    fn step(&mut self, command: Command) -> Result<Vec<Event>, CliError> {
        say(
            self.out,
            format!("> {}", narrate::command(&self.game, &command, Viewer::Host)),
        )?;
        let (next, events) = apply(&self.game, &command)?;
        self.game = next;
        for e in &events {
            if let Some(line) = narrate::event(&self.game, e, Viewer::Host) {
                say(self.out, format!("    {line}"))?;
            }
            match &e.event {
                EventKind::AmbassadorPlaced { token, territory, cost } => {
                    self.paid = self.paid.saturating_add(*cost);
                    self.placed.push(format!(
                        "{} in {}",
                        narrate::token(*token),
                        narrate::territory(*territory)
                    ));
                }
                EventKind::SpiceGained {
                    faction: Faction::Ecaz,
                    amount,
                } => self.gained = self.gained.saturating_add(*amount),
                EventKind::PlacementCancelled { .. } => self.cancelled = self.cancelled.saturating_add(1),
                EventKind::AmbassadorReturned { .. } => self.returned = self.returned.saturating_add(1),
                EventKind::AmbassadorTriggered {
                    token,
                    territory,
                    beneficiary,
                    ..
                } => self.triggered.push(format!(
                    "{} in {}, for {}",
                    narrate::token(*token),
                    narrate::territory(*territory),
                    beneficiary.name()
                )),
                _ => {}
            }
        }
        Ok(events)
    }

    fn end_phase(&mut self, phase: Phase) -> Result<(), CliError> {
        self.step(Command::host(Action::EndPhase { phase })).map(|_| ())
    }

    /// The first option of `actor` that `pick` accepts.
    fn choose(&self, actor: Actor, what: &str, pick: impl Fn(&Action) -> bool) -> Result<Command, CliError> {
        options(&self.game, actor)
            .commands
            .into_iter()
            .find(|c| pick(&c.action))
            .ok_or_else(|| demo_error(format!("{} has no option to {what}", actor.id())))
    }

    fn note(&mut self, text: impl std::fmt::Display) -> Result<(), CliError> {
        say(self.out, format!("    ({text})"))
    }

    fn heading(&mut self) -> Result<(), CliError> {
        say(self.out, "")?;
        say(self.out, format!("== Turn {} ==", self.game.turn()))
    }
}

/// Run the demo with `seed`, writing the story to `out`.
pub fn run(seed: u64, out: &mut dyn Write) -> Result<(), CliError> {
    let (game, karama) = setup(seed)?;
    let ecaz_start = game.faction(Faction::Ecaz).map_or(0, |s| s.spice);
    let mut demo = Demo {
        catalog: game.treachery().catalog.to_vec(),
        game,
        out,
        placed: Vec::new(),
        cancelled: 0,
        returned: 0,
        triggered: Vec::new(),
        paid: 0,
        gained: 0,
    };

    let seats: Vec<&str> = SEATS.iter().map(|f| f.name()).collect();
    let supply: Vec<String> = demo
        .game
        .ambassadors()
        .in_zone(Zone::Supply)
        .map(|t| t.faction().name().to_string())
        .collect();
    say(demo.out, format!("Ecaz demo, seed {seed}"))?;
    say(demo.out, format!("Seats: {}.", seats.join(", ")))?;
    say(
        demo.out,
        format!(
            "The storm starts in sector {}; {} holds {}.",
            demo.game.storm(),
            KARAMA_HOLDER.name(),
            narrate::card(&demo.catalog, karama)
        ),
    )?;
    say(
        demo.out,
        format!(
            "Ecaz has {ecaz_start} spice and these Ambassadors in supply: {}.",
            supply.join(", ")
        ),
    )?;

    // ---- Turn 1: to the end of Revival, then placement (R-PLC-1) ----
    demo.heading()?;
    for phase in [
        Phase::Storm,
        Phase::SpiceBlow,
        Phase::ChoamCharity,
        Phase::Bidding,
        Phase::Revival,
    ] {
        demo.end_phase(phase)?;
    }

    let ecaz = Actor::Faction(Faction::Ecaz);
    let legal = options(&demo.game, ecaz)
        .commands
        .iter()
        .filter(|c| matches!(c.action, Action::Place { .. }))
        .count();
    demo.note(format_args!(
        "Ecaz has {legal} legal placements; the script takes the first one behind the Shield Wall"
    ))?;
    let first = demo.choose(
        ecaz,
        "place behind the Shield Wall",
        |a| matches!(a, Action::Place { territory, .. } if SHIELD_WALL_STRONGHOLDS.contains(territory)),
    )?;
    demo.step(first)?;
    let allow = demo.choose(Actor::Host, "allow the placement", |a| {
        matches!(a, Action::AllowPlacement { .. })
    })?;
    demo.step(allow)?;

    // The second token costs 2 (R-PLC-2); Atreides answers with Karama (R-PLC-5).
    let second = demo.choose(ecaz, "place a second token", |a| matches!(a, Action::Place { .. }))?;
    demo.step(second)?;
    let cancel = demo.choose(
        Actor::Host,
        "cancel with Karama",
        |a| matches!(a, Action::CancelPlacement { faction, .. } if *faction == KARAMA_HOLDER),
    )?;
    demo.step(cancel)?;

    for phase in [Phase::ShipmentMovement, Phase::Battle, Phase::Collection, Phase::Mentat] {
        demo.end_phase(phase)?;
    }

    // ---- Turn 2: the Shield Wall falls and the storm sweeps Arrakeen and Carthag (R-TRG-9) ----
    demo.heading()?;
    demo.step(Command::host(Action::DestroyShieldWall {}))?;
    let from = demo.game.storm();
    let sectors = SHIELD_WALL_STRONGHOLDS
        .iter()
        .map(|t| storm_distance(from, sector_of(*t)))
        .max()
        .unwrap_or(1);
    demo.step(Command::host(Action::MoveStorm { sectors }))?;
    demo.end_phase(Phase::Storm)?;

    second_act(&mut demo)?;

    // ---- Summary ----
    let game = &demo.game;
    let spice = game.faction(Faction::Ecaz).map_or(0, |s| s.spice);
    let on_board: Vec<String> = game
        .ambassadors()
        .tokens
        .iter()
        .filter_map(|t| match t.zone {
            Zone::Placed { territory } => Some(format!(
                "{} in {}",
                narrate::token(t.token),
                narrate::territory(territory)
            )),
            _ => None,
        })
        .collect();
    let in_supply = game.ambassadors().in_zone(Zone::Supply).count();
    let placed = if demo.placed.is_empty() {
        "none".to_string()
    } else {
        demo.placed.join(", ")
    };
    let on_board = if on_board.is_empty() {
        "none".to_string()
    } else {
        on_board.join(", ")
    };
    let lines = [
        String::new(),
        "== Summary ==".to_string(),
        format!(
            "Ecaz's spice: {spice} (started with {ecaz_start}, paid {} for placements, gained {} from the bank).",
            demo.paid, demo.gained
        ),
        format!("Tokens placed: {} ({placed}).", demo.placed.len()),
        format!(
            "Placements cancelled by Karama: {}; tokens returned by the storm: {}.",
            demo.cancelled, demo.returned
        ),
        format!(
            "Ambassadors triggered: {} ({}).",
            demo.triggered.len(),
            if demo.triggered.is_empty() {
                "none".to_string()
            } else {
                demo.triggered.join("; ")
            }
        ),
        format!("Ambassadors on the board now: {on_board}; in Ecaz's supply: {in_supply}."),
        format!(
            "The game stands at turn {}, {} phase, storm in sector {}.",
            game.turn(),
            narrate::phase(game.phase()),
            game.storm()
        ),
    ];
    for line in lines {
        say(demo.out, line)?;
    }
    Ok(())
}

/// The token for the second act: the Emperor Ambassador when it is in
/// supply, else the first supply token that a Harkonnen entry can trigger
/// (not the Harkonnen token, R-TRG-2; not the Ixian one, as Ecaz holds no
/// card to swap, P-UNAVAILABLE).
fn act_two_token(game: &Game) -> Option<Ambassador> {
    let supply: Vec<Ambassador> = game.ambassadors().in_zone(Zone::Supply).collect();
    if supply.contains(&ACT_TWO_TOKEN) {
        return Some(ACT_TWO_TOKEN);
    }
    supply
        .into_iter()
        .find(|t| !matches!(t, Ambassador::Harkonnen | Ambassador::Ixians))
}

/// Turn 2, continued: a placement in a sietch, then an entry that triggers it.
fn second_act(demo: &mut Demo<'_>) -> Result<(), CliError> {
    say(demo.out, "")?;
    say(demo.out, "== Turn 2: an entry ==")?;
    for phase in [Phase::SpiceBlow, Phase::ChoamCharity, Phase::Bidding, Phase::Revival] {
        demo.end_phase(phase)?;
    }
    let ecaz = Actor::Faction(Faction::Ecaz);
    let token = act_two_token(&demo.game).ok_or_else(|| demo_error("Ecaz has no token for the second act"))?;
    // A sietch: never reached by the storm, whatever the Shield Wall.
    let wall = demo.game.shield_wall_standing();
    let place = demo.choose(ecaz, "place a token in a sietch", |a| {
        matches!(a, Action::Place { token: t, territory, .. }
            if *t == token && !ecaz::exposed_to_storm(*territory, wall) && *territory != Territory::HiddenMobileStronghold)
    })?;
    let Action::Place { territory, .. } = place.action else {
        return Err(demo_error("the chosen placement is not a placement"));
    };
    demo.step(place)?;
    let allow = demo.choose(Actor::Host, "allow the placement", |a| {
        matches!(a, Action::AllowPlacement { .. })
    })?;
    demo.step(allow)?;
    let finish = demo.choose(ecaz, "finish placing", |a| matches!(a, Action::FinishPlacement { .. }))?;
    demo.step(finish)?;

    // Harkonnen ships into the sietch: an entry (R-TRG-3).
    let sector = sector_of(territory);
    demo.note(format_args!(
        "{} ships {SHIPPED} forces into {}, where {} waits; the host holds the rest of {}'s turn until `resume`",
        ENTRANT.name(),
        narrate::territory(territory),
        narrate::token(token),
        ENTRANT.name()
    ))?;
    let arrive = Command::host(Action::Arrive {
        entrant: ENTRANT,
        cause: Cause::Shipment,
        from: Origin::Reserves,
        territory,
        sector,
        normal: SHIPPED,
        elite: 0,
        advisors: false,
        parent: None,
        reactions_first: false,
    });
    let mut last = demo.step(arrive)?;
    // Ecaz triggers for itself (R-TRG-5); any later decision takes the first
    // listed answer (the effect's own choices, in `options` order).
    if demo.game.open_frame().is_some() {
        let trigger = demo.choose(
            ecaz,
            "trigger the token",
            |a| matches!(a, Action::Trigger { beneficiary, .. } if *beneficiary == Faction::Ecaz),
        )?;
        last = demo.step(trigger)?;
    }
    for _ in 0..MAX_ANSWERS {
        let Some(actor) = demo.game.open_frame().map(|f| f.actor) else {
            break;
        };
        let answer = demo.choose(actor, "answer the open decision", |_| true)?;
        last = demo.step(answer)?;
    }
    match last.last().map(|e| &e.event) {
        Some(EventKind::Resume { .. }) => Ok(()),
        _ => Err(demo_error("the entry did not settle with a `resume`")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn storm_distance_wraps() {
        assert_eq!(storm_distance(8, 11), 3);
        assert_eq!(storm_distance(17, 2), 3);
        assert_eq!(storm_distance(5, 5), 18);
    }

    #[test]
    fn the_second_act_prefers_the_emperor_token() -> Result<(), CliError> {
        let (game, _) = setup(DEFAULT_SEED)?;
        let token = act_two_token(&game);
        assert!(token.is_some());
        assert_ne!(token, Some(Ambassador::Harkonnen));
        Ok(())
    }

    #[test]
    fn the_karama_is_in_the_catalog() {
        let card = karama_card();
        assert!(card.is_ok());
    }
}
