//! Host table sync (D-40–D-47, ARCHITECTURE §4 "Table sync"): every host table
//! report — its accepted path (the exact state change and its events) and
//! every rejection (code + byte-identical state through `assert_rejected`);
//! hidden information in events and views; the engine's storm losses
//! (`options.stormLosses`); and the import of a game in progress through a
//! `Setup` with every field explicit.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

mod common;

use std::collections::BTreeMap;

use common::*;
use ecaz::TraitorCard;
use ecaz::{
    Action, Actor, Ambassador, AmbassadorsSetup, Audience, CardId, Cause, Command, Decision, DukeCustody, DukeReason,
    DukeSource, Event, EventKind, Faction, FactionSetup, Forces, Game, Leader, LeaderCustody, LeaderState, LossCause,
    Origin, Phase, PlacementTurn, Setup, Stack, Territory, View, Viewer, Zone, MAX_SPICE,
};
use serde_json::{json, Value};

use Faction::{Atreides, BeneGesserit, Ecaz, Emperor, Fremen, Harkonnen, Tleilaxu};

// ---------------------------------------------------------------------------
// The table used by most tests
// ---------------------------------------------------------------------------

const SEATS: [Faction; 6] = [Ecaz, Atreides, Harkonnen, Fremen, BeneGesserit, Tleilaxu];

fn stack(territory: Territory, sector: u8, normal: u32, elite: u32, advisors: u32) -> Stack {
    Stack {
        territory,
        sector,
        normal,
        elite,
        advisors,
    }
}

fn fs(s: &mut Setup, f: Faction) -> &mut FactionSetup {
    s.factions.entry(f).or_default()
}

/// Six factions in the Battle phase, with cards, traitors, Face Dancers,
/// forces on the board and in the Tanks, and leaders in every custody.
fn table_setup() -> Setup {
    let mut s = setup(&SEATS, 77);
    s.options.nexus = true;
    s.phase = Some(Phase::Battle);
    s.storm = Some(7);
    {
        let a = fs(&mut s, Atreides);
        a.spice = Some(10);
        a.hand = vec![CardId(0), CardId(1)];
        a.traitors = vec![TraitorCard::Leader(Leader::FeydRautha)];
        a.board = Some(vec![stack(Territory::Arrakeen, 10, 5, 0, 0)]);
        a.tanks = Some(Forces { normal: 3, elite: 0 });
        a.leaders = vec![LeaderState {
            leader: Leader::DuncanIdaho,
            custody: LeaderCustody::Tanks,
        }];
    }
    {
        let h = fs(&mut s, Harkonnen);
        h.spice = Some(8);
        h.hand = vec![CardId(2)];
        h.traitors = vec![
            TraitorCard::Leader(Leader::Stilgar),
            TraitorCard::Leader(Leader::Alia),
            TraitorCard::Leader(Leader::SanyaEcaz),
            TraitorCard::Leader(Leader::LadyJessica),
        ];
        h.board = Some(vec![stack(Territory::Carthag, 11, 4, 0, 0)]);
        h.leaders = vec![LeaderState {
            leader: Leader::UmmanKudu,
            custody: LeaderCustody::Captured { by: Atreides },
        }];
    }
    {
        let f = fs(&mut s, Fremen);
        f.spice = Some(3);
        f.board = Some(vec![stack(Territory::HabbanyaErg, 16, 3, 2, 0)]);
        f.tanks = Some(Forces { normal: 2, elite: 1 });
    }
    {
        let b = fs(&mut s, BeneGesserit);
        b.spice = Some(5);
        b.board = Some(vec![stack(Territory::TueksSietch, 5, 2, 0, 3)]);
        b.leaders = vec![LeaderState {
            leader: Leader::Alia,
            custody: LeaderCustody::Tanks,
        }];
    }
    {
        let t = fs(&mut s, Tleilaxu);
        t.spice = Some(5);
        t.face_dancers = vec![
            TraitorCard::Leader(Leader::Chani),
            TraitorCard::Leader(Leader::WannaMarcus),
            TraitorCard::Leader(Leader::GurneyHalleck),
        ];
    }
    fs(&mut s, Ecaz).spice = Some(12);
    s
}

fn table() -> Game {
    build_setup(&table_setup())
}

/// The index of a seated faction in the state's `factions` array.
fn seat(g: &Game, f: Faction) -> usize {
    g.seats().iter().position(|&x| x == f).unwrap()
}

/// Assert that `after` is `before` with exactly the edits `edit` makes to
/// its JSON (the RNG included: a report that does not shuffle never draws),
/// one command later (D-230: the revision advanced by one).
fn changed(before: &Game, after: &Game, edit: impl FnOnce(&mut Value)) {
    let mut expected = json_value(before);
    advance_revision(&mut expected, 1);
    edit(&mut expected);
    let actual = json_value(after);
    if actual != expected {
        panic!(
            "unexpected state change\nexpected: {}\nactual:   {}",
            serde_json::to_string(&expected).unwrap(),
            serde_json::to_string(&actual).unwrap()
        );
    }
}

fn faction_json<'a>(v: &'a mut Value, g: &Game, f: Faction) -> &'a mut Value {
    &mut v["factions"][seat(g, f)]
}

fn report(g: &Game, action: Action) -> (Game, Vec<Event>) {
    ok(g, &host(action))
}

fn public(kind: EventKind) -> Event {
    Event::public(kind)
}

fn only(factions: Vec<Faction>, kind: EventKind) -> Event {
    Event::only(factions, kind)
}

/// The events a viewer receives (the host receives all of them).
fn seen_by(events: &[Event], viewer: Viewer) -> Vec<Event> {
    events.iter().filter(|e| e.visible_to(viewer)).cloned().collect()
}

fn viewers(g: &Game) -> Vec<Viewer> {
    g.seats()
        .iter()
        .map(|&f| Viewer::Faction(f))
        .chain([Viewer::Spectator, Viewer::Host])
        .collect()
}

/// A JSON rendering of what a viewer receives, to search for a secret.
fn seen_json(events: &[Event], viewer: Viewer) -> String {
    serde_json::to_string(&seen_by(events, viewer)).unwrap()
}

// ---------------------------------------------------------------------------
// gainSpice
// ---------------------------------------------------------------------------

#[test]
fn issue7_gain_spice_adds_from_the_bank_publicly() {
    let g = table();
    let (next, events) = report(
        &g,
        Action::GainSpice {
            faction: Fremen,
            amount: 7,
        },
    );
    changed(&g, &next, |v| faction_json(v, &g, Fremen)["spice"] = json!(10));
    assert_eq!(
        events,
        vec![public(EventKind::SpiceGained {
            faction: Fremen,
            amount: 7
        })]
    );
}

#[test]
fn issue7_gain_spice_up_to_the_limit_and_not_beyond() {
    let g = table();
    let to_limit = MAX_SPICE - 3;
    let (at, _) = report(
        &g,
        Action::GainSpice {
            faction: Fremen,
            amount: to_limit,
        },
    );
    assert_eq!(spice(&at, Fremen), MAX_SPICE);
    assert_rejected(
        &at,
        &host(Action::GainSpice {
            faction: Fremen,
            amount: 1,
        }),
        "rule/spice_limit",
    );
    assert_rejected(
        &g,
        &host(Action::GainSpice {
            faction: Fremen,
            amount: u32::MAX,
        }),
        "rule/spice_limit",
    );
}

#[test]
fn issue7_gain_spice_rejections() {
    let g = table();
    let gain = |faction, amount| host(Action::GainSpice { faction, amount });
    assert_rejected(&g, &gain(Fremen, 0), "rule/zero_amount");
    assert_rejected(&g, &gain(Emperor, 3), "rule/not_seated");
}

// ---------------------------------------------------------------------------
// paySpice
// ---------------------------------------------------------------------------

#[test]
fn issue7_pay_spice_to_the_bank() {
    let g = table();
    let (next, events) = report(
        &g,
        Action::PaySpice {
            faction: Atreides,
            amount: 10,
            to: None,
        },
    );
    changed(&g, &next, |v| faction_json(v, &g, Atreides)["spice"] = json!(0));
    assert_eq!(
        events,
        vec![public(EventKind::SpicePaid {
            faction: Atreides,
            amount: 10,
            to: None
        })]
    );
}

#[test]
fn issue7_pay_spice_to_another_faction() {
    let g = table();
    let (next, events) = report(
        &g,
        Action::PaySpice {
            faction: Harkonnen,
            amount: 3,
            to: Some(Ecaz),
        },
    );
    changed(&g, &next, |v| {
        faction_json(v, &g, Harkonnen)["spice"] = json!(5);
        faction_json(v, &g, Ecaz)["spice"] = json!(15);
    });
    assert_eq!(
        events,
        vec![public(EventKind::SpicePaid {
            faction: Harkonnen,
            amount: 3,
            to: Some(Ecaz)
        })]
    );
}

#[test]
fn issue7_pay_spice_rejections() {
    let g = table();
    let pay = |faction, amount, to| host(Action::PaySpice { faction, amount, to });
    let err = assert_rejected(&g, &pay(Fremen, 4, None), "rule/insufficient_spice");
    assert!(err.to_string().contains("3"), "{err}");
    assert_rejected(&g, &pay(Fremen, 4, Some(Ecaz)), "rule/insufficient_spice");
    assert_rejected(&g, &pay(Fremen, 0, None), "rule/zero_amount");
    assert_rejected(&g, &pay(Fremen, 1, Some(Fremen)), "rule/same_faction");
    assert_rejected(&g, &pay(Emperor, 1, None), "rule/not_seated");
    assert_rejected(&g, &pay(Fremen, 1, Some(Emperor)), "rule/not_seated");
    // The receiver's total would pass the limit.
    let (rich, _) = report(
        &g,
        Action::GainSpice {
            faction: Ecaz,
            amount: MAX_SPICE - 12,
        },
    );
    assert_rejected(&rich, &pay(Atreides, 1, Some(Ecaz)), "rule/spice_limit");
}

// ---------------------------------------------------------------------------
// drawCard (deck order, reshuffle, hidden identity)
// ---------------------------------------------------------------------------

