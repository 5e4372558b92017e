//! Narration: commands and events as English sentences for one viewer
//! (D-140–D-142). `event(game, event, viewer)` and `command(game, command,
//! viewer)` say no more than that viewer may know: an event the viewer may
//! not see has no sentence, and a command's secret parts (a token still in
//! Ecaz's supply under P-SUPPLY-VIS `ownerOnly`, a card passed between two
//! other factions, another faction's Traitor cards or Face Dancers) are left
//! out for viewers who may not see them; so are a frame's details under
//! P-FRAME-VIS `actorOnly` (D-241). Wire ids stay out of the prose:
//! factions, tokens, territories, leaders and phases use their printed names.
//!
//! Every [`Action`], [`EventKind`] and [`Decision`] has its own sentence: the
//! matches are exhaustive, so a new kind fails to compile here until it is
//! given one.

use crate::base::ids::{Ambassador, CardId, Faction, Phase, Sector, Territory, TraitorCard};
use crate::engine::view::{sees_secrets_of, supply_visible};
use crate::model::command::{Action, Cause, Command, Destruction, EcazBranch, Origin, SectorForces, Viewer};
use crate::model::event::{Audience, DukeReason, Event, EventKind, LossCause, PlacementEnd, ReturnCause};
use crate::model::game::{Actor, Decision, DukeCustody, DukeSource, Game, LeaderCustody, Stack, Zone};
use crate::rules::frames;

/// The printed name of a phase ([`Phase::name`]).
pub fn phase(p: Phase) -> &'static str {
    p.name()
}

/// The printed name of a territory.
pub fn territory(t: Territory) -> &'static str {
    crate::base::board::info(t).name
}

/// "Arrakeen (sector 10)"; the HMS and the Polar Sink have no ring sector.
fn place(t: Territory, sector: Sector) -> String {
    if sector == 0 {
        territory(t).to_string()
    } else {
        format!("{} (sector {sector})", territory(t))
    }
}

/// "the Emperor Ambassador".
pub fn token(a: Ambassador) -> String {
    format!("the {} Ambassador", a.faction().name())
}

/// "the X Ambassador", or "an Ambassador" when the token is hidden (P-SUPPLY-VIS `ownerOnly`).
fn maybe_token(a: Option<Ambassador>) -> String {
    a.map_or_else(|| "an Ambassador".to_string(), token)
}

/// "the Emperor effect".
fn effect(a: Ambassador) -> String {
    format!("the {} effect", a.faction().name())
}

/// The printed name of an actor.
pub fn actor(a: Actor) -> &'static str {
    match a {
        Actor::Host => "Host",
        Actor::Faction(f) => f.name(),
    }
}

/// "Karama (card 27)": the card's kind from the game's catalog, title-cased.
pub fn card(catalog: &[String], id: CardId) -> String {
    let Some(kind) = catalog.get(usize::from(id.0)) else {
        return format!("an unknown card (card {id})");
    };
    let words: Vec<String> = kind
        .split('_')
        .map(|w| {
            let mut chars = w.chars();
            match chars.next() {
                Some(first) => first.to_uppercase().chain(chars).collect(),
                None => String::new(),
            }
        })
        .collect();
    format!("{} (card {id})", words.join(" "))
}

/// D-251: a card the host vouches for as a Karama says so.
fn vouched(host_vouched_karama: bool) -> &'static str {
    if host_vouched_karama {
        " (counted as a Karama, as the host vouches)"
    } else {
        ""
    }
}

/// "A", "A and B", "A, B and C".
fn list(items: Vec<String>) -> String {
    match items.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

fn cards(catalog: &[String], ids: &[CardId]) -> String {
    if ids.is_empty() {
        return "no cards".to_string();
    }
    list(ids.iter().map(|c| card(catalog, *c)).collect())
}

/// Traitor cards by name (a leader's, or the Cheap Hero/Heroine card, D-170).
fn traitor_cards(cs: &[TraitorCard]) -> String {
    if cs.is_empty() {
        return "none".to_string();
    }
    list(cs.iter().map(|c| c.name().to_string()).collect())
}

fn tokens(ts: &[Ambassador]) -> String {
    if ts.is_empty() {
        return "none".to_string();
    }
    list(ts.iter().map(|t| t.faction().name().to_string()).collect())
}

fn plural(n: u32, word: &str) -> String {
    if n == 1 {
        word.to_string()
    } else {
        format!("{word}s")
    }
}

/// "1 force", "3 forces".
fn count(n: u32, word: &str) -> String {
    format!("{n} {}", plural(n, word))
}

fn spice(n: u32) -> String {
    format!("{n} spice")
}

/// A faction's forces: "3 forces", "2 forces and 1 Sardaukar", "2 advisors",
/// "no forces".
fn forces(f: Faction, normal: u32, elite: u32, advisors: bool) -> String {
    let mut parts = Vec::new();
    if normal > 0 {
        parts.push(count(normal, if advisors { "advisor" } else { "force" }));
    }
    if elite > 0 {
        parts.push(match f.elite_name() {
            Some(name) => format!("{elite} {name}"),
            None => count(elite, "elite force"),
        });
    }
    if parts.is_empty() {
        return "no forces".to_string();
    }
    list(parts)
}

/// One board stack: "2 forces and 1 advisor in Arrakeen (sector 10)".
fn stack(f: Faction, s: &Stack) -> String {
    let mut what = forces(f, s.normal, s.elite, false);
    if s.advisors > 0 {
        let advisors = count(s.advisors, "advisor");
        what = if s.normal + s.elite == 0 {
            advisors
        } else {
            format!("{what} and {advisors}")
        };
    }
    format!("{what} in {}", place(s.territory, s.sector))
}

fn stacks(f: Faction, ss: &[Stack]) -> String {
    if ss.is_empty() {
        return "no forces".to_string();
    }
    list(ss.iter().map(|s| stack(f, s)).collect())
}

/// "Imperial Basin (sectors 9 and 10)".
fn group_place(t: Territory, sectors: &[SectorForces]) -> String {
    let ring: Vec<String> = sectors
        .iter()
        .filter(|x| x.sector != 0)
        .map(|x| x.sector.to_string())
        .collect();
    match ring.len() {
        0 => territory(t).to_string(),
        1 => format!("{} (sector {})", territory(t), list(ring)),
        _ => format!("{} (sectors {})", territory(t), list(ring)),
    }
}

/// "from reserves", "from Arrakeen (sector 10)", "from Imperial Basin (sectors 9 and 10)".
fn origin(o: &Origin) -> String {
    match o {
        Origin::Reserves => "from reserves".to_string(),
        Origin::Board { territory: t, sector } => format!("from {}", place(*t, *sector)),
        Origin::Group { territory: t, sectors } => format!("from {}", group_place(*t, sectors)),
    }
}

/// The verb of an arrival.
fn arrival_verb(c: Cause) -> &'static str {
    match c {
        Cause::Shipment => "shipped",
        Cause::Movement => "moved",
        Cause::Worm => "rode a worm with",
        Cause::Other => "brought",
        Cause::AmbassadorFremen => "relocated (Fremen Ambassador)",
        Cause::AmbassadorGuild => "shipped (Guild Ambassador)",
    }
}

