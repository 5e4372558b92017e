//! Legal commands (ARCHITECTURE §3): `options(&Game, Actor)`.
//!
//! The list is computed from the rules directly (never by trying commands and
//! catching errors), and everything it lists is accepted by [`crate::apply`]
//! — a property test checks that. Pure: no RNG, no change.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::board::KARAMA;
use crate::command::{Action, Command, EcazBranch};
use crate::game::{Actor, Decision, Game};
use crate::ids::{Faction, FrameId};
use crate::rules::{effects, placement};

/// What an actor may do now.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Options {
    /// The open frame this actor answers, if any.
    pub frame: Option<FrameId>,
    /// Every legal command, fully formed.
    pub commands: Vec<Command>,
}

/// The legal commands of `actor` in `game`.
///
/// For a faction: the answers to the open frame when it is theirs. For the
/// host: the answers to an open host frame; with no frame open, the one
/// turn-structure report `endPhase` (other host reports are facts of the
/// host's game and are not enumerated).
pub fn options(game: &Game, actor: Actor) -> Options {
    let open = game.open_frame();
    let mut commands = Vec::new();
    let frame = match open {
        Some(f) if f.actor == actor => {
            let id = f.id;
            let mut add = |action| commands.push(Command { actor, action });
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
                Decision::TriggerOffer { beneficiaries, .. } => {
                    add(Action::Decline { frame: id });
                    for &beneficiary in beneficiaries {
                        add(Action::Trigger { frame: id, beneficiary });
                    }
                }
                Decision::CopyEffect { candidates, .. } => {
                    for &effect in candidates {
                        add(Action::Copy { frame: id, effect });
                    }
                }
                Decision::ChoamDiscard { beneficiary, .. } => {
                    let hand = game.faction(*beneficiary).map(|s| s.hand.clone()).unwrap_or_default();
                    // Every subset, in hand order (hands hold at most a handful of cards).
                    let n = hand.len().min(12);
                    for mask in 0u32..(1 << n) {
                        let cards = hand
                            .iter()
                            .enumerate()
                            .filter(|(i, _)| mask & (1 << i) != 0)
                            .map(|(_, c)| *c)
                            .collect();
                        add(Action::DiscardForSpice { frame: id, cards });
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
                Decision::PlacementResponse { .. } => {
                    add(Action::AllowPlacement { frame: id });
                    for s in &game.factions {
                        if s.faction == Faction::Ecaz {
                            continue;
                        }
                        for &card in &s.hand {
                            if game.treachery.kind(card) == Some(KARAMA) {
                                add(Action::CancelPlacement {
                                    frame: id,
                                    faction: s.faction,
                                    card,
                                });
                            }
                        }
                    }
                }
            }
            Some(id)
        }
        Some(_) => None,
        None => {
            if actor == Actor::Host {
                commands.push(Command::host(Action::EndPhase { phase: game.phase }));
            }
            None
        }
    };
    Options { frame, commands }
}