#[test]
fn issue7_draw_card_takes_the_top_card_and_names_it_to_the_drawer_only() {
    let g = table();
    let top = g.treachery().deck[0];
    let (next, events) = report(&g, Action::DrawCard { faction: Harkonnen });
    changed(&g, &next, |v| {
        v["treachery"]["deck"].as_array_mut().unwrap().remove(0);
        faction_json(v, &g, Harkonnen)["hand"] = json!([2, top.0]);
    });
    assert_eq!(
        events,
        vec![
            public(EventKind::CardDrawn { faction: Harkonnen }),
            only(
                vec![Harkonnen],
                EventKind::CardReceived {
                    faction: Harkonnen,
                    card: top
                }
            ),
        ]
    );
    // Only the drawer (and the host) learn the card.
    for viewer in viewers(&g) {
        let knows = matches!(viewer, Viewer::Host | Viewer::Faction(Harkonnen));
        let seen = seen_by(&events, viewer);
        assert_eq!(seen.len(), if knows { 2 } else { 1 }, "{viewer}");
        assert_eq!(
            seen_json(&events, viewer).contains("\"card\""),
            knows,
            "{viewer} and the drawn card"
        );
        let v = view(&next, viewer);
        let hark = v.factions.iter().find(|x| x.faction == Harkonnen).unwrap();
        assert_eq!(hark.hand_count, 2, "{viewer}: the hand size is public");
        assert_eq!(hark.hand.is_some(), knows, "{viewer}: the hand is private");
        assert_eq!(
            v.treachery.deck.is_some(),
            viewer == Viewer::Host,
            "{viewer}: deck order"
        );
    }
}

/// A table whose deck is empty and whose discard pile holds three cards.
fn empty_deck_setup() -> Setup {
    let mut s = setup(&[Ecaz, Atreides, Harkonnen], 5);
    s.cards = Some(vec![
        "shield".into(),
        "karama".into(),
        "lasgun".into(),
        "snooper".into(),
    ]);
    s.deck = Some(vec![]);
    s.discard = vec![CardId(0), CardId(2), CardId(3)];
    fs(&mut s, Atreides).hand = vec![CardId(1)];
    s
}

#[test]
fn issue7_draw_card_reshuffles_the_discard_pile_when_the_deck_is_empty() {
    let g = build_setup(&empty_deck_setup());
    let (next, events) = report(&g, Action::DrawCard { faction: Harkonnen });
    // deckReshuffled (public), deckOrder (host only), cardDrawn, cardReceived.
    assert_eq!(events.len(), 4, "{events:?}");
    assert_eq!(events[0], public(EventKind::DeckReshuffled { cards: 3 }));
    let EventKind::DeckOrder { deck } = &events[1].event else {
        panic!("{events:?}");
    };
    assert_eq!(events[1].audience, Audience::Host);
    let mut sorted = deck.clone();
    sorted.sort_unstable();
    assert_eq!(
        sorted,
        vec![CardId(0), CardId(2), CardId(3)],
        "the new deck is the old discard pile"
    );
    assert_eq!(events[2], public(EventKind::CardDrawn { faction: Harkonnen }));
    assert_eq!(
        events[3],
        only(
            vec![Harkonnen],
            EventKind::CardReceived {
                faction: Harkonnen,
                card: deck[0]
            }
        )
    );
    // The state follows the host's deck order exactly.
    assert_eq!(next.treachery().deck, deck[1..].to_vec());
    assert!(next.treachery().discard.is_empty());
    assert_eq!(next.faction(Harkonnen).unwrap().hand, vec![deck[0]]);
    // No player sees the new order.
    for viewer in viewers(&g).into_iter().filter(|v| *v != Viewer::Host) {
        assert!(!seen_by(&events, viewer)
            .iter()
            .any(|e| matches!(e.event, EventKind::DeckOrder { .. })));
    }
    // The shuffle is seeded: the same draw gives the same order.
    let (again, events_again) = report(&g, Action::DrawCard { faction: Harkonnen });
    assert_eq!(events_again, events);
    assert_eq!(json(&again), json(&next));
}

#[test]
fn issue7_draw_card_from_an_empty_deck_and_discard_is_refused() {
    let mut s = empty_deck_setup();
    s.discard = vec![];
    fs(&mut s, Harkonnen).hand = vec![CardId(0), CardId(2), CardId(3)];
    let g = build_setup(&s);
    assert_rejected(&g, &host(Action::DrawCard { faction: Harkonnen }), "rule/deck_empty");
    assert_rejected(
        &table(),
        &host(Action::DrawCard { faction: Emperor }),
        "rule/not_seated",
    );
}

// ---------------------------------------------------------------------------
// discardCard
// ---------------------------------------------------------------------------

#[test]
fn issue7_discard_card_goes_to_the_discard_pile_publicly() {
    let g = table();
    let (next, events) = report(
        &g,
        Action::DiscardCard {
            faction: Atreides,
            card: CardId(0),
        },
    );
    changed(&g, &next, |v| {
        faction_json(v, &g, Atreides)["hand"] = json!([1]);
        v["treachery"]["discard"] = json!([0]);
    });
    assert_eq!(
        events,
        vec![public(EventKind::CardDiscarded {
            faction: Atreides,
            card: CardId(0)
        })]
    );
}

#[test]
fn issue7_discard_card_rejections() {
    let g = table();
    let discard = |faction, card| host(Action::DiscardCard { faction, card });
    // Held by someone else, in the deck, not in the catalog at all.
    assert_rejected(&g, &discard(Atreides, CardId(2)), "rule/card_not_held");
    assert_rejected(&g, &discard(Fremen, g.treachery().deck[0]), "rule/card_not_held");
    assert_rejected(&g, &discard(Atreides, CardId(999)), "rule/card_not_held");
    assert_rejected(&g, &discard(Emperor, CardId(0)), "rule/not_seated");
}

// ---------------------------------------------------------------------------
// giveCard
// ---------------------------------------------------------------------------

#[test]
fn issue7_give_card_names_the_card_to_giver_and_receiver_only() {
    let g = table();
    let (next, events) = report(
        &g,
        Action::GiveCard {
            from: Atreides,
            to: Fremen,
            card: CardId(1),
        },
    );
    changed(&g, &next, |v| {
        faction_json(v, &g, Atreides)["hand"] = json!([0]);
        faction_json(v, &g, Fremen)["hand"] = json!([1]);
    });
    assert_eq!(
        events,
        vec![
            public(EventKind::CardGiven {
                from: Atreides,
                to: Fremen
            }),
            only(
                vec![Atreides, Fremen],
                EventKind::CardPassed {
                    from: Atreides,
                    to: Fremen,
                    card: CardId(1)
                }
            ),
        ]
    );
    for viewer in viewers(&g) {
        let knows = matches!(viewer, Viewer::Host | Viewer::Faction(Atreides | Fremen));
        assert_eq!(seen_json(&events, viewer).contains("\"card\""), knows, "{viewer}");
    }
}

#[test]
fn issue7_give_card_rejections() {
    let g = table();
    let give = |from, to, card| host(Action::GiveCard { from, to, card });
    assert_rejected(&g, &give(Atreides, Fremen, CardId(2)), "rule/card_not_held");
    assert_rejected(&g, &give(Atreides, Atreides, CardId(0)), "rule/same_faction");
    assert_rejected(&g, &give(Atreides, Emperor, CardId(0)), "rule/not_seated");
    assert_rejected(&g, &give(Emperor, Atreides, CardId(0)), "rule/not_seated");
}

// ---------------------------------------------------------------------------
// setTraitors / setFaceDancers
// ---------------------------------------------------------------------------

#[test]
fn issue7_set_traitors_replaces_the_held_cards_privately() {
    let g = table();
    let kept = vec![
        TraitorCard::Leader(Leader::Stilgar),
        TraitorCard::Leader(Leader::BindikkNarvi),
    ];
    let (next, events) = report(
        &g,
        Action::SetTraitors {
            faction: Harkonnen,
            traitors: kept.clone(),
        },
    );
    changed(&g, &next, |v| {
        faction_json(v, &g, Harkonnen)["traitors"] = json!(["stilgar", "bindikk_narvi"]);
    });
    assert_eq!(
        events,
        vec![
            public(EventKind::TraitorsChanged {
                faction: Harkonnen,
                traitors: 2,
                face_dancers: 0
            }),
            only(
                vec![Harkonnen],
                EventKind::TraitorsHeld {
                    faction: Harkonnen,
                    traitors: kept,
                    face_dancers: vec![]
                }
            ),
        ]
    );
    for viewer in viewers(&g) {
        let knows = matches!(viewer, Viewer::Host | Viewer::Faction(Harkonnen));
        assert_eq!(seen_json(&events, viewer).contains("stilgar"), knows, "{viewer}");
        let v = view(&next, viewer);
        let hark = v.factions.iter().find(|x| x.faction == Harkonnen).unwrap();
        assert_eq!(hark.traitor_count, 2);
        assert_eq!(hark.traitors.is_some(), knows, "{viewer}");
    }
    // An empty hand of Traitors is a legal report too.
    let (none, _) = report(
        &next,
        Action::SetTraitors {
            faction: Harkonnen,
            traitors: vec![],
        },
    );
    assert!(none.faction(Harkonnen).unwrap().traitors.is_empty());
}

#[test]
fn issue7_set_traitors_rejections() {
    let g = table();
    let set = |faction, traitors: Vec<Leader>| {
        host(Action::SetTraitors {
            faction,
            traitors: traitors.into_iter().map(TraitorCard::Leader).collect(),
        })
    };
    // Held by another faction as a Traitor, or by the Tleilaxu as a Face Dancer.
    assert_rejected(&g, &set(Fremen, vec![Leader::FeydRautha]), "rule/traitor_unavailable");
    assert_rejected(&g, &set(Fremen, vec![Leader::Chani]), "rule/traitor_unavailable");
    // Named twice; a leader of an unseated faction.
    assert_rejected(
        &g,
        &set(Fremen, vec![Leader::IlesaEcaz, Leader::IlesaEcaz]),
        "rule/traitor_unavailable",
    );
    assert_rejected(&g, &set(Fremen, vec![Leader::Caid]), "rule/traitor_unavailable");
    // More than 4.
    let five = vec![
        Leader::IlesaEcaz,
        Leader::RivvyDinari,
        Leader::BindikkNarvi,
        Leader::WhitmoreBludd,
        Leader::ThufirHawat,
    ];
    assert_rejected(&g, &set(Harkonnen, five), "rule/too_many_traitors");
    // The Tleilaxu hold Face Dancers, not Traitors.
    assert_rejected(&g, &set(Tleilaxu, vec![Leader::IlesaEcaz]), "rule/too_many_traitors");
    assert_rejected(&g, &set(Emperor, vec![]), "rule/not_seated");
}

#[test]
fn issue7_set_face_dancers_replaces_them_privately() {
    let g = table();
    let now = vec![
        TraitorCard::Leader(Leader::Chani),
        TraitorCard::Leader(Leader::IlesaEcaz),
    ];
    let (next, events) = report(
        &g,
        Action::SetFaceDancers {
            face_dancers: now.clone(),
        },
    );
    changed(&g, &next, |v| {
        faction_json(v, &g, Tleilaxu)["faceDancers"] = json!(["chani", "ilesa_ecaz"]);
    });
    assert_eq!(
        events,
        vec![
            public(EventKind::TraitorsChanged {
                faction: Tleilaxu,
                traitors: 0,
                face_dancers: 2
            }),
            only(
                vec![Tleilaxu],
                EventKind::TraitorsHeld {
                    faction: Tleilaxu,
                    traitors: vec![],
                    face_dancers: now
                }
            ),
        ]
    );
    for viewer in viewers(&g) {
        let knows = matches!(viewer, Viewer::Host | Viewer::Faction(Tleilaxu));
        assert_eq!(seen_json(&events, viewer).contains("ilesa_ecaz"), knows, "{viewer}");
    }
}

