//! The table mirror of the host kit (D-231): a host that keeps its own copy
//! of the table — spice, forces, leaders, cards, Traitors, alliances, Nexus
//! cards — follows the engine from the events alone.
//!
//! * [`table_of`]: the table of a game as [`TableFacts`] (the document
//!   `syncTable` takes), in its canonical order.
//! * [`apply_events`]: the table after the events of one accepted command
//!   (all of them, as `apply` returns them: the host sees every audience).
//!   For every accepted command, `apply_events(table_of(before), events) ==
//!   table_of(after)` (tests/mirror.rs, over every scenario and the
//!   self-play walks).
//! * [`diff_table`]: the facts that differ between two tables, as the
//!   `tableSynced` event lists them.
//!
//! The canonical order: stacks by territory and sector, hands, Traitors, Face
//! Dancers and leaders by id (their order carries no meaning, as in
//! `syncTable`); the Treachery deck top first and the discard piles in the
//! order the cards went there, as the engine keeps them.
//!
//! An event that does not fit the table (forces leaving a sector where the
//! table has none, a card drawn that is not on top …) is
//! `sync/events_mismatch`: the table was not the one the events came from.

use std::collections::BTreeMap;

use crate::base::ids::{CardId, Faction, Leader, Sector, Territory};
use crate::model::command::Origin;
use crate::model::error::ApplyError;
use crate::model::event::{Event, EventKind};
use crate::model::game::{Forces, Game, LeaderCustody, LeaderState, Stack};
use crate::model::table::{Difference, FactionTable, TableFacts};

/// The table of a game, in canonical order (D-231).
pub fn table_of(game: &Game) -> TableFacts {
    // Inserted one by one (collecting into the map would compile a sort).
    let mut factions = BTreeMap::new();
    for s in &game.factions {
        let mut t = FactionTable {
            spice: s.spice,
            reserves: s.reserves,
            tanks: s.tanks,
            board: s.board.clone(),
            leaders: s.unavailable_leaders(),
            hand: s.hand.clone(),
            hand_limit: s.hand_limit,
            traitors: s.traitors.clone(),
            face_dancers: s.face_dancers.clone(),
            revealed_face_dancers: s.revealed_face_dancers.clone(),
            ally: s.ally,
            nexus: s.nexus,
        };
        canonical(&mut t);
        factions.insert(s.faction, t);
    }
    TableFacts {
        factions,
        deck: game.treachery.deck.clone(),
        discard: game.treachery.discard.clone(),
        outside: game.treachery.outside.clone(),
        nexus_deck: game.options.nexus.then(|| game.nexus.deck.clone()),
        nexus_discard: game.nexus.discard.clone(),
    }
}

/// Sort the lists whose order carries no meaning.
fn canonical(t: &mut FactionTable) {
    order_by(&mut t.board, |x| (x.territory, x.sector));
    order_by(&mut t.leaders, |l| l.leader);
    order_by(&mut t.hand, |c| *c);
    order_by(&mut t.traitors, |l| *l);
    order_by(&mut t.face_dancers, |l| *l);
    order_by(&mut t.revealed_face_dancers, |l| *l);
}

/// Sorts a short list by key, stably: an insertion sort, since a table's
/// lists are short (the JSON door refuses a table list longer than
/// [`crate::MAX_CARDS`], [`check_size`]) and one small loop per type keeps the
/// WASM module small where the standard sorts compile a large body per type.
fn order_by<T, K: Ord>(v: &mut [T], key: impl Fn(&T) -> K) {
    for i in 1..v.len() {
        let mut j = i;
        while j > 0 {
            match (v.get(j - 1), v.get(j)) {
                (Some(a), Some(b)) if key(a) > key(b) => v.swap(j - 1, j),
                _ => break,
            }
            j -= 1;
        }
    }
}

