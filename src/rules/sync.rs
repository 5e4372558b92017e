//! Keeping a host in sync (D-100, D-101, D-109).
//!
//! * The **facts** of the mirrored table (a faction's spice, hand, board …,
//!   the deck, the discard pile …) and which facts each pending decision
//!   **depends on**. A report or a reconcile that would change a fact some
//!   pending frame depends on is refused with `rule/frame_depends`, naming
//!   that frame: settle it first.
//! * The **host-reactions window** (P-NEST): while an engine-made arrival
//!   waits for the host's own reactions, every table report is accepted (not
//!   only linked arrivals), unless it touches a fact a frame below depends on.
//! * **`syncTable`**: the host sends its whole table; it is validated like a
//!   Setup (every problem at once, `sync/invalid_table`), replaces the
//!   engine's mirror and keeps everything else (Ambassadors, Duke Vidal,
//!   frames, arrivals, knowledge, RNG); one host event lists each difference.

use crate::base::ids::Faction;
use crate::model::command::Action;
use crate::model::error::{ApplyError, Problem};
use crate::model::event::{Audience, Event, EventKind};
use crate::model::game::{Decision, Game, LeaderCustody};
use crate::model::table::{Difference, TableFacts};
use crate::rules::duke;

/// A faction's table field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Field {
    Spice,
    Reserves,
    Tanks,
    Board,
    Leaders,
    Hand,
    HandLimit,
    Traitors,
    FaceDancers,
    RevealedFaceDancers,
    Ally,
    Nexus,
}

impl Field {
    const ALL: [Field; 12] = [
        Field::Spice,
        Field::Reserves,
        Field::Tanks,
        Field::Board,
        Field::Leaders,
        Field::Hand,
        Field::HandLimit,
        Field::Traitors,
        Field::FaceDancers,
        Field::RevealedFaceDancers,
        Field::Ally,
        Field::Nexus,
    ];

    fn id(self) -> &'static str {
        match self {
            Field::Spice => "spice",
            Field::Reserves => "reserves",
            Field::Tanks => "tanks",
            Field::Board => "board",
            Field::Leaders => "leaders",
            Field::Hand => "hand",
            Field::HandLimit => "handLimit",
            Field::Traitors => "traitors",
            Field::FaceDancers => "faceDancers",
            Field::RevealedFaceDancers => "revealedFaceDancers",
            Field::Ally => "ally",
            Field::Nexus => "nexus",
        }
    }
}

/// The ids of a faction's table fields, in `tableSynced` order (D-231: the
/// mirror's `diffTable` lists them in the same order).
pub(crate) fn faction_fields() -> impl Iterator<Item = &'static str> {
    Field::ALL.into_iter().map(Field::id)
}

/// A fact of the mirrored table (or of the Ecaz state a report touches).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Fact {
    Of(Faction, Field),
    Deck,
    Discard,
    Outside,
    NexusDeck,
    NexusDiscard,
    Duke,
    Ambassadors,
}

impl Fact {
    fn path(self) -> String {
        match self {
            Fact::Of(f, field) => format!("factions.{f}.{}", field.id()),
            Fact::Deck => "deck".into(),
            Fact::Discard => "discard".into(),
            Fact::Outside => "outside".into(),
            Fact::NexusDeck => "nexusDeck".into(),
            Fact::NexusDiscard => "nexusDiscard".into(),
            Fact::Duke => "duke".into(),
            Fact::Ambassadors => "ambassadors".into(),
        }
    }

    /// The facts a reconcile compares, in event order.
    fn table(g: &Game) -> Vec<Fact> {
        let mut out: Vec<Fact> = g
            .seats
            .iter()
            .flat_map(|&f| Field::ALL.into_iter().map(move |field| Fact::Of(f, field)))
            .collect();
        out.extend([
            Fact::Deck,
            Fact::Discard,
            Fact::Outside,
            Fact::NexusDeck,
            Fact::NexusDiscard,
            // Not listed by the host: changed only when a loan ends with
            // the alliance (D-185).
            Fact::Duke,
        ]);
        out
    }

