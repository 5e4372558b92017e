//! The Ecaz Nexus card (RULES §7): Cunning, Betrayal, Secret Ally, and the
//! Nexus basics it needs (dealing, discarding, one card per unallied player).
//!
//! The mode follows who holds the card: Ecaz → Cunning; another player while
//! Ecaz is seated → Betrayal; Ecaz not seated → Secret Ally. Playing a card
//! discards it. Only unallied players hold and play Nexus cards.

use crate::base::ids::{CardId, Faction, Leader, Phase, Territory, TraitorCard};
use crate::base::policy::{SecretAllyAudience, SecretAllyFaceDancers, SecretAllyScope};
use crate::model::error::ApplyError;
use crate::model::event::{Audience, DukeReason, Event, EventKind, NexusMode};
use crate::model::game::{Actor, Decision, DukeCustody, DukeSource, Game, Insight, LeaderCustody, Stack};
use crate::rules::{cards, duke, karama, knowledge};

/// The card's mode for this holder (RULES §7).
pub(crate) fn mode(g: &Game, holder: Faction) -> NexusMode {
    if !g.is_seated(Faction::Ecaz) {
        NexusMode::SecretAlly
    } else if holder == Faction::Ecaz {
        NexusMode::Cunning
    } else {
        NexusMode::Betrayal
    }
}

/// Does `actor` hold the Ecaz card (with the Nexus in play)? Only then can
/// [`check_holder`] pass: a cheap test before it (D-160).
pub(crate) fn holds_card(g: &Game, actor: Faction) -> bool {
    g.options.nexus && g.faction(actor).is_some_and(|s| s.nexus == Some(Faction::Ecaz))
}

/// The actor holds the Ecaz card, is unallied, and this is its mode.
pub(crate) fn check_holder(g: &Game, actor: Faction, expected: NexusMode) -> Result<(), ApplyError> {
    if !g.options.nexus {
        return Err(ApplyError::NexusOff);
    }
    let s = g.faction(actor).ok_or(ApplyError::NotSeated(actor))?;
    if s.nexus != Some(Faction::Ecaz) {
        return Err(ApplyError::NexusNotHeld(actor));
    }
    if s.ally.is_some() {
        return Err(ApplyError::AlliedNexus(actor));
    }
    let m = mode(g, actor);
    if m != expected {
        return Err(ApplyError::WrongNexusMode { mode: m.name() });
    }
    Ok(())
}

/// Spend the card: it goes to the Nexus discard pile, publicly.
fn spend(g: &mut Game, holder: Faction, mode: NexusMode, events: &mut Vec<Event>) {
    if let Some(s) = g.faction_mut(holder) {
        s.nexus = None;
    }
    g.nexus.discard.push(Faction::Ecaz);
    events.push(Event::public(EventKind::NexusPlayed { faction: holder, mode }));
}

// ---- Cunning ----

/// Validate Cunning (R-NEX-CUN, P-NEX-CUN-TIME).
pub(crate) fn check_cunning(g: &Game, actor: Faction) -> Result<(), ApplyError> {
    check_holder(g, actor, NexusMode::Cunning)?;
    if g.phase != Phase::Battle {
        return Err(ApplyError::NexusWindow {
            card: "Cunning",
            why: "it is played in the Battle phase",
        });
    }
    if g.duke.battle_turn == Some(g.turn) {
        return Err(ApplyError::NexusWindow {
            card: "Cunning",
            why: "Duke Vidal's battle this turn has been fought",
        });
    }
    // R-EFF-ECAZ, R-NEX-CUN (D-50): taking a Duke Ecaz already controls
    // gains nothing and would end its Ambassador tenure at turn end.
    if g.duke.controller() == Some(Faction::Ecaz) {
        return Err(ApplyError::DukeAlreadyControlled(Faction::Ecaz));
    }
    Ok(())
}

