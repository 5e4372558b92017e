//! Helpers shared by `tests/entry.rs` and `tests/effects.rs`: tables with a
//! fixed cohort and placed tokens, `arrive` reports, trigger answers and
//! event queries.

#![allow(
    dead_code,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use crate::common::*;
use ecaz::{
    game_from_json, territory_info, Action, Actor, Ambassador, AmbassadorsSetup, ArrivalId, CardId, Cause, Command,
    Decision, Event, EventKind, Faction, FactionSetup, Game, Origin, Phase, Sector, Setup, Stack, Territory, Zone,
};

/// The usual cohort: atreides, beneGesserit, choam, emperor, harkonnen
/// (so fremen, ixians, richese, guild, tleilaxu are outside it).
pub const COHORT: [Ambassador; 5] = [
    Ambassador::Atreides,
    Ambassador::BeneGesserit,
    Ambassador::Choam,
    Ambassador::Emperor,
    Ambassador::Harkonnen,
];

/// A table in Shipment & Movement with an explicit cohort and token zones.
pub fn table(seats: &[Faction], cohort: &[Ambassador], zones: &[(Ambassador, Zone)]) -> Setup {
    let mut s = setup(seats, 17);
    s.phase = Some(Phase::ShipmentMovement);
    s.ambassadors = Some(AmbassadorsSetup {
        cohort: cohort.to_vec(),
        zones: zones.iter().copied().collect(),
        ..AmbassadorsSetup::default()
    });
    s
}

/// `table` with tokens placed in strongholds.
pub fn placed_table(seats: &[Faction], cohort: &[Ambassador], placed_at: &[(Ambassador, Territory)]) -> Setup {
    let zones: Vec<(Ambassador, Zone)> = placed_at.iter().map(|&(t, at)| (t, placed(at))).collect();
    table(seats, cohort, &zones)
}

pub fn fs(s: &mut Setup, f: Faction) -> &mut FactionSetup {
    s.factions.entry(f).or_default()
}

/// Ecaz and `ally` name each other.
pub fn ally(s: &mut Setup, ally: Faction) {
    fs(s, Faction::Ecaz).ally = Some(ally);
    fs(s, ally).ally = Some(Faction::Ecaz);
}

pub fn give_hand(s: &mut Setup, f: Faction, cards: &[u16]) {
    fs(s, f).hand = cards.iter().map(|&c| CardId(c)).collect();
}

/// The (first) sector of a territory.
pub fn sector(t: Territory) -> Sector {
    territory_info(t).sectors[0]
}

#[allow(clippy::too_many_arguments)]
pub fn arrive(
    entrant: Faction,
    cause: Cause,
    from: Origin,
    territory: Territory,
    sector: Sector,
    normal: u32,
    elite: u32,
    advisors: bool,
    parent: Option<ArrivalId>,
) -> Command {
    host(Action::Arrive {
        entrant,
        cause,
        from,
        territory,
        sector,
        normal,
        elite,
        advisors,
        parent,
        reactions_first: false,
    })
}

/// `entrant` ships `normal` forces from reserves into `to`.
pub fn ship(entrant: Faction, to: Territory, normal: u32) -> Command {
    arrive(
        entrant,
        Cause::Shipment,
        Origin::Reserves,
        to,
        sector(to),
        normal,
        0,
        false,
        None,
    )
}

/// The same, linked to an open parent arrival (P-NEST).
pub fn ship_linked(entrant: Faction, to: Territory, normal: u32, parent: u32) -> Command {
    arrive(
        entrant,
        Cause::Shipment,
        Origin::Reserves,
        to,
        sector(to),
        normal,
        0,
        false,
        Some(ArrivalId(parent)),
    )
}

pub fn trigger(g: &Game, beneficiary: Faction) -> Command {
    ecaz(Action::Trigger {
        frame: open_id(g),
        beneficiary,
    })
}

pub fn decline(g: &Game) -> Command {
    ecaz(Action::Decline { frame: open_id(g) })
}

pub fn as_faction(f: Faction, action: Action) -> Command {
    Command::faction(f, action)
}

/// The open trigger offer: (token, entrant, beneficiaries).
pub fn offer(g: &Game) -> Option<(Ambassador, Faction, Vec<Faction>)> {
    match g.open_frame().map(|f| (&f.decision, f.actor)) {
        Some((
            Decision::TriggerOffer {
                token,
                entrant,
                beneficiaries,
                ..
            },
            Actor::Faction(Faction::Ecaz),
        )) => Some((*token, *entrant, beneficiaries.clone())),
        _ => None,
    }
}

pub fn resumes(events: &[Event]) -> Vec<ArrivalId> {
    events
        .iter()
        .filter_map(|e| match e.event {
            EventKind::Resume { arrival } => Some(arrival),
            _ => None,
        })
        .collect()
}

pub fn position(events: &[Event], name: &str) -> Option<usize> {
    kind_names(events).iter().position(|k| k == name)
}

pub fn count(events: &[Event], name: &str) -> usize {
    kind_names(events).iter().filter(|k| *k == name).count()
}

/// The RNG words of the state (R-INV-4 comparisons).
pub fn rng_words(g: &Game) -> serde_json::Value {
    json_value(g)["rng"].clone()
}

pub fn board_of(g: &Game, f: Faction) -> Vec<Stack> {
    g.faction(f).unwrap().board.clone()
}

pub fn stack_at(g: &Game, f: Faction, t: Territory, s: Sector) -> Option<Stack> {
    board_of(g, f).into_iter().find(|x| x.territory == t && x.sector == s)
}

/// Ecaz + Harkonnen + Atreides with the Emperor token in Arrakeen.
pub fn emperor_in_arrakeen() -> Game {
    build_setup(&placed_table(
        &[Faction::Ecaz, Faction::Harkonnen, Faction::Atreides],
        &COHORT,
        &[(Ambassador::Emperor, Territory::Arrakeen)],
    ))
}

/// Apply a command to a game and to its JSON reload; both must agree.
pub fn ok_reloaded(g: &Game, cmd: &Command) -> (Game, Vec<Event>) {
    let text = json(g);
    let back = game_from_json(&text).unwrap();
    assert_eq!(&back, g, "the reload differs");
    assert_eq!(json(&back), text, "the re-encoded state differs");
    let a = ok(g, cmd);
    let b = ok(&back, cmd);
    assert_eq!(a.0, b.0, "{cmd:?}: the reloaded game gives another game");
    assert_eq!(a.1, b.1, "{cmd:?}: the reloaded game gives other events");
    a
}
