//! Legal commands (ARCHITECTURE §3): `options(&Game, Actor)`.
//!
//! The list is computed from the rules directly (never by trying commands and
//! catching errors), and everything it lists is accepted by [`crate::apply`]
//! — a property test checks that. Pure: no RNG, no change.

use ecaz_derive::WireDeserialize;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::base::board;
use crate::base::ids::{Ambassador, CardId, Leader, Sector, Territory};
use crate::base::ids::{Faction, FrameId};
use crate::model::command::{Action, Command, EcazBranch, SectorForces};
use crate::model::error::{ErrorCode, Refusal};
use crate::model::event::NexusMode;
use crate::model::game::Forces;
use crate::model::game::{Actor, Decision, Game};
use crate::rules::effects::describe;
use crate::rules::{effects, karama, nexus, placement, trigger};

/// What an actor may do now.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Options {
    /// The open frame this actor answers, if any.
    pub frame: Option<FrameId>,
    /// Every legal command that can be listed whole.
    pub commands: Vec<Command>,
    /// Choice descriptors for the board effects, whose legal commands are
    /// too many to list: every command built within a descriptor is legal.
    pub choices: Vec<Choice>,
    /// The choices of this decision that exist but are refused
    /// now, each with the error code (and rule) `apply` would give. Decided
    /// from what the actor may know only: no reason ever depends on a fact
    /// hidden from the actor.
    #[serde(default)]
    pub blocked: Vec<Blocked>,
    /// For a trigger offer, per beneficiary, what triggering would
    /// do — before the choice.
    #[serde(default)]
    pub previews: Vec<TriggerPreview>,
}

/// A command the actor could send for this decision but that is refused now.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Blocked {
    /// The refused command.
    pub command: Command,
    /// Why: the stable error code `apply` returns for it (`rule/stronghold_in_storm` …).
    pub code: ErrorCode,
    /// The rule or policy id, where one applies.
    #[serde(default)]
    pub rule: Option<String>,
}

/// What triggering the offered token for one beneficiary would do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TriggerPreview {
    /// The beneficiary.
    pub beneficiary: Faction,
    /// The token's effect.
    pub effect: Ambassador,
    /// May it be triggered for this beneficiary (P-UNAVAILABLE, R-TRG-7)?
    pub possible: bool,
    /// D-242: why not, when it may not (`null` when `possible`).
    #[serde(default)]
    pub refusal: Option<Refusal>,
    /// The Ecaz token (R-EFF-ECAZ): the branches open to this beneficiary
    /// (`duke`, `alliance`; both: Ecaz picks after the trigger).
    pub branches: Vec<EcazBranch>,
    /// D-242: the Ecaz token's branches closed to this beneficiary, each
    /// with why (empty for the other tokens).
    #[serde(default)]
    pub closed_branches: Vec<ClosedBranch>,
    /// The Bene Gesserit token (R-EFF-BG): the effects Ecaz could copy.
    pub copies: Vec<Ambassador>,
}

/// D-242: an Ecaz-token branch closed to a beneficiary (R-EFF-ECAZ), and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ClosedBranch {
    /// The branch.
    pub branch: EcazBranch,
    /// Why it is closed.
    pub refusal: Refusal,
}

/// A sector of a territory (R-EFF-FRE, R-EFF-GLD destinations).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Position {
    /// Territory.
    pub territory: Territory,
    /// Sector.
    pub sector: Sector,
}

/// One territory a Fremen-effect group may leave (R-EFF-FRE).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct GroupSource {
    /// The territory.
    pub territory: Territory,
    /// Forces available in each of its sectors outside the storm (`normal`
    /// counts advisors when `advisors`).
    pub sectors: Vec<SectorForces>,
    /// These are BG advisors.
    pub advisors: bool,
    /// Where a group from here may go (other territories, this territory's
    /// other sectors, the HMS when allowed). A group whose sectors all equal
    /// the destination sector does not move and is refused.
    pub destinations: Vec<Position>,
}

