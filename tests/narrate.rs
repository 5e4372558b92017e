//! Narration never says more than its viewer may know (D-140).
//!
//! Each test plays the same public story in two worlds that differ only in
//! secrets — which token Ecaz announced from its hidden supply (P-SUPPLY-VIS
//! `ownerOnly`), the cards in a hand and the card passed between two
//! factions, the Traitor cards a faction holds, the answer to a Secret Ally
//! question — and narrates every command and every event for each viewer.
//! A viewer who may not know those secrets must read the same story in both
//! worlds, word for word; the viewers who may know them read different ones
//! (so the comparison can fail).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]

mod common;

use std::collections::BTreeMap;

use common::*;
use ecaz::TraitorCard;
use ecaz::{
    narrate, Action, Ambassador, AmbassadorsSetup, CardId, Cause, Command, Faction, FactionSetup, Game, GameOptions,
    Leader, Origin, Phase, Setup, SupplyVisibility, Territory, Viewer,
};

/// One applied command: the game it was applied to, the command, the game
/// after it, and its events.
struct Record {
    before: Game,
    command: Command,
    after: Game,
    events: Vec<ecaz::Event>,
}

/// A game being played, with everything that happened.
struct Play {
    game: Game,
    records: Vec<Record>,
}

impl Play {
    fn new(game: Game) -> Self {
        Play {
            game,
            records: Vec::new(),
        }
    }

    fn run(&mut self, command: Command) {
        let (after, events) = match apply(&self.game, &command) {
            Ok(x) => x,
            Err(e) => panic!("{command:?} refused: {} {e}", e.code()),
        };
        self.records.push(Record {
            before: self.game.clone(),
            command,
            after: after.clone(),
            events,
        });
        self.game = after;
    }

    fn frame(&self) -> ecaz::FrameId {
        open_id(&self.game)
    }

    /// Answer every open decision with its actor's first listed option.
    fn settle(&mut self) {
        for _ in 0..16 {
            let Some(actor) = self.game.open_frame().map(|f| f.actor) else {
                return;
            };
            let first = options(&self.game, actor).commands.into_iter().next();
            let command = first.unwrap_or_else(|| panic!("{} has no listed option", actor.id()));
            self.run(command);
        }
        panic!("decisions kept opening");
    }

    /// The whole story as `viewer` reads it: each command, then the events it
    /// may see.
    fn story(&self, viewer: Viewer) -> Vec<String> {
        let mut lines = Vec::new();
        for r in &self.records {
            lines.push(format!("> {}", narrate::command(&r.before, &r.command, viewer)));
            lines.extend(r.events.iter().filter_map(|e| narrate::event(&r.after, e, viewer)));
        }
        lines
    }
}

/// What differs between the two worlds of the placement-and-entry story.
struct Secrets {
    /// Ecaz's cohort (its hidden supply under `ownerOnly`); the Atreides
    /// Ambassador of each is placed in Tuek's Sietch.
    cohort: [Ambassador; 5],
    /// The token Ecaz announces (a Karama cancels it: never revealed).
    announced: Ambassador,
    /// Atreides' hand: a Karama and the card it gives Harkonnen.
    gift: u16,
    /// Harkonnen's Traitor cards at the start and as the host reports them later.
    traitors: [Leader; 4],
    reported: [Leader; 4],
}

const KARAMA: u16 = 27;

const SEATS: [Faction; 5] = [
    Faction::Ecaz,
    Faction::Atreides,
    Faction::Harkonnen,
    Faction::Emperor,
    Faction::Fremen,
];