#[test]
fn issue7_set_face_dancers_rejections() {
    let g = table();
    let set = |face_dancers: Vec<Leader>| {
        host(Action::SetFaceDancers {
            face_dancers: face_dancers.into_iter().map(TraitorCard::Leader).collect(),
        })
    };
    assert_rejected(&g, &set(vec![Leader::Stilgar]), "rule/traitor_unavailable");
    let four = vec![Leader::Chani, Leader::IlesaEcaz, Leader::RivvyDinari, Leader::Otheym];
    assert_rejected(&g, &set(four), "rule/too_many_traitors");
    let no_tleilaxu = basic(1);
    assert_rejected(&no_tleilaxu, &set(vec![]), "rule/not_seated");
}

// ---------------------------------------------------------------------------
// loseForces / returnForces / reviveFromTanks / flipAdvisors
// ---------------------------------------------------------------------------

#[test]
fn issue7_lose_forces_sends_them_to_the_tanks() {
    let g = table();
    let (next, events) = report(
        &g,
        Action::LoseForces {
            faction: Fremen,
            territory: Territory::HabbanyaErg,
            sector: 16,
            normal: 1,
            elite: 2,
            advisors: 0,
        },
    );
    changed(&g, &next, |v| {
        let f = faction_json(v, &g, Fremen);
        f["board"] = json!([{"territory":"habbanya_erg","sector":16,"normal":2,"elite":0,"advisors":0}]);
        f["tanks"] = json!({"normal":3,"elite":3});
    });
    assert_eq!(
        events,
        vec![public(EventKind::ForcesLost {
            faction: Fremen,
            stacks: vec![stack(Territory::HabbanyaErg, 16, 1, 2, 0)],
            cause: LossCause::Reported
        })]
    );
    // A whole stack: it leaves the board; BG advisors go to the Tanks as forces.
    let (bg, _) = report(
        &g,
        Action::LoseForces {
            faction: BeneGesserit,
            territory: Territory::TueksSietch,
            sector: 5,
            normal: 2,
            elite: 0,
            advisors: 3,
        },
    );
    let s = bg.faction(BeneGesserit).unwrap();
    assert!(s.board.is_empty());
    assert_eq!(s.tanks, Forces { normal: 5, elite: 0 });
}

#[test]
fn issue7_lose_forces_rejections() {
    let g = table();
    let lose = |faction, territory, sector, normal, elite, advisors| {
        host(Action::LoseForces {
            faction,
            territory,
            sector,
            normal,
            elite,
            advisors,
        })
    };
    assert_rejected(
        &g,
        &lose(Fremen, Territory::HabbanyaErg, 16, 4, 0, 0),
        "rule/not_enough_forces",
    );
    assert_rejected(
        &g,
        &lose(Fremen, Territory::HabbanyaErg, 16, 0, 3, 0),
        "rule/not_enough_forces",
    );
    assert_rejected(
        &g,
        &lose(Fremen, Territory::HabbanyaErg, 17, 1, 0, 0),
        "rule/not_enough_forces",
    );
    assert_rejected(
        &g,
        &lose(Fremen, Territory::Arrakeen, 10, 1, 0, 0),
        "rule/not_enough_forces",
    );
    // Advisors of a faction that has none; more advisors than there are.
    assert_rejected(
        &g,
        &lose(Fremen, Territory::HabbanyaErg, 16, 0, 0, 1),
        "rule/not_enough_forces",
    );
    assert_rejected(
        &g,
        &lose(BeneGesserit, Territory::TueksSietch, 5, 0, 0, 4),
        "rule/not_enough_forces",
    );
    assert_rejected(
        &g,
        &lose(Fremen, Territory::HabbanyaErg, 16, 0, 0, 0),
        "rule/zero_amount",
    );
    assert_rejected(
        &g,
        &lose(Fremen, Territory::HabbanyaErg, 3, 1, 0, 0),
        "rule/invalid_position",
    );
    assert_rejected(
        &g,
        &lose(Fremen, Territory::HiddenMobileStronghold, 0, 1, 0, 0),
        "rule/invalid_position",
    );
    assert_rejected(&g, &lose(Emperor, Territory::Arrakeen, 10, 1, 0, 0), "rule/not_seated");
}

#[test]
fn issue7_return_forces_sends_them_to_reserves() {
    let g = table();
    let (next, events) = report(
        &g,
        Action::ReturnForces {
            faction: BeneGesserit,
            territory: Territory::TueksSietch,
            sector: 5,
            normal: 1,
            elite: 0,
            advisors: 3,
        },
    );
    let reserves = g.faction(BeneGesserit).unwrap().reserves.normal;
    changed(&g, &next, |v| {
        let f = faction_json(v, &g, BeneGesserit);
        f["board"] = json!([{"territory":"tueks_sietch","sector":5,"normal":1,"elite":0,"advisors":0}]);
        f["reserves"] = json!({"normal": reserves + 4, "elite": 0});
    });
    assert_eq!(
        events,
        vec![public(EventKind::ForcesReturned {
            faction: BeneGesserit,
            stacks: vec![stack(Territory::TueksSietch, 5, 1, 0, 3)]
        })]
    );
    let ret = |normal| {
        host(Action::ReturnForces {
            faction: Atreides,
            territory: Territory::Arrakeen,
            sector: 10,
            normal,
            elite: 0,
            advisors: 0,
        })
    };
    assert_rejected(&g, &ret(6), "rule/not_enough_forces");
    assert_rejected(&g, &ret(0), "rule/zero_amount");
}

#[test]
fn issue7_revive_from_tanks_to_reserves() {
    let g = table();
    let (next, events) = report(
        &g,
        Action::ReviveFromTanks {
            faction: Fremen,
            normal: 2,
            elite: 1,
        },
    );
    let reserves = g.faction(Fremen).unwrap().reserves;
    changed(&g, &next, |v| {
        let f = faction_json(v, &g, Fremen);
        f["tanks"] = json!({"normal":0,"elite":0});
        f["reserves"] = json!({"normal": reserves.normal + 2, "elite": reserves.elite + 1});
        f["eliteRevived"] = json!(1);
    });
    assert_eq!(
        events,
        vec![public(EventKind::ForcesRevivedFromTanks {
            faction: Fremen,
            normal: 2,
            elite: 1
        })]
    );
}

#[test]
fn p_tlx_issue17_host_revival_counts_elites_without_a_limit() {
    // D-54: the one-elite limit binds only the Tleilaxu Ambassador; the
    // host's ordinary revival report is a fact, counted but never refused.
    let mut s = table_setup();
    fs(&mut s, Fremen).board = Some(vec![stack(Territory::HabbanyaErg, 16, 3, 0, 0)]);
    fs(&mut s, Fremen).tanks = Some(Forces { normal: 2, elite: 3 });
    let g = build_setup(&s);
    let revive = |normal, elite| {
        host(Action::ReviveFromTanks {
            faction: Fremen,
            normal,
            elite,
        })
    };
    let (twice, _) = ok(&g, &revive(0, 2));
    assert_eq!(twice.faction(Fremen).unwrap().elite_revived, 2);
    let (more, _) = ok(&twice, &revive(1, 1));
    assert_eq!(more.faction(Fremen).unwrap().elite_revived, 3);
    assert_round_trip(&more);
    // Conservation still holds: no elite left in the Tanks.
    assert_rejected(&more, &revive(0, 1), "rule/not_enough_forces");
    // The count resets with the turn.
    let next_turn = walk_to_next_turn(&more);
    assert_eq!(next_turn.faction(Fremen).unwrap().elite_revived, 0);
}

#[test]
fn issue7_revive_from_tanks_rejections() {
    let g = table();
    let revive = |faction, normal, elite| host(Action::ReviveFromTanks { faction, normal, elite });
    assert_rejected(&g, &revive(Fremen, 3, 0), "rule/not_enough_forces");
    assert_rejected(&g, &revive(Atreides, 0, 1), "rule/not_enough_forces");
    assert_rejected(&g, &revive(Harkonnen, 1, 0), "rule/not_enough_forces");
    assert_rejected(&g, &revive(Fremen, 0, 0), "rule/zero_amount");
    assert_rejected(&g, &revive(Emperor, 1, 0), "rule/not_seated");
}

#[test]
fn issue7_flip_advisors_both_ways() {
    let g = table();
    let (up, events) = report(
        &g,
        Action::FlipAdvisors {
            territory: Territory::TueksSietch,
            sector: 5,
            count: 3,
            to_fighters: true,
        },
    );
    changed(&g, &up, |v| {
        faction_json(v, &g, BeneGesserit)["board"] =
            json!([{"territory":"tueks_sietch","sector":5,"normal":5,"elite":0,"advisors":0}]);
    });
    assert_eq!(
        events,
        vec![public(EventKind::AdvisorsFlipped {
            territory: Territory::TueksSietch,
            sector: 5,
            count: 3,
            to_fighters: true
        })]
    );
    let (down, _) = report(
        &g,
        Action::FlipAdvisors {
            territory: Territory::TueksSietch,
            sector: 5,
            count: 2,
            to_fighters: false,
        },
    );
    changed(&g, &down, |v| {
        faction_json(v, &g, BeneGesserit)["board"] =
            json!([{"territory":"tueks_sietch","sector":5,"normal":0,"elite":0,"advisors":5}]);
    });
    let flip = |count, to_fighters| {
        host(Action::FlipAdvisors {
            territory: Territory::TueksSietch,
            sector: 5,
            count,
            to_fighters,
        })
    };
    assert_rejected(&g, &flip(4, true), "rule/not_enough_forces");
    assert_rejected(&g, &flip(3, false), "rule/not_enough_forces");
    assert_rejected(&g, &flip(0, true), "rule/zero_amount");
    assert_rejected(&basic(1), &flip(1, true), "rule/not_seated");
}

// ---------------------------------------------------------------------------
// setLeader
// ---------------------------------------------------------------------------

fn custody(g: &Game, leader: Leader) -> LeaderCustody {
    let s = g.faction(leader.faction()).unwrap();
    s.leaders.iter().find(|l| l.leader == leader).unwrap().custody
}

fn leader_index(leader: Leader) -> usize {
    leader.faction().leaders().iter().position(|&l| l == leader).unwrap()
}