/// A choice descriptor.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, WireDeserialize, JsonSchema)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase",
    deny_unknown_fields
)]
pub enum Choice {
    /// R-EFF-FRE: `relocate` a non-empty group taken from the sectors of one
    /// source (at most what each lists) to one of that source's destinations.
    Relocate {
        /// The frame.
        frame: FrameId,
        /// Where a group may come from, each with its destinations.
        sources: Vec<GroupSource>,
    },
    /// R-EFF-CHOAM (D-83): `discardForSpice` any subset of `cards` (the
    /// beneficiary's hand, in hand order), each card at most once, named in
    /// any order.
    Discard {
        /// The frame.
        frame: FrameId,
        /// The cards that may be discarded.
        cards: Vec<CardId>,
    },
    /// R-EFF-GLD: `ship` 1..=`max` forces (at most the reserves of each kind) to one of `destinations`.
    Ship {
        /// The frame.
        frame: FrameId,
        /// The beneficiary's reserves.
        reserves: Forces,
        /// At most this many.
        max: u32,
        /// Legal destinations.
        destinations: Vec<Position>,
    },
    /// R-EFF-TLX: `reviveLeader` one of `leaders`, `reviveDuke` when `duke`, or
    /// `reviveForces` up to `max` (at most the Tanks of each kind, at most `eliteLeft` elite).
    Revive {
        /// The frame.
        frame: FrameId,
        /// Own leaders in the Tanks.
        leaders: Vec<Leader>,
        /// Duke Vidal can be revived (Ecaz only).
        duke: bool,
        /// The beneficiary's forces in the Tanks.
        tanks: Forces,
        /// At most this many forces.
        max: u32,
        /// Elite forces still revivable this turn (P-TLX).
        elite_left: u32,
    },
}

/// The legal commands of `actor` in `game`.
///
/// For a faction: the answers to the open frame when it is theirs. For the
/// host: the answers to an open host frame; with no frame open, the one
/// turn-structure report `endPhase` (other host reports are facts of the
/// host's game and are not enumerated).
pub fn options(game: &Game, actor: Actor) -> Options {
    let mut o = listed(game, actor);
    if !crate::check::exhausted(game) {
        (o.blocked, o.previews) = explain(game, actor);
    }
    o
}