fn world(secrets: &Secrets) -> Play {
    let mut s = setup(&SEATS, 11);
    s.storm = Some(1);
    s.policies.supply_visibility = SupplyVisibility::OwnerOnly;
    let mut zones = BTreeMap::new();
    zones.insert(Ambassador::Atreides, placed(Territory::TueksSietch));
    s.ambassadors = Some(AmbassadorsSetup {
        zones,
        cohort: secrets.cohort.to_vec(),
        ..AmbassadorsSetup::default()
    });
    s.factions.insert(
        Faction::Atreides,
        FactionSetup {
            hand: vec![CardId(KARAMA), CardId(secrets.gift)],
            ..FactionSetup::default()
        },
    );
    s.factions.insert(
        Faction::Harkonnen,
        FactionSetup {
            hand: vec![CardId(12)],
            traitors: secrets.traitors.map(TraitorCard::Leader).to_vec(),
            ..FactionSetup::default()
        },
    );
    let mut play = Play::new(build_setup(&s));
    for phase in [
        Phase::Storm,
        Phase::SpiceBlow,
        Phase::ChoamCharity,
        Phase::Bidding,
        Phase::Revival,
    ] {
        play.run(host(Action::EndPhase { phase }));
    }
    // R-PLC-5: Ecaz announces a token from its hidden supply; Atreides' Karama cancels it.
    play.run(ecaz(Action::Place {
        frame: play.frame(),
        token: secrets.announced,
        territory: Territory::Carthag,
    }));
    play.run(host(Action::CancelPlacement {
        frame: play.frame(),
        faction: Faction::Atreides,
        card: CardId(KARAMA),
        host_vouched_karama: false,
    }));
    // Table sync: a card passes from Atreides to Harkonnen; Harkonnen's Traitors change.
    play.run(host(Action::GiveCard {
        from: Faction::Atreides,
        to: Faction::Harkonnen,
        card: CardId(secrets.gift),
    }));
    play.run(host(Action::SetTraitors {
        faction: Faction::Harkonnen,
        traitors: secrets.reported.map(TraitorCard::Leader).to_vec(),
    }));
    // R-TRG-1, R-EFF-ATR: Harkonnen enters Tuek's Sietch; Ecaz triggers the
    // Atreides Ambassador for itself and looks at Harkonnen's hand.
    play.run(host(Action::Arrive {
        entrant: Faction::Harkonnen,
        cause: Cause::Shipment,
        from: Origin::Reserves,
        territory: Territory::TueksSietch,
        sector: 5,
        normal: 2,
        elite: 0,
        advisors: false,
        parent: None,
        reactions_first: false,
    }));
    play.run(ecaz(Action::Trigger {
        frame: play.frame(),
        beneficiary: Faction::Ecaz,
    }));
    play.settle();
    play
}

const WORLD_A: Secrets = Secrets {
    cohort: [
        Ambassador::Atreides,
        Ambassador::BeneGesserit,
        Ambassador::Choam,
        Ambassador::Emperor,
        Ambassador::Fremen,
    ],
    announced: Ambassador::Emperor,
    gift: 8,
    traitors: [Leader::ThufirHawat, Leader::Stilgar, Leader::Caid, Leader::SanyaEcaz],
    reported: [Leader::LadyJessica, Leader::Chani, Leader::Bashar, Leader::IlesaEcaz],
};

const WORLD_B: Secrets = Secrets {
    cohort: [
        Ambassador::Atreides,
        Ambassador::Harkonnen,
        Ambassador::Ixians,
        Ambassador::Richese,
        Ambassador::Tleilaxu,
    ],
    announced: Ambassador::Richese,
    gift: 0,
    traitors: [Leader::DuncanIdaho, Leader::Otheym, Leader::Burseg, Leader::RivvyDinari],
    reported: [
        Leader::GurneyHalleck,
        Leader::Jamis,
        Leader::Caid,
        Leader::WhitmoreBludd,
    ],
};

#[test]
fn narration_for_a_viewer_never_names_a_hidden_token_card_or_traitor() {
    let a = world(&WORLD_A);
    let b = world(&WORLD_B);
    // The story really went through the secret parts in both worlds.
    for play in [&a, &b] {
        let kinds: Vec<String> = play.records.iter().flat_map(|r| kind_names(&r.events)).collect();
        for kind in [
            "placementAnnounced",
            "placementCancelled",
            "cardPassed",
            "traitorsHeld",
            "handSeen",
        ] {
            assert!(kinds.iter().any(|k| k == kind), "no {kind} in {kinds:?}");
        }
    }
    // Who may know none of the secrets reads the same story in both worlds.
    for viewer in [
        Viewer::Spectator,
        Viewer::Faction(Faction::Emperor),
        Viewer::Faction(Faction::Fremen),
    ] {
        assert_eq!(a.story(viewer), b.story(viewer), "{viewer}");
    }
    // Who may know some reads different ones, and sees the secret named.
    for viewer in [
        Viewer::Host,
        Viewer::Faction(Faction::Ecaz),
        Viewer::Faction(Faction::Atreides),
        Viewer::Faction(Faction::Harkonnen),
    ] {
        assert_ne!(a.story(viewer), b.story(viewer), "{viewer}");
    }
    let ecaz = a.story(Viewer::Faction(Faction::Ecaz)).join("\n");
    assert!(ecaz.contains("announces the Emperor Ambassador for Carthag"), "{ecaz}");
    assert!(
        ecaz.contains("Ecaz sees Harkonnen's hand: Shield (card 12) and Lasgun (card 8)"),
        "{ecaz}"
    );
    let harkonnen = a.story(Viewer::Faction(Faction::Harkonnen)).join("\n");
    assert!(harkonnen.contains("gives Lasgun (card 8) to Harkonnen"), "{harkonnen}");
    assert!(harkonnen.contains("Lady Jessica"), "{harkonnen}");
    let spectator = a.story(Viewer::Spectator).join("\n");
    assert!(
        spectator.contains("Ecaz announces an Ambassador for Carthag"),
        "{spectator}"
    );
    assert!(spectator.contains("gives a Treachery card to Harkonnen"), "{spectator}");
    assert!(spectator.contains("Harkonnen now holds 4 Traitor cards"), "{spectator}");
}