#[test]
fn issue7_set_leader_every_legal_move() {
    let g = table();
    let cases: Vec<(Leader, LeaderCustody)> = vec![
        // Killed; captured; revived; a captive returned or killed; a ghola.
        (Leader::ThufirHawat, LeaderCustody::Tanks),
        (Leader::ThufirHawat, LeaderCustody::Captured { by: Harkonnen }),
        (Leader::DuncanIdaho, LeaderCustody::Available),
        (Leader::UmmanKudu, LeaderCustody::Available),
        (Leader::UmmanKudu, LeaderCustody::Tanks),
        (Leader::DuncanIdaho, LeaderCustody::Ghola { by: Tleilaxu }),
    ];
    for (leader, to) in cases {
        let (next, events) = report(&g, Action::SetLeader { leader, custody: to });
        changed(&g, &next, |v| {
            faction_json(v, &g, leader.faction())["leaders"][leader_index(leader)]["custody"] =
                serde_json::to_value(to).unwrap();
        });
        assert_eq!(events, vec![public(EventKind::LeaderMoved { leader, custody: to })]);
    }
    // A ghola back to its faction, then killed again.
    let (ghola, _) = report(
        &g,
        Action::SetLeader {
            leader: Leader::DuncanIdaho,
            custody: LeaderCustody::Ghola { by: Tleilaxu },
        },
    );
    let (back, _) = report(
        &ghola,
        Action::SetLeader {
            leader: Leader::DuncanIdaho,
            custody: LeaderCustody::Available,
        },
    );
    assert_eq!(custody(&back, Leader::DuncanIdaho), LeaderCustody::Available);
}

#[test]
fn issue7_set_leader_rejections() {
    let g = table();
    let set = |leader, custody| host(Action::SetLeader { leader, custody });
    // A leader already dead killed again; an available leader "revived".
    assert_rejected(&g, &set(Leader::DuncanIdaho, LeaderCustody::Tanks), "rule/leader_move");
    assert_rejected(
        &g,
        &set(Leader::ThufirHawat, LeaderCustody::Available),
        "rule/leader_move",
    );
    // Captured by its own faction; by its current captor; from the Tanks
    // (a captive captured by another faction is accepted: D-52).
    assert_rejected(
        &g,
        &set(Leader::ThufirHawat, LeaderCustody::Captured { by: Atreides }),
        "rule/leader_move",
    );
    assert_rejected(
        &g,
        &set(Leader::UmmanKudu, LeaderCustody::Captured { by: Atreides }),
        "rule/leader_move",
    );
    assert_rejected(
        &g,
        &set(Leader::DuncanIdaho, LeaderCustody::Captured { by: Harkonnen }),
        "rule/leader_move",
    );
    // A ghola from a living leader; a ghola of its own faction.
    assert_rejected(
        &g,
        &set(Leader::ThufirHawat, LeaderCustody::Ghola { by: Tleilaxu }),
        "rule/leader_move",
    );
    assert_rejected(
        &g,
        &set(Leader::DuncanIdaho, LeaderCustody::Ghola { by: Atreides }),
        "rule/leader_move",
    );
    // A captor or ghola-maker that is not seated; a leader of an unseated faction.
    assert_rejected(
        &g,
        &set(Leader::ThufirHawat, LeaderCustody::Captured { by: Emperor }),
        "rule/leader_move",
    );
    assert_rejected(
        &g,
        &set(Leader::DuncanIdaho, LeaderCustody::Ghola { by: Emperor }),
        "rule/leader_move",
    );
    assert_rejected(&g, &set(Leader::Caid, LeaderCustody::Tanks), "rule/not_seated");
}

// ---------------------------------------------------------------------------
// formAlliance / breakAlliance
// ---------------------------------------------------------------------------

#[test]
fn issue7_form_alliance_discards_held_nexus_cards() {
    let mut s = table_setup();
    fs(&mut s, Fremen).nexus = Some(Faction::Guild);
    fs(&mut s, Harkonnen).nexus = Some(Faction::Atreides);
    let g = build_setup(&s);
    let (next, events) = report(
        &g,
        Action::FormAlliance {
            a: Fremen,
            b: Harkonnen,
        },
    );
    changed(&g, &next, |v| {
        faction_json(v, &g, Fremen)["ally"] = json!("harkonnen");
        faction_json(v, &g, Fremen)["allySince"] = json!(g.turn());
        faction_json(v, &g, Fremen)["nexus"] = Value::Null;
        faction_json(v, &g, Harkonnen)["ally"] = json!("fremen");
        faction_json(v, &g, Harkonnen)["allySince"] = json!(g.turn());
        faction_json(v, &g, Harkonnen)["nexus"] = Value::Null;
        v["nexus"]["discard"] = json!(["guild", "atreides"]);
    });
    assert_eq!(
        events,
        vec![
            public(EventKind::NexusDiscarded {
                faction: Fremen,
                card: Faction::Guild
            }),
            public(EventKind::NexusDiscarded {
                faction: Harkonnen,
                card: Faction::Atreides
            }),
            public(EventKind::AllianceFormed {
                a: Fremen,
                b: Harkonnen
            }),
        ]
    );
}

#[test]
fn issue7_alliance_rejections() {
    let g = table();
    let (allied, _) = report(
        &g,
        Action::FormAlliance {
            a: Fremen,
            b: Harkonnen,
        },
    );
    let form = |a, b| host(Action::FormAlliance { a, b });
    assert_rejected(&allied, &form(Fremen, Atreides), "rule/alliance_impossible");
    assert_rejected(&allied, &form(Atreides, Harkonnen), "rule/alliance_impossible");
    assert_rejected(&allied, &form(Fremen, Harkonnen), "rule/alliance_impossible");
    assert_rejected(&g, &form(Atreides, Atreides), "rule/alliance_impossible");
    assert_rejected(&g, &form(Atreides, Emperor), "rule/not_seated");
    let brk = |faction| host(Action::BreakAlliance { faction });
    assert_rejected(&g, &brk(Fremen), "rule/not_allied");
    assert_rejected(&allied, &brk(Atreides), "rule/not_allied");
    assert_rejected(&g, &brk(Emperor), "rule/not_seated");
}

#[test]
fn issue7_break_alliance_from_either_side() {
    let g = table();
    let (allied, _) = report(
        &g,
        Action::FormAlliance {
            a: Fremen,
            b: Harkonnen,
        },
    );
    for side in [Fremen, Harkonnen] {
        let (next, events) = report(&allied, Action::BreakAlliance { faction: side });
        assert_eq!(
            json_without_revision(&next),
            json_without_revision(&g),
            "the alliance is gone, nothing else changed"
        );
        let other = if side == Fremen { Harkonnen } else { Fremen };
        assert_eq!(events, vec![public(EventKind::AllianceBroken { a: side, b: other })]);
    }
}

/// Ecaz allied with the Atreides, Duke Vidal lent to them (P-DUKE-LOAN).
fn lent_duke_setup() -> Setup {
    let mut s = table_setup();
    fs(&mut s, Ecaz).ally = Some(Atreides);
    fs(&mut s, Atreides).ally = Some(Ecaz);
    fs(&mut s, Fremen).ally = Some(Harkonnen);
    fs(&mut s, Harkonnen).ally = Some(Fremen);
    s.duke = Some(DukeCustody::Controlled {
        by: Atreides,
        source: DukeSource::AllianceLoan,
    });
    s.duke_before_loan = Some(DukeCustody::SetAside);
    s
}

#[test]
fn p_duke_loan_issue7_breaking_the_ecaz_alliance_ends_the_loan() {
    let g = build_setup(&lent_duke_setup());
    let (next, events) = report(&g, Action::BreakAlliance { faction: Atreides });
    assert_eq!(next.duke().custody, DukeCustody::SetAside);
    assert_eq!(next.duke().before_loan, None);
    assert_eq!(
        events,
        vec![
            public(EventKind::AllianceBroken { a: Atreides, b: Ecaz }),
            public(EventKind::DukeMoved {
                custody: DukeCustody::SetAside,
                reason: DukeReason::LoanEnded
            }),
        ]
    );
}

#[test]
fn p_duke_loan_issue7_breaking_another_alliance_keeps_the_loan() {
    let g = build_setup(&lent_duke_setup());
    let (next, events) = report(&g, Action::BreakAlliance { faction: Harkonnen });
    assert_eq!(
        next.duke().custody,
        DukeCustody::Controlled {
            by: Atreides,
            source: DukeSource::AllianceLoan
        },
        "Ecaz and the Atreides are still allied: the loan stands"
    );
    assert_eq!(
        events,
        vec![public(EventKind::AllianceBroken {
            a: Harkonnen,
            b: Fremen
        })]
    );
}

// ---------------------------------------------------------------------------
// setHandLimit
// ---------------------------------------------------------------------------

#[test]
fn issue7_set_hand_limit_one_to_twenty() {
    let g = table();
    for limit in [1u8, 7, 20] {
        let (next, events) = report(&g, Action::SetHandLimit { faction: Fremen, limit });
        changed(&g, &next, |v| faction_json(v, &g, Fremen)["handLimit"] = json!(limit));
        assert_eq!(events, vec![public(EventKind::HandLimitSet { faction: Fremen, limit })]);
    }
    let set = |faction, limit| host(Action::SetHandLimit { faction, limit });
    assert_rejected(&g, &set(Fremen, 0), "rule/hand_limit");
    assert_rejected(&g, &set(Fremen, 21), "rule/hand_limit");
    assert_rejected(&g, &set(Fremen, u8::MAX), "rule/hand_limit");
    assert_rejected(&g, &set(Emperor, 5), "rule/not_seated");
}

// ---------------------------------------------------------------------------
// dealNexus / discardNexus (their full rules are in tests/nexus.rs)
// ---------------------------------------------------------------------------

#[test]
fn issue7_deal_and_discard_nexus_are_mirrored_by_events() {
    let g = table();
    let top = g.nexus().deck[0];
    let (dealt, events) = report(&g, Action::DealNexus { faction: Fremen });
    changed(&g, &dealt, |v| {
        v["nexus"]["deck"].as_array_mut().unwrap().remove(0);
        faction_json(v, &g, Fremen)["nexus"] = serde_json::to_value(top).unwrap();
    });
    assert_eq!(
        events,
        vec![
            public(EventKind::NexusDealt { faction: Fremen }),
            only(
                vec![Fremen],
                EventKind::NexusReceived {
                    faction: Fremen,
                    card: top
                }
            ),
        ]
    );
    for viewer in viewers(&g) {
        let knows = matches!(viewer, Viewer::Host | Viewer::Faction(Fremen));
        assert_eq!(seen_by(&events, viewer).len(), if knows { 2 } else { 1 }, "{viewer}");
        let v = view(&dealt, viewer);
        let fremen = v.factions.iter().find(|x| x.faction == Fremen).unwrap();
        assert!(fremen.holds_nexus);
        assert_eq!(fremen.nexus.is_some(), knows, "{viewer}");
    }
    let (gone, events) = report(&dealt, Action::DiscardNexus { faction: Fremen });
    changed(&dealt, &gone, |v| {
        faction_json(v, &dealt, Fremen)["nexus"] = Value::Null;
        v["nexus"]["discard"] = serde_json::to_value(vec![top]).unwrap();
    });
    assert_eq!(
        events,
        vec![public(EventKind::NexusDiscarded {
            faction: Fremen,
            card: top
        })]
    );
    assert_rejected(
        &gone,
        &host(Action::DiscardNexus { faction: Fremen }),
        "rule/nexus_deal",
    );
    assert_rejected(&dealt, &host(Action::DealNexus { faction: Fremen }), "rule/nexus_deal");
}

