//! The card and spice effects (RULES §5: R-EFF-ATR, R-EFF-HAR,
//! R-EFF-CHOAM, R-EFF-EMP, R-EFF-IX, R-EFF-RIC, R-EFF-BG; P-RIC-PAY,
//! P-BG-POOL, P-SUPPLY-VIS), with spice and cards checked exactly, and the
//! privacy of what the inspections reveal.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

mod arrivals;
mod common;

use std::collections::BTreeSet;

use arrivals::*;
use common::*;
use ecaz::TraitorCard;
use ecaz::{
    Action, Actor, Ambassador, ArrivalId, Audience, BgPool, CardId, Decision, Event, EventKind, Faction, Game, Insight,
    Knowledge, Leader, RichesePay, Setup, SupplyVisibility, Territory, Viewer, Zone,
};
use serde_json::Value;

// ---------------------------------------------------------------- helpers

/// Every seat but those in `except`, plus the spectator.
fn other_viewers(g: &Game, except: &[Faction]) -> Vec<Viewer> {
    g.seats()
        .iter()
        .filter(|f| !except.contains(f))
        .map(|&f| Viewer::Faction(f))
        .chain(std::iter::once(Viewer::Spectator))
        .collect()
}

/// Put `top` on top of the deck (in order); the rest of the unheld cards follow.
fn deck_top(s: &mut Setup, top: &[u16]) {
    let n = s.cards.as_ref().map_or(33, Vec::len);
    let held: BTreeSet<u16> = s
        .factions
        .values()
        .flat_map(|f| f.hand.iter().map(|c| c.0))
        .chain(s.discard.iter().map(|c| c.0))
        .chain(top.iter().copied())
        .collect();
    let mut deck: Vec<CardId> = top.iter().map(|&c| CardId(c)).collect();
    deck.extend((0..u16::try_from(n).unwrap()).filter(|c| !held.contains(c)).map(CardId));
    s.deck = Some(deck);
}

fn hand(g: &Game, f: Faction) -> Vec<CardId> {
    g.faction(f).unwrap().hand.clone()
}

fn ids(cards: &[u16]) -> Vec<CardId> {
    cards.iter().map(|&c| CardId(c)).collect()
}

fn open_decision(g: &Game) -> (Actor, Decision) {
    let f = g.open_frame().expect("a frame is open");
    (f.actor, f.decision.clone())
}

/// `entrant` ships one force into `to`; Ecaz triggers for `beneficiary`.
fn enter_and_trigger(g: &Game, entrant: Faction, to: Territory, beneficiary: Faction) -> (Game, Vec<Event>) {
    let (g, mut events) = ok(g, &ship(entrant, to, 1));
    let (g, more) = ok(&g, &trigger(&g, beneficiary));
    events.extend(more);
    (g, events)
}

fn answer(g: &Game, who: Faction, action: impl FnOnce(ecaz::FrameId) -> Action) -> (Game, Vec<Event>) {
    let id = open_id(g);
    ok(g, &as_faction(who, action(id)))
}

fn spice_of_all(g: &Game) -> Vec<(Faction, u32)> {
    g.seats().iter().map(|&f| (f, spice(g, f))).collect()
}

/// Does a JSON value mention one of `cards` as a card (under a card-ish key)?
fn mentions_cards(v: &Value, cards: &[u16], key: &str) -> bool {
    let card_key = matches!(key, "card" | "cards" | "hand" | "deck");
    match v {
        Value::Number(n) => card_key && n.as_u64().is_some_and(|x| cards.iter().any(|&c| u64::from(c) == x)),
        Value::Array(items) => items.iter().any(|x| mentions_cards(x, cards, key)),
        Value::Object(m) => m.iter().any(|(k, x)| mentions_cards(x, cards, k)),
        _ => false,
    }
}

/// Does a JSON value mention the leader id anywhere but in the public leader rosters?
fn mentions_leader(v: &Value, leader: &str) -> bool {
    match v {
        Value::String(s) => s == leader,
        Value::Array(items) => items.iter().any(|x| mentions_leader(x, leader)),
        Value::Object(m) => m.iter().any(|(k, x)| k != "leaders" && mentions_leader(x, leader)),
        _ => false,
    }
}

// ---------------------------------------------------------------- R-EFF-ATR

fn atreides_table() -> Setup {
    let mut s = placed_table(
        &[Faction::Ecaz, Faction::Harkonnen, Faction::Atreides],
        &COHORT,
        &[(Ambassador::Atreides, Territory::Arrakeen)],
    );
    let k = karamas()[0].0;
    give_hand(&mut s, Faction::Harkonnen, &[k, 9, 13]);
    s
}

#[test]
fn r_eff_atr_beneficiary_sees_the_whole_hand_privately() {
    let g = build_setup(&atreides_table());
    let k = karamas()[0].0;
    let spices = spice_of_all(&g);
    let (g, events) = enter_and_trigger(&g, Faction::Harkonnen, Territory::Arrakeen, Faction::Ecaz);
    assert_eq!(
        kind_names(&events),
        vec![
            "arrived",
            "decisionOpened",
            "ambassadorTriggered",
            "handInspected",
            "handSeen",
            "effectResolved",
            "resume"
        ]
    );
    let seen = events
        .iter()
        .find(|e| matches!(e.event, EventKind::HandSeen { .. }))
        .unwrap();
    assert_eq!(
        seen.event,
        EventKind::HandSeen {
            of: Faction::Harkonnen,
            cards: ids(&[k, 9, 13])
        }
    );
    assert_eq!(
        seen.audience,
        ecaz::Audience::Only {
            factions: vec![Faction::Ecaz]
        }
    );
    let inspected = events
        .iter()
        .find(|e| matches!(e.event, EventKind::HandInspected { .. }))
        .unwrap();
    assert_eq!(inspected.audience, ecaz::Audience::Public);
    // A snapshot, not a transfer.
    assert_eq!(hand(&g, Faction::Harkonnen), ids(&[k, 9, 13]));
    assert!(hand(&g, Faction::Ecaz).is_empty());
    assert_eq!(spice_of_all(&g), spices);
    let record = Knowledge {
        viewer: Faction::Ecaz,
        about: Faction::Harkonnen,
        turn: 1,
        info: Insight::Hand {
            cards: ids(&[k, 9, 13]),
        },
    };
    assert_eq!(view(&g, Viewer::Faction(Faction::Ecaz)).knowledge, vec![record.clone()]);
    assert_eq!(view(&g, Viewer::Host).knowledge, vec![record]);
    for v in other_viewers(&g, &[Faction::Ecaz]) {
        assert!(view(&g, v).knowledge.is_empty(), "{v} sees the record");
    }
}