/// A table document's lists are no longer than the state's own limits
/// (D-80): `decode/invalid_table` otherwise (checked before any work).
pub(crate) fn check_size(t: &TableFacts) -> Result<(), ApplyError> {
    let mut longest = t
        .deck
        .len()
        .max(t.discard.len())
        .max(t.outside.len())
        .max(t.nexus_discard.len())
        .max(t.nexus_deck.as_ref().map_or(0, Vec::len));
    for x in t.factions.values() {
        longest = longest
            .max(x.board.len())
            .max(x.leaders.len())
            .max(x.hand.len())
            .max(x.traitors.len())
            .max(x.face_dancers.len())
            .max(x.revealed_face_dancers.len());
    }
    if longest > crate::MAX_CARDS || t.factions.len() > crate::MAX_SEATS {
        return Err(ApplyError::InvalidTableDocument(
            "a table seats each faction once and lists at most 1024 items per list".to_string(),
        ));
    }
    Ok(())
}

/// The table after `events` (one accepted command's events, every audience),
/// in canonical order (D-231).
pub fn apply_events(table: &TableFacts, events: &[Event]) -> Result<TableFacts, ApplyError> {
    let mut m = Mirror { t: table.clone() };
    for e in events {
        m.event(&e.event)?;
    }
    for t in m.t.factions.values_mut() {
        canonical(t);
    }
    Ok(m.t)
}

/// The facts that differ from `a` to `b`, each a whole fact (`before` from
/// `a`, `after` from `b`), as `tableSynced` lists them: every faction (in id
/// order) field by field, then `deck`, `discard`, `outside`, `nexusDeck`,
/// `nexusDiscard`. The order of stacks, hands and Traitors is no difference.
pub fn diff_table(a: &TableFacts, b: &TableFacts) -> Vec<Difference> {
    let (mut a, mut b) = (a.clone(), b.clone());
    for t in a.factions.values_mut().chain(b.factions.values_mut()) {
        canonical(t);
    }
    let (va, vb) = (value(&a), value(&b));
    let (fa, fb) = (member(&va, "factions"), member(&vb, "factions"));
    let mut out = Vec::new();
    // Faction ids in their order (the maps' order), without a sort.
    for f in Faction::ALL {
        if !a.factions.contains_key(&f) && !b.factions.contains_key(&f) {
            continue;
        }
        let key = f.to_string();
        let (x, y) = (member(&fa, &key), member(&fb, &key));
        for field in crate::rules::sync::faction_fields() {
            push(
                &mut out,
                format!("factions.{key}.{field}"),
                member(&x, field),
                member(&y, field),
            );
        }
    }
    for key in ["deck", "discard", "outside", "nexusDeck", "nexusDiscard"] {
        push(&mut out, key.into(), member(&va, key), member(&vb, key));
    }
    out
}
fn push(out: &mut Vec<Difference>, path: String, before: serde_json::Value, after: serde_json::Value) {
    if before != after {
        out.push(Difference { path, before, after });
    }
}

/// A value as JSON (through the engine's writer: the state types are compiled
/// for one serializer only).
fn value<T: serde::Serialize + ?Sized>(x: &T) -> serde_json::Value {
    crate::codec::writer::to_text(x)
        .ok()
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or(serde_json::Value::Null)
}

/// A member of a JSON object (null when absent: a field left out is its default).
fn member(v: &serde_json::Value, key: &str) -> serde_json::Value {
    v.get(key).cloned().unwrap_or(serde_json::Value::Null)
}

/// A JSON value read back as a table type (through text, see [`value`]).
fn read<T: serde::de::DeserializeOwned>(v: &serde_json::Value) -> Result<T, ApplyError> {
    serde_json::from_str(&v.to_string()).map_err(|_| mismatch("a tableSynced value is not of its fact's shape"))
}

fn mismatch(why: &'static str) -> ApplyError {
    ApplyError::EventsMismatch(why.to_string())
}

struct Mirror {
    t: TableFacts,
}

impl Mirror {
    fn faction(&mut self, f: Faction) -> Result<&mut FactionTable, ApplyError> {
        self.t
            .factions
            .get_mut(&f)
            .ok_or_else(|| mismatch("an event names a faction the table does not seat"))
    }

    fn spice(&mut self, f: Faction, gain: u32, pay: u32) -> Result<(), ApplyError> {
        let x = self.faction(f)?;
        x.spice = x
            .spice
            .checked_sub(pay)
            .and_then(|s| s.checked_add(gain))
            .ok_or_else(|| mismatch("a faction pays spice the table does not give it"))?;
        Ok(())
    }