// ---------------------------------------------------------------------------
// Every report: not while a decision is open, never from a faction
// ---------------------------------------------------------------------------

/// One accepted instance of every table report kind on [`table`].
fn every_report() -> Vec<Action> {
    vec![
        Action::GainSpice {
            faction: Fremen,
            amount: 1,
        },
        Action::PaySpice {
            faction: Atreides,
            amount: 1,
            to: None,
        },
        Action::DrawCard { faction: Fremen },
        Action::DiscardCard {
            faction: Atreides,
            card: CardId(0),
        },
        Action::GiveCard {
            from: Atreides,
            to: Fremen,
            card: CardId(0),
        },
        Action::SetTraitors {
            faction: Fremen,
            traitors: vec![TraitorCard::Leader(Leader::IlesaEcaz)],
        },
        Action::SetFaceDancers {
            face_dancers: vec![TraitorCard::Leader(Leader::Chani)],
        },
        Action::LoseForces {
            faction: Atreides,
            territory: Territory::Arrakeen,
            sector: 10,
            normal: 1,
            elite: 0,
            advisors: 0,
        },
        Action::ReturnForces {
            faction: Atreides,
            territory: Territory::Arrakeen,
            sector: 10,
            normal: 1,
            elite: 0,
            advisors: 0,
        },
        Action::ReviveFromTanks {
            faction: Atreides,
            normal: 1,
            elite: 0,
        },
        Action::FlipAdvisors {
            territory: Territory::TueksSietch,
            sector: 5,
            count: 1,
            to_fighters: true,
        },
        Action::SetLeader {
            leader: Leader::ThufirHawat,
            custody: LeaderCustody::Tanks,
        },
        Action::FormAlliance { a: Fremen, b: Atreides },
        Action::SetHandLimit {
            faction: Fremen,
            limit: 5,
        },
        Action::DealNexus { faction: Fremen },
    ]
}

#[test]
fn issue7_every_report_is_accepted_on_the_table() {
    let g = table();
    for action in every_report() {
        let (next, events) = report(&g, action.clone());
        assert!(!events.is_empty(), "{action:?}: a change is always announced");
        assert_ne!(json(&next), json(&g), "{action:?}");
        assert_round_trip(&next);
    }
}

#[test]
fn issue7_reports_are_refused_while_a_decision_is_open() {
    let mut s = table_setup();
    s.phase = Some(Phase::Revival);
    s.placement_open = true;
    let g = build_setup(&s);
    assert!(placement_open(&g));
    let (allied, _) = report(
        &table(),
        Action::FormAlliance {
            a: Fremen,
            b: Harkonnen,
        },
    );
    let break_report = Action::BreakAlliance { faction: Fremen };
    assert!(apply_ok(&allied, &host(break_report.clone())));
    for action in every_report().into_iter().chain([break_report.clone()]) {
        assert_rejected(&g, &host(action), "rule/decision_pending");
    }
    // Also with an entry's trigger offer open.
    let (offer, _) = entry_with_offer();
    for action in every_report() {
        assert_rejected(&offer, &host(action), "rule/decision_pending");
    }
}

fn apply_ok(g: &Game, cmd: &Command) -> bool {
    apply(g, cmd).is_ok()
}

/// The table with the Atreides token in Carthag and a Fremen entry there: a trigger offer is open.
fn entry_with_offer() -> (Game, Vec<Event>) {
    let mut s = table_setup();
    s.ambassadors = Some(AmbassadorsSetup {
        zones: BTreeMap::from([(
            Ambassador::Atreides,
            Zone::Placed {
                territory: Territory::Carthag,
            },
        )]),
        cohort: vec![
            Ambassador::Atreides,
            Ambassador::Choam,
            Ambassador::Emperor,
            Ambassador::Guild,
            Ambassador::Richese,
        ],
        cycle: 0,
        placement: PlacementTurn::default(),
    });
    s.phase = Some(Phase::ShipmentMovement);
    let g = build_setup(&s);
    let (g, events) = ok(
        &g,
        &host(Action::Arrive {
            entrant: Fremen,
            cause: Cause::Shipment,
            from: Origin::Reserves,
            territory: Territory::Carthag,
            sector: 11,
            normal: 1,
            elite: 0,
            advisors: false,
            parent: None,
            reactions_first: false,
        }),
    );
    assert!(matches!(
        g.open_frame().map(|f| &f.decision),
        Some(Decision::TriggerOffer { .. })
    ));
    (g, events)
}

#[test]
fn issue7_reports_from_a_faction_actor_are_refused() {
    let g = table();
    let mut all = every_report();
    all.push(Action::BreakAlliance { faction: Fremen });
    all.push(Action::DiscardNexus { faction: Fremen });
    for action in all {
        for f in [Atreides, Ecaz, Fremen] {
            assert_rejected(&g, &Command::faction(f, action.clone()), "rule/wrong_actor");
        }
    }
}

// ---------------------------------------------------------------------------
// Hidden information across a sequence of reports
// ---------------------------------------------------------------------------

/// Every private event of a sequence of reports goes to exactly the right
/// eyes, and the public stream carries counts only.
#[test]
fn issue7_hidden_information_never_reaches_other_players() {
    let mut g = table();
    let mut all = Vec::new();
    for action in [
        Action::DrawCard { faction: Fremen },
        Action::DrawCard { faction: Ecaz },
        Action::GiveCard {
            from: Atreides,
            to: Harkonnen,
            card: CardId(1),
        },
        Action::SetTraitors {
            faction: Fremen,
            traitors: vec![TraitorCard::Leader(Leader::RivvyDinari)],
        },
        Action::SetFaceDancers {
            face_dancers: vec![TraitorCard::Leader(Leader::Otheym), TraitorCard::Leader(Leader::Chani)],
        },
        Action::DealNexus { faction: Ecaz },
    ] {
        let (next, events) = report(&g, action);
        all.extend(events);
        g = next;
    }
    for e in &all {
        let expected = match &e.event {
            EventKind::CardReceived { faction, .. }
            | EventKind::TraitorsHeld { faction, .. }
            | EventKind::NexusReceived { faction, .. } => Audience::Only {
                factions: vec![*faction],
            },
            EventKind::CardPassed { from, to, .. } => Audience::Only {
                factions: vec![*from, *to],
            },
            EventKind::DeckOrder { .. } => Audience::Host,
            _ => Audience::Public,
        };
        assert_eq!(e.audience, expected, "{e:?}");
    }
    // The public stream names no card, traitor or Face Dancer.
    let public_json = seen_json(&all, Viewer::Spectator);
    for secret in [
        "\"card\"",
        "rivvy_dinari",
        "otheym",
        "\"traitors\":[",
        "\"faceDancers\":[",
    ] {
        assert!(!public_json.contains(secret), "{secret} in {public_json}");
    }
    // Each faction's view shows its own secrets and counts of the others'.
    for &f in g.seats() {
        let v = view(&g, Viewer::Faction(f));
        for x in &v.factions {
            let mine = x.faction == f;
            assert_eq!(x.hand.is_some(), mine);
            assert_eq!(x.traitors.is_some(), mine);
            assert_eq!(x.face_dancers.is_some(), mine);
            assert_eq!(x.spice.is_some(), mine);
            let real = g.faction(x.faction).unwrap();
            assert_eq!(x.hand_count, real.hand.len());
            assert_eq!(x.traitor_count, real.traitors.len());
            assert_eq!(x.face_dancer_count, real.face_dancers.len());
        }
        assert_eq!(v.treachery.deck, None);
    }
}

// ---------------------------------------------------------------------------
// Storm losses (options.stormLosses)
// ---------------------------------------------------------------------------

/// Storm at 7; forces on and off the path of a 5-sector move (8..=12).
fn storm_setup(losses: bool) -> Setup {
    let mut s = setup(&[Ecaz, Atreides, Harkonnen, Fremen, BeneGesserit], 9);
    s.options.storm_losses = losses;
    s.storm = Some(7);
    // Ecaz: Imperial Basin 10 (protected while the Shield Wall stands), the Polar Sink.
    fs(&mut s, Ecaz).board = Some(vec![
        stack(Territory::ImperialBasin, 10, 4, 0, 0),
        stack(Territory::PolarSink, 0, 2, 0, 0),
    ]);
    // Atreides: Arrakeen (10), sand on the path (Hole in the Rock 9, Gara
    // Kulon 8), sand off the path (Tsimpo 13, Red Chasm 7 = where the storm starts).
    fs(&mut s, Atreides).board = Some(vec![
        stack(Territory::Arrakeen, 10, 3, 0, 0),
        stack(Territory::HoleInTheRock, 9, 2, 0, 0),
        stack(Territory::GaraKulon, 8, 1, 0, 0),
        stack(Territory::Tsimpo, 13, 2, 0, 0),
        stack(Territory::RedChasm, 7, 1, 0, 0),
    ]);
    // Harkonnen: Carthag (11), rock on the path (Shield Wall 8, Plastic Basin 12).
    fs(&mut s, Harkonnen).board = Some(vec![
        stack(Territory::Carthag, 11, 5, 0, 0),
        stack(Territory::ShieldWall, 8, 2, 0, 0),
        stack(Territory::PlasticBasin, 12, 2, 0, 0),
    ]);
    // Fremen: half of each exposed stack, rounded up.
    fs(&mut s, Fremen).board = Some(vec![
        stack(Territory::OhGap, 11, 1, 2, 0),
        stack(Territory::BrokenLand, 12, 3, 0, 0),
        stack(Territory::Tsimpo, 11, 0, 1, 0),
    ]);
    // BG: fighters and advisors in open sand.
    fs(&mut s, BeneGesserit).board = Some(vec![stack(Territory::OhGap, 9, 1, 0, 2)]);
    s
}