/// [`options`] without the explanations (`blocked` and `previews` left
/// empty): the legal commands and choice descriptors only, for callers that
/// pick a command (the bots, D-160) and would throw the explanations away.
pub(crate) fn listed(game: &Game, actor: Actor) -> Options {
    // D-72, D-84: a game whose counters are exhausted refuses every command
    // (`state/ids_exhausted`), so nothing is listed (found by the fuzzer:
    // a setup at turn 2^31 listed `endPhase`).
    if crate::check::exhausted(game) {
        return Options {
            frame: game.open_frame().filter(|f| f.actor == actor).map(|f| f.id),
            commands: Vec::new(),
            choices: Vec::new(),
            blocked: Vec::new(),
            previews: Vec::new(),
        };
    }
    let open = game.open_frame();
    let mut commands = Vec::new();
    let mut choices = Vec::new();
    let frame = match open {
        Some(f) if f.actor == actor => {
            let id = f.id;
            let mut add = |action| commands.push(Command::new(actor, action));
            match &f.decision {
                Decision::Placement => {
                    for (token, territory) in placement::legal_placements(game) {
                        add(Action::Place {
                            frame: id,
                            token,
                            territory,
                        });
                    }
                    add(Action::FinishPlacement { frame: id });
                }
                Decision::TriggerOffer {
                    arrival,
                    token,
                    territory,
                    entrant,
                    beneficiaries,
                } => {
                    add(Action::Decline { frame: id });
                    let offer = trigger::OfferData {
                        arrival: *arrival,
                        token: *token,
                        territory: *territory,
                        entrant: *entrant,
                        beneficiaries,
                    };
                    for &beneficiary in beneficiaries {
                        if trigger::check_trigger(game, offer, beneficiary).is_ok() {
                            add(Action::Trigger { frame: id, beneficiary });
                        }
                    }
                }
                Decision::CopyEffect { candidates, .. } => {
                    for &effect in candidates {
                        add(Action::Copy { frame: id, effect });
                    }
                }
                Decision::ChoamDiscard { beneficiary, .. } => {
                    // D-83: any subset of the hand is legal (2^n of them), so
                    // the listing is bounded: keep every card, discard every
                    // card, and a descriptor of the rest.
                    let hand = game.faction(*beneficiary).map(|s| s.hand.clone()).unwrap_or_default();
                    add(Action::DiscardForSpice {
                        frame: id,
                        cards: Vec::new(),
                    });
                    if !hand.is_empty() {
                        add(Action::DiscardForSpice {
                            frame: id,
                            cards: hand.clone(),
                        });
                        choices.push(Choice::Discard { frame: id, cards: hand });
                    }
                }
                Decision::IxianSwap { beneficiary, .. } => {
                    for &card in game
                        .faction(*beneficiary)
                        .map(|s| s.hand.as_slice())
                        .unwrap_or_default()
                    {
                        add(Action::SwapCard { frame: id, card });
                    }
                }
                Decision::RicheseBuy { arrival, beneficiary } => {
                    add(Action::BuyCard { frame: id, buy: false });
                    if effects::check_buy(game, *arrival, *beneficiary, true).is_ok() {
                        add(Action::BuyCard { frame: id, buy: true });
                    }
                }
                Decision::EcazBranch {
                    arrival,
                    entrant,
                    beneficiary,
                } => {
                    for branch in [EcazBranch::Duke, EcazBranch::Alliance] {
                        if effects::check_branch(game, *arrival, *entrant, *beneficiary, branch).is_ok() {
                            add(Action::ChooseBranch { frame: id, branch });
                        }
                    }
                }
                Decision::AllianceOffer { arrival, entrant } => {
                    add(Action::AnswerAlliance {
                        frame: id,
                        accept: false,
                    });
                    if effects::check_answer(game, *arrival, *entrant, true).is_ok() {
                        add(Action::AnswerAlliance {
                            frame: id,
                            accept: true,
                        });
                    }
                }
                Decision::DukeLoan { arrival, ally } => {
                    add(Action::LendDuke { frame: id, lend: false });
                    if effects::check_loan(game, *arrival, *ally, true).is_ok() {
                        add(Action::LendDuke { frame: id, lend: true });
                    }
                }
                Decision::HostReactions { .. } => add(Action::ReactionsDone { frame: id }),
                Decision::FremenRelocation { beneficiary, .. } => {
                    add(Action::Pass { frame: id });
                    choices.push(relocate_choice(game, id, *beneficiary));
                }
                Decision::GuildShipment { beneficiary, .. } => {
                    add(Action::Pass { frame: id });
                    let reserves = game.faction(*beneficiary).map(|s| s.reserves).unwrap_or_default();
                    choices.push(Choice::Ship {
                        frame: id,
                        reserves,
                        max: describe::GUILD_MAX,
                        destinations: destinations(game, *beneficiary, true, false),
                    });
                }
                Decision::TleilaxuRevival { beneficiary, .. } => {
                    add(Action::Pass { frame: id });
                    let tanks = game.faction(*beneficiary).map(|s| s.tanks).unwrap_or_default();
                    choices.push(Choice::Revive {
                        frame: id,
                        leaders: describe::dead_leaders(game, *beneficiary),
                        duke: describe::duke_revivable(game, *beneficiary),
                        tanks,
                        max: describe::TLEILAXU_MAX,
                        elite_left: describe::elite_left(game, *beneficiary),
                    });
                }
                Decision::PlacementResponse { .. } => {
                    add(Action::AllowPlacement { frame: id });
                    for (faction, card) in karamas(game, Faction::Ecaz) {
                        add(Action::CancelPlacement {
                            frame: id,
                            faction,
                            card,
                            host_vouched_karama: false,
                        });
                    }
                }
                Decision::BetrayalResponse {
                    holder,
                    territory,
                    ally,
                    group,
                } => {
                    if nexus::check_allow_betrayal(game, *territory, *ally, group).is_ok() {
                        add(Action::AllowBetrayal { frame: id });
                    }
                    for (faction, card) in karamas(game, *holder) {
                        add(Action::CancelBetrayal {
                            frame: id,
                            faction,
                            card,
                            host_vouched_karama: false,
                        });
                    }
                }
            }
            Some(id)
        }
        Some(_) => None,
        None => {
            match actor {
                Actor::Host => commands.push(Command::host(Action::EndPhase { phase: game.phase })),
                Actor::Faction(f) => commands = plays(game, f),
            }
            None
        }
    };
    // D-70: an effect frame that resurfaced after a nested reaction took
    // away every answer (an Ixian swap with an empty hand, an Ecaz branch
    // with neither branch left) has lapsed: its actor may `pass`.
    if let Some(f) = open.filter(|f| f.actor == actor) {
        if commands.is_empty() && choices.is_empty() && f.decision.effect().is_some() {
            commands.push(Command {
                if_revision: None,
                actor,
                action: Action::Pass { frame: f.id },
            });
        }
    }
    Options {
        frame,
        commands,
        choices,
        blocked: Vec::new(),
        previews: Vec::new(),
    }
}