    /// Forces leave a board position (the stack goes when empty).
    fn take(&mut self, f: Faction, t: Territory, s: Sector, [n, e, a]: [u32; 3]) -> Result<(), ApplyError> {
        let board = &mut self.faction(f)?.board;
        let short = || mismatch("forces leave a sector where the table has fewer");
        let st = board
            .iter_mut()
            .find(|x| x.territory == t && x.sector == s)
            .ok_or_else(short)?;
        st.normal = st.normal.checked_sub(n).ok_or_else(short)?;
        st.elite = st.elite.checked_sub(e).ok_or_else(short)?;
        st.advisors = st.advisors.checked_sub(a).ok_or_else(short)?;
        board.retain(|x| x.total() > 0);
        Ok(())
    }

    /// Forces arrive at a board position.
    fn put(&mut self, f: Faction, t: Territory, s: Sector, [n, e, a]: [u32; 3]) -> Result<(), ApplyError> {
        let board = &mut self.faction(f)?.board;
        match board.iter_mut().find(|x| x.territory == t && x.sector == s) {
            Some(x) => {
                x.normal = x.normal.saturating_add(n);
                x.elite = x.elite.saturating_add(e);
                x.advisors = x.advisors.saturating_add(a);
            }
            None => board.push(Stack {
                territory: t,
                sector: s,
                normal: n,
                elite: e,
                advisors: a,
            }),
        }
        Ok(())
    }

    /// Forces move between two pools (reserves, Tanks) of a faction.
    fn shift(&mut self, f: Faction, normal: u32, elite: u32, to_reserves: bool) -> Result<(), ApplyError> {
        let x = self.faction(f)?;
        let (from, to) = if to_reserves {
            (&mut x.tanks, &mut x.reserves)
        } else {
            (&mut x.reserves, &mut x.tanks)
        };
        let short = || mismatch("forces move from reserves or Tanks that hold fewer");
        from.normal = from.normal.checked_sub(normal).ok_or_else(short)?;
        from.elite = from.elite.checked_sub(elite).ok_or_else(short)?;
        to.normal = to.normal.saturating_add(normal);
        to.elite = to.elite.saturating_add(elite);
        Ok(())
    }

    /// Stacks leave the board for the reserves (returned) or the Tanks (lost);
    /// advisors count as ordinary forces off the board.
    fn off_board(&mut self, f: Faction, stacks: &[Stack], to_reserves: bool) -> Result<(), ApplyError> {
        for x in stacks {
            self.take(f, x.territory, x.sector, [x.normal, x.elite, x.advisors])?;
            let t = self.faction(f)?;
            let pool: &mut Forces = if to_reserves { &mut t.reserves } else { &mut t.tanks };
            pool.normal = pool.normal.saturating_add(x.normal).saturating_add(x.advisors);
            pool.elite = pool.elite.saturating_add(x.elite);
        }
        Ok(())
    }

    fn hand_remove(&mut self, f: Faction, card: CardId) -> Result<(), ApplyError> {
        let hand = &mut self.faction(f)?.hand;
        let i = hand
            .iter()
            .position(|&c| c == card)
            .ok_or_else(|| mismatch("a card leaves a hand the table does not give it"))?;
        hand.remove(i);
        Ok(())
    }

    fn set_leader(&mut self, leader: Leader, custody: LeaderCustody) -> Result<(), ApplyError> {
        let leaders = &mut self.faction(leader.faction())?.leaders;
        leaders.retain(|l| l.leader != leader);
        if custody != LeaderCustody::Available {
            leaders.push(LeaderState { leader, custody });
        }
        Ok(())
    }

