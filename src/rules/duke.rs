//! Duke Vidal's custody (RULES §6, R-DUKE-1..4, P-DUKE-LOAN, P-DUKE-REVIVED).
//!
//! One disc, outside every roster (he is not a [`crate::Leader`] value, so no
//! roster or Traitor deck can hold him). Control routes (R-DUKE-2) and their
//! tenure: the Ecaz Ambassador — until used in a battle; Moritani — one
//! battle, set aside at turn end; the Nexus Cunning — this turn; an alliance
//! loan — this turn, then back to whoever held him before (P-DUKE-LOAN).

use crate::base::ids::Faction;
use crate::base::policy::DukeRevived;
use crate::model::error::ApplyError;
use crate::model::event::{DukeReason, Event, EventKind};
use crate::model::game::{DukeCustody, DukeSource, Game};

/// R-DUKE-4: what reviving him costs Ecaz, however many leaders are dead.
pub const REVIVAL_COST: u32 = 5;

/// Move the Duke and say so. Any custody change but a loan ends a loan
/// record; any custody but a capture ends a capture record (D-168).
pub(crate) fn set(g: &mut Game, custody: DukeCustody, reason: DukeReason, events: &mut Vec<Event>) {
    g.duke.custody = custody;
    g.duke.since = Some(g.turn);
    if reason != DukeReason::Loan {
        g.duke.before_loan = None;
    }
    if !matches!(custody, DukeCustody::Captured { .. }) {
        g.duke.before_capture = None;
    }
    events.push(Event::public(EventKind::DukeMoved { custody, reason }));
}

/// R-EFF-ECAZ (a): can `beneficiary` take him? Not from the Tanks, capture or
/// a ghola; not when it already controls him.
pub(crate) fn can_take(g: &Game, beneficiary: Faction) -> bool {
    g.duke.available() && g.duke.controller() != Some(beneficiary)
}

/// P-DUKE-LOAN: only a Duke Ecaz controls, or one set aside, can be lent.
pub(crate) fn can_lend(g: &Game) -> bool {
    matches!(
        g.duke.custody,
        DukeCustody::SetAside | DukeCustody::Controlled { by: Faction::Ecaz, .. }
    )
}

/// Lend him to `ally` for this turn, remembering where he returns.
pub(crate) fn lend(g: &mut Game, ally: Faction, events: &mut Vec<Event>) {
    let before = g.duke.custody;
    set(
        g,
        DukeCustody::Controlled {
            by: ally,
            source: DukeSource::AllianceLoan,
        },
        DukeReason::Loan,
        events,
    );
    g.duke.before_loan = Some(before);
}

/// Where a lent Duke goes when the loan ends (P-DUKE-LOAN).
fn after_loan(g: &Game) -> DukeCustody {
    g.duke.before_loan.unwrap_or(DukeCustody::SetAside)
}

/// P-DUKE-LOAN: a loan made to Ecaz's ally does not outlive that alliance:
/// once the borrower is no longer Ecaz's ally (a `breakAlliance`, or a
/// `syncTable` that says so: D-185), he goes back to where he was before
/// the loan.
pub(crate) fn end_outlived_loan(g: &mut Game, events: &mut Vec<Event>) {
    if let DukeCustody::Controlled {
        by,
        source: DukeSource::AllianceLoan,
    } = g.duke.custody
    {
        if g.faction(Faction::Ecaz).and_then(|s| s.ally) != Some(by) {
            let back = after_loan(g);
            set(g, back, DukeReason::LoanEnded, events);
        }
    }
}

/// The turn ends: turn-long tenures expire (R-DUKE-2, P-DUKE-LOAN, R-NEX-CUN).
pub(crate) fn end_turn(g: &mut Game, events: &mut Vec<Event>) {
    if let DukeCustody::Controlled { source, .. } = g.duke.custody {
        match source {
            DukeSource::AllianceLoan => {
                let back = after_loan(g);
                set(g, back, DukeReason::LoanEnded, events);
                // The custody he returns to may itself be turn-long (Cunning, Moritani).
                end_turn(g, events);
            }
            DukeSource::Moritani | DukeSource::NexusCunning => {
                set(g, DukeCustody::SetAside, DukeReason::TurnEnd, events);
            }
            DukeSource::EcazAmbassador => {}
        }
    }
}