/// D-106: the blocked choices of `actor` and the trigger previews.
fn explain(game: &Game, actor: Actor) -> (Vec<Blocked>, Vec<TriggerPreview>) {
    let mut blocked = Vec::new();
    let mut previews = Vec::new();
    let mut refuse = |action: Action, result: Result<(), crate::model::error::ApplyError>| {
        if let Err(e) = result {
            blocked.push(Blocked {
                command: Command::new(actor, action),
                code: ErrorCode::from(&e),
                rule: e.rule().map(str::to_string),
            });
        }
    };
    match game.open_frame() {
        Some(f) if f.actor == actor => {
            let id = f.id;
            match &f.decision {
                Decision::Placement => {
                    for token in Ambassador::ALL {
                        for territory in board::STRONGHOLDS {
                            let r = placement::check_place(game, token, territory).map(|_| ());
                            refuse(
                                Action::Place {
                                    frame: id,
                                    token,
                                    territory,
                                },
                                r,
                            );
                        }
                    }
                }
                Decision::TriggerOffer {
                    arrival,
                    token,
                    territory,
                    entrant,
                    beneficiaries,
                } => {
                    let offer = trigger::OfferData {
                        arrival: *arrival,
                        token: *token,
                        territory: *territory,
                        entrant: *entrant,
                        beneficiaries,
                    };
                    let ally = game.faction(Faction::Ecaz).and_then(|s| s.ally);
                    for beneficiary in std::iter::once(Faction::Ecaz).chain(ally) {
                        let r = trigger::check_trigger(game, offer, beneficiary).map(|_| ());
                        let possible = r.is_ok();
                        let refusal = r.as_ref().err().map(Refusal::from);
                        refuse(Action::Trigger { frame: id, beneficiary }, r);
                        let mut branches = Vec::new();
                        let mut closed_branches = Vec::new();
                        if *token == Ambassador::Ecaz {
                            for branch in [EcazBranch::Duke, EcazBranch::Alliance] {
                                match effects::check_branch(game, *arrival, *entrant, beneficiary, branch) {
                                    Ok(_) => branches.push(branch),
                                    Err(e) => closed_branches.push(ClosedBranch {
                                        branch,
                                        refusal: Refusal::from(&e),
                                    }),
                                }
                            }
                        }
                        let copies = if *token == Ambassador::BeneGesserit {
                            describe::copy_candidates(game, *entrant, beneficiary)
                        } else {
                            Vec::new()
                        };
                        previews.push(TriggerPreview {
                            beneficiary,
                            effect: *token,
                            possible,
                            refusal,
                            branches,
                            closed_branches,
                            copies,
                        });
                    }
                }
                Decision::EcazBranch {
                    arrival,
                    entrant,
                    beneficiary,
                } => {
                    for branch in [EcazBranch::Duke, EcazBranch::Alliance] {
                        let r = effects::check_branch(game, *arrival, *entrant, *beneficiary, branch).map(|_| ());
                        refuse(Action::ChooseBranch { frame: id, branch }, r);
                    }
                }
                Decision::RicheseBuy { arrival, beneficiary } => {
                    let r = effects::check_buy(game, *arrival, *beneficiary, true).map(|_| ());
                    refuse(Action::BuyCard { frame: id, buy: true }, r);
                }
                Decision::AllianceOffer { arrival, entrant } => {
                    let r = effects::check_answer(game, *arrival, *entrant, true).map(|_| ());
                    refuse(
                        Action::AnswerAlliance {
                            frame: id,
                            accept: true,
                        },
                        r,
                    );
                }
                Decision::DukeLoan { arrival, ally } => {
                    let r = effects::check_loan(game, *arrival, *ally, true).map(|_| ());
                    refuse(Action::LendDuke { frame: id, lend: true }, r);
                }
                Decision::BetrayalResponse {
                    territory, ally, group, ..
                } => {
                    let r = nexus::check_allow_betrayal(game, *territory, *ally, group).map(|_| ());
                    refuse(Action::AllowBetrayal { frame: id }, r);
                }
                _ => {}
            }
        }
        None => {
            // The Nexus holder's plays that are refused now (its own card).
            if let Actor::Faction(f) = actor {
                if game.faction(f).is_some_and(|s| s.nexus == Some(Faction::Ecaz)) {
                    match nexus::mode(game, f) {
                        crate::model::event::NexusMode::Cunning => {
                            refuse(Action::PlayCunning {}, nexus::check_cunning(game, f));
                        }
                        crate::model::event::NexusMode::Betrayal => {
                            for territory in Territory::ALL {
                                let r = nexus::check_betrayal(game, f, territory).map(|_| ());
                                // Only where the two partners share a territory (the
                                // other territories are no choice at all).
                                if r.as_ref().is_err_and(|e| e.code() != "rule/not_shared") {
                                    refuse(Action::PlayBetrayal { territory }, r);
                                }
                            }
                        }
                        crate::model::event::NexusMode::SecretAlly => {
                            for &target in game.seats() {
                                let r = nexus::check_secret_ally(game, f, target).map(|_| ());
                                refuse(Action::PlaySecretAlly { target }, r);
                            }
                        }
                    }
                }
            }
        }
        Some(_) => {}
    }
    (blocked, previews)
}