/// Ecaz controls the Duke for this turn, from any custody (he returns to play);
/// at turn end he is set aside whatever his custody was before.
pub(crate) fn commit_cunning(g: &mut Game, events: &mut Vec<Event>) {
    spend(g, Faction::Ecaz, NexusMode::Cunning, events);
    let custody = DukeCustody::Controlled {
        by: Faction::Ecaz,
        source: DukeSource::NexusCunning,
    };
    duke::set(g, custody, DukeReason::Cunning, events);
}

// ---- Betrayal ----

/// A validated Betrayal.
#[derive(Debug, Clone)]
pub(crate) struct Betrayal {
    holder: Faction,
    territory: Territory,
    ally: Faction,
    group: Vec<Stack>,
}

fn stacks_in(g: &Game, f: Faction, territory: Territory) -> Vec<Stack> {
    g.faction(f)
        .map(|s| s.board.iter().filter(|x| x.territory == territory).copied().collect())
        .unwrap_or_default()
}

/// Does `f` have a stack in `territory`?
fn present(g: &Game, f: Faction, territory: Territory) -> bool {
    g.faction(f)
        .is_some_and(|s| s.board.iter().any(|x| x.territory == territory))
}

/// The part of [`check_betrayal`] that does not depend on the territory:
/// the holder, the window, and Ecaz's ally (None: no ally, so no territory
/// is shared).
fn betrayal_window(g: &Game, actor: Faction) -> Result<Option<Faction>, ApplyError> {
    check_holder(g, actor, NexusMode::Betrayal)?;
    if g.phase != Phase::ShipmentMovement || g.shipment_begun {
        return Err(ApplyError::NexusWindow {
            card: "Betrayal",
            why: "it is played in Shipment & Movement before anyone ships or moves",
        });
    }
    Ok(g.faction(Faction::Ecaz).and_then(|s| s.ally))
}

/// Every territory [`check_betrayal`] accepts for `actor` now, in
/// `Territory::ALL` order (D-160: the window checked once, not per territory).
pub(crate) fn betrayal_territories(g: &Game, actor: Faction) -> Vec<Territory> {
    let Ok(Some(ally)) = betrayal_window(g, actor) else {
        return Vec::new();
    };
    Territory::ALL
        .into_iter()
        .filter(|&t| present(g, ally, t) && present(g, Faction::Ecaz, t))
        .collect()
}

/// Validate Betrayal (R-NEX-BET, P-NEX-BET-TIME).
pub(crate) fn check_betrayal(g: &Game, actor: Faction, territory: Territory) -> Result<Betrayal, ApplyError> {
    let ally = betrayal_window(g, actor)?.ok_or(ApplyError::NotShared(territory))?;
    let group = stacks_in(g, ally, territory);
    if group.is_empty() || stacks_in(g, Faction::Ecaz, territory).is_empty() {
        return Err(ApplyError::NotShared(territory));
    }
    Ok(Betrayal {
        holder: actor,
        territory,
        ally,
        group,
    })
}

/// The card is spent at once; the host's Karama response window opens.
pub(crate) fn commit_betrayal(g: &mut Game, b: Betrayal, events: &mut Vec<Event>) {
    spend(g, b.holder, NexusMode::Betrayal, events);
    let decision = Decision::BetrayalResponse {
        holder: b.holder,
        territory: b.territory,
        ally: b.ally,
        group: b.group,
    };
    let frame = g.push_frame(Actor::Host, decision);
    events.push(Event::public(EventKind::BetrayalAnnounced {
        frame,
        territory: b.territory,
        ally: b.ally,
    }));
}

/// Validate `allowBetrayal`: the group quoted at the play is still there, exactly.
pub(crate) fn check_allow_betrayal(
    g: &Game,
    territory: Territory,
    ally: Faction,
    group: &[Stack],
) -> Result<(Faction, Vec<Stack>), ApplyError> {
    let mut live = stacks_in(g, ally, territory);
    let mut quoted = group.to_vec();
    crate::base::order::order_by_key(&mut live, |x| x.sector);
    crate::base::order::order_by_key(&mut quoted, |x| x.sector);
    if live != quoted {
        return Err(ApplyError::GroupMismatch);
    }
    Ok((ally, group.to_vec()))
}