fn destruction(d: Destruction) -> &'static str {
    match d {
        Destruction::LasgunShield => "a Lasgun/Shield explosion",
        Destruction::AtomicsTerror => "Atomics Terror",
        Destruction::Other => "reported by the host",
    }
}

fn duke_custody(c: DukeCustody) -> String {
    match c {
        DukeCustody::SetAside => "set aside".to_string(),
        DukeCustody::Controlled { by, source } => {
            let how = match source {
                DukeSource::EcazAmbassador => "until he is used in a battle",
                DukeSource::Moritani => "for one battle",
                DukeSource::NexusCunning => "for this turn, by the Nexus Cunning",
                DukeSource::AllianceLoan => "on loan for this turn",
            };
            format!("with {}, {how}", by.name())
        }
        DukeCustody::Tanks => "in the Tanks".to_string(),
        DukeCustody::Captured { by } => format!("captured by {}", by.name()),
        DukeCustody::Ghola { by } => format!("a ghola of {}", by.name()),
    }
}

fn duke_reason(r: DukeReason) -> &'static str {
    match r {
        DukeReason::Ambassador => "taken through the Ecaz Ambassador",
        DukeReason::Loan => "lent to Ecaz's new ally",
        DukeReason::LoanEnded => "the loan ended",
        DukeReason::BattleUse => "used in a battle",
        DukeReason::Killed => "killed",
        DukeReason::Captured => "captured",
        DukeReason::Returned => "returned by his captor",
        DukeReason::Ghola => "revived as a ghola",
        DukeReason::Revived => "revived",
        DukeReason::Moritani => "Moritani's stronghold-battle power",
        DukeReason::TurnEnd => "the turn ended",
        DukeReason::Cunning => "the Nexus Cunning",
    }
}

fn leader_custody(c: LeaderCustody) -> String {
    match c {
        LeaderCustody::Available => "available to its faction".to_string(),
        LeaderCustody::Tanks => "in the Tanks".to_string(),
        LeaderCustody::Captured { by } => format!("captured by {}", by.name()),
        LeaderCustody::Ghola { by } => format!("a ghola of {}", by.name()),
    }
}

/// Where a triggered token went (R-TRG-6).
fn disposal(z: Zone) -> String {
    match z {
        Zone::Supply => "it went back to Ecaz's supply".to_string(),
        Zone::Used => "it is set aside as used".to_string(),
        Zone::Removed => "it is removed from the game".to_string(),
        Zone::Pool => "it went back to the pool".to_string(),
        Zone::Placed { territory: t } => format!("it stays in {}", territory(t)),
    }
}

/// What a decision asks, e.g. "trigger the Emperor Ambassador in Carthag, or decline".
fn decision(d: &Decision) -> String {
    match d {
        Decision::Placement => "place Ambassadors, or finish".to_string(),
        Decision::PlacementResponse {
            token: t,
            territory: at,
            cost,
        } => format!(
            "report whether anyone plays Karama against {} in {} (cost {})",
            token(*t),
            territory(*at),
            spice(*cost)
        ),
        Decision::TriggerOffer {
            token: t,
            territory: at,
            entrant,
            beneficiaries,
            ..
        } => format!(
            "trigger {} in {} against {}'s entry (for {}), or decline",
            token(*t),
            territory(*at),
            entrant.name(),
            list(beneficiaries.iter().map(|b| b.name().to_string()).collect())
        ),
        Decision::CopyEffect { candidates, .. } => format!(
            "pick the effect the Bene Gesserit Ambassador copies ({})",
            tokens(candidates)
        ),
        Decision::ChoamDiscard { .. } => "discard any Treachery cards for 3 spice each".to_string(),
        Decision::IxianSwap { .. } => "discard a Treachery card and draw one".to_string(),
        Decision::RicheseBuy { .. } => "buy the top Treachery card for 3 spice, or not".to_string(),
        Decision::EcazBranch { entrant, .. } => {
            format!("take Duke Vidal or offer {} an alliance", entrant.name())
        }
        Decision::AllianceOffer { .. } => "accept or refuse an alliance with Ecaz".to_string(),
        Decision::DukeLoan { ally, .. } => format!("lend Duke Vidal to {} for this turn, or not", ally.name()),
        Decision::FremenRelocation { .. } => "relocate one group of its forces (Fremen Ambassador)".to_string(),
        Decision::GuildShipment { .. } => "ship up to 4 reserve forces free (Guild Ambassador)".to_string(),
        Decision::TleilaxuRevival { .. } => "revive a leader or up to 4 forces free (Tleilaxu Ambassador)".to_string(),
        Decision::HostReactions {
            arrival,
            offer_after: false,
        } => {
            format!("run its own entry reactions to arrival {arrival}, then say done")
        }
        Decision::HostReactions {
            arrival,
            offer_after: true,
        } => {
            format!("run its own entry reactions to arrival {arrival}, then say done; Ecaz's Ambassador offer follows")
        }
        Decision::BetrayalResponse {
            territory: at, ally, ..
        } => format!(
            "report whether anyone plays Karama against the Betrayal of {} in {}",
            ally.name(),
            territory(*at)
        ),
    }
}