/// D-70: has this open effect frame lapsed (no answer left but `pass`)?
pub(crate) fn lapsed(game: &Game, frame: &crate::model::game::Frame) -> bool {
    !frame.decision.passable()
        && frame.decision.effect().is_some()
        && listed(game, frame.actor)
            .commands
            .iter()
            .any(|c| matches!(c.action, Action::Pass { frame: id } if id == frame.id))
}

/// Every card that serves as a Karama (a Karama, or an Advanced-game BG
/// worthless card), held by a seated faction other than `excluded` (host answers).
fn karamas(game: &Game, excluded: Faction) -> Vec<(Faction, CardId)> {
    game.factions
        .iter()
        .filter(|s| s.faction != excluded)
        .flat_map(|s| s.hand.iter().map(move |&card| (s.faction, card)))
        .filter(|&(by, card)| karama::counts_as_karama(game, by, card))
        .collect()
}

/// The Nexus plays of faction `f` when no frame is open: what [`options`]
/// lists then (D-160: without building the rest of [`Options`]).
pub(crate) fn initiatives(game: &Game, f: Faction) -> Vec<Command> {
    if crate::check::exhausted(game) || game.open_frame().is_some() {
        return Vec::new();
    }
    plays(game, f)
}

/// The Nexus plays open to `f` now (only its holder has any).
///
/// Every play's check starts with [`nexus::check_holder`] for its own mode,
/// and a holder has exactly one mode ([`nexus::mode`]): so a faction that
/// fails the holder check of its mode has no play, and only the plays of its
/// mode are tried (D-160: the same list, without ~60 refused checks for every
/// seat at every quiet moment).
fn plays(game: &Game, f: Faction) -> Vec<Command> {
    let mut out = Vec::new();
    if !nexus::holds_card(game, f) {
        return out;
    }
    let mode = nexus::mode(game, f);
    if nexus::check_holder(game, f, mode).is_err() {
        return out;
    }
    match mode {
        NexusMode::Cunning => {
            if nexus::check_cunning(game, f).is_ok() {
                out.push(Command::faction(f, Action::PlayCunning {}));
            }
        }
        NexusMode::Betrayal => {
            for territory in nexus::betrayal_territories(game, f) {
                out.push(Command::faction(f, Action::PlayBetrayal { territory }));
            }
        }
        NexusMode::SecretAlly => {
            for &target in game.seats() {
                if nexus::check_secret_ally(game, f, target).is_ok() {
                    out.push(Command::faction(f, Action::PlaySecretAlly { target }));
                }
            }
        }
    }
    out
}