fn losses_of(events: &[Event]) -> BTreeMap<Faction, Vec<Stack>> {
    events
        .iter()
        .filter_map(|e| match &e.event {
            EventKind::ForcesLost { faction, stacks, cause } => {
                assert_eq!(*cause, LossCause::Storm);
                assert_eq!(e.audience, Audience::Public);
                Some((*faction, stacks.clone()))
            }
            _ => None,
        })
        .collect()
}

#[test]
fn issue7_storm_losses_destroy_exposed_sand_on_the_path() {
    let g = build_setup(&storm_setup(true));
    let (next, events) = report(&g, Action::MoveStorm { sectors: 5 });
    assert_eq!(next.storm(), 12);
    assert_eq!(
        events[0],
        public(EventKind::StormMoved {
            from: 7,
            to: 12,
            sectors: 5
        })
    );
    let lost = losses_of(&events);
    let expected = BTreeMap::from([
        (
            Atreides,
            vec![
                stack(Territory::HoleInTheRock, 9, 2, 0, 0),
                stack(Territory::GaraKulon, 8, 1, 0, 0),
            ],
        ),
        (
            Fremen,
            vec![
                // 3 → 2 lost, ordinary first; 3 → 2; 1 → 1.
                stack(Territory::OhGap, 11, 1, 1, 0),
                stack(Territory::BrokenLand, 12, 2, 0, 0),
                stack(Territory::Tsimpo, 11, 0, 1, 0),
            ],
        ),
        (BeneGesserit, vec![stack(Territory::OhGap, 9, 1, 0, 2)]),
    ]);
    assert_eq!(lost, expected);
    // The table: rock, Arrakeen, Carthag, Imperial Basin, the Polar Sink and
    // sectors off the path untouched; the lost forces are in the Tanks.
    let board = |f: Faction| next.faction(f).unwrap().board.clone();
    assert_eq!(board(Ecaz), g.faction(Ecaz).unwrap().board);
    assert_eq!(board(Harkonnen), g.faction(Harkonnen).unwrap().board);
    assert_eq!(
        board(Atreides),
        vec![
            stack(Territory::Arrakeen, 10, 3, 0, 0),
            stack(Territory::Tsimpo, 13, 2, 0, 0),
            stack(Territory::RedChasm, 7, 1, 0, 0),
        ]
    );
    assert_eq!(
        board(Fremen),
        vec![
            stack(Territory::OhGap, 11, 0, 1, 0),
            stack(Territory::BrokenLand, 12, 1, 0, 0),
        ]
    );
    assert!(board(BeneGesserit).is_empty());
    assert_eq!(next.faction(Atreides).unwrap().tanks, Forces { normal: 3, elite: 0 });
    assert_eq!(next.faction(Fremen).unwrap().tanks, Forces { normal: 3, elite: 2 });
    assert_eq!(
        next.faction(BeneGesserit).unwrap().tanks,
        Forces { normal: 3, elite: 0 }
    );
    assert_eq!(next.faction(Ecaz).unwrap().tanks, Forces::default());
}

#[test]
fn issue7_storm_losses_reach_arrakeen_carthag_and_imperial_basin_after_the_shield_wall_falls() {
    let g = build_setup(&storm_setup(true));
    let (down, events) = report(&g, Action::DestroyShieldWall {});
    assert_eq!(events, vec![public(EventKind::ShieldWallDestroyed)]);
    let mut expected = json_value(&g);
    advance_revision(&mut expected, 1);
    expected["shieldWallStanding"] = false.into();
    assert_eq!(json_value(&down), expected);
    let (next, events) = report(&down, Action::MoveStorm { sectors: 5 });
    let lost = losses_of(&events);
    assert_eq!(lost[&Ecaz], vec![stack(Territory::ImperialBasin, 10, 4, 0, 0)]);
    assert!(lost[&Atreides].contains(&stack(Territory::Arrakeen, 10, 3, 0, 0)));
    assert_eq!(lost[&Harkonnen], vec![stack(Territory::Carthag, 11, 5, 0, 0)]);
    // Rock and the Polar Sink are still spared.
    assert_eq!(
        next.faction(Harkonnen).unwrap().board,
        vec![
            stack(Territory::ShieldWall, 8, 2, 0, 0),
            stack(Territory::PlasticBasin, 12, 2, 0, 0),
        ]
    );
    assert_eq!(
        next.faction(Ecaz).unwrap().board,
        vec![stack(Territory::PolarSink, 0, 2, 0, 0)]
    );
}

#[test]
fn issue7_storm_losses_wrap_from_18_to_1_and_a_zero_move_destroys_nothing() {
    let mut s = storm_setup(true);
    s.storm = Some(17);
    fs(&mut s, Atreides).board = Some(vec![
        stack(Territory::CielagoWest, 18, 1, 0, 0),
        stack(Territory::CielagoWest, 1, 1, 0, 0),
        stack(Territory::Meridian, 2, 1, 0, 0),
        stack(Territory::CielagoSouth, 3, 1, 0, 0),
        stack(Territory::HabbanyaRidgeFlat, 17, 1, 0, 0),
    ]);
    let g = build_setup(&s);
    let (_, none) = report(&g, Action::MoveStorm { sectors: 0 });
    assert_eq!(
        none,
        vec![public(EventKind::StormMoved {
            from: 17,
            to: 17,
            sectors: 0
        })]
    );
    let (next, events) = report(&g, Action::MoveStorm { sectors: 3 });
    assert_eq!(next.storm(), 2);
    assert_eq!(
        losses_of(&events)[&Atreides],
        vec![
            stack(Territory::CielagoWest, 18, 1, 0, 0),
            stack(Territory::CielagoWest, 1, 1, 0, 0),
            stack(Territory::Meridian, 2, 1, 0, 0),
        ]
    );
    assert_eq!(
        next.faction(Atreides).unwrap().board,
        vec![
            stack(Territory::CielagoSouth, 3, 1, 0, 0),
            stack(Territory::HabbanyaRidgeFlat, 17, 1, 0, 0),
        ]
    );
}

#[test]
fn issue7_without_storm_losses_the_storm_destroys_no_forces() {
    for shield_wall in [true, false] {
        let mut s = storm_setup(false);
        s.shield_wall_standing = Some(shield_wall);
        let g = build_setup(&s);
        let (next, events) = report(&g, Action::MoveStorm { sectors: 5 });
        assert_eq!(
            events,
            vec![public(EventKind::StormMoved {
                from: 7,
                to: 12,
                sectors: 5
            })]
        );
        changed(&g, &next, |v| v["storm"] = json!(12));
        // The host reports the storm's losses itself.
        let (after, lost) = report(
            &next,
            Action::LoseForces {
                faction: Atreides,
                territory: Territory::HoleInTheRock,
                sector: 9,
                normal: 2,
                elite: 0,
                advisors: 0,
            },
        );
        assert!(matches!(
            lost[0].event,
            EventKind::ForcesLost {
                cause: LossCause::Reported,
                ..
            }
        ));
        assert_eq!(after.faction(Atreides).unwrap().tanks.normal, 2);
    }
}

#[test]
fn issue7_storm_losses_also_return_a_token_in_an_exposed_stronghold() {
    let mut s = storm_setup(true);
    s.shield_wall_standing = Some(false);
    s.ambassadors = Some(AmbassadorsSetup {
        zones: BTreeMap::from([(
            Ambassador::Atreides,
            Zone::Placed {
                territory: Territory::Arrakeen,
            },
        )]),
        cohort: vec![
            Ambassador::Atreides,
            Ambassador::Choam,
            Ambassador::Emperor,
            Ambassador::Guild,
            Ambassador::Richese,
        ],
        cycle: 0,
        placement: PlacementTurn::default(),
    });
    let g = build_setup(&s);
    let (next, events) = report(&g, Action::MoveStorm { sectors: 5 });
    assert_eq!(zone(&next, Ambassador::Atreides), Zone::Supply);
    let names = kind_names(&events);
    assert_eq!(names[0], "stormMoved");
    assert_eq!(names[1], "ambassadorReturned");
    assert!(names[2..].iter().all(|n| n == "forcesLost"), "{names:?}");
}

// ---------------------------------------------------------------------------
// Import through Setup
// ---------------------------------------------------------------------------

