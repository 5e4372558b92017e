//! D-101, D-186: which facts an open frame depends on, per frame kind. For
//! each kind, a reconcile (`syncTable`) changing a fact the frame depends on
//! is refused with `rule/frame_depends`; one changing only facts it does not
//! depend on is not (accepted, or refused for another reason). One case per
//! alternative of the frame's dependency, so that dropping or widening any
//! one of them fails here. The states are the saved games of
//! `tests/fixtures/format/v1`, one per frame kind.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

mod common;

use common::*;
use ecaz::{Action, Faction, Faction::*, Game, TableFacts, Viewer};

/// A change to the host's table.
#[derive(Debug, Clone, Copy)]
enum Edit {
    /// One more spice.
    Spice(Faction),
    /// The top card of the deck (or of the discard pile when the deck is
    /// empty) into the faction's hand: that hand and that pile change.
    Draw(Faction),
    /// A card of the first faction's hand to the second's: both hands change.
    Give(Faction, Faction),
    /// One more card in the hand limit.
    HandLimit(Faction),
    /// One force fewer in reserve.
    Reserves(Faction),
    /// One force more in the Tanks.
    Tanks(Faction),
    /// The two factions allied (each one's `ally` changes).
    Ally(Faction, Faction),
    /// The faction's `ally` cleared, its partner's left as it was.
    Unally(Faction),
}

fn edit(t: &mut TableFacts, e: Edit) {
    let f = |t: &mut TableFacts, x: Faction| t.factions.get_mut(&x).unwrap().clone();
    match e {
        Edit::Spice(x) => t.factions.get_mut(&x).unwrap().spice += 1,
        Edit::Draw(x) => {
            let card = if t.deck.is_empty() {
                t.discard.remove(0)
            } else {
                t.deck.remove(0)
            };
            t.factions.get_mut(&x).unwrap().hand.push(card);
        }
        Edit::Give(from, to) => {
            let card = t.factions.get_mut(&from).unwrap().hand.pop().expect("a card to give");
            t.factions.get_mut(&to).unwrap().hand.push(card);
        }
        Edit::HandLimit(x) => t.factions.get_mut(&x).unwrap().hand_limit += 1,
        Edit::Reserves(x) => {
            // One force fewer in reserve: a normal one, else an elite one.
            let r = &mut t.factions.get_mut(&x).unwrap().reserves;
            if r.normal > 0 {
                r.normal -= 1;
            } else {
                r.elite = r.elite.checked_sub(1).expect("a force in reserve");
            }
        }
        Edit::Tanks(x) => t.factions.get_mut(&x).unwrap().tanks.normal += 1,
        Edit::Ally(a, b) => {
            assert!(
                f(t, a).ally.is_none() && f(t, b).ally.is_none(),
                "{a:?} and {b:?} unallied"
            );
            t.factions.get_mut(&a).unwrap().ally = Some(b);
            t.factions.get_mut(&b).unwrap().ally = Some(a);
        }
        Edit::Unally(x) => t.factions.get_mut(&x).unwrap().ally = None,
    }
}

/// `(fixture, frame kind, [(edit, does the frame depend on it)])`.
type Case = (&'static str, &'static str, Vec<(Edit, bool)>);