/// One command as a sentence for `viewer`, e.g. "Ecaz announces the Ecaz
/// Ambassador for Arrakeen (frame 1)." `game` is the game the command is
/// applied to (for the card catalog and P-SUPPLY-VIS). The parts `viewer` may
/// not know are left out: the token of a placement under `ownerOnly` (for
/// all but Ecaz and the host), the card of a host-reported gift (for all but
/// giver, receiver and host), the Traitor cards and Face Dancers of a
/// host report (for all but their holder and the host).
pub fn command(game: &Game, c: &Command, viewer: Viewer) -> String {
    let catalog: &[String] = &game.treachery().catalog;
    let who = actor(c.actor);
    // The acting faction, for the names of its elite forces.
    let me = match c.actor {
        Actor::Faction(f) => f,
        Actor::Host => Faction::Ecaz,
    };
    let what = match &c.action {
        // ---- Ecaz's placement ----
        Action::Place {
            frame,
            token: t,
            territory: at,
        } => {
            let what = if supply_visible(game, viewer) {
                token(*t)
            } else {
                maybe_token(None)
            };
            format!("announces {what} for {} (frame {frame})", territory(*at))
        }
        Action::FinishPlacement { frame } => format!("finishes placing Ambassadors (frame {frame})"),

        // ---- triggers and effects ----
        Action::Decline { frame } => format!("declines to trigger the Ambassador (frame {frame})"),
        Action::Trigger { frame, beneficiary } => format!(
            "triggers the Ambassador for the benefit of {} (frame {frame})",
            beneficiary.name()
        ),
        Action::Copy { frame, effect: e } => {
            format!("has the Bene Gesserit Ambassador copy {} (frame {frame})", effect(*e))
        }
        Action::DiscardForSpice { frame, cards: cs } => {
            let n = u32::try_from(cs.len()).unwrap_or(u32::MAX);
            if cs.is_empty() {
                format!("discards no cards (frame {frame})")
            } else {
                format!(
                    "discards {} for {} (frame {frame})",
                    cards(catalog, cs),
                    spice(n.saturating_mul(3))
                )
            }
        }
        Action::SwapCard { frame, card: c } => {
            format!("discards {} to draw a new card (frame {frame})", card(catalog, *c))
        }
        Action::BuyCard { frame, buy } => {
            if *buy {
                format!("buys the top Treachery card for 3 spice (frame {frame})")
            } else {
                format!("declines to buy a card (frame {frame})")
            }
        }
        Action::ChooseBranch { frame, branch } => match branch {
            EcazBranch::Duke => format!("chooses to take Duke Vidal (frame {frame})"),
            EcazBranch::Alliance => format!("chooses to offer an alliance (frame {frame})"),
        },
        Action::AnswerAlliance { frame, accept } => {
            let verb = if *accept { "accepts" } else { "refuses" };
            format!("{verb} the alliance with Ecaz (frame {frame})")
        }
        Action::LendDuke { frame, lend } => {
            if *lend {
                format!("lends Duke Vidal to its new ally for this turn (frame {frame})")
            } else {
                format!("keeps Duke Vidal (frame {frame})")
            }
        }
        Action::Relocate {
            frame,
            from,
            group,
            advisors,
            to,
            sector,
        } => {
            let normal = group.iter().map(|x| x.normal).fold(0, u32::saturating_add);
            let elite = group.iter().map(|x| x.elite).fold(0, u32::saturating_add);
            if group.is_empty() {
                format!("relocates nothing (frame {frame})")
            } else {
                format!(
                    "relocates {} from {} to {} (frame {frame})",
                    forces(me, normal, elite, *advisors),
                    group_place(*from, group),
                    place(*to, *sector)
                )
            }
        }
        Action::Ship {
            frame,
            territory: at,
            sector,
            normal,
            elite,
        } => {
            if normal.saturating_add(*elite) == 0 {
                format!("ships nothing (frame {frame})")
            } else {
                format!(
                    "ships {} free to {} (frame {frame})",
                    forces(me, *normal, *elite, false),
                    place(*at, *sector)
                )
            }
        }
        Action::ReviveLeader { frame, leader } => format!("revives {} free (frame {frame})", leader.name()),
        Action::ReviveDuke { frame } => format!("revives Duke Vidal free (frame {frame})"),
        Action::ReviveForces { frame, normal, elite } => {
            if normal.saturating_add(*elite) == 0 {
                format!("revives no forces (frame {frame})")
            } else {
                format!("revives {} free (frame {frame})", forces(me, *normal, *elite, false))
            }
        }
        Action::Pass { frame } => format!("uses nothing of the effect (frame {frame})"),

        // ---- the Ecaz Nexus card ----
        Action::PlayCunning {} => "plays the Ecaz Nexus card (Cunning) to take Duke Vidal for this turn".to_string(),
        Action::PlayBetrayal { territory: at } => format!(
            "plays the Ecaz Nexus card (Betrayal): Ecaz's ally's forces in {} go back to reserves",
            territory(*at)
        ),
        Action::PlaySecretAlly { target } => format!(
            "plays the Ecaz Nexus card (Secret Ally), asking whether {} holds one of its leaders as a Traitor",
            target.name()
        ),
        Action::AllowBetrayal { frame } => {
            format!("reports that nobody plays Karama: the Betrayal stands (frame {frame})")
        }
        Action::CancelBetrayal {
            frame,
            faction,
            card: c,
            host_vouched_karama,
        } => format!(
            "reports that {} plays {}{} against the Betrayal (frame {frame})",
            faction.name(),
            card(catalog, *c),
            vouched(*host_vouched_karama)
        ),

        // ---- host answers to the placement window ----
        Action::AllowPlacement { frame } => {
            format!("reports that nobody plays Karama: the placement stands (frame {frame})")
        }
        Action::CancelPlacement {
            frame,
            faction,
            card: c,
            host_vouched_karama,
        } => format!(
            "reports that {} plays {}{} against the placement (frame {frame})",
            faction.name(),
            card(catalog, *c),
            vouched(*host_vouched_karama)
        ),

        // ---- host reports: arrivals, turn, storm, Duke ----
        Action::Arrive {
            entrant,
            cause,
            from,
            territory: at,
            sector,
            normal,
            elite,
            advisors,
            parent,
            reactions_first,
        } => {
            let reaction = parent.map_or_else(String::new, |p| format!(", in reaction to arrival {p}"));
            let first = if *reactions_first {
                ", its own reactions first"
            } else {
                ""
            };
            format!(
                "reports that {} {} {} {} to {}{reaction}{first}",
                entrant.name(),
                arrival_verb(*cause),
                forces(*entrant, *normal, *elite, *advisors),
                origin(from),
                place(*at, *sector)
            )
        }
        Action::ReactionsDone { frame } => format!("has run its own reactions to the arrival (frame {frame})"),
        Action::EndPhase { phase: p } => format!("ends the {} phase", phase(*p)),
        Action::MoveStorm { sectors } => format!("moves the storm {}", count(*sectors, "sector")),
        Action::DestroyShieldWall {} => "reports Family Atomics: the Shield Wall is destroyed".to_string(),
        Action::DukeUsedInBattle {} => "reports that Duke Vidal was used in a battle".to_string(),
        Action::DukeKilled {} => "reports that Duke Vidal was killed in a battle".to_string(),
        Action::DukeCaptured { by } => format!("reports that {} captured Duke Vidal", by.name()),
        Action::DukeReturned {} => "reports that the captured Duke Vidal was returned".to_string(),
        Action::DukeGhola { by } => format!("reports that {} made Duke Vidal a ghola", by.name()),
        Action::DukeRevived {} => "reports that Ecaz revived Duke Vidal for 5 spice".to_string(),
        Action::DukeToMoritani {} => "reports that Moritani takes Duke Vidal for one stronghold battle".to_string(),
        Action::MoveHms { territory: t, sector } => format!(
            "moves the Hidden Mobile Stronghold to {} (sector {sector})",
            territory(*t)
        ),
        Action::DestroyTerritory { territory: t, cause } => format!(
            "reports that everything in {} was destroyed ({})",
            territory(*t),
            destruction(*cause)
        ),

        // ---- host reports: table sync ----
        Action::GainSpice { faction, amount } => {
            format!("reports that {} gains {} from the bank", faction.name(), spice(*amount))
        }
        Action::PaySpice { faction, amount, to } => format!(
            "reports that {} pays {} to {}",
            faction.name(),
            spice(*amount),
            to.map_or("the bank", |t| t.name())
        ),
        Action::DrawCard { faction } => format!("reports that {} draws a Treachery card", faction.name()),
        Action::DiscardCard { faction, card: c } => {
            format!("reports that {} discards {}", faction.name(), card(catalog, *c))
        }
        Action::GiveCard { from, to, card: c } => {
            let what = if sees_secrets_of(viewer, *from) || sees_secrets_of(viewer, *to) {
                card(catalog, *c)
            } else {
                "a Treachery card".to_string()
            };
            format!("reports that {} gives {what} to {}", from.name(), to.name())
        }
        Action::SetTraitors { faction, traitors } => {
            if sees_secrets_of(viewer, *faction) {
                format!(
                    "reports the Traitor cards {} holds now: {}",
                    faction.name(),
                    traitor_cards(traitors)
                )
            } else {
                format!(
                    "reports that {} now holds {}",
                    faction.name(),
                    count(len(traitors), "Traitor card")
                )
            }
        }
        Action::SetFaceDancers { face_dancers } => {
            if sees_secrets_of(viewer, Faction::Tleilaxu) {
                format!(
                    "reports the Face Dancers the Tleilaxu hold now: {}",
                    traitor_cards(face_dancers)
                )
            } else {
                format!(
                    "reports that the Tleilaxu now hold {}",
                    count(len(face_dancers), "Face Dancer")
                )
            }
        }
        Action::LoseForces {
            faction,
            territory: at,
            sector,
            normal,
            elite,
            advisors,
        } => format!(
            "reports that {} lost {} to the Tanks",
            faction.name(),
            stack(
                *faction,
                &Stack {
                    territory: *at,
                    sector: *sector,
                    normal: *normal,
                    elite: *elite,
                    advisors: *advisors,
                }
            )
        ),
        Action::ReturnForces {
            faction,
            territory: at,
            sector,
            normal,
            elite,
            advisors,
        } => format!(
            "reports that {} takes {} back to its reserves",
            faction.name(),
            stack(
                *faction,
                &Stack {
                    territory: *at,
                    sector: *sector,
                    normal: *normal,
                    elite: *elite,
                    advisors: *advisors,
                }
            )
        ),
        Action::ReviveFromTanks { faction, normal, elite } => format!(
            "reports that {} revives {} from the Tanks",
            faction.name(),
            forces(*faction, *normal, *elite, false)
        ),
        Action::FlipAdvisors {
            territory: at,
            sector,
            count: n,
            to_fighters,
        } => {
            let (from, to) = if *to_fighters {
                ("advisor", "fighters")
            } else {
                ("fighter", "advisors")
            };
            format!(
                "reports that {} Bene Gesserit {} in {} flip to {to}",
                n,
                plural(*n, from),
                place(*at, *sector)
            )
        }
        Action::SetLeader { leader, custody } => {
            format!("reports that {} is now {}", leader.name(), leader_custody(*custody))
        }
        Action::FormAlliance { a, b } => format!("reports that {} and {} form an alliance", a.name(), b.name()),
        Action::BreakAlliance { faction } => format!("reports that {}'s alliance ends", faction.name()),
        Action::SetHandLimit { faction, limit } => {
            format!("reports that {}'s hand limit is now {limit}", faction.name())
        }
        Action::RevealFaceDancer { leader } => {
            format!("reports that the Tleilaxu reveal their Face Dancer {}", leader.name())
        }
        Action::TakeOutsideCard { faction, card } => {
            format!(
                "reports that {} takes card {card} from outside the deck",
                faction.name()
            )
        }
        Action::SyncTable { table } => format!(
            "reconciles the whole table ({} factions, {} cards in the deck)",
            table.factions.len(),
            table.deck.len()
        ),
        Action::DealNexus { faction } => format!("deals {} a Nexus card", faction.name()),
        Action::DiscardNexus { faction } => format!("reports that {} discards its Nexus card", faction.name()),
    };
    format!("{who} {what}.")
}

