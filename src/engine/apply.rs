//! The one checked door (ARCHITECTURE §3): every change goes through
//! [`apply`] (or [`apply_mut`], its in-place twin for handle APIs).
//!
//! A command is first checked against the unchanged game — actor binding,
//! frame id, phase, every rule — producing a [`Plan`]; only then is the plan
//! committed, which cannot fail. So a rejected command changes nothing, not
//! even the RNG (R-INV-4).

use crate::base::ids::Territory;
use crate::check;
use crate::model::command::{Action, Command};
use crate::model::error::ApplyError;
use crate::model::event::Event;
use crate::model::game::{Actor, Decision, Game, HmsPointer};
use crate::rules::{duke, effects, entry, nexus, placement, storm, sync, table, trigger, turn};

/// A validated command, ready to commit.
#[derive(Debug)]
enum Plan {
    Place(placement::Announce),
    FinishPlacement,
    AllowPlacement(placement::Announce),
    CancelPlacement(placement::Cancel),
    EndPhase,
    MoveStorm(u8),
    DestroyShieldWall,
    MoveHms(HmsPointer),
    DestroyTerritory(Territory, crate::model::event::ReturnCause),
    Arrive(entry::Plan),
    Decline(trigger::Decline),
    Trigger(trigger::Trigger),
    Copy(effects::Copy),
    DiscardForSpice(effects::DiscardForSpice),
    SwapCard(effects::Swap),
    BuyCard(effects::Buy),
    ChooseBranch(effects::Branch),
    AnswerAlliance(effects::Answer),
    LendDuke(effects::Loan),
    DukeUsedInBattle,
    DukeKilled,
    DukeCaptured(crate::base::ids::Faction),
    DukeReturned,
    DukeGhola(crate::base::ids::Faction),
    DukeRevived,
    DukeToMoritani,
    ReactionsDone,
    Relocate(effects::Relocation),
    Ship(effects::Shipment),
    Revive(effects::Revival),
    Pass(effects::Pass),
    PlayCunning,
    PlayBetrayal(nexus::Betrayal),
    PlaySecretAlly(nexus::SecretAlly),
    AllowBetrayal(crate::base::ids::Faction, Vec<crate::model::game::Stack>),
    CancelBetrayal(crate::base::ids::Faction, crate::base::ids::CardId),
    DealNexus(crate::base::ids::Faction),
    Table(table::Report),
    DiscardNexus(crate::base::ids::Faction),
    Sync(sync::Sync),
}

/// Apply a command to a game: the new game and the events, or the error
/// (and the input game is, of course, unchanged).
///
/// ```
/// use ecaz::{apply, Action, Command, Phase, Setup};
/// let game = Setup::for_seats(&[ecaz::Faction::Ecaz, ecaz::Faction::Harkonnen], 7).build().unwrap();
/// let end_storm = Command::host(Action::EndPhase { phase: Phase::Storm });
/// let (next, events) = apply(&game, &end_storm).unwrap();
/// assert_eq!(next.phase(), Phase::SpiceBlow);
/// assert_eq!(events.len(), 1);
/// ```
pub fn apply(game: &Game, command: &Command) -> Result<(Game, Vec<Event>), ApplyError> {
    let plan = check(game, command)?;
    let mut next = game.clone();
    let events = commit(&mut next, plan);
    Ok((next, events))
}

/// Apply a command in place. On error the game is untouched: every check
/// runs before the first change.
pub fn apply_mut(game: &mut Game, command: &Command) -> Result<Vec<Event>, ApplyError> {
    let plan = check(game, command)?;
    Ok(commit(game, plan))
}

/// Check a command without applying it (no RNG, no change).
pub fn validate(game: &Game, command: &Command) -> Result<(), ApplyError> {
    check(game, command).map(|_| ())
}

