//! Host table sync (D-40–D-47): every change of the table that happens outside
//! Ecaz logic arrives as a typed host report, checked for conservation and
//! custody only (no negative spice, no card that is not where the host says,
//! no forces out of nothing, no leader killed twice) — never for base-game
//! legality, which the host owns (D-54; the audit of every check is in
//! docs/RULES.md §10) — and mirrored by events complete enough for a host
//! to rebuild the table.

use crate::base::ids::{CardId, Faction, Leader, Sector, Territory, TraitorCard};
use crate::model::command::Action;
use crate::model::error::ApplyError;
use crate::model::event::{Event, EventKind, LossCause};
use crate::model::game::{Game, LeaderCustody, Stack};
use crate::rules::{alliance, cards, duke, entry};

/// The most spice a faction can hold (a guard against wrapped amounts): one
/// ceiling for host reports, Ambassador effects and the loader (D-71).
pub const MAX_SPICE: u32 = 1_000_000;

/// How much more spice `f` can receive under [`MAX_SPICE`] (0 when unseated).
pub(crate) fn spice_room(g: &Game, f: Faction) -> u32 {
    g.faction(f).map_or(0, |s| MAX_SPICE.saturating_sub(s.spice))
}

/// D-71: an effect paid by the bank grants at most the room under the
/// ceiling; returns what was granted (and credited).
pub(crate) fn grant_spice(g: &mut Game, f: Faction, amount: u32) -> u32 {
    let granted = amount.min(spice_room(g, f));
    if let Some(s) = g.faction_mut(f) {
        s.spice = s.spice.saturating_add(granted);
    }
    granted
}

/// The most Traitor cards a faction holds at once (Harkonnen keeps 4).
pub const MAX_TRAITORS: usize = 4;
/// The most Face Dancers the Tleilaxu hold.
pub const MAX_FACE_DANCERS: usize = 3;

/// A validated table report: the action itself, checked.
#[derive(Debug, Clone)]
pub(crate) struct Report(Action);

fn seated(g: &Game, f: Faction) -> Result<&crate::model::game::FactionState, ApplyError> {
    g.faction(f).ok_or(ApplyError::NotSeated(f))
}

fn nonzero(amount: u32) -> Result<(), ApplyError> {
    if amount == 0 {
        return Err(ApplyError::ZeroAmount);
    }
    Ok(())
}

fn stack_has(
    g: &Game,
    f: Faction,
    territory: Territory,
    sector: Sector,
    normal: u32,
    elite: u32,
    advisors: u32,
) -> Result<(), ApplyError> {
    let s = seated(g, f)?;
    entry::check_position(g, territory, sector)?;
    nonzero(normal.saturating_add(elite).saturating_add(advisors))?;
    let st = s.board.iter().find(|x| x.territory == territory && x.sector == sector);
    for (have, need) in [
        (st.map_or(0, |x| x.normal), normal),
        (st.map_or(0, |x| x.elite), elite),
        (st.map_or(0, |x| x.advisors), advisors),
    ] {
        if have < need {
            return Err(ApplyError::NotEnoughForces { faction: f, have, need });
        }
    }
    Ok(())
}

/// D-42, D-167, D-170: each card once, in the game (the Cheap Hero/Heroine
/// card only with `cheapHeroTraitor`) and held by no other faction.
fn check_traitor_cards(g: &Game, owner: Faction, cards: &[TraitorCard], max: usize) -> Result<(), ApplyError> {
    if cards.len() > max {
        return Err(ApplyError::TooManyTraitors { faction: owner, max });
    }
    for (i, l) in cards.iter().enumerate() {
        if cards.iter().take(i).any(|x| x == l) || !g.traitor_card_exists(*l) {
            return Err(ApplyError::TraitorUnavailable(*l));
        }
        let elsewhere = g
            .factions
            .iter()
            .filter(|s| s.faction != owner)
            .any(|s| s.traitors.contains(l) || s.face_dancers.contains(l));
        if elsewhere {
            return Err(ApplyError::TraitorUnavailable(*l));
        }
    }
    Ok(())
}

fn check_leader_move(g: &Game, leader: Leader, to: LeaderCustody) -> Result<(), ApplyError> {
    let native = leader.faction();
    let s = seated(g, native)?;
    let from = s
        .leaders
        .iter()
        .find(|l| l.leader == leader)
        .map_or(LeaderCustody::Available, |l| l.custody);
    let possible = match (from, to) {
        (a, b) if a == b => false,
        (_, LeaderCustody::Available | LeaderCustody::Tanks) => true,
        // D-52: a leader in a leader pool (its own, a captor's or a ghola
        // holder's) can be captured; never by its own faction or its holder.
        (LeaderCustody::Tanks, LeaderCustody::Captured { .. }) => false,
        (_, LeaderCustody::Captured { by }) => {
            let holder = matches!(from, LeaderCustody::Ghola { by: h } if h == by);
            by != native && g.is_seated(by) && !holder
        }
        // D-168: only the Tleilaxu make gholas (E1), of other factions' leaders.
        (LeaderCustody::Tanks, LeaderCustody::Ghola { by }) => {
            by == Faction::Tleilaxu && by != native && g.is_seated(by)
        }
        _ => false,
    };
    if !possible {
        return Err(ApplyError::LeaderMove { leader, from, to });
    }
    Ok(())
}