/// A Setup with every field explicit: the built game holds exactly it.
#[test]
fn issue7_import_with_every_field_explicit() {
    let mut s = table_setup();
    s.seed = Some(4242);
    s.turn = Some(6);
    s.phase = Some(Phase::Revival);
    s.storm = Some(3);
    s.shield_wall_standing = Some(false);
    s.cards = Some(ecaz::base_catalog());
    s.placement_open = true;
    // Every card placed: hands (table_setup), an explicit deck order, a discard pile.
    let held = [0u16, 1, 2, 3];
    fs(&mut s, Fremen).hand = vec![CardId(3)];
    s.discard = vec![CardId(10), CardId(4)];
    let mut deck: Vec<CardId> = (0..33u16)
        .filter(|c| !held.contains(c) && *c != 10 && *c != 4)
        .map(CardId)
        .collect();
    deck.reverse();
    s.deck = Some(deck.clone());
    // Nexus: held, dealt order, discard.
    fs(&mut s, Tleilaxu).nexus = Some(Faction::Ecaz);
    s.nexus_discard = vec![Faction::Moritani];
    let nexus_deck: Vec<Faction> = Faction::ALL
        .into_iter()
        .filter(|f| *f != Faction::Ecaz && *f != Faction::Moritani)
        .collect();
    s.nexus_deck = Some(nexus_deck.clone());
    // Alliances, Duke custody (lent), leaders in every custody, advisors and elites.
    fs(&mut s, Ecaz).ally = Some(Harkonnen);
    fs(&mut s, Harkonnen).ally = Some(Ecaz);
    s.duke = Some(DukeCustody::Controlled {
        by: Harkonnen,
        source: DukeSource::AllianceLoan,
    });
    s.duke_before_loan = Some(DukeCustody::Controlled {
        by: Ecaz,
        source: DukeSource::EcazAmbassador,
    });
    fs(&mut s, Atreides).leaders.push(LeaderState {
        leader: Leader::LadyJessica,
        custody: LeaderCustody::Ghola { by: Tleilaxu },
    });
    fs(&mut s, Fremen).free_revival = Some(1);
    fs(&mut s, Fremen).elite_revived = 1;
    fs(&mut s, Fremen).hand_limit = Some(6);
    fs(&mut s, Fremen).reserves = Some(Forces { normal: 10, elite: 0 });
    fs(&mut s, Fremen).board = Some(vec![stack(Territory::HabbanyaErg, 16, 5, 2, 0)]);
    fs(&mut s, Fremen).tanks = Some(Forces { normal: 2, elite: 1 });
    // Ambassadors: every zone, the cohort, the cycle, this turn's bookkeeping.
    let cohort = vec![
        Ambassador::Atreides,
        Ambassador::BeneGesserit,
        Ambassador::Choam,
        Ambassador::Fremen,
        Ambassador::Guild,
    ];
    s.ambassadors = Some(AmbassadorsSetup {
        zones: BTreeMap::from([
            (
                Ambassador::Ecaz,
                Zone::Placed {
                    territory: Territory::SietchTabr,
                },
            ),
            (
                Ambassador::Atreides,
                Zone::Placed {
                    territory: Territory::Carthag,
                },
            ),
            (Ambassador::BeneGesserit, Zone::Removed),
            (Ambassador::Choam, Zone::Used),
        ]),
        cohort: cohort.clone(),
        cycle: 2,
        placement: PlacementTurn {
            placed: 1,
            closed: false,
            prevented_by: None,
        },
    });
    let g = build_setup(&s);
    // The table.
    assert_eq!(
        (g.turn(), g.phase(), g.storm(), g.shield_wall_standing()),
        (6, Phase::Revival, 3, false)
    );
    assert_eq!(g.treachery().deck, deck);
    assert_eq!(g.treachery().discard, vec![CardId(10), CardId(4)]);
    assert_eq!(g.nexus().deck, nexus_deck);
    assert_eq!(g.nexus().discard, vec![Faction::Moritani]);
    let fremen = g.faction(Fremen).unwrap();
    assert_eq!(fremen.hand, vec![CardId(3)]);
    assert_eq!(
        (fremen.free_revival, fremen.elite_revived, fremen.hand_limit),
        (1, 1, 6)
    );
    assert_eq!(fremen.reserves, Forces { normal: 10, elite: 0 });
    assert_eq!(fremen.tanks, Forces { normal: 2, elite: 1 });
    assert_eq!(g.faction(Harkonnen).unwrap().traitors.len(), 4);
    assert_eq!(g.faction(Tleilaxu).unwrap().face_dancers.len(), 3);
    assert_eq!(g.faction(Tleilaxu).unwrap().nexus, Some(Faction::Ecaz));
    assert_eq!(
        g.faction(BeneGesserit).unwrap().board,
        vec![stack(Territory::TueksSietch, 5, 2, 0, 3)]
    );
    assert_eq!(custody(&g, Leader::LadyJessica), LeaderCustody::Ghola { by: Tleilaxu });
    assert_eq!(custody(&g, Leader::UmmanKudu), LeaderCustody::Captured { by: Atreides });
    assert_eq!(custody(&g, Leader::DuncanIdaho), LeaderCustody::Tanks);
    assert_eq!(g.faction(Ecaz).unwrap().ally, Some(Harkonnen));
    assert_eq!(g.duke().before_loan, s.duke_before_loan);
    // The Ambassadors.
    let a = g.ambassadors();
    assert_eq!(a.cohort, cohort);
    assert_eq!(a.cycle, 2);
    assert_eq!(a.placement.placed, 1);
    assert_eq!(zone(&g, Ambassador::Ecaz), placed(Territory::SietchTabr));
    assert_eq!(zone(&g, Ambassador::Fremen), Zone::Supply);
    assert_eq!(zone(&g, Ambassador::Tleilaxu), Zone::Pool);
    // The open placement window: the second token costs 2.
    assert!(placement_open(&g));
    let (announced, _) = announce(&g, Ambassador::Fremen, Territory::Arrakeen);
    let (placed_now, events) = allow(&announced);
    assert_eq!(spice(&placed_now, Ecaz), 10);
    assert!(events.contains(&public(EventKind::AmbassadorPlaced {
        token: Ambassador::Fremen,
        territory: Territory::Arrakeen,
        cost: 2
    })));
    // The lent Duke returns to Ecaz's control at turn end (P-DUKE-LOAN).
    let later = walk_to_next_turn(&finish(&placed_now).0);
    assert_eq!(
        later.duke().custody,
        DukeCustody::Controlled {
            by: Ecaz,
            source: DukeSource::EcazAmbassador
        }
    );
}

/// Resolve every open decision with a fixed preference: trigger when
/// possible, otherwise the first legal command (`pass` for the board effects).
fn settle_all(mut g: Game) -> Game {
    for _ in 0..50 {
        let Some(frame) = g.open_frame() else {
            return g;
        };
        let actor = frame.actor;
        let o = options(&g, actor);
        let cmd = o
            .commands
            .iter()
            .find(|c| matches!(c.action, Action::Trigger { .. }))
            .or_else(|| {
                o.commands
                    .iter()
                    .find(|c| matches!(c.action, Action::Pass { .. } | Action::FinishPlacement { .. }))
            })
            .or(o.commands.first())
            .cloned()
            .unwrap_or_else(|| panic!("no option for {actor}"));
        g = ok(&g, &cmd).0;
    }
    panic!("decisions never settled");
}

fn arrive(entrant: Faction, territory: Territory, sector: u8, normal: u32) -> Command {
    host(Action::Arrive {
        entrant,
        cause: Cause::Shipment,
        from: Origin::Reserves,
        territory,
        sector,
        normal,
        elite: 0,
        advisors: false,
        parent: None,
        reactions_first: false,
    })
}

/// Two turns played by host reports and Ecaz decisions.
fn played() -> Vec<Game> {
    let mut s = setup(&SEATS, 31);
    s.options.nexus = true;
    s.ambassadors = Some(AmbassadorsSetup {
        zones: BTreeMap::new(),
        cohort: vec![
            Ambassador::Atreides,
            Ambassador::Emperor,
            Ambassador::Harkonnen,
            Ambassador::Guild,
            Ambassador::Tleilaxu,
        ],
        cycle: 0,
        placement: PlacementTurn::default(),
    });
    let mut g = build_setup(&s);
    let mut snapshots = Vec::new();
    let go = |g: &Game, action: Action| ok(g, &host(action)).0;
    for turn in 0..2u32 {
        g = go(&g, Action::MoveStorm { sectors: 4 + turn });
        g = go(&g, Action::EndPhase { phase: Phase::Storm });
        for f in SEATS {
            g = go(&g, Action::GainSpice { faction: f, amount: 6 });
            g = go(&g, Action::DrawCard { faction: f });
        }
        if turn == 0 {
            g = go(&g, Action::DealNexus { faction: Fremen });
            g = go(
                &g,
                Action::SetTraitors {
                    faction: Atreides,
                    traitors: vec![TraitorCard::Leader(Leader::BeastRabban)],
                },
            );
            g = go(
                &g,
                Action::SetFaceDancers {
                    face_dancers: vec![
                        TraitorCard::Leader(Leader::Stilgar),
                        TraitorCard::Leader(Leader::IlesaEcaz),
                    ],
                },
            );
        }
        let (next, _) = walk_to_revival_end(&g);
        g = next;
        snapshots.push(g.clone()); // an open placement window
        let legal = options(&g, Actor::Faction(Ecaz)).commands;
        let first = legal.iter().find(|c| matches!(c.action, Action::Place { .. })).unwrap();
        g = ok(&g, first).0;
        g = allow(&g).0;
        g = finish(&g).0;
        // Entries into every stronghold holding a token.
        let strongholds: Vec<Territory> = g
            .ambassadors()
            .tokens
            .iter()
            .filter_map(|t| match t.zone {
                Zone::Placed { territory } => Some(territory),
                _ => None,
            })
            .collect();
        for t in strongholds {
            let entrant = if turn == 0 { Harkonnen } else { BeneGesserit };
            g = ok(&g, &arrive(entrant, t, ecaz::territory_info(t).sectors[0], 2)).0;
            g = settle_all(g);
        }
        g = go(
            &g,
            Action::EndPhase {
                phase: Phase::ShipmentMovement,
            },
        );
        let board = g.faction(Harkonnen).unwrap().board.clone();
        if let Some(x) = board.first() {
            g = go(
                &g,
                Action::LoseForces {
                    faction: Harkonnen,
                    territory: x.territory,
                    sector: x.sector,
                    normal: 1,
                    elite: 0,
                    advisors: 0,
                },
            );
        }
        if turn == 0 {
            g = go(
                &g,
                Action::SetLeader {
                    leader: Leader::ThufirHawat,
                    custody: LeaderCustody::Tanks,
                },
            );
            g = go(
                &g,
                Action::SetLeader {
                    leader: Leader::Jamis,
                    custody: LeaderCustody::Captured { by: Harkonnen },
                },
            );
            g = go(
                &g,
                Action::FormAlliance {
                    a: Atreides,
                    b: Tleilaxu,
                },
            );
            g = go(
                &g,
                Action::SetHandLimit {
                    faction: Fremen,
                    limit: 5,
                },
            );
        } else {
            g = go(
                &g,
                Action::SetLeader {
                    leader: Leader::ThufirHawat,
                    custody: LeaderCustody::Ghola { by: Tleilaxu },
                },
            );
            let card = g.faction(Fremen).unwrap().hand[0];
            g = go(
                &g,
                Action::GiveCard {
                    from: Fremen,
                    to: Harkonnen,
                    card,
                },
            );
        }
        snapshots.push(g.clone()); // Battle, no decision open
        g = walk_to_next_turn(&g);
    }
    snapshots.push(g);
    snapshots
}

/// The Setup a host builds from its own table — here, the engine's host view.
/// Two fields are not in the view and come from the game: `eliteRevived`
/// and the Nexus deck order (the view shows only its count; see the report).
fn setup_from_view(v: &View, g: &Game) -> Setup {
    let factions = v
        .factions
        .iter()
        .map(|x| {
            let fs = FactionSetup {
                spice: x.spice,
                reserves: Some(x.reserves),
                tanks: Some(x.tanks),
                board: Some(x.board.clone()),
                leaders: x.leaders.clone(),
                hand: x.hand.clone().unwrap(),
                hand_limit: Some(x.hand_limit),
                traitors: x.traitors.clone().unwrap(),
                face_dancers: x.face_dancers.clone().unwrap(),
                ally: x.ally,
                nexus: x.nexus,
                free_revival: Some(x.free_revival),
                elite_revived: g.faction(x.faction).unwrap().elite_revived,
                revealed_face_dancers: x.revealed_face_dancers.clone(),
                extra_leaders: x.leaders.iter().map(|l| l.leader).filter(|l| l.is_extra()).collect(),
                ally_since: x.ally_since,
            };
            (x.faction, fs)
        })
        .collect();
    let placement_open = v.pending.iter().any(|f| f.kind == "placement");
    Setup {
        seats: v.seats.clone(),
        seed: Some(1),
        options: v.options,
        hms: v.hms,
        policies: v.policies.clone(),
        turn: Some(v.turn),
        phase: Some(v.phase),
        storm: Some(v.storm),
        shield_wall_standing: Some(v.shield_wall_standing),
        factions,
        cards: Some(v.treachery.catalog.to_vec()),
        extra_cards: vec![],
        deck: v.treachery.deck.clone(),
        discard: v.treachery.discard.clone(),
        nexus_deck: Some(g.nexus().deck.clone()),
        nexus_discard: v.nexus.discard.clone(),
        ambassadors: Some(AmbassadorsSetup {
            zones: v.ambassadors.tokens.iter().map(|t| (t.token, t.zone)).collect(),
            cohort: v.ambassadors.cohort.clone().unwrap(),
            cycle: v.ambassadors.cycle,
            placement: v.ambassadors.placement,
        }),
        duke: Some(v.duke),
        duke_before_loan: g.duke().before_loan,
        placement_open,
        outside: v.treachery.outside.clone(),
        duke_since: v.duke_since,
        duke_battle_turn: v.duke_battle_turn,
        ..Setup::default()
    }
}