fn check(g: &Game, cmd: &Command) -> Result<Plan, ApplyError> {
    // D-72: every command advances a counter by at most a handful; within
    // that margin of the loader's ceiling every command is refused, so an
    // accepted command never makes a state the loader refuses.
    if check::exhausted(g) {
        return Err(ApplyError::IdsExhausted);
    }
    // D-230: a guarded command applies at its revision only (a retried write
    // finds the revision moved on and changes nothing).
    if let Some(named) = cmd.if_revision {
        if named != g.revision {
            return Err(ApplyError::StaleRevision {
                named,
                current: g.revision,
            });
        }
    }
    if let Actor::Faction(f) = cmd.actor {
        if !g.is_seated(f) {
            return Err(ApplyError::NotSeated(f));
        }
    }
    match cmd.action.frame() {
        Some(named) => check_decision(g, cmd, named),
        None if cmd.action.is_play() => check_play(g, cmd),
        None => check_report(g, cmd),
    }
}

/// A player's own initiative (Nexus plays): a faction actor, no open decision.
fn check_play(g: &Game, cmd: &Command) -> Result<Plan, ApplyError> {
    let Actor::Faction(actor) = cmd.actor else {
        return Err(ApplyError::WrongActor {
            actor: cmd.actor.to_string(),
            action: cmd.action.name(),
            why: "a player plays its own Nexus card",
        });
    };
    if let Some(open) = g.open_frame() {
        return Err(ApplyError::DecisionPending(open.id));
    }
    match &cmd.action {
        Action::PlayCunning {} => nexus::check_cunning(g, actor).map(|()| Plan::PlayCunning),
        Action::PlayBetrayal { territory } => nexus::check_betrayal(g, actor, *territory).map(Plan::PlayBetrayal),
        Action::PlaySecretAlly { target } => nexus::check_secret_ally(g, actor, *target).map(Plan::PlaySecretAlly),
        other => Err(ApplyError::WrongDecision {
            action: other.name(),
            frame_kind: "play",
        }),
    }
}