/// Who has him in play: his controller, his captor or the holder of his
/// ghola (the custodies from which he fights, dies or is captured).
fn in_play_by(g: &Game) -> Option<Faction> {
    match g.duke.custody {
        DukeCustody::Controlled { by, .. } | DukeCustody::Captured { by } | DukeCustody::Ghola { by } => Some(by),
        DukeCustody::SetAside | DukeCustody::Tanks => None,
    }
}

fn need_in_play(g: &Game) -> Result<Faction, ApplyError> {
    in_play_by(g).ok_or(ApplyError::DukeNotInPlay)
}

/// Validate `dukeUsedInBattle`: someone has him in play — his controller, or
/// his captor or ghola holder, who fight with him as with any captured
/// leader or ghola (D-52).
pub(crate) fn check_used_in_battle(g: &Game) -> Result<(), ApplyError> {
    need_in_play(g).map(|_| ())
}

/// R-DUKE-3, P-DUKE-LOAN: a temporary control ends with the battle use and he
/// is set aside — a lent Duke too (the loan does not outlive its battle, and
/// the holder before the loan does not get him back: R-DUKE-3, D-51). A
/// ghola holder keeps him after a battle. A captor who uses him in a battle
/// returns him, as any captured leader, to whoever last had him (base rules
/// on captured leaders; D-168): [`after_capture`].
pub(crate) fn commit_used_in_battle(g: &mut Game, events: &mut Vec<Event>) {
    let next = match g.duke.custody {
        DukeCustody::Controlled { .. } | DukeCustody::SetAside => DukeCustody::SetAside,
        DukeCustody::Captured { .. } => after_capture(g),
        kept @ (DukeCustody::Ghola { .. } | DukeCustody::Tanks) => kept,
    };
    g.duke.battle_turn = Some(g.turn);
    set(g, next, DukeReason::BattleUse, events);
}

/// Validate `dukeKilled`: he is in play (controlled, captured or a ghola).
pub(crate) fn check_killed(g: &Game) -> Result<(), ApplyError> {
    need_in_play(g).map(|_| ())
}

/// R-DUKE-3: to the Tanks (the death bounty is the host's concern).
pub(crate) fn commit_killed(g: &mut Game, events: &mut Vec<Event>) {
    g.duke.battle_turn = Some(g.turn);
    set(g, DukeCustody::Tanks, DukeReason::Killed, events);
}

/// Validate `dukeCaptured`: a seated captor other than whoever has him in
/// play (a captured Duke or a ghola can be captured again, like any leader
/// in a leader pool).
pub(crate) fn check_captured(g: &Game, by: Faction) -> Result<(), ApplyError> {
    if !g.is_seated(by) {
        return Err(ApplyError::NotSeated(by));
    }
    if need_in_play(g)? == by {
        return Err(ApplyError::DukeAlreadyControlled(by));
    }
    // D-73: Ecaz never captures its own Duke (the loader refuses that custody too).
    if by == Faction::Ecaz {
        return Err(ApplyError::SameFaction(by));
    }
    Ok(())
}

/// The lasting custodies a captured Duke goes back to (D-168): Ecaz
/// Ambassador control (held until its holder uses him in a battle) and a
/// Tleilaxu ghola. A temporary control (Moritani's battle, Cunning, a loan)
/// ends with the capture, as its tenure is one battle or one turn.
pub(crate) fn lasting(custody: DukeCustody) -> bool {
    matches!(
        custody,
        DukeCustody::Controlled {
            source: DukeSource::EcazAmbassador,
            ..
        } | DukeCustody::Ghola { .. }
    )
}

/// Where a captured Duke goes when his captor has used him or returns him:
/// the lasting custody he was captured from, else set aside (D-168).
fn after_capture(g: &Game) -> DukeCustody {
    g.duke.before_capture.unwrap_or(DukeCustody::SetAside)
}

/// Who holds a lasting custody.
fn holder(custody: DukeCustody) -> Option<Faction> {
    match custody {
        DukeCustody::Controlled { by, .. } | DukeCustody::Ghola { by } => Some(by),
        _ => None,
    }
}

/// He is captured. The lasting custody he was taken from is remembered; a
/// captive captured again keeps the record of his first holder, and that
/// holder capturing him takes him back into it (D-168).
pub(crate) fn commit_captured(g: &mut Game, by: Faction, events: &mut Vec<Event>) {
    let before = match g.duke.custody {
        c if lasting(c) => Some(c),
        DukeCustody::Captured { .. } => g.duke.before_capture,
        _ => None,
    };
    match before {
        Some(back) if holder(back) == Some(by) => set(g, back, DukeReason::Captured, events),
        _ => {
            set(g, DukeCustody::Captured { by }, DukeReason::Captured, events);
            g.duke.before_capture = before;
        }
    }
}