/// One event as a sentence for `viewer`, e.g. "Ecaz placed the Emperor
/// Ambassador in Arrakeen and paid 2 spice."; `None` when `viewer` may not see
/// the event ([`Event::visible_to`]), and for the public copy of an event
/// whose full copy `viewer` also receives (under P-SUPPLY-VIS `ownerOnly` the
/// engine sends a copy without the token to everyone and one with it to
/// Ecaz, which the host sees too: Ecaz and the host hear it once; likewise a
/// frame's details under P-FRAME-VIS `actorOnly`, D-241).
/// Events not meant for everyone carry their audience in brackets; the
/// private ones name who sees them in the sentence too. `game` gives the card
/// catalog.
pub fn event(game: &Game, e: &Event, viewer: Viewer) -> Option<String> {
    if !e.visible_to(viewer) || hears_full_copy(game, e, viewer) {
        return None;
    }
    let catalog: &[String] = &game.treachery().catalog;
    let viewers = match &e.audience {
        Audience::Only { factions } if !factions.is_empty() => {
            Some(list(factions.iter().map(|f| f.name().to_string()).collect()))
        }
        _ => None,
    };
    let text = event_kind(&e.event, catalog, viewers.as_deref());
    Some(match &e.audience {
        Audience::Public => text,
        Audience::Only { factions } => {
            let names: Vec<&str> = factions.iter().map(|f| f.name()).collect();
            format!("{text} [seen only by {}]", names.join(", "))
        }
        Audience::Host => format!("{text} [host only]"),
    })
}