/// A decision: it must answer the open frame, from that frame's actor, with a
/// command that fits the frame's kind.
fn check_decision(g: &Game, cmd: &Command, named: crate::base::ids::FrameId) -> Result<Plan, ApplyError> {
    let frame = match g.open_frame() {
        Some(f) if f.id == named => f,
        open => {
            return Err(ApplyError::StaleFrame {
                named,
                open: open.map(|f| f.id),
            })
        }
    };
    if frame.actor != cmd.actor {
        return Err(ApplyError::NotYourDecision {
            frame: frame.id,
            owner: frame.actor.to_string(),
            actor: cmd.actor.to_string(),
        });
    }
    match (&frame.decision, &cmd.action) {
        (Decision::Placement, Action::Place { token, territory, .. }) => {
            placement::check_place(g, *token, *territory).map(Plan::Place)
        }
        (Decision::Placement, Action::FinishPlacement { .. }) => Ok(Plan::FinishPlacement),
        (Decision::PlacementResponse { token, territory, cost }, Action::AllowPlacement { .. }) => {
            placement::check_allow(g, *token, *territory, *cost).map(Plan::AllowPlacement)
        }
        (
            Decision::PlacementResponse { token, territory, .. },
            Action::CancelPlacement {
                faction,
                card,
                host_vouched_karama,
                ..
            },
        ) => placement::check_cancel(g, *token, *territory, *faction, *card, *host_vouched_karama)
            .map(Plan::CancelPlacement),
        (
            Decision::TriggerOffer {
                arrival,
                token,
                territory,
                entrant,
                beneficiaries,
            },
            action @ (Action::Decline { .. } | Action::Trigger { .. }),
        ) => {
            let offer = trigger::OfferData {
                arrival: *arrival,
                token: *token,
                territory: *territory,
                entrant: *entrant,
                beneficiaries,
            };
            match action {
                Action::Trigger { beneficiary, .. } => {
                    trigger::check_trigger(g, offer, *beneficiary).map(Plan::Trigger)
                }
                _ => Ok(Plan::Decline(trigger::check_decline(offer))),
            }
        }
        (
            Decision::CopyEffect {
                arrival,
                entrant,
                beneficiary,
                candidates,
            },
            Action::Copy { effect, .. },
        ) => effects::check_copy(*arrival, *entrant, *beneficiary, candidates, *effect).map(Plan::Copy),
        (Decision::ChoamDiscard { arrival, beneficiary }, Action::DiscardForSpice { cards, .. }) => {
            effects::check_discard_for_spice(g, *arrival, *beneficiary, cards).map(Plan::DiscardForSpice)
        }
        (Decision::IxianSwap { arrival, beneficiary }, Action::SwapCard { card, .. }) => {
            effects::check_swap(g, *arrival, *beneficiary, *card).map(Plan::SwapCard)
        }
        (Decision::RicheseBuy { arrival, beneficiary }, Action::BuyCard { buy, .. }) => {
            effects::check_buy(g, *arrival, *beneficiary, *buy).map(Plan::BuyCard)
        }
        (
            Decision::EcazBranch {
                arrival,
                entrant,
                beneficiary,
            },
            Action::ChooseBranch { branch, .. },
        ) => effects::check_branch(g, *arrival, *entrant, *beneficiary, *branch).map(Plan::ChooseBranch),
        (Decision::AllianceOffer { arrival, entrant }, Action::AnswerAlliance { accept, .. }) => {
            effects::check_answer(g, *arrival, *entrant, *accept).map(Plan::AnswerAlliance)
        }
        (Decision::DukeLoan { arrival, ally }, Action::LendDuke { lend, .. }) => {
            effects::check_loan(g, *arrival, *ally, *lend).map(Plan::LendDuke)
        }
        (Decision::HostReactions { .. }, Action::ReactionsDone { .. }) => Ok(Plan::ReactionsDone),
        (
            Decision::BetrayalResponse {
                territory, ally, group, ..
            },
            Action::AllowBetrayal { .. },
        ) => nexus::check_allow_betrayal(g, *territory, *ally, group).map(|(a, grp)| Plan::AllowBetrayal(a, grp)),
        (
            Decision::BetrayalResponse { holder, .. },
            Action::CancelBetrayal {
                faction,
                card,
                host_vouched_karama,
                ..
            },
        ) => nexus::check_cancel_betrayal(g, *holder, *faction, *card, *host_vouched_karama)
            .map(|()| Plan::CancelBetrayal(*faction, *card)),
        // R-EFF-FRE/GLD/TLX: the board effects may always be passed; any
        // other effect frame only once it has lapsed (D-70: a frame that
        // resurfaces after a nested reaction took away every answer).
        (decision, Action::Pass { .. }) if decision.passable() || crate::engine::options::lapsed(g, frame) => {
            match (decision.arrival(), decision.effect()) {
                (Some(arrival), Some((effect, beneficiary))) => {
                    Ok(Plan::Pass(effects::Pass::new(arrival, effect, beneficiary)))
                }
                _ => Err(ApplyError::WrongDecision {
                    action: cmd.action.name(),
                    frame_kind: decision.name(),
                }),
            }
        }
        (
            Decision::FremenRelocation { arrival, beneficiary },
            Action::Relocate {
                from,
                group,
                advisors,
                to,
                sector,
                ..
            },
        ) => effects::check_relocate(g, *arrival, *beneficiary, *from, group, *advisors, *to, *sector)
            .map(Plan::Relocate),
        (
            Decision::GuildShipment { arrival, beneficiary },
            Action::Ship {
                territory,
                sector,
                normal,
                elite,
                ..
            },
        ) => effects::check_ship(g, *arrival, *beneficiary, *territory, *sector, *normal, *elite).map(Plan::Ship),
        (Decision::TleilaxuRevival { arrival, beneficiary }, Action::ReviveLeader { leader, .. }) => {
            effects::check_revive_leader(g, *arrival, *beneficiary, *leader).map(Plan::Revive)
        }
        (Decision::TleilaxuRevival { arrival, beneficiary }, Action::ReviveDuke { .. }) => {
            effects::check_revive_duke(g, *arrival, *beneficiary).map(Plan::Revive)
        }
        (Decision::TleilaxuRevival { arrival, beneficiary }, Action::ReviveForces { normal, elite, .. }) => {
            effects::check_revive_forces(g, *arrival, *beneficiary, *normal, *elite).map(Plan::Revive)
        }
        (decision, action) => Err(ApplyError::WrongDecision {
            action: action.name(),
            frame_kind: decision.name(),
        }),
    }
}