#[test]
fn r_eff_atr_snapshot_persists_through_json_and_later_hand_changes() {
    let g = build_setup(&atreides_table());
    let k = karamas()[0];
    let (g, _) = enter_and_trigger(&g, Faction::Harkonnen, Territory::Arrakeen, Faction::Ecaz);
    let record = g.knowledge().to_vec();
    assert_eq!(record.len(), 1);
    assert_round_trip(&g);
    let g = ecaz::game_from_json(&json(&g)).unwrap();
    assert_eq!(g.knowledge(), record.as_slice());
    // Next turn, Harkonnen spends its Karama against a placement: its hand changes.
    let (g, _) = walk_to_revival_end(&g);
    let (g, _) = announce(&g, Ambassador::Ecaz, Territory::Carthag);
    let (g, _) = ok(
        &g,
        &host(Action::CancelPlacement {
            frame: open_id(&g),
            faction: Faction::Harkonnen,
            card: k,
            host_vouched_karama: false,
        }),
    );
    assert_eq!(hand(&g, Faction::Harkonnen), ids(&[9, 13]));
    assert_eq!(g.knowledge(), record.as_slice(), "the snapshot is not rewritten");
    assert_eq!(g.knowledge()[0].turn, 1);
}

// ---------------------------------------------------------------- R-EFF-HAR

const TRAITORS: [Leader; 3] = [Leader::Bashar, Leader::SanyaEcaz, Leader::Wykk];

fn harkonnen_table(seed: u64) -> Setup {
    let mut s = placed_table(
        &[Faction::Ecaz, Faction::Atreides, Faction::Emperor, Faction::Tleilaxu],
        &COHORT,
        &[(Ambassador::Harkonnen, Territory::Arrakeen)],
    );
    s.seed = Some(seed);
    fs(&mut s, Faction::Atreides).traitors = TRAITORS.map(TraitorCard::Leader).to_vec();
    fs(&mut s, Faction::Tleilaxu).face_dancers = vec![
        TraitorCard::Leader(Leader::Burseg),
        TraitorCard::Leader(Leader::LadyJessica),
    ];
    s
}

fn traitor_seen(events: &[Event]) -> Option<(Faction, TraitorCard, bool)> {
    events.iter().find_map(|e| match e.event {
        EventKind::TraitorSeen {
            of,
            leader,
            face_dancer,
        } => Some((of, leader, face_dancer)),
        _ => None,
    })
}

#[test]
fn r_eff_har_one_random_traitor_seen_only_by_the_beneficiary() {
    let g = build_setup(&harkonnen_table(1));
    let (g, _) = ok(&g, &ship(Faction::Atreides, Territory::Arrakeen, 1));
    let rng = rng_words(&g);
    let (g, events) = ok(&g, &trigger(&g, Faction::Ecaz));
    assert_ne!(rng_words(&g), rng, "the card is drawn at the commit");
    assert_eq!(
        kind_names(&events),
        vec![
            "ambassadorTriggered",
            "traitorInspected",
            "traitorSeen",
            "effectResolved",
            "resume"
        ]
    );
    let (of, leader, face_dancer) = traitor_seen(&events).unwrap();
    assert_eq!((of, face_dancer), (Faction::Atreides, false));
    assert!(TRAITORS.iter().any(|l| leader == *l));
    for e in &events {
        if matches!(e.event, EventKind::TraitorSeen { .. }) {
            assert!(e.visible_to(Viewer::Faction(Faction::Ecaz)));
            for v in other_viewers(&g, &[Faction::Ecaz]) {
                assert!(!e.visible_to(v), "{v} sees the traitor");
            }
        }
    }
    assert_eq!(
        view(&g, Viewer::Faction(Faction::Ecaz)).knowledge,
        vec![Knowledge {
            viewer: Faction::Ecaz,
            about: Faction::Atreides,
            turn: 1,
            info: Insight::Traitor { leader },
        }]
    );
    // Nothing moves: Atreides keeps its traitors.
    assert_eq!(g.faction(Faction::Atreides).unwrap().traitors, TRAITORS.to_vec());
}

#[test]
fn r_eff_har_drawn_once_same_seed_and_commands_same_card() {
    let mut picks = BTreeSet::new();
    for seed in 0..30 {
        let run = || {
            let g = build_setup(&harkonnen_table(seed));
            let (g, _) = ok(&g, &ship(Faction::Atreides, Territory::Arrakeen, 1));
            // Rejected answers first: they draw nothing.
            let rng = rng_words(&g);
            assert_rejected(&g, &trigger(&g, Faction::Atreides), "rule/not_a_beneficiary");
            assert_rejected(
                &g,
                &as_faction(Faction::Atreides, trigger(&g, Faction::Ecaz).action),
                "rule/not_your_decision",
            );
            assert_eq!(rng_words(&g), rng);
            let (g2, events) = ok_reloaded(&g, &trigger(&g, Faction::Ecaz));
            (g2, traitor_seen(&events).unwrap().1)
        };
        let (a, leader_a) = run();
        let (b, leader_b) = run();
        assert_eq!(leader_a, leader_b, "seed {seed}");
        assert_eq!(json(&a), json(&b));
        // The record survives a reload unchanged (no new draw).
        let back = ecaz::game_from_json(&json(&a)).unwrap();
        assert_eq!(back.knowledge(), a.knowledge());
        picks.insert(leader_a);
    }
    assert_eq!(
        picks,
        TRAITORS.into_iter().map(TraitorCard::Leader).collect(),
        "each traitor can be drawn"
    );
}

#[test]
fn r_eff_har_tleilaxu_entrant_shows_a_face_dancer() {
    let g = build_setup(&harkonnen_table(4));
    let (g, events) = enter_and_trigger(&g, Faction::Tleilaxu, Territory::Arrakeen, Faction::Ecaz);
    let (of, leader, face_dancer) = traitor_seen(&events).unwrap();
    assert_eq!((of, face_dancer), (Faction::Tleilaxu, true));
    assert!([Leader::Burseg, Leader::LadyJessica].iter().any(|l| leader == *l));
    assert_eq!(
        g.knowledge()[0].info,
        Insight::FaceDancer { leader },
        "kept as a Face Dancer insight"
    );
}

// ---------------------------------------------------------------- R-EFF-CHOAM

fn choam_table(ecaz_hand: &[u16]) -> Game {
    let mut s = placed_table(
        &[Faction::Ecaz, Faction::Harkonnen],
        &COHORT,
        &[(Ambassador::Choam, Territory::Arrakeen)],
    );
    give_hand(&mut s, Faction::Ecaz, ecaz_hand);
    give_hand(&mut s, Faction::Harkonnen, &[20]);
    s.discard = ids(&[30]);
    build_setup(&s)
}