    /// Every event kind, matched exhaustively: a new kind must say what it
    /// changes in the table.
    fn event(&mut self, e: &EventKind) -> Result<(), ApplyError> {
        match e {
            EventKind::AmbassadorPlaced { cost, .. } => self.spice(Faction::Ecaz, 0, *cost)?,
            EventKind::CardDiscarded { faction, card } => {
                self.hand_remove(*faction, *card)?;
                self.t.discard.push(*card);
            }
            EventKind::Arrived {
                entrant,
                from,
                territory,
                sector,
                normal,
                elite,
                advisors,
                ..
            } => {
                let f = *entrant;
                let counts = |n: u32, e: u32| if *advisors { [0, e, n] } else { [n, e, 0] };
                match from {
                    Origin::Reserves => {
                        let r = &mut self.faction(f)?.reserves;
                        let short = || mismatch("forces ship from reserves that hold fewer");
                        r.normal = r.normal.checked_sub(*normal).ok_or_else(short)?;
                        r.elite = r.elite.checked_sub(*elite).ok_or_else(short)?;
                    }
                    Origin::Board {
                        territory: t,
                        sector: s,
                    } => self.take(f, *t, *s, counts(*normal, *elite))?,
                    Origin::Group { territory: t, sectors } => {
                        for x in sectors {
                            self.take(f, *t, x.sector, counts(x.normal, x.elite))?;
                        }
                    }
                }
                self.put(f, *territory, *sector, counts(*normal, *elite))?;
            }
            EventKind::SpiceGained { faction, amount } => self.spice(*faction, *amount, 0)?,
            EventKind::SpicePaid { faction, amount, to } => {
                self.spice(*faction, 0, *amount)?;
                if let Some(to) = to {
                    self.spice(*to, *amount, 0)?;
                }
            }
            EventKind::CardReceived { faction, card } => {
                if self.t.deck.first() != Some(card) {
                    return Err(mismatch("a card received is not on top of the table's deck"));
                }
                self.t.deck.remove(0);
                self.faction(*faction)?.hand.push(*card);
            }
            EventKind::DeckReshuffled { cards } => {
                if !self.t.deck.is_empty() || usize::try_from(*cards).ok() != Some(self.t.discard.len()) {
                    return Err(mismatch("the deck is reshuffled from a discard pile of another size"));
                }
                // The order follows in the host's `deckOrder`.
                self.t.deck = std::mem::take(&mut self.t.discard);
            }
            EventKind::DeckOrder { deck } => {
                let (mut have, mut new) = (self.t.deck.clone(), deck.clone());
                order_by(&mut have, |c| *c);
                order_by(&mut new, |c| *c);
                if have != new {
                    return Err(mismatch("the deck's new order holds other cards"));
                }
                self.t.deck.clone_from(deck);
            }
            EventKind::AllianceFormed { a, b } => {
                self.faction(*a)?.ally = Some(*b);
                self.faction(*b)?.ally = Some(*a);
            }
            EventKind::AllianceBroken { a, b } => {
                self.faction(*a)?.ally = None;
                self.faction(*b)?.ally = None;
            }
            EventKind::NexusDiscarded { faction, card } => {
                self.faction(*faction)?.nexus = None;
                self.t.nexus_discard.push(*card);
            }
            EventKind::ForcesRevived { faction, normal, elite }
            | EventKind::ForcesRevivedFromTanks { faction, normal, elite } => {
                self.shift(*faction, *normal, *elite, true)?;
            }
            EventKind::LeaderRevived { leader, .. } => self.set_leader(*leader, LeaderCustody::Available)?,
            EventKind::LeaderMoved { leader, custody } => self.set_leader(*leader, *custody)?,
            EventKind::NexusReshuffled { .. } => {
                let deck = self.t.nexus_deck.get_or_insert_with(Vec::new);
                deck.append(&mut self.t.nexus_discard);
            }
            EventKind::NexusDeckOrder { deck } => self.t.nexus_deck = Some(deck.clone()),
            EventKind::NexusDealt { faction } => {
                let deck = self.t.nexus_deck.get_or_insert_with(Vec::new);
                if deck.is_empty() {
                    return Err(mismatch("a Nexus card is dealt from an empty deck"));
                }
                let card = deck.remove(0);
                self.faction(*faction)?.nexus = Some(card);
            }
            EventKind::NexusReceived { faction, card } => self.faction(*faction)?.nexus = Some(*card),
            EventKind::NexusPlayed { faction, .. } => {
                let card = self.faction(*faction)?.nexus.take();
                let card = card.ok_or_else(|| mismatch("a Nexus card is played that the table does not give"))?;
                self.t.nexus_discard.push(card);
            }
            EventKind::ForcesReturned { faction, stacks } => self.off_board(*faction, stacks, true)?,
            EventKind::ForcesLost { faction, stacks, .. } => self.off_board(*faction, stacks, false)?,
            EventKind::AdvisorsFlipped {
                territory,
                sector,
                count,
                to_fighters,
            } => {
                let (from, to) = if *to_fighters {
                    ([0, 0, *count], [*count, 0, 0])
                } else {
                    ([*count, 0, 0], [0, 0, *count])
                };
                self.take(Faction::BeneGesserit, *territory, *sector, from)?;
                self.put(Faction::BeneGesserit, *territory, *sector, to)?;
            }
            EventKind::CardPassed { from, to, card } => {
                self.hand_remove(*from, *card)?;
                self.faction(*to)?.hand.push(*card);
            }
            EventKind::TraitorsHeld {
                faction,
                traitors,
                face_dancers,
            } => {
                let x = self.faction(*faction)?;
                x.traitors.clone_from(traitors);
                x.face_dancers.clone_from(face_dancers);
                x.revealed_face_dancers.retain(|l| face_dancers.contains(l));
            }
            EventKind::HandLimitSet { faction, limit } => self.faction(*faction)?.hand_limit = *limit,
            EventKind::FaceDancerRevealed { leader } => {
                self.faction(Faction::Tleilaxu)?.revealed_face_dancers.push(*leader);
            }
            EventKind::OutsideCardTaken { faction, card } => {
                let i = self
                    .t
                    .outside
                    .iter()
                    .position(|c| c == card)
                    .ok_or_else(|| mismatch("a card taken from outside is not outside in the table"))?;
                self.t.outside.remove(i);
                self.faction(*faction)?.hand.push(*card);
            }
            EventKind::TableSynced { differences } => {
                for d in differences {
                    self.reconcile(d)?;
                }
            }
            // The rest change nothing the table holds (Ambassadors, Duke
            // Vidal, frames, arrivals, knowledge, counts the host events
            // above state in full).
            EventKind::PhaseStarted { .. }
            | EventKind::PlacementOpened { .. }
            | EventKind::PlacementAnnounced { .. }
            | EventKind::PlacementCancelled { .. }
            | EventKind::PlacementClosed { .. }
            | EventKind::StormMoved { .. }
            | EventKind::ShieldWallDestroyed
            | EventKind::HmsMoved { .. }
            | EventKind::AmbassadorReturned { .. }
            | EventKind::DecisionOpened { .. }
            | EventKind::TriggerDeclined { .. }
            | EventKind::TriggerOfferWithdrawn { .. }
            | EventKind::AmbassadorTriggered { .. }
            | EventKind::EffectCopied { .. }
            | EventKind::EffectResolved { .. }
            | EventKind::HandInspected { .. }
            | EventKind::HandSeen { .. }
            | EventKind::TraitorInspected { .. }
            | EventKind::TraitorSeen { .. }
            | EventKind::CardDrawn { .. }
            | EventKind::CohortRecycled { .. }
            | EventKind::CohortDrawn { .. }
            | EventKind::DukeMoved { .. }
            | EventKind::AllianceRefused { .. }
            | EventKind::BetrayalAnnounced { .. }
            | EventKind::BetrayalCancelled { .. }
            | EventKind::SecretAllyAsked { .. }
            | EventKind::SecretAllyAnswered { .. }
            | EventKind::CardGiven { .. }
            | EventKind::TraitorsChanged { .. }
            | EventKind::Resume { .. } => {}
        }
        Ok(())
    }

    /// One fact of a reconcile, replaced whole.
    fn reconcile(&mut self, d: &Difference) -> Result<(), ApplyError> {
        let path = d.path.as_str();
        let after = &d.after;
        if let Some((f, field)) = path.strip_prefix("factions.").and_then(|rest| rest.split_once('.')) {
            let f: Faction = read(&serde_json::Value::from(f))?;
            let mut fields = match value(&*self.faction(f)?) {
                serde_json::Value::Object(o) => o,
                _ => serde_json::Map::new(),
            };
            fields.insert(field.to_string(), after.clone());
            *self.faction(f)? = read(&serde_json::Value::Object(fields))?;
            return Ok(());
        }
        match path {
            "deck" => self.t.deck = read(after)?,
            "discard" => self.t.discard = read(after)?,
            "outside" => self.t.outside = read(after)?,
            "nexusDeck" => self.t.nexus_deck = read(after)?,
            "nexusDiscard" => self.t.nexus_discard = read(after)?,
            _ => return Err(mismatch("tableSynced names an unknown fact")),
        }
        Ok(())
    }
}