/// Every ally force there — every sector, normal, elite and advisors —
/// returns to its reserves. Not a shipment, movement, loss or revival.
pub(crate) fn commit_allow_betrayal(g: &mut Game, ally: Faction, group: Vec<Stack>, events: &mut Vec<Event>) {
    g.pending.pop();
    if let Some(s) = g.faction_mut(ally) {
        for x in &group {
            s.reserves.normal = s.reserves.normal.saturating_add(x.normal).saturating_add(x.advisors);
            s.reserves.elite = s.reserves.elite.saturating_add(x.elite);
        }
        s.board.retain(|x| !group.contains(x));
    }
    events.push(Event::public(EventKind::ForcesReturned {
        faction: ally,
        stacks: group,
    }));
}

/// Validate `cancelBetrayal`: a Karama from someone other than the holder.
pub(crate) fn check_cancel_betrayal(
    g: &Game,
    holder: Faction,
    by: Faction,
    card: CardId,
    vouched: bool,
) -> Result<(), ApplyError> {
    karama::check(g, by, card, holder, vouched)
}

/// Cancelled: the board is unchanged and the card stays spent.
pub(crate) fn commit_cancel_betrayal(g: &mut Game, by: Faction, card: CardId, events: &mut Vec<Event>) {
    g.pending.pop();
    karama::play(g, by, card, events);
    events.push(Event::public(EventKind::BetrayalCancelled { by }));
}

// ---- Secret Ally ----

/// A validated Secret Ally question, its answer computed by the engine.
#[derive(Debug, Clone, Copy)]
pub(crate) struct SecretAlly {
    holder: Faction,
    target: Faction,
    answer: bool,
}

/// The holder's leaders for P-NEX-SEC-SCOPE (Duke Vidal is never a Leader).
fn holders_leaders(g: &Game, holder: Faction) -> Vec<Leader> {
    match g.policies.secret_ally_scope {
        // The printed five and any declared extra leaders (D-104).
        SecretAllyScope::Native => g
            .faction(holder)
            .map(|s| s.leaders.iter().map(|l| l.leader).collect())
            .unwrap_or_default(),
        SecretAllyScope::Controlled => g
            .factions
            .iter()
            .flat_map(|s| s.leaders.iter())
            .filter(|l| match l.custody {
                // Dead leaders still count (D-39): a Traitor card outlives its leader.
                LeaderCustody::Available | LeaderCustody::Tanks => l.leader.faction() == holder,
                LeaderCustody::Captured { by } | LeaderCustody::Ghola { by } => by == holder,
            })
            .map(|l| l.leader)
            .collect(),
    }
}

/// Validate Secret Ally (R-NEX-SEC) and compute the answer from the target's
/// held ordinary Traitors (and Face Dancers under P-NEX-SEC-FD `yes`).
pub(crate) fn check_secret_ally(g: &Game, actor: Faction, target: Faction) -> Result<SecretAlly, ApplyError> {
    check_holder(g, actor, NexusMode::SecretAlly)?;
    let t = g.faction(target).ok_or(ApplyError::NotSeated(target))?;
    let mine = holders_leaders(g, actor);
    // P-NEX-SEC-FD `yes`: the Face Dancers still face down (a revealed one
    // is spent and public, D-102).
    let face_dancers: Vec<TraitorCard> = match g.policies.secret_ally_face_dancers {
        SecretAllyFaceDancers::Yes => t.hidden_face_dancers().collect(),
        SecretAllyFaceDancers::No => Vec::new(),
    };
    // D-170: the Cheap Hero/Heroine card names no leader, so it is never one
    // of the holder's leaders and never makes the answer yes.
    let answer = t
        .traitors
        .iter()
        .chain(face_dancers.iter())
        .filter_map(|c| c.leader())
        .any(|l| mine.contains(&l));
    Ok(SecretAlly {
        holder: actor,
        target,
        answer,
    })
}