/// Validate a table report.
pub(crate) fn check(g: &Game, action: &Action) -> Result<Report, ApplyError> {
    match action {
        Action::GainSpice { faction, amount } => {
            nonzero(*amount)?;
            seated(g, *faction)?;
            if *amount > spice_room(g, *faction) {
                return Err(ApplyError::SpiceLimit(MAX_SPICE));
            }
        }
        Action::PaySpice { faction, amount, to } => {
            nonzero(*amount)?;
            let s = seated(g, *faction)?;
            if s.spice < *amount {
                return Err(ApplyError::InsufficientSpice {
                    faction: *faction,
                    has: s.spice,
                    needs: *amount,
                });
            }
            if let Some(to) = to {
                seated(g, *to)?;
                if to == faction {
                    return Err(ApplyError::SameFaction(*to));
                }
                if *amount > spice_room(g, *to) {
                    return Err(ApplyError::SpiceLimit(MAX_SPICE));
                }
            }
        }
        Action::DrawCard { faction } => {
            seated(g, *faction)?;
            if !cards::can_draw(g) {
                return Err(ApplyError::DeckEmpty);
            }
        }
        Action::DiscardCard { faction, card } => {
            if !seated(g, *faction)?.hand.contains(card) {
                return Err(ApplyError::CardNotHeld {
                    faction: *faction,
                    card: *card,
                });
            }
        }
        Action::GiveCard { from, to, card } => {
            if !seated(g, *from)?.hand.contains(card) {
                return Err(ApplyError::CardNotHeld {
                    faction: *from,
                    card: *card,
                });
            }
            seated(g, *to)?;
            if from == to {
                return Err(ApplyError::SameFaction(*to));
            }
        }
        Action::SetTraitors { faction, traitors } => {
            seated(g, *faction)?;
            if *faction == Faction::Tleilaxu {
                return Err(ApplyError::TooManyTraitors {
                    faction: *faction,
                    max: 0,
                });
            }
            check_traitor_cards(g, *faction, traitors, MAX_TRAITORS)?;
        }
        Action::SetFaceDancers { face_dancers } => {
            seated(g, Faction::Tleilaxu)?;
            check_traitor_cards(g, Faction::Tleilaxu, face_dancers, MAX_FACE_DANCERS)?;
        }
        Action::RevealFaceDancer { leader } => {
            let s = seated(g, Faction::Tleilaxu)?;
            if !s.hidden_face_dancers().any(|l| l == *leader) {
                return Err(ApplyError::TraitorUnavailable(*leader));
            }
        }
        Action::TakeOutsideCard { faction, card } => {
            seated(g, *faction)?;
            if !g.treachery.outside.contains(card) {
                return Err(ApplyError::CardNotOutside(*card));
            }
        }
        Action::LoseForces {
            faction,
            territory,
            sector,
            normal,
            elite,
            advisors,
        }
        | Action::ReturnForces {
            faction,
            territory,
            sector,
            normal,
            elite,
            advisors,
        } => stack_has(g, *faction, *territory, *sector, *normal, *elite, *advisors)?,
        Action::ReviveFromTanks { faction, normal, elite } => {
            let s = seated(g, *faction)?;
            nonzero(normal.saturating_add(*elite))?;
            for (have, need) in [(s.tanks.normal, *normal), (s.tanks.elite, *elite)] {
                if have < need {
                    return Err(ApplyError::NotEnoughForces {
                        faction: *faction,
                        have,
                        need,
                    });
                }
            }
            // P-TLX (D-54): the one-elite-per-turn limit binds the
            // Tleilaxu Ambassador, not the host's ordinary revival; the
            // report is counted (so the effect sees it), never refused for it.
        }
        Action::FlipAdvisors {
            territory,
            sector,
            count,
            to_fighters,
        } => {
            let (normal, advisors) = if *to_fighters { (0, *count) } else { (*count, 0) };
            stack_has(g, Faction::BeneGesserit, *territory, *sector, normal, 0, advisors)?;
        }
        Action::SetLeader { leader, custody } => check_leader_move(g, *leader, *custody)?,
        Action::FormAlliance { a, b } => {
            seated(g, *a)?;
            seated(g, *b)?;
            if !alliance::both_unallied(g, *a, *b) {
                return Err(ApplyError::AllianceImpossible { a: *a, b: *b });
            }
        }
        Action::BreakAlliance { faction } => {
            if seated(g, *faction)?.ally.is_none() {
                return Err(ApplyError::NotAllied(*faction));
            }
        }
        Action::SetHandLimit { faction, limit } => {
            seated(g, *faction)?;
            if !(1..=20).contains(limit) {
                return Err(ApplyError::HandLimit(*limit));
            }
        }
        _ => {
            return Err(ApplyError::WrongDecision {
                action: action.name(),
                frame_kind: "table report",
            })
        }
    }
    Ok(Report(action.clone()))
}