#[test]
fn r_eff_choam_three_spice_for_each_discarded_card() {
    for chosen in [vec![], vec![4], vec![4, 17, 25], vec![25, 4]] {
        let g = choam_table(&[4, 17, 25]);
        let (g, _) = enter_and_trigger(&g, Faction::Harkonnen, Territory::Arrakeen, Faction::Ecaz);
        assert_eq!(
            open_decision(&g),
            (
                Actor::Faction(Faction::Ecaz),
                Decision::ChoamDiscard {
                    arrival: ArrivalId(1),
                    beneficiary: Faction::Ecaz
                }
            )
        );
        // D-83: options list keeping every card and discarding every card,
        // and describe the rest (any subset of the hand, in any order).
        let o = options(&g, Actor::Faction(Faction::Ecaz));
        let listed: Vec<Vec<CardId>> = o
            .commands
            .iter()
            .map(|c| match &c.action {
                Action::DiscardForSpice { cards, .. } => cards.clone(),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(listed, vec![vec![], ids(&[4, 17, 25])]);
        assert_eq!(
            o.choices,
            vec![ecaz::Choice::Discard {
                frame: open_id(&g),
                cards: ids(&[4, 17, 25])
            }]
        );
        let before = spice_of_all(&g);
        let (g, events) = answer(&g, Faction::Ecaz, |frame| Action::DiscardForSpice {
            frame,
            cards: ids(&chosen),
        });
        let gained = 3 * u32::try_from(chosen.len()).unwrap();
        for (f, s) in before {
            let expected = if f == Faction::Ecaz { s + gained } else { s };
            assert_eq!(spice(&g, f), expected, "{f} after {chosen:?}");
        }
        let kept: Vec<CardId> = ids(&[4, 17, 25])
            .into_iter()
            .filter(|c| !ids(&chosen).contains(c))
            .collect();
        assert_eq!(hand(&g, Faction::Ecaz), kept);
        // D-83: cards go in hand order, whatever the order named.
        let in_hand_order: Vec<CardId> = ids(&[4, 17, 25])
            .into_iter()
            .filter(|c| ids(&chosen).contains(c))
            .collect();
        let mut discard = ids(&[30]);
        discard.extend(in_hand_order.iter().copied());
        assert_eq!(g.treachery().discard, discard);
        let discarded: Vec<CardId> = events
            .iter()
            .filter_map(|e| match e.event {
                EventKind::CardDiscarded { faction, card } => {
                    assert_eq!(faction, Faction::Ecaz);
                    Some(card)
                }
                _ => None,
            })
            .collect();
        assert_eq!(discarded, in_hand_order);
        let gains: Vec<&EventKind> = kinds(&events)
            .into_iter()
            .filter(|e| matches!(e, EventKind::SpiceGained { .. }))
            .collect();
        if chosen.is_empty() {
            assert!(gains.is_empty());
        } else {
            assert_eq!(
                gains,
                vec![&EventKind::SpiceGained {
                    faction: Faction::Ecaz,
                    amount: gained
                }]
            );
        }
        assert_eq!(resumes(&events), vec![ArrivalId(1)]);
    }
}

#[test]
fn r_eff_choam_duplicate_and_unheld_cards_are_rejected() {
    let g = choam_table(&[4, 17]);
    let (g, _) = enter_and_trigger(&g, Faction::Harkonnen, Territory::Arrakeen, Faction::Ecaz);
    let id = open_id(&g);
    let discard = |cards: &[u16]| {
        ecaz(Action::DiscardForSpice {
            frame: id,
            cards: ids(cards),
        })
    };
    assert_rejected(&g, &discard(&[4, 4]), "rule/duplicate_card");
    assert_rejected(&g, &discard(&[17, 4, 17]), "rule/duplicate_card");
    assert_rejected(&g, &discard(&[20]), "rule/card_not_held"); // Harkonnen's
    assert_rejected(&g, &discard(&[30]), "rule/card_not_held"); // the discard pile
    assert_rejected(&g, &discard(&[4, 0]), "rule/card_not_held"); // the deck
    assert_rejected(&g, &discard(&[999]), "rule/card_not_held");
}

#[test]
fn r_eff_choam_empty_hand_resolves_with_nothing_and_no_frame() {
    let g = choam_table(&[]);
    let before = json_value(&g);
    let (g, events) = enter_and_trigger(&g, Faction::Harkonnen, Territory::Arrakeen, Faction::Ecaz);
    assert_eq!(
        kind_names(&events),
        vec![
            "arrived",
            "decisionOpened",
            "ambassadorTriggered",
            "effectResolved",
            "resume"
        ]
    );
    assert!(g.open_frame().is_none());
    let after = json_value(&g);
    assert_eq!(after["factions"][0]["spice"], before["factions"][0]["spice"]);
    assert_eq!(after["treachery"], before["treachery"]);
}

// ---------------------------------------------------------------- R-EFF-EMP

#[test]
fn r_eff_emp_five_spice_from_the_bank() {
    let g = emperor_in_arrakeen();
    let before = spice_of_all(&g);
    let (g, events) = enter_and_trigger(&g, Faction::Harkonnen, Territory::Arrakeen, Faction::Ecaz);
    assert!(kinds(&events).contains(&&EventKind::SpiceGained {
        faction: Faction::Ecaz,
        amount: 5
    }));
    assert_eq!(count(&events, "spicePaid"), 0, "from the bank, nobody pays");
    for (f, s) in before {
        assert_eq!(spice(&g, f), if f == Faction::Ecaz { s + 5 } else { s });
    }
}

// ---------------------------------------------------------------- R-EFF-IX

fn ixian_setup() -> Setup {
    let cohort = [
        Ambassador::Ixians,
        Ambassador::Richese,
        Ambassador::Choam,
        Ambassador::Emperor,
        Ambassador::Harkonnen,
    ];
    placed_table(
        &[Faction::Ecaz, Faction::Harkonnen, Faction::Atreides],
        &cohort,
        &[
            (Ambassador::Ixians, Territory::Arrakeen),
            (Ambassador::Richese, Territory::Carthag),
        ],
    )
}

#[test]
fn r_eff_ix_discard_one_then_draw_the_top_card() {
    let mut s = ixian_setup();
    give_hand(&mut s, Faction::Ecaz, &[4, 17]);
    s.discard = ids(&[30]);
    deck_top(&mut s, &[8, 9]);
    let g = build_setup(&s);
    let (g, _) = enter_and_trigger(&g, Faction::Harkonnen, Territory::Arrakeen, Faction::Ecaz);
    assert_eq!(open_decision(&g).0, Actor::Faction(Faction::Ecaz));
    assert_eq!(options(&g, Actor::Faction(Faction::Ecaz)).commands.len(), 2);
    assert_rejected(
        &g,
        &ecaz(Action::SwapCard {
            frame: open_id(&g),
            card: CardId(8),
        }),
        "rule/card_not_held",
    );
    let rng = rng_words(&g);
    let (g, events) = answer(&g, Faction::Ecaz, |frame| Action::SwapCard { frame, card: CardId(4) });
    assert_eq!(rng_words(&g), rng, "a non-empty deck is not shuffled");
    assert_eq!(
        kind_names(&events),
        vec!["cardDiscarded", "cardDrawn", "cardReceived", "effectResolved", "resume"]
    );
    assert_eq!(hand(&g, Faction::Ecaz), ids(&[17, 8]));
    assert_eq!(g.treachery().discard, ids(&[30, 4]));
    assert_eq!(g.treachery().deck.first(), Some(&CardId(9)));
    let received = events
        .iter()
        .find(|e| matches!(e.event, EventKind::CardReceived { .. }))
        .unwrap();
    assert_eq!(
        received.event,
        EventKind::CardReceived {
            faction: Faction::Ecaz,
            card: CardId(8)
        }
    );
    // The drawn card's id is only in `cardReceived`, only for the beneficiary.
    for v in other_viewers(&g, &[Faction::Ecaz]) {
        for e in events.iter().filter(|e| e.visible_to(v)) {
            let value = serde_json::to_value(e).unwrap();
            assert!(!mentions_cards(&value, &[8], ""), "{v} learns the drawn card: {value}");
        }
        assert!(!mentions_cards(&serde_json::to_value(view(&g, v)).unwrap(), &[8], ""));
    }
    assert!(received.visible_to(Viewer::Faction(Faction::Ecaz)));
}

#[test]
fn r_eff_ix_empty_deck_reshuffles_the_discard_including_the_card_just_discarded() {
    // A three-card catalog: every card is held, deck and discard are empty.
    let mut s = ixian_setup();
    s.cards = Some(vec!["shield".into(), "snooper".into(), "karama".into()]);
    give_hand(&mut s, Faction::Ecaz, &[0]);
    give_hand(&mut s, Faction::Harkonnen, &[1]);
    give_hand(&mut s, Faction::Atreides, &[2]);
    s.deck = Some(vec![]);
    let g = build_setup(&s);
    let (g, _) = enter_and_trigger(&g, Faction::Harkonnen, Territory::Arrakeen, Faction::Ecaz);
    let (g, events) = answer(&g, Faction::Ecaz, |frame| Action::SwapCard { frame, card: CardId(0) });
    assert_eq!(
        kind_names(&events),
        vec![
            "cardDiscarded",
            "deckReshuffled",
            "deckOrder",
            "cardDrawn",
            "cardReceived",
            "effectResolved",
            "resume"
        ]
    );
    assert!(kinds(&events).contains(&&EventKind::DeckReshuffled { cards: 1 }));
    // The new deck order goes to the host alone (it mirrors the deck).
    let order = events
        .iter()
        .find(|e| matches!(e.event, EventKind::DeckOrder { .. }))
        .unwrap();
    assert_eq!(order.audience, Audience::Host);
    assert_eq!(order.event, EventKind::DeckOrder { deck: ids(&[0]) });
    for v in other_viewers(&g, &[]) {
        assert!(!order.visible_to(v), "{v} sees the deck order");
    }
    assert!(order.visible_to(Viewer::Host));
    assert_eq!(hand(&g, Faction::Ecaz), ids(&[0]), "the card just discarded comes back");
    assert!(g.treachery().deck.is_empty() && g.treachery().discard.is_empty());
    assert_round_trip(&g);
}

#[test]
fn r_eff_ix_empty_deck_with_a_discard_pile_shuffles_with_the_rng() {
    let mut s = ixian_setup();
    s.cards = Some((0..5).map(|i| format!("card_{i}")).collect());
    give_hand(&mut s, Faction::Ecaz, &[0]);
    give_hand(&mut s, Faction::Harkonnen, &[1]);
    s.discard = ids(&[2, 3, 4]);
    s.deck = Some(vec![]);
    let g = build_setup(&s);
    let (g, _) = enter_and_trigger(&g, Faction::Harkonnen, Territory::Arrakeen, Faction::Ecaz);
    let rng = rng_words(&g);
    let (g, events) = answer(&g, Faction::Ecaz, |frame| Action::SwapCard { frame, card: CardId(0) });
    assert_ne!(rng_words(&g), rng, "the reshuffle is a commit point");
    assert!(kinds(&events).contains(&&EventKind::DeckReshuffled { cards: 4 }));
    let drawn = hand(&g, Faction::Ecaz);
    assert_eq!(drawn.len(), 1);
    // The host-only deck order, right after the reshuffle, is the shuffled
    // pile: the drawn card on top, then the deck as it stands.
    let names = kind_names(&events);
    let at = names.iter().position(|k| k == "deckReshuffled").unwrap();
    assert_eq!(names.get(at + 1).map(String::as_str), Some("deckOrder"));
    let order = &events[at + 1];
    assert_eq!(order.audience, Audience::Host);
    let mut mirrored = drawn.clone();
    mirrored.extend(g.treachery().deck.iter().copied());
    assert_eq!(order.event, EventKind::DeckOrder { deck: mirrored });
    assert!(ids(&[0, 2, 3, 4]).contains(&drawn[0]));
    assert!(g.treachery().discard.is_empty());
    assert_eq!(g.treachery().deck.len(), 3);
    let mut all: Vec<CardId> = g.treachery().deck.clone();
    all.extend(drawn);
    all.sort();
    assert_eq!(all, ids(&[0, 2, 3, 4]));
}

// ---------------------------------------------------------------- R-EFF-RIC

fn richese_game(ecaz_spice: u32, ecaz_hand: &[u16]) -> Game {
    let mut s = ixian_setup();
    fs(&mut s, Faction::Ecaz).spice = Some(ecaz_spice);
    give_hand(&mut s, Faction::Ecaz, ecaz_hand);
    deck_top(&mut s, &[21, 22]);
    build_setup(&s)
}

#[test]
fn r_eff_ric_buy_pays_three_to_the_bank_and_takes_the_top_card() {
    let g = richese_game(7, &[4]);
    let (g, _) = enter_and_trigger(&g, Faction::Harkonnen, Territory::Carthag, Faction::Ecaz);
    assert_eq!(open_decision(&g).1.name(), "richeseBuy");
    let before = spice_of_all(&g);
    let (g, events) = answer(&g, Faction::Ecaz, |frame| Action::BuyCard { frame, buy: true });
    assert!(kinds(&events).contains(&&EventKind::SpicePaid {
        faction: Faction::Ecaz,
        amount: 3,
        to: None
    }));
    for (f, s) in before {
        assert_eq!(spice(&g, f), if f == Faction::Ecaz { s - 3 } else { s });
    }
    assert_eq!(hand(&g, Faction::Ecaz), ids(&[4, 21]));
    assert_eq!(g.treachery().deck.first(), Some(&CardId(22)));
    assert_eq!(resumes(&events), vec![ArrivalId(1)]);
}

#[test]
fn r_eff_ric_declining_the_purchase_changes_nothing() {
    let g = richese_game(7, &[4]);
    let (g, _) = enter_and_trigger(&g, Faction::Harkonnen, Territory::Carthag, Faction::Ecaz);
    let mut before = json_value(&g);
    let (g, events) = answer(&g, Faction::Ecaz, |frame| Action::BuyCard { frame, buy: false });
    assert_eq!(kind_names(&events), vec!["effectResolved", "resume"]);
    before["pending"] = serde_json::json!([]);
    before["arrivals"] = serde_json::json!([]);
    advance_revision(&mut before, 1);
    assert_eq!(json_value(&g), before);
}

#[test]
fn r_eff_ric_insufficient_spice_is_told_only_to_the_actor() {
    let poor = richese_game(2, &[4]);
    let rich = richese_game(9, &[4]);
    let (poor, poor_events) = enter_and_trigger(&poor, Faction::Harkonnen, Territory::Carthag, Faction::Ecaz);
    let (rich, rich_events) = enter_and_trigger(&rich, Faction::Harkonnen, Territory::Carthag, Faction::Ecaz);
    // The frame opens either way: the events and every other view are the same.
    assert_eq!(poor_events, rich_events);
    for v in other_viewers(&poor, &[Faction::Ecaz]) {
        assert_eq!(view(&poor, v), view(&rich, v), "{v}");
        if let Viewer::Faction(f) = v {
            assert_eq!(options(&poor, Actor::Faction(f)), options(&rich, Actor::Faction(f)));
        }
    }
    let id = open_id(&poor);
    let buy = Action::BuyCard { frame: id, buy: true };
    let err = assert_rejected(&poor, &ecaz(buy.clone()), "rule/insufficient_spice");
    assert!(matches!(
        err,
        ecaz::ApplyError::InsufficientSpice {
            faction: Faction::Ecaz,
            has: 2,
            needs: 3
        }
    ));
    // Anyone else probing gets the same answer from both tables.
    for f in [Faction::Harkonnen, Faction::Atreides] {
        let a = assert_rejected(&poor, &as_faction(f, buy.clone()), "rule/not_your_decision");
        let b = assert_rejected(&rich, &as_faction(f, buy.clone()), "rule/not_your_decision");
        assert_eq!(a, b);
    }
    assert_eq!(
        options(&poor, Actor::Faction(Faction::Ecaz)).commands,
        vec![ecaz(Action::BuyCard { frame: id, buy: false })]
    );
    assert_eq!(options(&rich, Actor::Faction(Faction::Ecaz)).commands.len(), 2);
}

#[test]
fn r_eff_ric_full_hand_opens_no_frame() {
    let g = richese_game(9, &[4, 5, 6, 7]);
    let before = spice(&g, Faction::Ecaz);
    let (g, events) = enter_and_trigger(&g, Faction::Harkonnen, Territory::Carthag, Faction::Ecaz);
    assert_eq!(
        kind_names(&events)[2..],
        ["ambassadorTriggered", "effectResolved", "resume"]
    );
    assert!(g.open_frame().is_none());
    assert_eq!(spice(&g, Faction::Ecaz), before);
    assert_eq!(hand(&g, Faction::Ecaz).len(), 4);
}

fn purchase_game(pay: RichesePay) -> Game {
    let mut s = placed_table(
        &[Faction::Ecaz, Faction::Harkonnen, Faction::Emperor, Faction::Atreides],
        &[
            Ambassador::Richese,
            Ambassador::BeneGesserit,
            Ambassador::Choam,
            Ambassador::Emperor,
            Ambassador::Fremen,
        ],
        &[(Ambassador::Richese, Territory::Carthag)],
    );
    s.policies.richese_pay = pay;
    ally(&mut s, Faction::Harkonnen);
    give_hand(&mut s, Faction::Harkonnen, &[4]);
    deck_top(&mut s, &[21, 22, 23]);
    build_setup(&s)
}

#[test]
fn p_ric_pay_bank_by_default_one_card_even_for_harkonnen() {
    let g = purchase_game(RichesePay::Bank);
    let before = spice_of_all(&g);
    let (g, _) = enter_and_trigger(&g, Faction::Atreides, Territory::Carthag, Faction::Harkonnen);
    assert_eq!(open_decision(&g).0, Actor::Faction(Faction::Harkonnen));
    let (g, events) = answer(&g, Faction::Harkonnen, |frame| Action::BuyCard { frame, buy: true });
    assert!(kinds(&events).contains(&&EventKind::SpicePaid {
        faction: Faction::Harkonnen,
        amount: 3,
        to: None
    }));
    assert_eq!(hand(&g, Faction::Harkonnen), ids(&[4, 21]));
    for (f, s) in before {
        assert_eq!(spice(&g, f), if f == Faction::Harkonnen { s - 3 } else { s });
    }
}

#[test]
fn p_ric_pay_purchase_pays_the_emperor_and_gives_harkonnen_its_bonus_card() {
    let g = purchase_game(RichesePay::Purchase);
    let before = spice_of_all(&g);
    let (g, _) = enter_and_trigger(&g, Faction::Atreides, Territory::Carthag, Faction::Harkonnen);
    let (g, events) = answer(&g, Faction::Harkonnen, |frame| Action::BuyCard { frame, buy: true });
    assert!(kinds(&events).contains(&&EventKind::SpicePaid {
        faction: Faction::Harkonnen,
        amount: 3,
        to: Some(Faction::Emperor)
    }));
    assert_eq!(count(&events, "cardDrawn"), 2, "the Harkonnen bonus card");
    assert_eq!(hand(&g, Faction::Harkonnen), ids(&[4, 21, 22]));
    for (f, s) in before {
        let expected = match f {
            Faction::Harkonnen => s - 3,
            Faction::Emperor => s + 3,
            _ => s,
        };
        assert_eq!(spice(&g, f), expected, "{f}");
    }
}

#[test]
fn p_ric_pay_purchase_without_a_seated_emperor_pays_the_bank() {
    let mut s = placed_table(
        &[Faction::Ecaz, Faction::Atreides],
        &[
            Ambassador::Richese,
            Ambassador::BeneGesserit,
            Ambassador::Choam,
            Ambassador::Emperor,
            Ambassador::Fremen,
        ],
        &[(Ambassador::Richese, Territory::Carthag)],
    );
    s.policies.richese_pay = RichesePay::Purchase;
    let g = build_setup(&s);
    let before = spice(&g, Faction::Ecaz);
    let (g, _) = enter_and_trigger(&g, Faction::Atreides, Territory::Carthag, Faction::Ecaz);
    let (g, events) = answer(&g, Faction::Ecaz, |frame| Action::BuyCard { frame, buy: true });
    assert!(kinds(&events).contains(&&EventKind::SpicePaid {
        faction: Faction::Ecaz,
        amount: 3,
        to: None
    }));
    assert_eq!(count(&events, "cardDrawn"), 1);
    assert_eq!(spice(&g, Faction::Ecaz), before - 3);
}

// ---------------------------------------------------------------- R-EFF-BG

/// BG token in Arrakeen; the cohort is atreides, beneGesserit, choam,
/// emperor, fremen (outside it: harkonnen, ixians, richese, guild, tleilaxu).
fn bg_setup() -> Setup {
    let cohort = [
        Ambassador::Atreides,
        Ambassador::BeneGesserit,
        Ambassador::Choam,
        Ambassador::Emperor,
        Ambassador::Fremen,
    ];
    let zones = [
        (Ambassador::BeneGesserit, placed(Territory::Arrakeen)),
        (Ambassador::Choam, placed(Territory::Carthag)),
        (Ambassador::Atreides, Zone::Used),
    ];
    let mut s = table(&[Faction::Ecaz, Faction::Harkonnen, Faction::Emperor], &cohort, &zones);
    give_hand(&mut s, Faction::Ecaz, &[4]);
    fs(&mut s, Faction::Harkonnen).traitors = vec![TraitorCard::Leader(Leader::Bashar)];
    s
}

fn copy_candidates(g: &Game) -> Vec<Ambassador> {
    match open_decision(g) {
        (Actor::Faction(Faction::Ecaz), Decision::CopyEffect { candidates, .. }) => candidates,
        other => panic!("not a copy frame: {other:?}"),
    }
}

#[test]
fn r_eff_bg_default_pool_is_everything_outside_the_original_supply() {
    let g = build_setup(&bg_setup());
    let (g, events) = enter_and_trigger(&g, Faction::Harkonnen, Territory::Arrakeen, Faction::Ecaz);
    assert_eq!(
        zone(&g, Ambassador::BeneGesserit),
        Zone::Removed,
        "removed at the trigger"
    );
    assert!(kinds(&events).contains(&&EventKind::AmbassadorTriggered {
        arrival: ArrivalId(1),
        token: Ambassador::BeneGesserit,
        territory: Territory::Arrakeen,
        entrant: Faction::Harkonnen,
        beneficiary: Faction::Ecaz,
        disposal: Zone::Removed,
    }));
    // Cohort members are excluded wherever they are (used, placed, in supply);
    // Ecaz and BG never; the five outside identities are all there.
    assert_eq!(
        copy_candidates(&g),
        vec![
            Ambassador::Harkonnen,
            Ambassador::Ixians,
            Ambassador::Richese,
            Ambassador::Guild,
            Ambassador::Tleilaxu
        ]
    );
    let id = open_id(&g);
    for bad in [
        Ambassador::Ecaz,
        Ambassador::BeneGesserit,
        Ambassador::Atreides,
        Ambassador::Choam,
        Ambassador::Emperor,
        Ambassador::Fremen,
    ] {
        let err = assert_rejected(&g, &ecaz(Action::Copy { frame: id, effect: bad }), "rule/not_copyable");
        assert_eq!(err.rule(), Some("R-EFF-BG"));
    }
    let options: Vec<Action> = options(&g, Actor::Faction(Faction::Ecaz))
        .commands
        .into_iter()
        .map(|c| c.action)
        .collect();
    assert_eq!(options.len(), 5);
    assert!(!options.contains(&Action::Copy {
        frame: id,
        effect: Ambassador::Ecaz
    }));
}

#[test]
fn r_eff_bg_candidates_respect_p_unavailable() {
    // Ecaz holds no card (no Ixian) and Harkonnen no traitor (no Harkonnen).
    let mut s = bg_setup();
    give_hand(&mut s, Faction::Ecaz, &[]);
    fs(&mut s, Faction::Harkonnen).traitors = vec![];
    let g = build_setup(&s);
    let (g, _) = enter_and_trigger(&g, Faction::Harkonnen, Territory::Arrakeen, Faction::Ecaz);
    assert_eq!(
        copy_candidates(&g),
        vec![Ambassador::Richese, Ambassador::Guild, Ambassador::Tleilaxu]
    );
    assert_rejected(
        &g,
        &ecaz(Action::Copy {
            frame: open_id(&g),
            effect: Ambassador::Ixians,
        }),
        "rule/not_copyable",
    );
}

#[test]
fn r_eff_bg_not_in_supply_now_alternative() {
    let mut s = bg_setup();
    s.policies.bg_pool = BgPool::NotInSupplyNow;
    let g = build_setup(&s);
    let (g, _) = enter_and_trigger(&g, Faction::Harkonnen, Territory::Arrakeen, Faction::Ecaz);
    // Used (atreides) and placed (choam) cohort members join the pool tokens;
    // the supply (emperor, fremen), Ecaz and BG itself do not.
    assert_eq!(
        copy_candidates(&g),
        vec![
            Ambassador::Atreides,
            Ambassador::Choam,
            Ambassador::Harkonnen,
            Ambassador::Ixians,
            Ambassador::Richese,
            Ambassador::Guild,
            Ambassador::Tleilaxu
        ]
    );
    for bad in [Ambassador::Emperor, Ambassador::Fremen, Ambassador::Ecaz] {
        assert_rejected(
            &g,
            &ecaz(Action::Copy {
                frame: open_id(&g),
                effect: bad,
            }),
            "rule/not_copyable",
        );
    }
}

#[test]
fn r_eff_bg_copied_token_is_not_moved_or_marked_used() {
    for (copied, at) in [
        (Ambassador::Choam, placed(Territory::Carthag)),
        (Ambassador::Atreides, Zone::Used),
    ] {
        let mut s = bg_setup();
        s.policies.bg_pool = BgPool::NotInSupplyNow;
        let g = build_setup(&s);
        let (g, _) = enter_and_trigger(&g, Faction::Harkonnen, Territory::Arrakeen, Faction::Ecaz);
        let zones_before: Vec<ecaz::Token> = g.ambassadors().tokens.clone();
        let (g, events) = ok(
            &g,
            &ecaz(Action::Copy {
                frame: open_id(&g),
                effect: copied,
            }),
        );
        assert_eq!(
            events[0].event,
            EventKind::EffectCopied {
                arrival: ArrivalId(1),
                effect: copied
            }
        );
        assert_eq!(count(&events, "ambassadorTriggered"), 0, "the copy is no trigger");
        let g = if g.open_frame().is_some() {
            answer(&g, Faction::Ecaz, |frame| Action::DiscardForSpice {
                frame,
                cards: vec![],
            })
            .0
        } else {
            g
        };
        assert_eq!(zone(&g, copied), at);
        assert_eq!(g.ambassadors().tokens, zones_before, "{copied}: no token moved");
        assert_eq!(zone(&g, Ambassador::BeneGesserit), Zone::Removed);
        assert!(g.open_arrivals().is_empty());
    }
}

#[test]
fn r_eff_bg_copy_runs_the_copied_effect_for_the_ally_who_makes_its_choices() {
    let mut s = bg_setup();
    ally(&mut s, Faction::Emperor);
    give_hand(&mut s, Faction::Emperor, &[5, 6]);
    let g = build_setup(&s);
    let (g, _) = enter_and_trigger(&g, Faction::Harkonnen, Territory::Arrakeen, Faction::Emperor);
    // Ecaz picks the effect …
    assert_eq!(open_decision(&g).0, Actor::Faction(Faction::Ecaz));
    assert_rejected(
        &g,
        &as_faction(
            Faction::Emperor,
            Action::Copy {
                frame: open_id(&g),
                effect: Ambassador::Ixians,
            },
        ),
        "rule/not_your_decision",
    );
    let (g, _) = ok(
        &g,
        &ecaz(Action::Copy {
            frame: open_id(&g),
            effect: Ambassador::Ixians,
        }),
    );
    // … the ally makes the effect's own choices.
    assert_eq!(
        open_decision(&g),
        (
            Actor::Faction(Faction::Emperor),
            Decision::IxianSwap {
                arrival: ArrivalId(1),
                beneficiary: Faction::Emperor
            }
        )
    );
    let top = g.treachery().deck[0];
    let (g, events) = answer(&g, Faction::Emperor, |frame| Action::SwapCard {
        frame,
        card: CardId(6),
    });
    assert_eq!(hand(&g, Faction::Emperor), vec![CardId(5), top]);
    assert_eq!(hand(&g, Faction::Ecaz), ids(&[4]));
    assert!(kinds(&events).contains(&&EventKind::EffectResolved {
        arrival: ArrivalId(1),
        effect: Ambassador::Ixians,
        beneficiary: Faction::Emperor
    }));
    assert_eq!(resumes(&events), vec![ArrivalId(1)]);
}

#[test]
fn r_eff_bg_copy_of_the_emperor_gives_five() {
    let mut s = bg_setup();
    s.policies.bg_pool = BgPool::NotInSupplyNow;
    // Emperor placed elsewhere, so it is not in the supply now.
    s.ambassadors
        .as_mut()
        .unwrap()
        .zones
        .insert(Ambassador::Emperor, placed(Territory::TueksSietch));
    let g = build_setup(&s);
    let (g, _) = enter_and_trigger(&g, Faction::Harkonnen, Territory::Arrakeen, Faction::Ecaz);
    let before = spice(&g, Faction::Ecaz);
    let (g, events) = ok(
        &g,
        &ecaz(Action::Copy {
            frame: open_id(&g),
            effect: Ambassador::Emperor,
        }),
    );
    assert_eq!(spice(&g, Faction::Ecaz), before + 5);
    assert_eq!(
        kind_names(&events),
        vec!["effectCopied", "spiceGained", "effectResolved", "resume"]
    );
    assert_eq!(zone(&g, Ambassador::Emperor), placed(Territory::TueksSietch));
}

fn owner_only_copy_frame() -> Game {
    let mut s = bg_setup();
    s.policies.supply_visibility = SupplyVisibility::OwnerOnly;
    let g = build_setup(&s);
    let (g, _) = ok(&g, &ship(Faction::Harkonnen, Territory::Arrakeen, 1));
    g
}

#[test]
fn p_supply_vis_owner_only_hides_the_copy_frame_from_other_views() {
    let g = owner_only_copy_frame();
    let (g, _) = ok(&g, &trigger(&g, Faction::Ecaz));
    for v in [Viewer::Faction(Faction::Ecaz), Viewer::Host] {
        let pv = view(&g, v);
        assert_eq!(pv.pending.len(), 1);
        assert!(
            matches!(pv.pending[0].decision, Some(Decision::CopyEffect { .. })),
            "{v}"
        );
    }
    for v in other_viewers(&g, &[Faction::Ecaz]) {
        let pv = view(&g, v);
        assert_eq!(pv.pending[0].kind, "copyEffect");
        assert_eq!(pv.pending[0].decision, None, "{v} sees the copy candidates");
    }
}

#[test]
fn p_supply_vis_owner_only_hides_the_copy_candidates_from_other_event_streams() {
    let g = owner_only_copy_frame();
    let (_, events) = ok(&g, &trigger(&g, Faction::Ecaz));
    for v in other_viewers(&g, &[Faction::Ecaz]) {
        for e in events.iter().filter(|e| e.visible_to(v)) {
            assert!(
                !matches!(
                    &e.event,
                    EventKind::DecisionOpened {
                        decision: Some(Decision::CopyEffect { .. }),
                        ..
                    }
                ),
                "{v} receives the copy candidates: {e:?}"
            );
        }
        // The frame itself is announced to everyone, without its content.
        let opened: Vec<&EventKind> = events
            .iter()
            .filter(|e| e.visible_to(v))
            .map(|e| &e.event)
            .filter(|e| matches!(e, EventKind::DecisionOpened { .. }))
            .collect();
        assert!(
            matches!(
                opened.as_slice(),
                [EventKind::DecisionOpened { decision_kind, decision: None, .. }] if decision_kind == "copyEffect"
            ),
            "{v}: {opened:?}"
        );
    }
    // Ecaz (and the host) also get a copy with the candidates, Ecaz-only.
    for v in [Viewer::Faction(Faction::Ecaz), Viewer::Host] {
        assert!(
            events.iter().filter(|e| e.visible_to(v)).any(|e| matches!(
                &e.event,
                EventKind::DecisionOpened {
                    decision: Some(Decision::CopyEffect { .. }),
                    ..
                }
            )),
            "{v} gets the candidates"
        );
    }
    let full = events
        .iter()
        .find(|e| matches!(&e.event, EventKind::DecisionOpened { decision: Some(_), .. }))
        .unwrap();
    assert_eq!(
        full.audience,
        Audience::Only {
            factions: vec![Faction::Ecaz]
        }
    );
}

#[test]
fn p_supply_vis_public_copy_candidates_go_out_in_the_public_event() {
    let mut s = bg_setup();
    s.policies.supply_visibility = SupplyVisibility::Public;
    let g = build_setup(&s);
    let (g, _) = ok(&g, &ship(Faction::Harkonnen, Territory::Arrakeen, 1));
    let (g, events) = ok(&g, &trigger(&g, Faction::Ecaz));
    let opened: Vec<&Event> = events
        .iter()
        .filter(|e| matches!(e.event, EventKind::DecisionOpened { .. }))
        .collect();
    assert_eq!(opened.len(), 1, "one public announcement, no private copy");
    assert_eq!(opened[0].audience, Audience::Public);
    let frame = g.open_frame().unwrap();
    assert_eq!(
        opened[0].event,
        EventKind::DecisionOpened {
            frame: frame.id,
            actor: Actor::Faction(Faction::Ecaz),
            decision_kind: "copyEffect".to_string(),
            decision: Some(frame.decision.clone()),
        }
    );
}

// ---------------------------------------------------------------- no leak

/// Atreides token in Arrakeen (Harkonnen enters), Harkonnen token in Carthag
/// (the Emperor enters); five seats, so three factions are bystanders.
fn inspections(beneficiary: Faction) -> (Game, Vec<Event>) {
    let mut s = placed_table(
        &[
            Faction::Ecaz,
            Faction::Harkonnen,
            Faction::Emperor,
            Faction::Atreides,
            Faction::BeneGesserit,
        ],
        &COHORT,
        &[
            (Ambassador::Atreides, Territory::Arrakeen),
            (Ambassador::Harkonnen, Territory::Carthag),
        ],
    );
    if beneficiary != Faction::Ecaz {
        ally(&mut s, beneficiary);
    }
    give_hand(&mut s, Faction::Harkonnen, &[2, 19, 26]);
    fs(&mut s, Faction::Emperor).traitors = vec![TraitorCard::Leader(Leader::Alia)];
    let g = build_setup(&s);
    let mut all = Vec::new();
    let (g, events) = enter_and_trigger(&g, Faction::Harkonnen, Territory::Arrakeen, beneficiary);
    all.extend(events);
    let (g, events) = enter_and_trigger(&g, Faction::Emperor, Territory::Carthag, beneficiary);
    all.extend(events);
    (g, all)
}

#[test]
fn no_leak_inspected_cards_and_traitor_reach_only_the_beneficiary() {
    for beneficiary in [Faction::Ecaz, Faction::Atreides] {
        let (g, events) = inspections(beneficiary);
        let cards = [2, 19, 26];
        let leader = Leader::Alia.id();
        // The beneficiary has both, in its view and its events (the test can see a leak).
        let own = serde_json::to_value(view(&g, Viewer::Faction(beneficiary))).unwrap();
        assert!(mentions_cards(&own["knowledge"], &cards, ""));
        assert!(mentions_leader(&own["knowledge"], leader));
        let own_events: Vec<Value> = events
            .iter()
            .filter(|e| e.visible_to(Viewer::Faction(beneficiary)))
            .map(|e| serde_json::to_value(e).unwrap())
            .collect();
        assert!(own_events.iter().any(|e| mentions_cards(e, &cards, "")));
        assert!(own_events.iter().any(|e| mentions_leader(e, leader)));
        // Nobody else: neither the bystanders nor the spectator; the Emperor
        // does not learn the Harkonnen hand, Harkonnen not the Emperor's traitor.
        for v in other_viewers(&g, &[beneficiary]) {
            let pv = serde_json::to_value(view(&g, v)).unwrap();
            let visible: Vec<Value> = events
                .iter()
                .filter(|e| e.visible_to(v))
                .map(|e| serde_json::to_value(e).unwrap())
                .collect();
            if v != Viewer::Faction(Faction::Harkonnen) {
                assert!(!mentions_cards(&pv, &cards, ""), "{v}'s view shows the inspected hand");
                for e in &visible {
                    assert!(!mentions_cards(e, &cards, ""), "{v} receives the inspected hand: {e}");
                }
            }
            if v != Viewer::Faction(Faction::Emperor) {
                assert!(!mentions_leader(&pv, leader), "{v}'s view shows the traitor");
                for e in &visible {
                    assert!(!mentions_leader(e, leader), "{v} receives the traitor: {e}");
                }
            }
            assert!(
                pv["knowledge"].as_array().unwrap().is_empty(),
                "{v} has knowledge records"
            );
        }
    }
}

#[test]
fn no_leak_knowledge_survives_a_reload_for_its_owner_only() {
    let (g, _) = inspections(Faction::Atreides);
    let back = ecaz::game_from_json(&json(&g)).unwrap();
    assert_eq!(back.knowledge(), g.knowledge());
    assert_eq!(back.knowledge().len(), 2);
    assert!(back.knowledge().iter().all(|k| k.viewer == Faction::Atreides));
    for v in [
        Viewer::Faction(Faction::Ecaz),
        Viewer::Faction(Faction::Harkonnen),
        Viewer::Spectator,
    ] {
        assert!(view(&back, v).knowledge.is_empty());
    }
    assert_eq!(view(&back, Viewer::Faction(Faction::Atreides)).knowledge.len(), 2);
}

#[test]
fn p_ric_pay_purchase_edge_cases_emperor_buyer_and_harkonnen_without_room_for_the_bonus() {
    // The Emperor buying pays the bank (not itself).
    let mut s = placed_table(
        &[Faction::Ecaz, Faction::Emperor, Faction::Atreides],
        &[
            Ambassador::Richese,
            Ambassador::BeneGesserit,
            Ambassador::Choam,
            Ambassador::Emperor,
            Ambassador::Fremen,
        ],
        &[(Ambassador::Richese, Territory::Carthag)],
    );
    s.policies.richese_pay = RichesePay::Purchase;
    ally(&mut s, Faction::Emperor);
    let g = build_setup(&s);
    let before = spice(&g, Faction::Emperor);
    let (g, _) = enter_and_trigger(&g, Faction::Atreides, Territory::Carthag, Faction::Emperor);
    let (g, events) = answer(&g, Faction::Emperor, |frame| Action::BuyCard { frame, buy: true });
    assert!(kinds(&events).contains(&&EventKind::SpicePaid {
        faction: Faction::Emperor,
        amount: 3,
        to: None
    }));
    assert_eq!(spice(&g, Faction::Emperor), before - 3);
    // A Harkonnen buyer one card below its limit of 8 gets no bonus card.
    let mut s = placed_table(
        &[Faction::Ecaz, Faction::Harkonnen, Faction::Emperor, Faction::Atreides],
        &[
            Ambassador::Richese,
            Ambassador::BeneGesserit,
            Ambassador::Choam,
            Ambassador::Emperor,
            Ambassador::Fremen,
        ],
        &[(Ambassador::Richese, Territory::Carthag)],
    );
    s.policies.richese_pay = RichesePay::Purchase;
    ally(&mut s, Faction::Harkonnen);
    give_hand(&mut s, Faction::Harkonnen, &[0, 1, 2, 3, 4, 5, 6]);
    let g = build_setup(&s);
    let (g, _) = enter_and_trigger(&g, Faction::Atreides, Territory::Carthag, Faction::Harkonnen);
    let (g, events) = answer(&g, Faction::Harkonnen, |frame| Action::BuyCard { frame, buy: true });
    assert_eq!(count(&events, "cardDrawn"), 1);
    assert_eq!(hand(&g, Faction::Harkonnen).len(), 8);
}