/// A view with frame ids zeroed (an import numbers its frames afresh) and
/// private knowledge dropped (a Setup has no field for it; see the report).
fn comparable(mut v: View) -> Value {
    // D-230: an import counts its own commands from 0.
    v.revision = 0;
    for f in &mut v.pending {
        f.id = ecaz::FrameId(0);
    }
    v.knowledge.clear();
    serde_json::to_value(v).unwrap()
}

#[test]
fn issue7_import_from_the_host_view_rebuilds_the_played_game() {
    let snapshots = played();
    assert_eq!(snapshots.len(), 5);
    for (i, g) in snapshots.iter().enumerate() {
        let v = view(g, Viewer::Host);
        let s = setup_from_view(&v, g);
        // The Setup document itself crosses JSON.
        let text = serde_json::to_string(&s).unwrap();
        let s = ecaz::setup_from_json(&text).unwrap();
        let rebuilt = match s.build() {
            Ok(r) => r,
            Err(e) => panic!("snapshot {i}: {} {:?}", e.code(), e.problems()),
        };
        assert_eq!(
            comparable(view(&rebuilt, Viewer::Host)),
            comparable(v),
            "snapshot {i}: the rebuilt host view differs"
        );
        // Beyond the view: the whole state but the RNG, counters, knowledge
        // and per-turn memos that are not part of a Setup.
        let strip = |g: &Game| {
            let mut x = json_value(g);
            let o = x.as_object_mut().unwrap();
            // The revision (D-230) counts the commands of this engine's copy:
            // an import starts its own count.
            for k in [
                "rng",
                "nextFrame",
                "nextArrival",
                "knowledge",
                "shipmentBegun",
                "revision",
            ] {
                o.remove(k);
            }
            x["duke"]["battleTurn"] = Value::Null;
            for f in x["pending"].as_array_mut().unwrap() {
                f["id"] = json!(0);
            }
            x
        };
        assert_eq!(strip(&rebuilt), strip(g), "snapshot {i}: the rebuilt state differs");
        // The rebuilt game plays on like the original: same commands, same
        // table events (frame ids renumbered).
        if placement_open(g) {
            let place = |g: &Game| {
                options(g, Actor::Faction(Ecaz))
                    .commands
                    .into_iter()
                    .find(|c| matches!(c.action, Action::Place { .. }))
                    .unwrap()
            };
            let (a, ea) = ok(g, &place(g));
            let (b, eb) = ok(&rebuilt, &place(&rebuilt));
            assert_eq!(kind_names(&ea), kind_names(&eb));
            let (a, ea) = allow(&a);
            let (b, eb) = allow(&b);
            assert_eq!(ea.len(), eb.len());
            assert_eq!(ea[0], eb[0], "the same placement");
            assert_eq!(comparable(view(&a, Viewer::Host)), comparable(view(&b, Viewer::Host)));
        } else {
            for action in [
                Action::DrawCard { faction: Fremen },
                Action::EndPhase { phase: g.phase() },
            ] {
                let (a, ea) = ok(g, &host(action.clone()));
                let (b, eb) = ok(&rebuilt, &host(action));
                assert_eq!(ea, eb, "snapshot {i}");
                assert_eq!(comparable(view(&a, Viewer::Host)), comparable(view(&b, Viewer::Host)));
            }
        }
    }
}

#[test]
fn issue7_import_reports_every_problem_at_once() {
    let mut s = table_setup();
    // 1. a card in a hand and in the discard pile; a card that does not exist
    fs(&mut s, Fremen).hand = vec![CardId(0), CardId(200)];
    // 2. a Traitor card held by two factions
    fs(&mut s, Fremen).traitors = vec![TraitorCard::Leader(Leader::FeydRautha)];
    // 3. an alliance that is not reciprocal
    fs(&mut s, Ecaz).ally = Some(Atreides);
    // 4. 21 forces
    fs(&mut s, BeneGesserit).reserves = Some(Forces { normal: 16, elite: 0 });
    // 5. a leader captured by an unseated faction
    fs(&mut s, Atreides).leaders.push(LeaderState {
        leader: Leader::ThufirHawat,
        custody: LeaderCustody::Captured { by: Emperor },
    });
    // 6. Duke Vidal held by an unseated faction
    s.duke = Some(DukeCustody::Captured { by: Emperor });
    // 7. a cohort of four
    s.ambassadors = Some(AmbassadorsSetup {
        zones: BTreeMap::new(),
        cohort: vec![
            Ambassador::Atreides,
            Ambassador::Choam,
            Ambassador::Emperor,
            Ambassador::Guild,
        ],
        cycle: 0,
        placement: PlacementTurn::default(),
    });
    // 8. an open placement window outside Revival (the table is in Battle)
    s.placement_open = true;
    // 9. advisors for a faction that has none
    fs(&mut s, Fremen).board = Some(vec![stack(Territory::HabbanyaErg, 16, 3, 0, 2)]);
    // 10. a Nexus card held while allied (Ecaz is "allied" above)
    fs(&mut s, Ecaz).nexus = Some(Faction::Fremen);
    let err = s.build().unwrap_err();
    assert_eq!(err.code(), "setup/invalid");
    let paths: Vec<&str> = err.problems().iter().map(|p| p.path.as_str()).collect();
    for expected in [
        "factions.fremen.hand",
        "factions.fremen.traitors",
        "factions.ecaz.ally",
        "factions.beneGesserit.forces",
        "factions.atreides.leaders",
        "duke",
        "ambassadors.cohort",
        "placementOpen",
        "factions.fremen.board[0]",
        "factions.ecaz.nexus",
    ] {
        assert!(
            paths.iter().any(|p| p.starts_with(expected)),
            "{expected} missing from {paths:?}"
        );
    }
    assert!(paths.len() >= 10, "{paths:?}");
    // Also through the JSON door, with the problem list on the wire.
    let text = serde_json::to_string(&s).unwrap();
    let err = new_game_json(&text).unwrap_err();
    assert_eq!(err.report().problems.len(), paths.len());
}

#[test]
fn issue7_import_refuses_what_a_report_could_never_produce() {
    let mut s = table_setup();
    fs(&mut s, Harkonnen)
        .traitors
        .push(TraitorCard::Leader(Leader::RivvyDinari)); // 5 (MAX_TRAITORS = 4)
    fs(&mut s, Tleilaxu)
        .face_dancers
        .push(TraitorCard::Leader(Leader::IlesaEcaz)); // 4 (MAX_FACE_DANCERS = 3)
    fs(&mut s, Fremen).hand_limit = Some(0); // setHandLimit: 1–20
    fs(&mut s, Atreides).hand_limit = Some(21);
    fs(&mut s, Ecaz).spice = Some(MAX_SPICE + 1); // gainSpice: at most MAX_SPICE
    fs(&mut s, Fremen).elite_revived = 21; // more than a faction's 20 forces
    fs(&mut s, Atreides).elite_revived = 1; // the Atreides have no elite forces
    let err = s.build().expect_err("every one of these is impossible");
    let paths: Vec<&str> = err.problems().iter().map(|p| p.path.as_str()).collect();
    for expected in [
        "factions.harkonnen.traitors",
        "factions.tleilaxu.faceDancers",
        "factions.fremen.handLimit",
        "factions.atreides.handLimit",
        "factions.ecaz.spice",
        "factions.fremen.eliteRevived",
        "factions.atreides.eliteRevived",
    ] {
        assert!(paths.contains(&expected), "{expected} missing from {paths:?}");
    }
}

#[test]
fn issue7_import_refuses_an_inconsistent_duke_loan_or_placement_turn() {
    // P-DUKE-LOAN: only Ecaz's ally can hold a lent Duke (the table has no alliance).
    let mut s = table_setup();
    s.duke = Some(DukeCustody::Controlled {
        by: Atreides,
        source: DukeSource::AllianceLoan,
    });
    s.duke_before_loan = Some(DukeCustody::SetAside);
    assert!(s.build().is_err(), "a loan to a non-ally was imported");
    // A return custody recorded while he is not lent.
    let mut s = table_setup();
    s.duke_before_loan = Some(DukeCustody::Tanks);
    assert!(s.build().is_err(), "dukeBeforeLoan without a loan was imported");
    // R-PLC-5: a Karama that prevented placement closed the opportunity.
    let mut s = table_setup();
    s.ambassadors = Some(AmbassadorsSetup {
        zones: BTreeMap::new(),
        cohort: vec![
            Ambassador::Atreides,
            Ambassador::Choam,
            Ambassador::Emperor,
            Ambassador::Guild,
            Ambassador::Richese,
        ],
        cycle: 0,
        placement: PlacementTurn {
            placed: 0,
            closed: false,
            prevented_by: Some(Harkonnen),
        },
    });
    assert!(
        s.build().is_err(),
        "preventedBy with the placement still open was imported"
    );
}

#[test]
fn issue7_import_at_an_open_placement_window_needs_revival_and_ecaz() {
    let mut s = table_setup();
    s.placement_open = true;
    s.phase = Some(Phase::Revival);
    assert!(placement_open(&build_setup(&s)));
    // The turn's opportunity already used.
    s.ambassadors = Some(AmbassadorsSetup {
        zones: BTreeMap::new(),
        cohort: vec![
            Ambassador::Atreides,
            Ambassador::Choam,
            Ambassador::Emperor,
            Ambassador::Guild,
            Ambassador::Richese,
        ],
        cycle: 0,
        placement: PlacementTurn {
            placed: 0,
            closed: true,
            prevented_by: Some(Atreides),
        },
    });
    let err = s.build().unwrap_err();
    assert!(err.problems().iter().any(|p| p.path == "placementOpen"), "{err}");
    // Ecaz not seated.
    let mut s = setup(&[Atreides, Harkonnen], 3);
    s.phase = Some(Phase::Revival);
    s.placement_open = true;
    let err = s.build().unwrap_err();
    assert!(err.problems().iter().any(|p| p.path == "placementOpen"), "{err}");
}