    fn value(self, g: &Game) -> serde_json::Value {
        // Through the JSON text rather than `serde_json::to_value`: the state
        // types are then compiled for one serializer only (D-150).
        fn v<T: serde::Serialize>(x: T) -> Result<serde_json::Value, serde_json::Error> {
            serde_json::from_str(&crate::codec::writer::to_text(&x)?)
        }
        let r = match self {
            Fact::Of(f, field) => match g.faction(f) {
                None => Ok(serde_json::Value::Null),
                Some(s) => match field {
                    Field::Spice => v(s.spice),
                    Field::Reserves => v(s.reserves),
                    Field::Tanks => v(s.tanks),
                    Field::Board => v(&s.board),
                    Field::Leaders => v(&s.leaders),
                    Field::Hand => v(&s.hand),
                    Field::HandLimit => v(s.hand_limit),
                    Field::Traitors => v(&s.traitors),
                    Field::FaceDancers => v(&s.face_dancers),
                    Field::RevealedFaceDancers => v(&s.revealed_face_dancers),
                    Field::Ally => v(s.ally),
                    Field::Nexus => v(s.nexus),
                },
            },
            Fact::Deck => v(&g.treachery.deck),
            Fact::Discard => v(&g.treachery.discard),
            Fact::Outside => v(&g.treachery.outside),
            Fact::NexusDeck => v(&g.nexus.deck),
            Fact::NexusDiscard => v(&g.nexus.discard),
            Fact::Duke => v(g.duke),
            Fact::Ambassadors => v(&g.ambassadors),
        };
        r.unwrap_or(serde_json::Value::Null)
    }
}

/// Does `decision` depend on `fact`? (Conservative: everything about the
/// factions it involves, and the shared facts its effect may read.)
fn depends(decision: &Decision, fact: Fact) -> bool {
    use Field::*;
    let of = |f: Faction, fields: &[Field]| matches!(fact, Fact::Of(x, y) if x == f && fields.contains(&y));
    let any = |fields: &[Field]| matches!(fact, Fact::Of(_, y) if fields.contains(&y));
    let involved = |fs: &[Faction]| matches!(fact, Fact::Of(x, _) if fs.contains(&x));
    let shared = matches!(fact, Fact::Deck | Fact::Discard | Fact::Duke | Fact::Ambassadors);
    match decision {
        Decision::Placement => of(Faction::Ecaz, &[Spice]),
        Decision::PlacementResponse { .. } => of(Faction::Ecaz, &[Spice]) || any(&[Hand]),
        Decision::TriggerOffer {
            entrant, beneficiaries, ..
        } => {
            let mut fs = beneficiaries.clone();
            fs.push(*entrant);
            involved(&fs) || any(&[Ally, Board]) || shared
        }
        Decision::CopyEffect {
            entrant, beneficiary, ..
        }
        | Decision::EcazBranch {
            entrant, beneficiary, ..
        } => involved(&[*entrant, *beneficiary]) || any(&[Ally, Board]) || shared,
        Decision::ChoamDiscard { beneficiary, .. } => of(*beneficiary, &[Hand, Spice]),
        Decision::IxianSwap { beneficiary, .. } => {
            of(*beneficiary, &[Hand]) || matches!(fact, Fact::Deck | Fact::Discard)
        }
        Decision::RicheseBuy { beneficiary, .. } => {
            of(*beneficiary, &[Hand, HandLimit, Spice]) || matches!(fact, Fact::Deck | Fact::Discard)
        }
        Decision::AllianceOffer { entrant, .. } => {
            of(*entrant, &[Ally, Nexus]) || of(Faction::Ecaz, &[Ally, Nexus]) || fact == Fact::Duke
        }
        Decision::DukeLoan { ally, .. } => of(*ally, &[Ally]) || of(Faction::Ecaz, &[Ally]) || fact == Fact::Duke,
        Decision::FremenRelocation { .. } => any(&[Board, Ally]),
        Decision::GuildShipment { beneficiary, .. } => of(*beneficiary, &[Reserves]) || any(&[Board, Ally]),
        Decision::TleilaxuRevival { beneficiary, .. } => {
            of(*beneficiary, &[Tanks, Reserves, Leaders]) || fact == Fact::Duke
        }
        Decision::HostReactions { .. } => false,
        Decision::BetrayalResponse { ally, .. } => {
            of(*ally, &[Board, Reserves, Ally]) || of(Faction::Ecaz, &[Board, Ally]) || any(&[Hand])
        }
    }
}

/// Refuse when a pending frame (the open one or one below) depends on a fact
/// about to change.
pub(crate) fn check_unblocked(g: &Game, facts: &[Fact]) -> Result<(), ApplyError> {
    for frame in g.pending.iter().rev() {
        if let Some(fact) = facts.iter().find(|&&x| depends(&frame.decision, x)) {
            return Err(ApplyError::FrameDepends {
                frame: frame.id,
                kind: frame.decision.name(),
                fact: fact.path(),
            });
        }
    }
    Ok(())
}