fn cases() -> Vec<Case> {
    use Edit::*;
    vec![
        (
            "game0-step7-placement",
            "placement",
            vec![(Spice(Ecaz), true), (Spice(Moritani), false), (Draw(Ecaz), false)],
        ),
        (
            "game0-step8-placementResponse",
            "placementResponse",
            vec![
                (Spice(Ecaz), true),
                (Draw(Moritani), true),
                (Spice(Moritani), false),
                (HandLimit(Ecaz), false),
            ],
        ),
        (
            "game1-step14-triggerOffer",
            "triggerOffer",
            vec![
                (Spice(Fremen), true),
                (Spice(Ecaz), true),
                (Ally(Harkonnen, Choam), true),
                (Draw(Harkonnen), true),
                (Spice(Harkonnen), false),
                (Give(Choam, Harkonnen), false),
            ],
        ),
        (
            "game1-step77-copyEffect",
            "copyEffect",
            vec![
                (Spice(Choam), true),
                (Spice(Ecaz), true),
                (Ally(Richese, Fremen), true),
                (Draw(Harkonnen), true),
                (Spice(Harkonnen), false),
            ],
        ),
        (
            "game7-step51-ecazBranch",
            "ecazBranch",
            vec![(Spice(Harkonnen), true), (Spice(Ecaz), true), (Draw(Ecaz), true)],
        ),
        (
            "game6-step98-choamDiscard",
            "choamDiscard",
            vec![
                (Spice(Ecaz), true),
                (Draw(Ecaz), true),
                (HandLimit(Ecaz), false),
                (Spice(Guild), false),
            ],
        ),
        (
            "game1-step100-ixianSwap",
            "ixianSwap",
            vec![
                (Give(Choam, Ecaz), true),
                (Draw(Harkonnen), true),
                (Spice(Ecaz), false),
                (HandLimit(Ecaz), false),
                (Give(Choam, Ixians), false),
            ],
        ),
        (
            "game9-step29-richeseBuy",
            "richeseBuy",
            vec![
                (Spice(Ecaz), true),
                (HandLimit(Ecaz), true),
                (Draw(Guild), true),
                (Spice(Guild), false),
                (HandLimit(Guild), false),
            ],
        ),
        (
            "game4-step57-allianceOffer",
            "allianceOffer",
            vec![
                (Ally(BeneGesserit, Harkonnen), true),
                (Ally(Ecaz, Ixians), true),
                (Spice(BeneGesserit), false),
                (Ally(Ixians, Moritani), false),
            ],
        ),
        (
            "game13-step24-dukeLoan",
            "dukeLoan",
            vec![
                (Unally(Ecaz), true),
                (Unally(Moritani), true),
                (Ally(Guild, Ixians), false),
                (Spice(Moritani), false),
                (Spice(Ecaz), false),
            ],
        ),
        (
            "game1-step58-fremenRelocation",
            "fremenRelocation",
            vec![(Ally(Choam, Richese), true), (Spice(Ecaz), false), (Draw(Ecaz), false)],
        ),
        (
            "game4-step107-guildShipment",
            "guildShipment",
            vec![
                (Reserves(BeneGesserit), true),
                (Ally(Ixians, Harkonnen), true),
                (Spice(BeneGesserit), false),
                (Reserves(Ixians), false),
            ],
        ),
        (
            "game2-step27-betrayalResponse",
            "betrayalResponse",
            vec![
                (Reserves(Harkonnen), true),
                (Draw(Guild), true),
                (Spice(Harkonnen), false),
                (Reserves(Guild), false),
            ],
        ),
        (
            // Below it, a trigger offer involving Ecaz and Moritani.
            "game4-step17-tleilaxuRevival",
            "tleilaxuRevival",
            vec![
                (Tanks(Ecaz), true),
                (Tanks(Harkonnen), false),
                (Spice(Harkonnen), false),
            ],
        ),
        (
            "game1-step59-hostReactions",
            "hostReactions",
            vec![(Spice(Ecaz), false), (Draw(Ecaz), false), (Ally(Choam, Richese), false)],
        ),
    ]
}

fn load(name: &str) -> Game {
    ecaz::game_from_json(&fixture_text(&format!("format/v1/{name}.state.json"))).unwrap()
}

#[test]
fn d101_each_frame_kind_is_blocked_by_exactly_the_facts_it_depends_on() {
    let mut wrong = Vec::new();
    for (name, kind, edits) in cases() {
        let g = load(name);
        let top = json_value(&g)["pending"].as_array().unwrap().last().unwrap()["decision"]["kind"].clone();
        assert_eq!(top, kind, "{name}");
        for (e, depends) in edits {
            let mut table = table_from_view(&view(&g, Viewer::Host));
            edit(&mut table, e);
            let before = json(&g);
            let outcome = ecaz::apply(&g, &host(Action::SyncTable { table: Box::new(table) }));
            let blocked = matches!(&outcome, Err(err) if err.code() == "rule/frame_depends");
            if let Err(err) = &outcome {
                if blocked {
                    assert!(err.to_string().contains(kind), "{name} {e:?}: {err}");
                }
                assert_eq!(json(&g), before);
            }
            if blocked != depends {
                wrong.push(format!("{name} {e:?}: expected blocked={depends}, got {outcome:?}"));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