/// Every position a beneficiary may enter from elsewhere (reserves or
/// another territory), found from the rules directly (one check per
/// position, no trial commands). The HMS is listed only when `with_hms`
/// (its entry depends on where the forces come from).
fn destinations(game: &Game, beneficiary: Faction, with_hms: bool, advisors: bool) -> Vec<Position> {
    let mut out = Vec::new();
    for territory in Territory::ALL {
        if territory == Territory::HiddenMobileStronghold && !with_hms {
            continue;
        }
        for &sector in board::info(territory).sectors {
            if describe::check_destination(game, beneficiary, None, territory, sector, advisors).is_ok() {
                out.push(Position { territory, sector });
            }
        }
    }
    out
}

fn relocate_choice(game: &Game, frame: FrameId, beneficiary: Faction) -> Choice {
    let mut sources: Vec<GroupSource> = Vec::new();
    for st in game
        .faction(beneficiary)
        .map(|s| s.board.as_slice())
        .unwrap_or_default()
    {
        if board::in_storm(st.territory, st.sector, game.storm()) {
            continue;
        }
        for advisors in [false, true] {
            let normal = if advisors { st.advisors } else { st.normal };
            let elite = if advisors { 0 } else { st.elite };
            if normal.saturating_add(elite) == 0 {
                continue;
            }
            let entry = SectorForces {
                sector: st.sector,
                normal,
                elite,
            };
            match sources
                .iter_mut()
                .find(|s| s.territory == st.territory && s.advisors == advisors)
            {
                Some(s) => s.sectors.push(entry),
                None => sources.push(GroupSource {
                    territory: st.territory,
                    sectors: vec![entry],
                    advisors,
                    destinations: Vec::new(),
                }),
            }
        }
    }
    // Entries from elsewhere, computed once per kind of group; then, per
    // source, its own territory's sectors and the HMS where it may go.
    let mut common: [Option<Vec<Position>>; 2] = [None, None];
    for source in &mut sources {
        let slot = usize::from(source.advisors);
        let base = match common.get_mut(slot) {
            Some(Some(list)) => list.clone(),
            Some(cell) => {
                let list = destinations(game, beneficiary, false, source.advisors);
                *cell = Some(list.clone());
                list
            }
            None => Vec::new(),
        };
        let from = source.territory;
        let mut list: Vec<Position> = base.into_iter().filter(|p| p.territory != from).collect();
        for &sector in board::info(from).sectors {
            // Within the territory: only a sector some of the group can move to.
            let moves = source.sectors.iter().any(|x| x.sector != sector);
            let legal = describe::check_destination(game, beneficiary, Some(from), from, sector, source.advisors);
            if moves && legal.is_ok() {
                list.push(Position {
                    territory: from,
                    sector,
                });
            }
        }
        let hms = Territory::HiddenMobileStronghold;
        if from != hms && describe::check_destination(game, beneficiary, Some(from), hms, 0, source.advisors).is_ok() {
            list.push(Position {
                territory: hms,
                sector: 0,
            });
        }
        crate::base::order::order_by_key(&mut list, |p| (p.territory, p.sector));
        source.destinations = list;
    }
    Choice::Relocate { frame, sources }
}
