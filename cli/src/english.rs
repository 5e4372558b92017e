//! Commands and events as readable English lines, for the demo (and any
//! human-facing output). Wire ids stay out of the prose: factions, tokens,
//! territories and phases use their printed names.

use ecaz::{Action, Actor, Ambassador, Audience, Command, Destruction, Event, EventKind, Faction, Phase, Territory};
use ecaz::{CardId, PlacementEnd, ReturnCause};

/// The printed name of a phase.
pub fn phase(p: Phase) -> &'static str {
    match p {
        Phase::Storm => "Storm",
        Phase::SpiceBlow => "Spice Blow",
        Phase::ChoamCharity => "CHOAM Charity",
        Phase::Bidding => "Bidding",
        Phase::Revival => "Revival",
        Phase::ShipmentMovement => "Shipment and Movement",
        Phase::Battle => "Battle",
        Phase::Collection => "Spice Collection",
        Phase::Mentat => "Mentat Pause",
    }
}

/// The printed name of a territory.
pub fn territory(t: Territory) -> &'static str {
    ecaz::territory_info(t).name
}

/// "the Emperor Ambassador".
/// "the X Ambassador", or "an Ambassador" when the token is hidden (P-SUPPLY-VIS `ownerOnly`).
fn maybe_token(a: Option<Ambassador>) -> String {
    a.map_or_else(|| "an Ambassador".to_string(), token)
}

pub fn token(a: Ambassador) -> String {
    format!("the {} Ambassador", a.faction().name())
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

/// The wire `kind` of an encoded tagged value: the fallback wording
/// for variants this formatter does not know yet (the core grows while the
/// CLI is written; an unknown kind must not stop the tool).
fn wire_kind(value: serde_json::Result<serde_json::Value>) -> String {
    value
        .ok()
        .and_then(|v| v.get("kind").and_then(|k| k.as_str()).map(str::to_string))
        .unwrap_or_else(|| "an unknown action".to_string())
}

/// One command as a sentence, e.g. "Ecaz announces the Ecaz Ambassador for Arrakeen (frame 1)."
pub fn command(c: &Command, catalog: &[String]) -> String {
    let who = actor(c.actor);
    let what = match &c.action {
        Action::Place {
            frame,
            token: t,
            territory: place,
        } => format!("announces {} for {} (frame {frame})", token(*t), territory(*place)),
        Action::FinishPlacement { frame } => format!("finishes placing Ambassadors (frame {frame})"),
        Action::AllowPlacement { frame } => {
            format!("reports that nobody plays Karama: the placement stands (frame {frame})")
        }
        Action::CancelPlacement {
            frame,
            faction,
            card: c,
        } => format!(
            "reports that {} plays {} against the placement (frame {frame})",
            faction.name(),
            card(catalog, *c)
        ),
        Action::EndPhase { phase: p } => format!("ends the {} phase", phase(*p)),
        Action::MoveStorm { sectors } => format!("moves the storm {sectors} {}", plural(*sectors, "sector")),
        Action::DestroyShieldWall {} => "reports Family Atomics: the Shield Wall is destroyed".to_string(),
        Action::MoveHms { territory: t, sector } => format!(
            "moves the Hidden Mobile Stronghold to {} (sector {sector})",
            territory(*t)
        ),
        Action::DestroyTerritory { territory: t, cause } => format!(
            "reports that everything in {} was destroyed ({})",
            territory(*t),
            destruction(*cause)
        ),
        #[allow(unreachable_patterns)]
        other => format!("sends `{}`", wire_kind(serde_json::to_value(other))),
    };
    format!("{who} {what}.")
}

fn destruction(d: Destruction) -> &'static str {
    match d {
        Destruction::LasgunShield => "a Lasgun/Shield explosion",
        Destruction::AtomicsTerror => "Atomics Terror",
        Destruction::Other => "reported by the host",
    }
}

fn plural(n: u32, word: &str) -> String {
    if n == 1 {
        word.to_string()
    } else {
        format!("{word}s")
    }
}

fn spice(n: u32) -> String {
    format!("{n} spice")
}

/// One event as a sentence, e.g. "Ecaz placed the Emperor Ambassador in Arrakeen and paid 2 spice."
/// Events not meant for everyone carry their audience in brackets.
pub fn event(e: &Event, catalog: &[String]) -> String {
    let text = event_kind(&e.event, catalog);
    match &e.audience {
        Audience::Public => text,
        Audience::Only { factions } => {
            let names: Vec<&str> = factions.iter().map(|f| f.name()).collect();
            format!("{text} [seen only by {}]", names.join(", "))
        }
        Audience::Host => format!("{text} [host only]"),
    }
}

fn event_kind(k: &EventKind, catalog: &[String]) -> String {
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
            territory: place,
            cost,
        } => format!(
            "{ecaz} announced {} for {} at a cost of {}; Karama may answer (frame {frame}).",
            maybe_token(*t),
            territory(*place),
            spice(*cost)
        ),
        EventKind::AmbassadorPlaced {
            token: t,
            territory: place,
            cost,
        } => format!(
            "{ecaz} placed {} in {} and paid {}.",
            token(*t),
            territory(*place),
            spice(*cost)
        ),
        EventKind::CardDiscarded { faction, card: c } => {
            format!("{} discarded {}.", faction.name(), card(catalog, *c))
        }
        EventKind::PlacementCancelled {
            token: t,
            territory: place,
            by,
        } => format!(
            "{} cancelled the placement of {} in {} with Karama; {ecaz} paid nothing and keeps the token.",
            by.name(),
            maybe_token(*t),
            territory(*place)
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
            "The storm moved {sectors} {}, from sector {from} to sector {to}.",
            plural(*sectors, "sector")
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
            territory: place,
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
                territory(*place)
            )
        }
        #[allow(unreachable_patterns)]
        other => format!("Event `{}`.", wire_kind(serde_json::to_value(other))),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]

    use super::*;

    #[test]
    fn card_names_are_title_cased() {
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
            event(&e, &[]),
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
        assert!(event(&e, &[]).ends_with("[seen only by Atreides]"));
    }
}