fn take_from_stack(board: &mut Vec<Stack>, t: Territory, sector: Sector, normal: u32, elite: u32, advisors: u32) {
    if let Some(x) = board.iter_mut().find(|x| x.territory == t && x.sector == sector) {
        x.normal = x.normal.saturating_sub(normal);
        x.elite = x.elite.saturating_sub(elite);
        x.advisors = x.advisors.saturating_sub(advisors);
    }
    board.retain(|x| x.total() > 0);
}

/// Forces lost to the Tanks (shared by host reports and the engine's storm).
pub(crate) fn lose(g: &mut Game, faction: Faction, lost: Vec<Stack>, cause: LossCause, events: &mut Vec<Event>) {
    if let Some(s) = g.faction_mut(faction) {
        for x in &lost {
            take_from_stack(&mut s.board, x.territory, x.sector, x.normal, x.elite, x.advisors);
            s.tanks.normal = s.tanks.normal.saturating_add(x.normal).saturating_add(x.advisors);
            s.tanks.elite = s.tanks.elite.saturating_add(x.elite);
        }
    }
    events.push(Event::public(EventKind::ForcesLost {
        faction,
        stacks: lost,
        cause,
    }));
}

fn traitors_changed(g: &Game, faction: Faction, events: &mut Vec<Event>) {
    if let Some(s) = g.faction(faction) {
        events.push(Event::public(EventKind::TraitorsChanged {
            faction,
            traitors: u32::try_from(s.traitors.len()).unwrap_or(u32::MAX),
            face_dancers: u32::try_from(s.face_dancers.len()).unwrap_or(u32::MAX),
        }));
        events.push(Event::only(
            vec![faction],
            EventKind::TraitorsHeld {
                faction,
                traitors: s.traitors.clone(),
                face_dancers: s.face_dancers.clone(),
            },
        ));
    }
}