/// A host report: only the host sends it, and not while a decision is open.
fn check_report(g: &Game, cmd: &Command) -> Result<Plan, ApplyError> {
    if cmd.actor != Actor::Host {
        return Err(ApplyError::WrongActor {
            actor: cmd.actor.to_string(),
            action: cmd.action.name(),
            why: "only the host reports this",
        });
    }
    // D-101, D-109: a linked arrival and a reconcile are accepted under any
    // frame; inside the host-reactions window every table report is too
    // (`sync::window_report`); none may change a fact a pending frame
    // depends on (`rule/frame_depends`).
    let linked = matches!(cmd.action, Action::Arrive { parent: Some(_), .. });
    if let Action::SyncTable { table } = &cmd.action {
        let mut candidate = sync::candidate(g, table);
        candidate.problems.extend(check::problems(&candidate.next));
        return sync::accept(g, candidate).map(Plan::Sync);
    }
    if let Some(open) = g.open_frame() {
        let window = matches!(open.decision, Decision::HostReactions { .. }) && sync::window_report(&cmd.action);
        if !linked && !window {
            return Err(ApplyError::DecisionPending(open.id));
        }
        if window {
            sync::check_unblocked(g, &sync::facts_of(g, &cmd.action))?;
        }
    }
    if table::is_table_report(&cmd.action) {
        return table::check(g, &cmd.action).map(Plan::Table);
    }
    match &cmd.action {
        Action::EndPhase { phase } => turn::check_end_phase(g, *phase).map(|()| Plan::EndPhase),
        Action::MoveStorm { sectors } => storm::check_move_storm(g, *sectors).map(Plan::MoveStorm),
        Action::DestroyShieldWall {} => storm::check_destroy_shield_wall(g).map(|()| Plan::DestroyShieldWall),
        Action::MoveHms { territory, sector } => storm::check_move_hms(g, *territory, *sector).map(Plan::MoveHms),
        Action::DestroyTerritory { territory, cause } => storm::check_destroy_territory(*territory, *cause)
            .map(|()| Plan::DestroyTerritory(*territory, (*cause).into())),
        Action::Arrive {
            entrant,
            cause,
            from,
            territory,
            sector,
            normal,
            elite,
            advisors,
            parent,
            reactions_first,
        } => entry::check_arrive(
            g,
            entry::Report {
                entrant: *entrant,
                cause: *cause,
                from: from.clone(),
                territory: *territory,
                sector: *sector,
                normal: *normal,
                elite: *elite,
                advisors: *advisors,
                parent: *parent,
            },
            *reactions_first,
        )
        .map(Plan::Arrive),
        Action::DukeUsedInBattle {} => duke::check_used_in_battle(g).map(|()| Plan::DukeUsedInBattle),
        Action::DukeKilled {} => duke::check_killed(g).map(|()| Plan::DukeKilled),
        Action::DukeCaptured { by } => duke::check_captured(g, *by).map(|()| Plan::DukeCaptured(*by)),
        Action::DukeReturned {} => duke::check_returned(g).map(|()| Plan::DukeReturned),
        Action::DukeGhola { by } => duke::check_ghola(g, *by).map(|()| Plan::DukeGhola(*by)),
        Action::DukeRevived {} => duke::check_revived(g).map(|()| Plan::DukeRevived),
        Action::DukeToMoritani {} => duke::check_to_moritani(g).map(|()| Plan::DukeToMoritani),
        Action::DealNexus { faction } => nexus::check_deal(g, *faction).map(|()| Plan::DealNexus(*faction)),
        Action::DiscardNexus { faction } => nexus::check_discard(g, *faction).map(|()| Plan::DiscardNexus(*faction)),
        // Decisions, plays and table reports never reach here (routed above).
        _ => Err(ApplyError::WrongDecision {
            action: cmd.action.name(),
            frame_kind: "report",
        }),
    }
}