/// Validate `dukeReturned`: he is captured (a captured leader is returned,
/// e.g. when its captor's own leaders are all dead).
pub(crate) fn check_returned(g: &Game) -> Result<(), ApplyError> {
    match g.duke.custody {
        DukeCustody::Captured { .. } => Ok(()),
        _ => Err(ApplyError::DukeNotCaptured),
    }
}

/// A returned Duke goes back to the lasting custody he was captured from,
/// else he is set aside: he has no faction of his own (R-DUKE-1), and a
/// temporary control ended with his capture (D-168).
pub(crate) fn commit_returned(g: &mut Game, events: &mut Vec<Event>) {
    let back = after_capture(g);
    set(g, back, DukeReason::Returned, events);
}

/// Validate `dukeGhola`: he is in the Tanks and `by` is the seated Tleilaxu
/// (only the Tleilaxu make gholas, E1; D-168).
pub(crate) fn check_ghola(g: &Game, by: Faction) -> Result<(), ApplyError> {
    if !g.is_seated(by) {
        return Err(ApplyError::NotSeated(by));
    }
    if by != Faction::Tleilaxu {
        return Err(ApplyError::GholaTleilaxuOnly(by));
    }
    if g.duke.custody != DukeCustody::Tanks {
        return Err(ApplyError::DukeNotInTanks);
    }
    Ok(())
}

/// He leaves the Tanks as `by`'s ghola.
pub(crate) fn commit_ghola(g: &mut Game, by: Faction, events: &mut Vec<Event>) {
    set(g, DukeCustody::Ghola { by }, DukeReason::Ghola, events);
}

/// Validate `dukeRevived` (R-DUKE-4): he is in the Tanks, Ecaz is seated and can pay 5.
pub(crate) fn check_revived(g: &Game) -> Result<(), ApplyError> {
    if g.duke.custody != DukeCustody::Tanks {
        return Err(ApplyError::DukeNotInTanks);
    }
    let ecaz = g.faction(Faction::Ecaz).ok_or(ApplyError::NotSeated(Faction::Ecaz))?;
    if ecaz.spice < REVIVAL_COST {
        return Err(ApplyError::InsufficientSpice {
            faction: Faction::Ecaz,
            has: ecaz.spice,
            needs: REVIVAL_COST,
        });
    }
    Ok(())
}

/// R-DUKE-4, P-DUKE-REVIVED: Ecaz pays 5; he is set aside (default) or Ecaz's.
pub(crate) fn commit_revived(g: &mut Game, events: &mut Vec<Event>) {
    if let Some(s) = g.faction_mut(Faction::Ecaz) {
        s.spice = s.spice.saturating_sub(REVIVAL_COST);
    }
    events.push(Event::public(EventKind::SpicePaid {
        faction: Faction::Ecaz,
        amount: REVIVAL_COST,
        to: None,
    }));
    revive(g, events);
}

/// R-DUKE-4, P-DUKE-REVIVED: a revived Duke is set aside (default) or Ecaz's
/// (every revival route: host report or the Tleilaxu Ambassador).
pub(crate) fn revive(g: &mut Game, events: &mut Vec<Event>) {
    let custody = match g.policies.duke_revived {
        DukeRevived::SetAside => DukeCustody::SetAside,
        DukeRevived::Ecaz => DukeCustody::Controlled {
            by: Faction::Ecaz,
            source: DukeSource::EcazAmbassador,
        },
    };
    set(g, custody, DukeReason::Revived, events);
}

/// Validate `dukeToMoritani` (R-DUKE-2): Moritani seated, the Duke available.
pub(crate) fn check_to_moritani(g: &Game) -> Result<(), ApplyError> {
    if !g.is_seated(Faction::Moritani) {
        return Err(ApplyError::NotSeated(Faction::Moritani));
    }
    if !g.duke.available() {
        return Err(ApplyError::DukeUnavailable);
    }
    if g.duke.controller() == Some(Faction::Moritani) {
        return Err(ApplyError::DukeAlreadyControlled(Faction::Moritani));
    }
    Ok(())
}

/// Moritani takes him for one battle.
pub(crate) fn commit_to_moritani(g: &mut Game, events: &mut Vec<Event>) {
    let custody = DukeCustody::Controlled {
        by: Faction::Moritani,
        source: DukeSource::Moritani,
    };
    set(g, custody, DukeReason::Moritani, events);
}