/// The reports a host may send inside its host-reactions window (besides a
/// linked `arrive` and `syncTable`, which are accepted under any frame):
/// every table report, Nexus dealing, Duke Vidal's battle fate and a
/// territory's destruction. The turn structure (`endPhase`, `moveStorm`,
/// `destroyShieldWall`, `moveHms`) waits for the window to close.
pub(crate) fn window_report(action: &Action) -> bool {
    crate::rules::table::is_table_report(action)
        || matches!(
            action,
            Action::DealNexus { .. }
                | Action::DiscardNexus { .. }
                | Action::DukeUsedInBattle {}
                | Action::DukeKilled {}
                | Action::DukeCaptured { .. }
                | Action::DukeRevived {}
                | Action::DukeToMoritani {}
                | Action::DestroyTerritory { .. }
        )
}

/// The facts a report changes (for the dependency check).
pub(crate) fn facts_of(g: &Game, action: &Action) -> Vec<Fact> {
    use Field::*;
    let ally_of = |f: Faction| g.faction(f).and_then(|s| s.ally);
    match action {
        Action::GainSpice { faction, .. } => vec![Fact::Of(*faction, Spice)],
        Action::PaySpice { faction, to, .. } => std::iter::once(*faction)
            .chain(*to)
            .map(|f| Fact::Of(f, Spice))
            .collect(),
        Action::DrawCard { faction } => vec![Fact::Of(*faction, Hand), Fact::Deck, Fact::Discard],
        Action::DiscardCard { faction, .. } => vec![Fact::Of(*faction, Hand), Fact::Discard],
        Action::GiveCard { from, to, .. } => vec![Fact::Of(*from, Hand), Fact::Of(*to, Hand)],
        Action::TakeOutsideCard { faction, .. } => vec![Fact::Of(*faction, Hand), Fact::Outside],
        Action::SetTraitors { faction, .. } => vec![Fact::Of(*faction, Traitors)],
        Action::SetFaceDancers { .. } | Action::RevealFaceDancer { .. } => vec![
            Fact::Of(Faction::Tleilaxu, FaceDancers),
            Fact::Of(Faction::Tleilaxu, RevealedFaceDancers),
        ],
        Action::LoseForces { faction, .. } => vec![Fact::Of(*faction, Board), Fact::Of(*faction, Tanks)],
        Action::ReturnForces { faction, .. } => vec![Fact::Of(*faction, Board), Fact::Of(*faction, Reserves)],
        Action::ReviveFromTanks { faction, .. } => vec![Fact::Of(*faction, Tanks), Fact::Of(*faction, Reserves)],
        Action::FlipAdvisors { .. } => vec![Fact::Of(Faction::BeneGesserit, Board)],
        Action::SetLeader { leader, .. } => vec![Fact::Of(leader.faction(), Leaders)],
        Action::FormAlliance { a, b } => vec![
            Fact::Of(*a, Ally),
            Fact::Of(*b, Ally),
            Fact::Of(*a, Nexus),
            Fact::Of(*b, Nexus),
            Fact::NexusDiscard,
        ],
        Action::BreakAlliance { faction } => std::iter::once(*faction)
            .chain(ally_of(*faction))
            .map(|f| Fact::Of(f, Ally))
            .chain([Fact::Duke])
            .collect(),
        Action::SetHandLimit { faction, .. } => vec![Fact::Of(*faction, HandLimit)],
        Action::DealNexus { faction } => vec![Fact::Of(*faction, Nexus), Fact::NexusDeck],
        Action::DiscardNexus { faction } => vec![Fact::Of(*faction, Nexus), Fact::NexusDiscard],
        Action::DukeRevived {} => vec![Fact::Duke, Fact::Of(Faction::Ecaz, Spice)],
        Action::DukeUsedInBattle {}
        | Action::DukeKilled {}
        | Action::DukeCaptured { .. }
        | Action::DukeToMoritani {} => vec![Fact::Duke],
        Action::DestroyTerritory { .. } => vec![Fact::Ambassadors],
        _ => Vec::new(),
    }
}

/// The state a reconcile would install and the problems found so far. The
/// caller (`apply`, which owns the invariant checker) adds the candidate's
/// invariant problems, then hands it to [`accept`].
#[derive(Debug)]
pub(crate) struct Candidate {
    pub(crate) next: Box<Game>,
    pub(crate) problems: Vec<Problem>,
}

/// An accepted reconcile: the table to install and what differs.
#[derive(Debug)]
pub(crate) struct Sync {
    next: Box<Game>,
    differences: Vec<Difference>,
}