/// Is this the public copy of an event with a part left out (a supply token
/// under P-SUPPLY-VIS, a frame's details under D-241) whose full copy
/// `viewer` also receives right after it?
fn hears_full_copy(game: &Game, e: &Event, viewer: Viewer) -> bool {
    e.audience == Audience::Public
        && match &e.event {
            EventKind::PlacementAnnounced { token: None, .. } | EventKind::PlacementCancelled { token: None, .. } => {
                supply_visible(game, viewer)
            }
            EventKind::DecisionOpened {
                actor,
                decision_kind,
                decision: None,
                ..
            } => frames::decision_audience(&game.policies, *actor, decision_kind).includes(viewer),
            _ => false,
        }
}

/// One event kind as a sentence; `viewers` names the audience of a private
/// event ("Atreides"), when it has one.
fn event_kind(k: &EventKind, catalog: &[String], viewers: Option<&str>) -> String {
    let ecaz = Faction::Ecaz.name();
    match k {
        EventKind::PhaseStarted { turn, phase: p } => format!("Turn {turn}: the {} phase began.", phase(*p)),
        EventKind::PlacementOpened { frame, next_cost } => format!(
            "{ecaz} may place Ambassadors (frame {frame}); the next one costs {}.",
            spice(*next_cost)
        ),
        EventKind::PlacementAnnounced {
            frame,
            token: t,
            territory: at,
            cost,
        } => format!(
            "{ecaz} announced {} for {} at a cost of {}; Karama may answer (frame {frame}).",
            maybe_token(*t),
            territory(*at),
            spice(*cost)
        ),
        EventKind::AmbassadorPlaced {
            token: t,
            territory: at,
            cost,
        } => format!(
            "{ecaz} placed {} in {} and paid {}.",
            token(*t),
            territory(*at),
            spice(*cost)
        ),
        EventKind::CardDiscarded { faction, card: c } => {
            format!("{} discarded {}.", faction.name(), card(catalog, *c))
        }
        EventKind::PlacementCancelled {
            token: t,
            territory: at,
            by,
        } => format!(
            "{} cancelled the placement of {} in {} with Karama; {ecaz} paid nothing and keeps the token.",
            by.name(),
            maybe_token(*t),
            territory(*at)
        ),
        EventKind::PlacementClosed { placed, reason } => {
            let why = match reason {
                PlacementEnd::Finished => "Ecaz finished",
                PlacementEnd::Prevented => "prevented by Karama",
            };
            format!(
                "{ecaz}'s placement is over for this turn ({why}): {placed} {} placed.",
                plural(u32::from(*placed), "token")
            )
        }
        EventKind::StormMoved { from, to, sectors } => format!(
            "The storm moved {}, from sector {from} to sector {to}.",
            count(*sectors, "sector")
        ),
        EventKind::ShieldWallDestroyed => {
            "The Shield Wall fell: Arrakeen, Carthag and Imperial Basin are exposed to the storm.".to_string()
        }
        EventKind::HmsMoved { territory: t, sector } => format!(
            "The Hidden Mobile Stronghold now points at {} (sector {sector}).",
            territory(*t)
        ),
        EventKind::AmbassadorReturned {
            token: t,
            territory: at,
            cause,
        } => {
            let by = match cause {
                ReturnCause::Storm => "The storm destroyed",
                ReturnCause::LasgunShield => "A Lasgun/Shield explosion destroyed",
                ReturnCause::AtomicsTerror => "Atomics Terror destroyed",
                ReturnCause::Other => "The host reports the destruction of",
            };
            format!(
                "{by} {} in {}; it returned to {ecaz}'s supply.",
                token(*t),
                territory(*at)
            )
        }
        EventKind::Arrived {
            arrival,
            entrant,
            cause,
            from,
            territory: at,
            sector,
            normal,
            elite,
            advisors,
            entry,
            parent,
        } => {
            let kind = if *entry { "an entry" } else { "not an entry" };
            let reaction = parent.map_or_else(String::new, |p| format!(", a reaction to arrival {p}"));
            format!(
                "Arrival {arrival}: {} {} {} {} to {} ({kind}{reaction}).",
                entrant.name(),
                arrival_verb(*cause),
                forces(*entrant, *normal, *elite, *advisors),
                origin(from),
                place(*at, *sector)
            )
        }
        EventKind::DecisionOpened {
            frame,
            actor: who,
            decision_kind,
            decision: d,
        } => match d {
            Some(d) => format!("{} must now {} (frame {frame}).", actor(*who), decision(d)),
            None => format!(
                "{} must now decide ({decision_kind}; the details are hidden) (frame {frame}).",
                actor(*who)
            ),
        },
        EventKind::TriggerDeclined {
            arrival,
            token: t,
            territory: at,
        } => format!(
            "{ecaz} did not trigger {} in {} (arrival {arrival}); the token stays.",
            token(*t),
            territory(*at)
        ),
        EventKind::TriggerOfferWithdrawn {
            frame,
            arrival,
            token: t,
            territory: at,
        } => format!(
            "The offer to trigger {} in {} (arrival {arrival}, frame {frame}) is withdrawn: the token was triggered by a nested reaction.",
            token(*t),
            territory(*at)
        ),
        EventKind::AmbassadorTriggered {
            arrival,
            token: t,
            territory: at,
            entrant,
            beneficiary,
            disposal: z,
        } => format!(
            "{ecaz} triggered {} in {} against {}'s entry (arrival {arrival}) for the benefit of {}; {}.",
            token(*t),
            territory(*at),
            entrant.name(),
            beneficiary.name(),
            disposal(*z)
        ),
        EventKind::EffectCopied { arrival, effect: e } => format!(
            "The Bene Gesserit Ambassador copies {} (arrival {arrival}).",
            effect(*e)
        ),
        EventKind::EffectResolved {
            arrival,
            effect: e,
            beneficiary,
        } => format!(
            "{} for {} is done (arrival {arrival}).",
            capitalized(&effect(*e)),
            beneficiary.name()
        ),
        EventKind::SpiceGained { faction, amount } => {
            format!("{} gained {} from the bank.", faction.name(), spice(*amount))
        }
        EventKind::SpicePaid { faction, amount, to } => format!(
            "{} paid {} to {}.",
            faction.name(),
            spice(*amount),
            to.map_or("the bank", |t| t.name())
        ),
        EventKind::HandInspected { by, of } => format!("{} looked at {}'s Treachery hand.", by.name(), of.name()),
        EventKind::HandSeen { of, cards: cs } => format!(
            "{} sees {}'s hand: {}.",
            viewers.unwrap_or("The inspector"),
            of.name(),
            cards(catalog, cs)
        ),
        EventKind::TraitorInspected { by, of } => format!(
            "{} looked at one of {}'s Traitor cards, drawn at random.",
            by.name(),
            of.name()
        ),
        EventKind::TraitorSeen {
            of,
            leader,
            face_dancer,
        } => {
            let kind = if *face_dancer { "Face Dancer" } else { "Traitor card" };
            format!(
                "{} sees {}'s {kind}: {}.",
                viewers.unwrap_or("The inspector"),
                of.name(),
                leader.name()
            )
        }
        EventKind::CardDrawn { faction } => format!("{} drew a Treachery card.", faction.name()),
        EventKind::CardReceived { faction, card: c } => match viewers {
            Some(v) => format!("{v} sees the card {} drew: {}.", faction.name(), card(catalog, *c)),
            None => format!("{} drew {}.", faction.name(), card(catalog, *c)),
        },
        EventKind::DeckReshuffled { cards: n } => format!(
            "The Treachery discard pile was shuffled into a new deck of {}.",
            count(*n, "card")
        ),
        EventKind::DeckOrder { deck } => {
            let top: Vec<String> = deck.iter().take(3).map(|c| card(catalog, *c)).collect();
            let top = if top.is_empty() { "empty".to_string() } else { list(top) };
            format!(
                "The new deck order, top first: {top} ({} in all).",
                count(len(deck), "card")
            )
        }
        EventKind::NexusReshuffled { cards: n } => format!(
            "The Nexus discard pile was shuffled into a new Nexus deck of {}.",
            count(*n, "card")
        ),
        EventKind::NexusDeckOrder { deck } => format!(
            "The new Nexus deck order, top first: {} ({} in all).",
            list(deck.iter().take(3).map(|c| c.name().to_string()).collect()),
            count(len(deck), "card")
        ),
        EventKind::CohortRecycled { returned, cycle } => format!(
            "Every Ambassador of the cohort has been used: {} went back to the pool (recycle {cycle}).",
            tokens(returned)
        ),
        EventKind::CohortDrawn { tokens: ts } => {
            let who = viewers.map_or_else(String::new, |v| format!(", shown only to {v}"));
            format!("{ecaz} drew a new cohort{who}: {}.", tokens(ts))
        }
        EventKind::DukeMoved { custody, reason } => format!(
            "Duke Vidal is now {} ({}).",
            duke_custody(*custody),
            duke_reason(*reason)
        ),
        EventKind::AllianceFormed { a, b: ally } => {
            format!("{} and {} formed an alliance.", a.name(), ally.name())
        }
        EventKind::AllianceRefused { entrant } => {
            format!("{} refused the alliance with {ecaz}.", entrant.name())
        }
        EventKind::NexusDiscarded { faction, card: c } => {
            format!("{} discarded its Nexus card ({}).", faction.name(), c.name())
        }
        EventKind::ForcesRevived { faction, normal, elite } => format!(
            "{} revived {} free (Tleilaxu Ambassador).",
            faction.name(),
            forces(*faction, *normal, *elite, false)
        ),
        EventKind::LeaderRevived { faction, leader } => {
            format!("{} revived {} free.", faction.name(), leader.name())
        }
        EventKind::NexusDealt { faction } => format!("{} was dealt a Nexus card.", faction.name()),
        EventKind::NexusReceived { faction, card: c } => format!(
            "{} sees the Nexus card {} was dealt: {}.",
            viewers.unwrap_or(faction.name()),
            faction.name(),
            c.name()
        ),
        EventKind::NexusPlayed { faction, mode } => {
            format!("{} played the Ecaz Nexus card ({}).", faction.name(), mode.name())
        }
        EventKind::BetrayalAnnounced {
            frame,
            territory: at,
            ally,
        } => format!(
            "Betrayal: {}'s forces in {} are to go back to reserves; Karama may answer (frame {frame}).",
            ally.name(),
            territory(*at)
        ),
        EventKind::BetrayalCancelled { by } => {
            format!(
                "{} cancelled the Betrayal with Karama; the card stays spent.",
                by.name()
            )
        }
        EventKind::ForcesReturned { faction, stacks: ss } => {
            format!("{}'s {} went back to reserves.", faction.name(), stacks(*faction, ss))
        }
        EventKind::SecretAllyAsked { holder, target } => format!(
            "{} asked whether {} holds one of its leaders as a Traitor.",
            holder.name(),
            target.name()
        ),
        EventKind::SecretAllyAnswered { holder, target, answer } => {
            let yes = if *answer { "yes" } else { "no" };
            format!(
                "The answer to {}'s Secret Ally question about {}: {yes}.",
                holder.name(),
                target.name()
            )
        }
        EventKind::ForcesLost {
            faction,
            stacks: ss,
            cause,
        } => {
            let why = match cause {
                LossCause::Reported => "",
                LossCause::Storm => " in the storm",
            };
            format!(
                "{} lost {}{why}; they went to the Tanks.",
                faction.name(),
                stacks(*faction, ss)
            )
        }
        EventKind::ForcesRevivedFromTanks { faction, normal, elite } => format!(
            "{} revived {} from the Tanks.",
            faction.name(),
            forces(*faction, *normal, *elite, false)
        ),
        EventKind::AdvisorsFlipped {
            territory: at,
            sector,
            count: n,
            to_fighters,
        } => {
            let (from, to) = if *to_fighters {
                ("advisor", "fighters")
            } else {
                ("fighter", "advisors")
            };
            format!(
                "{n} Bene Gesserit {} in {} flipped to {to}.",
                plural(*n, from),
                place(*at, *sector)
            )
        }
        EventKind::CardGiven { from, to } => format!("{} gave a Treachery card to {}.", from.name(), to.name()),
        EventKind::CardPassed { from, to, card: c } => format!(
            "{} see the card {} gave {}: {}.",
            viewers.unwrap_or("Giver and receiver"),
            from.name(),
            to.name(),
            card(catalog, *c)
        ),
        EventKind::TraitorsChanged {
            faction,
            traitors,
            face_dancers,
        } => {
            if *face_dancers > 0 || *faction == Faction::Tleilaxu {
                format!("{} now holds {}.", faction.name(), count(*face_dancers, "Face Dancer"))
            } else {
                format!("{} now holds {}.", faction.name(), count(*traitors, "Traitor card"))
            }
        }
        EventKind::TraitorsHeld {
            faction,
            traitors,
            face_dancers,
        } => {
            let mut held = format!("Traitor cards {}", traitor_cards(traitors));
            if !face_dancers.is_empty() {
                held = format!("{held}; Face Dancers {}", traitor_cards(face_dancers));
            }
            format!(
                "{} sees what {} holds: {held}.",
                viewers.unwrap_or(faction.name()),
                faction.name()
            )
        }
        EventKind::LeaderMoved { leader, custody } => {
            format!("{} is now {}.", leader.name(), leader_custody(*custody))
        }
        EventKind::AllianceBroken { a, b } => format!("The alliance of {} and {} ended.", a.name(), b.name()),
        EventKind::HandLimitSet { faction, limit } => {
            format!("{}'s hand limit is now {limit}.", faction.name())
        }
        EventKind::TableSynced { differences } if differences.is_empty() => {
            "The host's table and the engine's agreed: nothing changed.".to_string()
        }
        EventKind::TableSynced { differences } => {
            let paths: Vec<&str> = differences.iter().map(|d| d.path.as_str()).collect();
            format!("The host reconciled the table; these differed: {}.", paths.join(", "))
        }
        EventKind::FaceDancerRevealed { leader } => {
            format!("The Tleilaxu reveal {} as a Face Dancer.", leader.name())
        }
        EventKind::OutsideCardTaken { faction, card } => {
            format!("{} takes card {card} from outside the deck.", faction.name())
        }
        EventKind::Resume { arrival } => {
            format!("Every reaction to arrival {arrival} has settled: the entrant's action resumes.")
        }
    }
}