#[test]
fn ecaz_and_the_host_hear_a_supply_event_once_with_its_token() {
    // P-SUPPLY-VIS `ownerOnly`: the public copy without the token is not told
    // to a viewer who also gets the full copy.
    let a = world(&WORLD_A);
    for viewer in [Viewer::Host, Viewer::Faction(Faction::Ecaz)] {
        let story = a.story(viewer);
        let announced: Vec<&String> = story.iter().filter(|l| l.starts_with("Ecaz announced")).collect();
        assert_eq!(announced.len(), 1, "{viewer}: {story:#?}");
        assert!(
            announced[0].contains("the Emperor Ambassador"),
            "{viewer}: {announced:?}"
        );
    }
    let story = a.story(Viewer::Spectator);
    let announced: Vec<&String> = story.iter().filter(|l| l.starts_with("Ecaz announced")).collect();
    assert_eq!(announced.len(), 1, "{story:#?}");
    assert!(announced[0].contains("an Ambassador for Carthag"), "{announced:?}");
}

/// R-NEX-SEC: Atreides (holding the Ecaz Nexus card, Ecaz not seated) asks
/// whether Harkonnen holds one of its leaders as a Traitor.
fn secret_ally_world(traitors: [Leader; 2]) -> Play {
    let mut s: Setup = setup(
        &[
            Faction::Atreides,
            Faction::Harkonnen,
            Faction::Emperor,
            Faction::Tleilaxu,
        ],
        34,
    );
    s.options = GameOptions {
        nexus: true,
        ..GameOptions::default()
    };
    s.factions.insert(
        Faction::Atreides,
        FactionSetup {
            nexus: Some(Faction::Ecaz),
            ..FactionSetup::default()
        },
    );
    s.factions.insert(
        Faction::Harkonnen,
        FactionSetup {
            traitors: traitors.map(TraitorCard::Leader).to_vec(),
            ..FactionSetup::default()
        },
    );
    let mut play = Play::new(build_setup(&s));
    play.run(Command::faction(
        Faction::Atreides,
        Action::PlaySecretAlly {
            target: Faction::Harkonnen,
        },
    ));
    play
}

#[test]
fn narration_never_tells_the_secret_ally_answer_to_others() {
    let yes = secret_ally_world([Leader::ThufirHawat, Leader::Caid]);
    let no = secret_ally_world([Leader::Bashar, Leader::Caid]);
    for viewer in [
        Viewer::Spectator,
        Viewer::Faction(Faction::Harkonnen),
        Viewer::Faction(Faction::Emperor),
        Viewer::Faction(Faction::Tleilaxu),
    ] {
        assert_eq!(yes.story(viewer), no.story(viewer), "{viewer}");
    }
    let asker = Viewer::Faction(Faction::Atreides);
    assert_ne!(yes.story(asker), no.story(asker));
    assert!(yes.story(asker).join("\n").contains(": yes."));
    assert!(no.story(asker).join("\n").contains(": no."));
}

#[test]
fn narrate_json_reads_events_and_commands_and_stays_silent_on_hidden_events() {
    let a = world(&WORLD_A);
    let r = a
        .records
        .iter()
        .find(|r| kind_names(&r.events).iter().any(|k| k == "handSeen"))
        .unwrap();
    let state = ecaz::game_to_json(&r.after).unwrap();
    let seen = r
        .events
        .iter()
        .find(|e| matches!(e.event, ecaz::EventKind::HandSeen { .. }))
        .unwrap();
    let seen = serde_json::to_string(seen).unwrap();
    let told: Option<String> = serde_json::from_str(&ecaz::narrate_json(&state, &seen, "ecaz").unwrap()).unwrap();
    assert_eq!(
        told.as_deref(),
        Some("Ecaz sees Harkonnen's hand: Shield (card 12) and Lasgun (card 8). [seen only by Ecaz]")
    );
    assert_eq!(ecaz::narrate_json(&state, &seen, "\"spectator\"").unwrap(), "null");
    let before = ecaz::game_to_json(&r.before).unwrap();
    let command = serde_json::to_string(&r.command).unwrap();
    let told: String = serde_json::from_str(&ecaz::narrate_json(&before, &command, "emperor").unwrap()).unwrap();
    assert_eq!(
        told,
        narrate::command(&r.before, &r.command, Viewer::Faction(Faction::Emperor))
    );
    let err = ecaz::narrate_json(&state, "{\"audience\":{\"kind\":\"public\"}}", "host").unwrap_err();
    assert_eq!(err.code(), "decode/invalid_command");
    let err = ecaz::narrate_json(&state, "{}", "nobody").unwrap_err();
    assert_eq!(err.code(), "decode/invalid_viewer");
}