/// The state a `syncTable` would install, with every problem of the table's
/// shape against the seats and leaders.
pub(crate) fn candidate(g: &Game, t: &TableFacts) -> Candidate {
    let mut problems = Vec::new();
    for f in t.factions.keys() {
        if !g.is_seated(*f) {
            problems.push(Problem::new(format!("factions.{f}"), format!("{f} is not seated")));
        }
    }
    let mut next = g.clone();
    for s in &mut next.factions {
        let f = s.faction;
        let Some(ft) = t.factions.get(&f) else {
            problems.push(Problem::new(
                format!("factions.{f}"),
                "a reconcile lists every seated faction",
            ));
            continue;
        };
        for l in &ft.leaders {
            if !s.leaders.iter().any(|x| x.leader == l.leader) {
                problems.push(Problem::new(
                    format!("factions.{f}.leaders"),
                    format!("{} is not a leader of {f} in this game", l.leader),
                ));
            }
        }
        for rec in &mut s.leaders {
            rec.custody = ft
                .leaders
                .iter()
                .find(|l| l.leader == rec.leader)
                .map_or(LeaderCustody::Available, |l| l.custody);
        }
        if s.ally != ft.ally {
            s.ally_since = ft.ally.map(|_| g.turn);
        }
        s.spice = ft.spice;
        s.reserves = ft.reserves;
        s.tanks = ft.tanks;
        // The same stacks or cards in another order are no difference.
        keep_or_take(&mut s.board, &ft.board, |x| (x.territory, x.sector));
        keep_or_take(&mut s.hand, &ft.hand, |c| *c);
        s.hand_limit = ft.hand_limit;
        keep_or_take(&mut s.traitors, &ft.traitors, |l| *l);
        s.face_dancers.clone_from(&ft.face_dancers);
        s.revealed_face_dancers.clone_from(&ft.revealed_face_dancers);
        s.ally = ft.ally;
        s.nexus = ft.nexus;
    }
    next.treachery.deck.clone_from(&t.deck);
    next.treachery.discard.clone_from(&t.discard);
    next.treachery.outside.clone_from(&t.outside);
    next.nexus.discard.clone_from(&t.nexus_discard);
    match &t.nexus_deck {
        Some(deck) => next.nexus.deck.clone_from(deck),
        None if g.options.nexus => {
            let out: Vec<Faction> = next
                .factions
                .iter()
                .filter_map(|s| s.nexus)
                .chain(t.nexus_discard.iter().copied())
                .collect();
            next.nexus.deck.retain(|c| !out.contains(c));
            for c in Faction::ALL {
                if !out.contains(&c) && !next.nexus.deck.contains(&c) {
                    next.nexus.deck.push(c);
                }
            }
        }
        None => {}
    }
    // P-DUKE-LOAN: a loan ends with the alliance the table no longer has,
    // as a `breakAlliance` report would end it (D-185).
    duke::end_outlived_loan(&mut next, &mut Vec::new());
    Candidate {
        next: Box::new(next),
        problems,
    }
}

/// Accept a checked candidate: refused when a pending frame depends on a
/// fact it changes (`rule/frame_depends`, named first: the table may be
/// right, and the frame must be settled before it, D-186), then with every
/// problem at once (`sync/invalid_table`).
pub(crate) fn accept(g: &Game, c: Candidate) -> Result<Sync, ApplyError> {
    let Candidate { next, problems } = c;
    let mut differences = Vec::new();
    let mut changed = Vec::new();
    for fact in Fact::table(g) {
        let (before, after) = (fact.value(g), fact.value(&next));
        if before != after {
            changed.push(fact);
            differences.push(Difference {
                path: fact.path(),
                before,
                after,
            });
        }
    }
    // An open decision that depends on a changed fact is named first: the
    // table may be right, and the frame must be settled before it (D-186).
    check_unblocked(g, &changed)?;
    if !problems.is_empty() {
        return Err(ApplyError::InvalidTable(problems.into()));
    }
    Ok(Sync { next, differences })
}

/// Replace `mine` by `theirs` unless they hold the same items in another order.
fn keep_or_take<T: Clone + PartialEq, K: Ord>(mine: &mut Vec<T>, theirs: &[T], key: impl Fn(&T) -> K) {
    let sorted = |v: &[T]| {
        let mut v = v.to_vec();
        crate::base::order::order_by_key(&mut v, |x| key(x));
        v
    };
    if sorted(mine) != sorted(theirs) {
        *mine = theirs.to_vec();
    }
}

/// Install the host's table; one host event lists what differed.
pub(crate) fn commit_sync(g: &mut Game, s: Sync, events: &mut Vec<Event>) {
    *g = *s.next;
    events.push(Event {
        audience: Audience::Host,
        event: EventKind::TableSynced {
            differences: s.differences,
        },
    });
}