/// Commit a validated table report.
pub(crate) fn commit(g: &mut Game, report: Report, events: &mut Vec<Event>) {
    match report.0 {
        Action::GainSpice { faction, amount } => {
            if let Some(s) = g.faction_mut(faction) {
                s.spice = s.spice.saturating_add(amount);
            }
            events.push(Event::public(EventKind::SpiceGained { faction, amount }));
        }
        Action::PaySpice { faction, amount, to } => {
            if let Some(s) = g.faction_mut(faction) {
                s.spice = s.spice.saturating_sub(amount);
            }
            if let Some(r) = to.and_then(|t| g.faction_mut(t)) {
                r.spice = r.spice.saturating_add(amount);
            }
            events.push(Event::public(EventKind::SpicePaid { faction, amount, to }));
        }
        Action::DrawCard { faction } => {
            cards::draw(g, faction, events);
        }
        Action::DiscardCard { faction, card } => cards::discard(g, faction, card, events),
        Action::GiveCard { from, to, card } => give(g, from, to, card, events),
        Action::SetTraitors { faction, traitors } => {
            if let Some(s) = g.faction_mut(faction) {
                s.traitors = traitors;
            }
            traitors_changed(g, faction, events);
        }
        Action::SetFaceDancers { face_dancers } => {
            if let Some(s) = g.faction_mut(Faction::Tleilaxu) {
                // A revealed card still held stays face up.
                s.revealed_face_dancers.retain(|l| face_dancers.contains(l));
                s.face_dancers = face_dancers;
            }
            traitors_changed(g, Faction::Tleilaxu, events);
        }
        Action::RevealFaceDancer { leader } => {
            if let Some(s) = g.faction_mut(Faction::Tleilaxu) {
                s.revealed_face_dancers.push(leader);
            }
            events.push(Event::public(EventKind::FaceDancerRevealed { leader }));
        }
        Action::TakeOutsideCard { faction, card } => {
            g.treachery.outside.retain(|&c| c != card);
            if let Some(s) = g.faction_mut(faction) {
                s.hand.push(card);
            }
            events.push(Event::public(EventKind::OutsideCardTaken { faction, card }));
        }
        Action::LoseForces {
            faction,
            territory,
            sector,
            normal,
            elite,
            advisors,
        } => {
            let lost = vec![Stack {
                territory,
                sector,
                normal,
                elite,
                advisors,
            }];
            lose(g, faction, lost, LossCause::Reported, events);
        }
        Action::ReturnForces {
            faction,
            territory,
            sector,
            normal,
            elite,
            advisors,
        } => {
            if let Some(s) = g.faction_mut(faction) {
                take_from_stack(&mut s.board, territory, sector, normal, elite, advisors);
                s.reserves.normal = s.reserves.normal.saturating_add(normal).saturating_add(advisors);
                s.reserves.elite = s.reserves.elite.saturating_add(elite);
            }
            let stacks = vec![Stack {
                territory,
                sector,
                normal,
                elite,
                advisors,
            }];
            events.push(Event::public(EventKind::ForcesReturned { faction, stacks }));
        }
        Action::ReviveFromTanks { faction, normal, elite } => {
            if let Some(s) = g.faction_mut(faction) {
                s.tanks.normal = s.tanks.normal.saturating_sub(normal);
                s.tanks.elite = s.tanks.elite.saturating_sub(elite);
                s.reserves.normal = s.reserves.normal.saturating_add(normal);
                s.reserves.elite = s.reserves.elite.saturating_add(elite);
                s.elite_revived = s
                    .elite_revived
                    .saturating_add(u8::try_from(elite).unwrap_or(u8::MAX))
                    .min(20);
            }
            events.push(Event::public(EventKind::ForcesRevivedFromTanks {
                faction,
                normal,
                elite,
            }));
        }
        Action::FlipAdvisors {
            territory,
            sector,
            count,
            to_fighters,
        } => {
            if let Some(x) = g.faction_mut(Faction::BeneGesserit).and_then(|s| {
                s.board
                    .iter_mut()
                    .find(|x| x.territory == territory && x.sector == sector)
            }) {
                if to_fighters {
                    x.advisors = x.advisors.saturating_sub(count);
                    x.normal = x.normal.saturating_add(count);
                } else {
                    x.normal = x.normal.saturating_sub(count);
                    x.advisors = x.advisors.saturating_add(count);
                }
            }
            events.push(Event::public(EventKind::AdvisorsFlipped {
                territory,
                sector,
                count,
                to_fighters,
            }));
        }
        Action::SetLeader { leader, custody } => {
            if let Some(l) = g
                .faction_mut(leader.faction())
                .and_then(|s| s.leaders.iter_mut().find(|l| l.leader == leader))
            {
                l.custody = custody;
            }
            events.push(Event::public(EventKind::LeaderMoved { leader, custody }));
        }
        Action::FormAlliance { a, b } => alliance::form(g, a, b, events),
        Action::BreakAlliance { faction } => {
            let other = g.faction(faction).and_then(|s| s.ally);
            for f in std::iter::once(faction).chain(other) {
                if let Some(s) = g.faction_mut(f) {
                    s.ally = None;
                    s.ally_since = None;
                }
            }
            if let Some(b) = other {
                events.push(Event::public(EventKind::AllianceBroken { a: faction, b }));
            }
            // P-DUKE-LOAN: a loan made to Ecaz's ally does not outlive that alliance.
            duke::end_outlived_loan(g, events);
        }
        Action::SetHandLimit { faction, limit } => {
            if let Some(s) = g.faction_mut(faction) {
                s.hand_limit = limit;
            }
            events.push(Event::public(EventKind::HandLimitSet { faction, limit }));
        }
        _ => {}
    }
}

fn give(g: &mut Game, from: Faction, to: Faction, card: CardId, events: &mut Vec<Event>) {
    if let Some(s) = g.faction_mut(from) {
        s.hand.retain(|&c| c != card);
    }
    if let Some(s) = g.faction_mut(to) {
        s.hand.push(card);
    }
    events.push(Event::public(EventKind::CardGiven { from, to }));
    events.push(Event::only(vec![from, to], EventKind::CardPassed { from, to, card }));
}

/// Is this action a table report?
pub(crate) fn is_table_report(action: &Action) -> bool {
    matches!(
        action,
        Action::GainSpice { .. }
            | Action::PaySpice { .. }
            | Action::DrawCard { .. }
            | Action::DiscardCard { .. }
            | Action::GiveCard { .. }
            | Action::SetTraitors { .. }
            | Action::SetFaceDancers { .. }
            | Action::RevealFaceDancer { .. }
            | Action::TakeOutsideCard { .. }
            | Action::LoseForces { .. }
            | Action::ReturnForces { .. }
            | Action::ReviveFromTanks { .. }
            | Action::FlipAdvisors { .. }
            | Action::SetLeader { .. }
            | Action::FormAlliance { .. }
            | Action::BreakAlliance { .. }
            | Action::SetHandLimit { .. }
    )
}