fn len<T>(v: &[T]) -> u32 {
    u32::try_from(v.len()).unwrap_or(u32::MAX)
}

fn capitalized(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]

    use super::*;
    use crate::base::ids::{ArrivalId, FrameId};
    use crate::engine::setup::Setup;

    /// A six-seat game with the base Treachery catalog (Crysknife is card 0,
    /// Lasgun card 8, Karama cards 27 and 28).
    fn game() -> Game {
        let seats = [
            Faction::Ecaz,
            Faction::Atreides,
            Faction::Harkonnen,
            Faction::Emperor,
            Faction::Tleilaxu,
            Faction::Fremen,
        ];
        let mut s = Setup::for_seats(&seats, 1);
        // The Fremen choose their starting positions (D-56): all in reserves here.
        s.factions.entry(Faction::Fremen).or_default().board = Some(Vec::new());
        s.build().unwrap()
    }

    /// The host's sentence for an event (the host sees every event).
    fn told(e: &Event) -> String {
        event(&game(), e, Viewer::Host).unwrap()
    }

    #[test]
    fn card_names_are_title_cased_from_the_catalog() {
        let catalog = vec!["karama".to_string(), "family_atomics".to_string()];
        assert_eq!(card(&catalog, CardId(0)), "Karama (card 0)");
        assert_eq!(card(&catalog, CardId(1)), "Family Atomics (card 1)");
        assert_eq!(card(&catalog, CardId(9)), "an unknown card (card 9)");
    }

    #[test]
    fn placement_reads_as_english() {
        let e = Event::public(EventKind::AmbassadorPlaced {
            token: Ambassador::Emperor,
            territory: Territory::Arrakeen,
            cost: 2,
        });
        assert_eq!(
            told(&e),
            "Ecaz placed the Emperor Ambassador in Arrakeen and paid 2 spice."
        );
    }

    #[test]
    fn private_events_name_their_audience() {
        let e = Event {
            audience: Audience::Only {
                factions: vec![Faction::Atreides],
            },
            event: EventKind::ShieldWallDestroyed,
        };
        assert!(told(&e).ends_with("[seen only by Atreides]"));
    }

    #[test]
    fn private_sights_say_who_sees_them() {
        let only = |f: Faction, event: EventKind| Event::only(vec![f], event);
        let hand = only(
            Faction::Atreides,
            EventKind::HandSeen {
                of: Faction::Harkonnen,
                cards: vec![CardId(27), CardId(8)],
            },
        );
        assert_eq!(
            told(&hand),
            "Atreides sees Harkonnen's hand: Karama (card 27) and Lasgun (card 8). [seen only by Atreides]"
        );
        let traitor = only(
            Faction::Ecaz,
            EventKind::TraitorSeen {
                of: Faction::Tleilaxu,
                leader: TraitorCard::Leader(crate::base::ids::Leader::DuncanIdaho),
                face_dancer: true,
            },
        );
        assert_eq!(
            told(&traitor),
            "Ecaz sees Tleilaxu's Face Dancer: Duncan Idaho. [seen only by Ecaz]"
        );
        let drawn = only(
            Faction::Emperor,
            EventKind::CardReceived {
                faction: Faction::Emperor,
                card: CardId(8),
            },
        );
        assert_eq!(
            told(&drawn),
            "Emperor sees the card Emperor drew: Lasgun (card 8). [seen only by Emperor]"
        );
        let cohort = only(
            Faction::Ecaz,
            EventKind::CohortDrawn {
                tokens: vec![Ambassador::Fremen, Ambassador::Guild, Ambassador::Richese],
            },
        );
        assert_eq!(
            told(&cohort),
            "Ecaz drew a new cohort, shown only to Ecaz: Fremen, Spacing Guild and Richese. [seen only by Ecaz]"
        );
    }

    #[test]
    fn entries_triggers_and_resumes_read_as_english() {
        let arrived = Event::public(EventKind::Arrived {
            arrival: ArrivalId(3),
            entrant: Faction::Emperor,
            cause: Cause::Shipment,
            from: Origin::Reserves,
            territory: Territory::Carthag,
            sector: 11,
            normal: 2,
            elite: 1,
            advisors: false,
            entry: true,
            parent: None,
        });
        assert_eq!(
            told(&arrived),
            "Arrival 3: Emperor shipped 2 forces and 1 Sardaukar from reserves to Carthag (sector 11) (an entry)."
        );
        let triggered = Event::public(EventKind::AmbassadorTriggered {
            arrival: ArrivalId(3),
            token: Ambassador::Atreides,
            territory: Territory::Carthag,
            entrant: Faction::Emperor,
            beneficiary: Faction::Ecaz,
            disposal: Zone::Used,
        });
        assert_eq!(
            told(&triggered),
            "Ecaz triggered the Atreides Ambassador in Carthag against Emperor's entry (arrival 3) for the benefit \
             of Ecaz; it is set aside as used."
        );
        let resume = Event::public(EventKind::Resume { arrival: ArrivalId(3) });
        assert_eq!(
            told(&resume),
            "Every reaction to arrival 3 has settled: the entrant's action resumes."
        );
        let offer = Event::public(EventKind::DecisionOpened {
            frame: FrameId(5),
            actor: Actor::Faction(Faction::Ecaz),
            decision_kind: "triggerOffer".to_string(),
            decision: Some(Decision::TriggerOffer {
                arrival: ArrivalId(3),
                token: Ambassador::Atreides,
                territory: Territory::Carthag,
                entrant: Faction::Emperor,
                beneficiaries: vec![Faction::Ecaz],
            }),
        });
        assert_eq!(
            told(&offer),
            "Ecaz must now trigger the Atreides Ambassador in Carthag against Emperor's entry (for Ecaz), or \
             decline (frame 5)."
        );
    }

    #[test]
    fn commands_of_the_new_kinds_read_as_english() {
        let g = game();
        let said = |c: &Command| command(&g, c, Viewer::Host);
        let ship = Command::faction(
            Faction::Fremen,
            Action::Ship {
                frame: FrameId(4),
                territory: Territory::HiddenMobileStronghold,
                sector: 0,
                normal: 2,
                elite: 1,
            },
        );
        assert_eq!(
            said(&ship),
            "Fremen ships 2 forces and 1 Fedaykin free to Hidden Mobile Stronghold (frame 4)."
        );
        let arrive = Command::host(Action::Arrive {
            entrant: Faction::BeneGesserit,
            cause: Cause::Movement,
            from: Origin::Group {
                territory: Territory::ImperialBasin,
                sectors: vec![
                    SectorForces {
                        sector: 9,
                        normal: 1,
                        elite: 0,
                    },
                    SectorForces {
                        sector: 10,
                        normal: 1,
                        elite: 0,
                    },
                ],
            },
            territory: Territory::Arrakeen,
            sector: 10,
            normal: 2,
            elite: 0,
            advisors: true,
            parent: Some(ArrivalId(1)),
            reactions_first: false,
        });
        assert_eq!(
            said(&arrive),
            "Host reports that Bene Gesserit moved 2 advisors from Imperial Basin (sectors 9 and 10) to Arrakeen \
             (sector 10), in reaction to arrival 1."
        );
        let pay = Command::host(Action::PaySpice {
            faction: Faction::Harkonnen,
            amount: 3,
            to: Some(Faction::Emperor),
        });
        assert_eq!(said(&pay), "Host reports that Harkonnen pays 3 spice to Emperor.");
        let cancel = Command::host(Action::CancelBetrayal {
            frame: FrameId(2),
            faction: Faction::Atreides,
            card: CardId(27),
            host_vouched_karama: false,
        });
        assert_eq!(
            said(&cancel),
            "Host reports that Atreides plays Karama (card 27) against the Betrayal (frame 2)."
        );
    }

    #[test]
    fn lists_join_with_and() {
        assert_eq!(list(vec![]), "");
        assert_eq!(list(vec!["a".into()]), "a");
        assert_eq!(list(vec!["a".into(), "b".into()]), "a and b");
        assert_eq!(list(vec!["a".into(), "b".into(), "c".into()]), "a, b and c");
    }
}