/// Record the answer once (later hand changes never rewrite it), visible per
/// P-NEX-SEC-AUDIENCE; public events carry no secret.
pub(crate) fn commit_secret_ally(g: &mut Game, q: SecretAlly, events: &mut Vec<Event>) {
    spend(g, q.holder, NexusMode::SecretAlly, events);
    events.push(Event::public(EventKind::SecretAllyAsked {
        holder: q.holder,
        target: q.target,
    }));
    let answered = EventKind::SecretAllyAnswered {
        holder: q.holder,
        target: q.target,
        answer: q.answer,
    };
    let audience: Vec<Faction> = match g.policies.secret_ally_audience {
        SecretAllyAudience::Holder => vec![q.holder],
        SecretAllyAudience::Table => g.seats.clone(),
    };
    // "Every player": the seated factions (and the host), not spectators.
    events.push(Event::only(audience.clone(), answered));
    for viewer in audience {
        let info = Insight::SecretAlly {
            asker: q.holder,
            answer: q.answer,
        };
        knowledge::record(g, viewer, q.target, info);
    }
}

// ---- dealing and discarding (host) ----

/// Validate `dealNexus`: module on, an unallied player holding none, a card to deal.
pub(crate) fn check_deal(g: &Game, faction: Faction) -> Result<(), ApplyError> {
    if !g.options.nexus {
        return Err(ApplyError::NexusOff);
    }
    let s = g.faction(faction).ok_or(ApplyError::NotSeated(faction))?;
    if s.ally.is_some() {
        return Err(ApplyError::AlliedNexus(faction));
    }
    if s.nexus.is_some() {
        return Err(ApplyError::NexusDeal {
            faction,
            why: "it already holds one",
        });
    }
    if g.nexus.deck.is_empty() && g.nexus.discard.is_empty() {
        return Err(ApplyError::NexusDeal {
            faction,
            why: "the Nexus deck and its discard pile are both empty",
        });
    }
    Ok(())
}

/// Deal the top card; only the receiver learns which. An empty deck is first
/// refilled from the shuffled Nexus discard pile (E3 pp.10–11; seeded, a
/// commit point of R-INV-4); its new order goes to the host only.
pub(crate) fn commit_deal(g: &mut Game, faction: Faction, events: &mut Vec<Event>) {
    if cards::refill(&mut g.rng, &mut g.nexus.deck, &mut g.nexus.discard) {
        events.push(Event::public(EventKind::NexusReshuffled {
            cards: u32::try_from(g.nexus.deck.len()).unwrap_or(u32::MAX),
        }));
        events.push(Event {
            audience: Audience::Host,
            event: EventKind::NexusDeckOrder {
                deck: g.nexus.deck.clone(),
            },
        });
    }
    if g.nexus.deck.is_empty() {
        return;
    }
    let card = g.nexus.deck.remove(0);
    if let Some(s) = g.faction_mut(faction) {
        s.nexus = Some(card);
    }
    events.push(Event::public(EventKind::NexusDealt { faction }));
    events.push(Event::only(vec![faction], EventKind::NexusReceived { faction, card }));
}

/// Validate `discardNexus`: the player holds a card.
pub(crate) fn check_discard(g: &Game, faction: Faction) -> Result<(), ApplyError> {
    if !g.options.nexus {
        return Err(ApplyError::NexusOff);
    }
    let s = g.faction(faction).ok_or(ApplyError::NotSeated(faction))?;
    if s.nexus.is_none() {
        return Err(ApplyError::NexusDeal {
            faction,
            why: "it holds no Nexus card to discard",
        });
    }
    Ok(())
}

/// Discard the held card, publicly.
pub(crate) fn commit_discard(g: &mut Game, faction: Faction, events: &mut Vec<Event>) {
    let card = g.faction_mut(faction).and_then(|s| s.nexus.take());
    if let Some(card) = card {
        g.nexus.discard.push(card);
        events.push(Event::public(EventKind::NexusDiscarded { faction, card }));
    }
}