fn commit(g: &mut Game, plan: Plan) -> Vec<Event> {
    let mut events = Vec::new();
    let ev = &mut events;
    match plan {
        Plan::Place(a) => placement::commit_place(g, a, ev),
        Plan::FinishPlacement => placement::commit_finish(g, ev),
        Plan::AllowPlacement(a) => placement::commit_allow(g, a, ev),
        Plan::CancelPlacement(c) => placement::commit_cancel(g, c, ev),
        Plan::EndPhase => turn::commit_end_phase(g, ev),
        Plan::MoveStorm(n) => storm::commit_move_storm(g, n, ev),
        Plan::DestroyShieldWall => storm::commit_destroy_shield_wall(g, ev),
        Plan::MoveHms(p) => storm::commit_move_hms(g, p, ev),
        Plan::DestroyTerritory(t, cause) => storm::commit_destroy_territory(g, t, cause, ev),
        Plan::Arrive(p) => entry::commit_arrive(g, p, ev),
        Plan::Decline(d) => trigger::commit_decline(g, d, ev),
        Plan::Trigger(t) => trigger::commit_trigger(g, t, ev),
        Plan::Copy(c) => effects::commit_copy(g, c, ev),
        Plan::DiscardForSpice(d) => effects::commit_discard_for_spice(g, d, ev),
        Plan::SwapCard(s) => effects::commit_swap(g, s, ev),
        Plan::BuyCard(b) => effects::commit_buy(g, b, ev),
        Plan::ChooseBranch(b) => effects::commit_branch(g, b, ev),
        Plan::AnswerAlliance(a) => effects::commit_answer(g, a, ev),
        Plan::LendDuke(l) => effects::commit_loan(g, l, ev),
        Plan::DukeUsedInBattle => duke::commit_used_in_battle(g, ev),
        Plan::DukeKilled => duke::commit_killed(g, ev),
        Plan::DukeCaptured(by) => duke::commit_captured(g, by, ev),
        Plan::DukeReturned => duke::commit_returned(g, ev),
        Plan::DukeGhola(by) => duke::commit_ghola(g, by, ev),
        Plan::DukeRevived => duke::commit_revived(g, ev),
        Plan::DukeToMoritani => duke::commit_to_moritani(g, ev),
        Plan::ReactionsDone => entry::commit_reactions_done(g, ev),
        Plan::Relocate(r) => effects::commit_relocate(g, r, ev),
        Plan::Ship(s) => effects::commit_ship(g, s, ev),
        Plan::Revive(r) => effects::commit_revive(g, r, ev),
        Plan::Pass(p) => effects::commit_pass(g, p, ev),
        Plan::PlayCunning => nexus::commit_cunning(g, ev),
        Plan::PlayBetrayal(b) => nexus::commit_betrayal(g, b, ev),
        Plan::PlaySecretAlly(q) => nexus::commit_secret_ally(g, q, ev),
        Plan::AllowBetrayal(ally, group) => nexus::commit_allow_betrayal(g, ally, group, ev),
        Plan::CancelBetrayal(by, card) => nexus::commit_cancel_betrayal(g, by, card, ev),
        Plan::DealNexus(f) => nexus::commit_deal(g, f, ev),
        Plan::Table(r) => table::commit(g, r, ev),
        Plan::DiscardNexus(f) => nexus::commit_discard(g, f, ev),
        Plan::Sync(s) => sync::commit_sync(g, s, ev),
    }
    // D-230: one accepted command, one revision (the counter's ceiling is
    // kept by `check::exhausted`, checked first).
    g.revision = g.revision.saturating_add(1);
    events
}
