//! The invariants of a game state, checked on every built setup and every
//! loaded state: conservation of the 11 Ambassador tokens (R-INV-2), of each
//! faction's 20 forces, of the Treachery and Nexus cards, and the consistency
//! of seats, leaders, traitors, alliances and frames. Returns every problem.

use std::collections::BTreeSet;

use crate::base::board;
use crate::base::ids::{Ambassador, CardId, Faction, Leader, Phase, Territory, TraitorCard};
use crate::base::order::set_of;
use crate::model::error::Problem;
use crate::model::game::{Actor, Decision, DukeCustody, DukeSource, Game, LeaderCustody, Zone};

mod decisions;
pub(crate) mod sizes;
pub(crate) use decisions::exhausted;

/// Every invariant the game breaks (empty when sound). The lists are within
/// their limits ([`crate::bounds`]); when the seats themselves are wrong
/// (count, repeats, faction records) only that is reported, since every later
/// check looks factions up by seat. Past that point at most six distinct
/// factions are seated and every pass is linear in the state's size.
pub(crate) fn problems(g: &Game) -> Vec<Problem> {
    let mut p = Vec::new();
    seats(g, &mut p);
    let seats_wrong = !p.is_empty();
    clock(g, &mut p);
    if seats_wrong {
        return p;
    }
    for s in &g.factions {
        faction(g, s, &mut p);
    }
    traitors(g, &mut p);
    cards(g, &mut p);
    nexus(g, &mut p);
    duke(g, &mut p);
    hms(g, &mut p);
    ambassadors(g, &mut p);
    bg_token(g, &mut p);
    frames(g, &mut p);
    decisions::problems(g, &mut p);
    p
}

fn seats(g: &Game, p: &mut Vec<Problem>) {
    if !(2..=6).contains(&g.seats.len()) {
        p.push(Problem::new(
            "seats",
            format!("a game seats 2–6 factions, not {}", g.seats.len()),
        ));
    }
    let distinct: BTreeSet<Faction> = set_of(g.seats.iter().copied());
    if distinct.len() != g.seats.len() {
        p.push(Problem::new("seats", "a faction is seated twice"));
    }
    let order: Vec<Faction> = g.factions.iter().map(|s| s.faction).collect();
    if order != g.seats {
        p.push(Problem::new(
            "factions",
            "faction records must follow the seats, one each",
        ));
    }
}

fn clock(g: &Game, p: &mut Vec<Problem>) {
    if g.turn == 0 {
        p.push(Problem::new("turn", "turns count from 1"));
    }
    if !(1..=18).contains(&g.storm) {
        p.push(Problem::new(
            "storm",
            format!("the storm is in a sector 1–18, not {}", g.storm),
        ));
    }
}

fn seated_other(g: &Game, me: Faction, by: Faction, path: &str, p: &mut Vec<Problem>) {
    if by == me || !g.is_seated(by) {
        p.push(Problem::new(path, format!("{by} must be another seated faction")));
    }
}

fn faction(g: &Game, s: &crate::model::game::FactionState, p: &mut Vec<Problem>) {
    let f = s.faction;
    let at = |field: &str| format!("factions.{f}.{field}");
    // Leaders: exactly the five native ones (records stay with the native
    // faction), then any declared extra leaders of this faction, once each.
    let natives: Vec<Leader> = s.leaders.iter().map(|l| l.leader).collect();
    let printed = f.leaders();
    let (five, extra) = natives.split_at(natives.len().min(printed.len()));
    let extras_ok = extra
        .iter()
        .enumerate()
        .all(|(i, l)| l.is_extra() && l.faction() == f && !extra.iter().take(i).any(|x| x == l));
    if five != printed || !extras_ok {
        p.push(Problem::new(
            at("leaders"),
            format!("{f} has exactly its own five leaders, then its declared extra leaders"),
        ));
    }
    for (i, l) in s.revealed_face_dancers.iter().enumerate() {
        if !s.face_dancers.contains(l) || s.revealed_face_dancers.iter().take(i).any(|x| x == l) {
            p.push(Problem::new(
                at("revealedFaceDancers"),
                format!("{l} is not a held Face Dancer (or is listed twice)"),
            ));
        }
    }
    if s.ally.is_none() && s.ally_since.is_some() {
        p.push(Problem::new(
            at("allySince"),
            "an unallied faction has no alliance start",
        ));
    }
    if s.ally_since.is_some_and(|t| t == 0 || t > g.turn) {
        p.push(Problem::new(
            at("allySince"),
            "an alliance starts in a turn already begun",
        ));
    }
    for l in &s.leaders {
        if let LeaderCustody::Captured { by } | LeaderCustody::Ghola { by } = l.custody {
            seated_other(g, f, by, &at("leaders"), p);
        }
        // D-168: only the Tleilaxu make gholas (E1).
        if let LeaderCustody::Ghola { by } = l.custody {
            if by != Faction::Tleilaxu {
                p.push(Problem::new(
                    at("leaders"),
                    format!("only the Tleilaxu hold gholas, not {by}"),
                ));
            }
        }
    }
    // Forces: 20, elites only for elite factions, advisors only for BG.
    let total = s.total_forces();
    if total != 20 {
        p.push(Problem::new(
            at("forces"),
            format!("{f} has 20 forces in all (reserves + board + Tanks), not {total}"),
        ));
    }
    let elite = s
        .board
        .iter()
        .map(|x| x.elite)
        .fold(0u32, u32::saturating_add)
        .saturating_add(s.reserves.elite)
        .saturating_add(s.tanks.elite);
    // D-163: the elite forces are components too, conserved like the 20.
    let elite_total = crate::base::board::elite_total(f);
    if !f.has_elite() && elite > 0 {
        p.push(Problem::new(at("forces"), format!("{f} has no elite forces")));
    } else if elite != elite_total {
        p.push(Problem::new(
            at("forces"),
            format!("{f} has {elite_total} elite forces in all (reserves + board + Tanks), not {elite}"),
        ));
    }
    let mut seen = BTreeSet::new();
    for (i, st) in s.board.iter().enumerate() {
        // Paths are built only when a problem is found (this runs on every load).
        let here = || format!("factions.{f}.board[{i}]");
        if !board::has_sector(st.territory, st.sector) {
            p.push(Problem::new(
                here(),
                format!("{} has no sector {}", st.territory, st.sector),
            ));
        }
        if st.territory == Territory::HiddenMobileStronghold && g.hms.is_none() {
            p.push(Problem::new(here(), "the HMS is not in play"));
        }
        if st.total() == 0 {
            p.push(Problem::new(here(), "an empty stack"));
        }
        if st.advisors > 0 && f != Faction::BeneGesserit {
            p.push(Problem::new(here(), "only the Bene Gesserit have advisors"));
        }
        if !seen.insert((st.territory, st.sector)) {
            p.push(Problem::new(here(), "two stacks in the same sector"));
        }
    }
    // Counts a host report could never produce (D-40, D-42).
    if s.spice > crate::rules::table::MAX_SPICE {
        p.push(Problem::new(
            at("spice"),
            format!("spice totals stay at most {}", crate::rules::table::MAX_SPICE),
        ));
    }
    if !(1..=20).contains(&s.hand_limit) {
        p.push(Problem::new(at("handLimit"), "a hand limit is 1–20"));
    }
    // P-TLX: the count includes the host's ordinary revivals, which are not
    // limited (D-54); only a faction without elites has none.
    if s.elite_revived > 20 || (s.elite_revived > 0 && !f.has_elite()) {
        p.push(Problem::new(
            at("eliteRevived"),
            "elite forces revived this turn: none without elites, at most 20",
        ));
    }
    if s.traitors.len() > crate::rules::table::MAX_TRAITORS {
        p.push(Problem::new(at("traitors"), "at most 4 Traitor cards are held"));
    }
    if s.face_dancers.len() > crate::rules::table::MAX_FACE_DANCERS {
        p.push(Problem::new(at("faceDancers"), "at most 3 Face Dancers are held"));
    }
    // Hidden cards.
    if f == Faction::Tleilaxu && !s.traitors.is_empty() {
        p.push(Problem::new(
            at("traitors"),
            "the Tleilaxu hold Face Dancers, not Traitors",
        ));
    }
    if f != Faction::Tleilaxu && !s.face_dancers.is_empty() {
        p.push(Problem::new(at("faceDancers"), "only the Tleilaxu hold Face Dancers"));
    }
    // D-167: a Traitor card of a seated faction's leader, or of CHOAM's
    // Auditor in play; D-170: the Cheap Hero/Heroine card only with the
    // option `cheapHeroTraitor`.
    for c in s.traitors.iter().chain(s.face_dancers.iter()) {
        if !g.traitor_card_exists(*c) {
            let why = match c {
                TraitorCard::CheapHero => "is not in this game (it needs the option `cheapHeroTraitor`)",
                TraitorCard::Leader(_) => {
                    "has no Traitor card in this game (not a seated faction's leader, or an extra leader without one)"
                }
            };
            p.push(Problem::new(at("traitors"), format!("{c} {why}")));
        }
    }
    // Alliance: reciprocal.
    if let Some(a) = s.ally {
        let back = g.faction(a).and_then(|o| o.ally);
        if a == f || back != Some(f) {
            p.push(Problem::new(at("ally"), format!("{f} and {a} must name each other")));
        }
    }
    if s.nexus.is_some() {
        if !g.options.nexus {
            p.push(Problem::new(at("nexus"), "Nexus cards need the Nexus module"));
        }
        if s.ally.is_some() {
            p.push(Problem::new(at("nexus"), "allied players hold no Nexus card"));
        }
    }
}

fn traitors(g: &Game, p: &mut Vec<Problem>) {
    let mut seen = BTreeSet::new();
    for s in &g.factions {
        for l in s.traitors.iter().chain(s.face_dancers.iter()) {
            if !seen.insert(*l) {
                p.push(Problem::new(
                    format!("factions.{}.traitors", s.faction),
                    format!("the {l} Traitor card is held twice"),
                ));
            }
        }
    }
}

fn cards(g: &Game, p: &mut Vec<Problem>) {
    let n = g.treachery.catalog.len();
    let mut seen = vec![0u8; n];
    let mut count = |card: CardId, path: String, p: &mut Vec<Problem>| match seen.get_mut(usize::from(card.0)) {
        Some(c) => {
            *c = c.saturating_add(1);
            if *c == 2 {
                p.push(Problem::new(path, format!("card {card} is in two places")));
            }
        }
        None => p.push(Problem::new(
            path,
            format!("card {card} does not exist (the catalog has {n})"),
        )),
    };
    for &c in &g.treachery.deck {
        count(c, "deck".into(), p);
    }
    for &c in &g.treachery.discard {
        count(c, "discard".into(), p);
    }
    for &c in &g.treachery.outside {
        count(c, "outside".into(), p);
    }
    for s in &g.factions {
        for &c in &s.hand {
            count(c, format!("factions.{}.hand", s.faction), p);
        }
    }
    let missing = seen.iter().filter(|&&c| c == 0).count();
    if missing > 0 {
        p.push(Problem::new(
            "deck",
            format!("{missing} card(s) are nowhere (deck, discard, outside or a hand)"),
        ));
    }
}

fn nexus(g: &Game, p: &mut Vec<Problem>) {
    let held = g.factions.iter().filter_map(|s| s.nexus);
    let all: Vec<Faction> = g
        .nexus
        .deck
        .iter()
        .chain(g.nexus.discard.iter())
        .copied()
        .chain(held)
        .collect();
    if !g.options.nexus {
        if !all.is_empty() {
            p.push(Problem::new("nexus", "Nexus cards need the Nexus module"));
        }
        return;
    }
    let distinct: BTreeSet<Faction> = set_of(all.iter().copied());
    if distinct.len() != all.len() || all.len() != Faction::ALL.len() {
        p.push(Problem::new(
            "nexus",
            "the 12 Nexus cards are each in exactly one place",
        ));
    }
}

fn duke(g: &Game, p: &mut Vec<Problem>) {
    if g.duke.since.is_some_and(|t| t == 0 || t > g.turn) || g.duke.battle_turn.is_some_and(|t| t == 0 || t > g.turn) {
        p.push(Problem::new("duke", "Duke Vidal's tenure names a turn already begun"));
    }
    match g.duke.custody {
        DukeCustody::Controlled { by, .. } | DukeCustody::Captured { by } | DukeCustody::Ghola { by } => {
            if !g.is_seated(by) {
                p.push(Problem::new("duke", format!("{by} is not seated")));
            }
        }
        DukeCustody::SetAside | DukeCustody::Tanks => {}
    }
    if let DukeCustody::Ghola { by } = g.duke.custody {
        if by != Faction::Tleilaxu {
            p.push(Problem::new(
                "duke",
                format!("only the Tleilaxu hold gholas, not {by} (D-168)"),
            ));
        }
    }
    // D-168: a captive remembers only a lasting custody he was taken from,
    // never his captor's own.
    match (g.duke.custody, g.duke.before_capture) {
        (_, None) => {}
        (DukeCustody::Captured { by }, Some(before)) => {
            let holder = match before {
                DukeCustody::Controlled { by, .. } | DukeCustody::Ghola { by } => Some(by),
                _ => None,
            };
            if !crate::rules::duke::lasting(before) || holder == Some(by) {
                p.push(Problem::new(
                    "duke.beforeCapture",
                    "a captive returns to Ecaz Ambassador control or a Tleilaxu ghola of another faction",
                ));
            }
            if let DukeCustody::Ghola { by } = before {
                if by != Faction::Tleilaxu {
                    p.push(Problem::new("duke.beforeCapture", "only the Tleilaxu hold gholas"));
                }
            }
            if holder.is_some_and(|h| !g.is_seated(h)) {
                p.push(Problem::new("duke.beforeCapture", "the holder he returns to is seated"));
            }
        }
        (_, Some(_)) => p.push(Problem::new(
            "duke.beforeCapture",
            "only a captured Duke remembers where he returns",
        )),
    }
    // P-DUKE-LOAN: a loan goes to Ecaz's ally and remembers a lendable holder.
    let ecaz_ally = g.faction(Faction::Ecaz).and_then(|s| s.ally);
    match (g.duke.custody, g.duke.before_loan) {
        (
            DukeCustody::Controlled {
                by,
                source: DukeSource::AllianceLoan,
            },
            before,
        ) => {
            if ecaz_ally != Some(by) {
                p.push(Problem::new("duke", "a lent Duke is controlled by Ecaz's ally"));
            }
            let lendable = matches!(
                before,
                None | Some(DukeCustody::SetAside) | Some(DukeCustody::Controlled { by: Faction::Ecaz, .. })
            );
            if !lendable {
                p.push(Problem::new(
                    "dukeBeforeLoan",
                    "a loan returns him to Ecaz or sets him aside",
                ));
            }
        }
        (_, Some(_)) => p.push(Problem::new(
            "dukeBeforeLoan",
            "only a lent Duke remembers where he returns",
        )),
        _ => {}
    }
}

fn ambassadors(g: &Game, p: &mut Vec<Problem>) {
    let turn = g.ambassadors.placement;
    if turn.prevented_by.is_some() && !turn.closed {
        p.push(Problem::new(
            "ambassadors.placement",
            "a Karama-prevented placement is closed for the turn (R-PLC-5)",
        ));
    }
    let a = &g.ambassadors;
    let ids: Vec<Ambassador> = a.tokens.iter().map(|t| t.token).collect();
    if ids != Ambassador::ALL {
        p.push(Problem::new(
            "ambassadors.tokens",
            "all 11 tokens, once each, in order (R-INV-2)",
        ));
    }
    if !g.is_seated(Faction::Ecaz) {
        if a.tokens.iter().any(|t| t.zone != Zone::Pool) || !a.cohort.is_empty() {
            p.push(Problem::new(
                "ambassadors",
                "without Ecaz every token stays in the pool",
            ));
        }
        return;
    }
    let cohort: BTreeSet<Ambassador> = set_of(a.cohort.iter().copied());
    if cohort.len() != 5 || a.cohort.len() != 5 || cohort.contains(&Ambassador::Ecaz) {
        p.push(Problem::new(
            "ambassadors.cohort",
            "the cohort is 5 distinct non-Ecaz tokens (R-INV-1, R-INV-3)",
        ));
    }
    let mut strongholds = BTreeSet::new();
    for t in &a.tokens {
        let at = || format!("ambassadors.zones.{}", t.token);
        let member = cohort.contains(&t.token);
        match t.zone {
            Zone::Pool if member => p.push(Problem::new(at(), "a cohort token is not in the pool")),
            Zone::Pool if t.token == Ambassador::Ecaz => {
                p.push(Problem::new(at(), "the Ecaz token is never drawn (R-INV-3)"))
            }
            Zone::Supply if !member && t.token != Ambassador::Ecaz => p.push(Problem::new(
                at(),
                "only the Ecaz token and the cohort reach the supply",
            )),
            Zone::Used if !member => p.push(Problem::new(at(), "only cohort tokens are set aside as used")),
            Zone::Removed if t.token != Ambassador::BeneGesserit => {
                p.push(Problem::new(at(), "only the Bene Gesserit token is removed"))
            }
            Zone::Placed { territory } => {
                if !board::is_stronghold(territory) {
                    p.push(Problem::new(at(), format!("{territory} is not a stronghold")));
                }
                if territory == Territory::HiddenMobileStronghold && g.hms.is_none() {
                    p.push(Problem::new(at(), "the HMS is not in play"));
                }
                if !member && t.token != Ambassador::Ecaz {
                    p.push(Problem::new(at(), "only the Ecaz token and the cohort can be placed"));
                }
                if !strongholds.insert(territory) {
                    p.push(Problem::new(at(), format!("{territory} holds two Ambassadors")));
                }
            }
            _ => {}
        }
    }
}

/// R-INV-2, R-TRG-8 (D-48): the Bene Gesserit token, once triggered, is
/// `removed` for good. It is never set aside as `used` — the one zone a
/// recycle sends back to the pool — so no setup or saved state can smuggle
/// it back into a later cohort.
fn bg_token(g: &Game, p: &mut Vec<Problem>) {
    if g.ambassadors.zone(Ambassador::BeneGesserit) == Zone::Used {
        p.push(Problem::new(
            "ambassadors.zones.beneGesserit",
            "the Bene Gesserit token is removed when it triggers, never set aside as used (R-INV-2, R-TRG-8)",
        ));
    }
}

/// The actor each decision must have.
fn expected_actor(d: &Decision) -> Actor {
    match d {
        Decision::Placement
        | Decision::TriggerOffer { .. }
        | Decision::CopyEffect { .. }
        | Decision::EcazBranch { .. }
        | Decision::DukeLoan { .. } => Actor::Faction(Faction::Ecaz),
        Decision::PlacementResponse { .. } | Decision::HostReactions { .. } | Decision::BetrayalResponse { .. } => {
            Actor::Host
        }
        Decision::ChoamDiscard { beneficiary, .. }
        | Decision::IxianSwap { beneficiary, .. }
        | Decision::RicheseBuy { beneficiary, .. }
        | Decision::FremenRelocation { beneficiary, .. }
        | Decision::GuildShipment { beneficiary, .. }
        | Decision::TleilaxuRevival { beneficiary, .. } => Actor::Faction(*beneficiary),
        Decision::AllianceOffer { entrant, .. } => Actor::Faction(*entrant),
    }
}

fn hms(g: &Game, p: &mut Vec<Problem>) {
    if let Some(h) = g.hms {
        if !g.is_seated(Faction::Ixians) {
            p.push(Problem::new("hms", "the HMS is in play only with the Ixians seated"));
        }
        if let Err(e) = crate::rules::storm::check_hms_pointer(h.territory, h.sector) {
            p.push(Problem::new("hms", e.to_string()));
        }
    }
}

fn frames(g: &Game, p: &mut Vec<Problem>) {
    for f in &g.pending {
        if f.actor != expected_actor(&f.decision) {
            p.push(Problem::new(
                "pending",
                format!("frame {} ({}) has the wrong actor", f.id, f.decision.name()),
            ));
        }
        match &f.decision {
            Decision::Placement | Decision::PlacementResponse { .. }
                if g.phase != Phase::Revival || g.ambassadors.placement.closed =>
            {
                p.push(Problem::new(
                    "pending",
                    "placement frames exist only in an open end-of-Revival placement",
                ));
            }
            Decision::PlacementResponse { cost, .. } if *cost != crate::rules::placement::next_cost(g) => {
                p.push(Problem::new(
                    "pending",
                    "a placement costs the next rising cost (R-PLC-2)",
                ));
            }
            Decision::BetrayalResponse {
                holder,
                territory,
                ally,
                group,
            } => {
                let spent = g.faction(*holder).is_some_and(|s| s.nexus != Some(Faction::Ecaz));
                let ecaz_ally = g.faction(Faction::Ecaz).and_then(|s| s.ally);
                let sound = spent
                    && *holder != Faction::Ecaz
                    && ecaz_ally == Some(*ally)
                    && !group.is_empty()
                    && group.iter().all(|x| x.territory == *territory)
                    && g.phase == Phase::ShipmentMovement;
                if !sound {
                    p.push(Problem::new(
                        "pending",
                        "a Betrayal window follows a real Betrayal play (R-NEX-BET)",
                    ));
                }
            }
            _ => {}
        }
    }
    let mut arrivals = BTreeSet::new();
    for a in &g.arrivals {
        if a.id.0 >= g.next_arrival || !arrivals.insert(a.id) {
            p.push(Problem::new(
                "arrivals",
                format!("arrival {} is not a fresh, unique id", a.id),
            ));
        }
        if a.parent.is_some_and(|parent| !arrivals.contains(&parent)) {
            p.push(Problem::new(
                "arrivals",
                format!("arrival {} names a parent that is not open before it", a.id),
            ));
        }
    }
    for k in &g.knowledge {
        if !g.is_seated(k.viewer) || !g.is_seated(k.about) {
            p.push(Problem::new("knowledge", "knowledge records name seated factions"));
        }
    }
    let mut ids = BTreeSet::new();
    for f in &g.pending {
        if f.id.0 >= g.next_frame || !ids.insert(f.id) {
            p.push(Problem::new(
                "pending",
                format!("frame {} is not a fresh, unique id", f.id),
            ));
        }
        if f.decision.arrival().is_some_and(|a| !arrivals.contains(&a)) {
            p.push(Problem::new(
                "pending",
                format!("frame {} belongs to an arrival that is not open", f.id),
            ));
        }
        if let Actor::Faction(x) = f.actor {
            if !g.is_seated(x) {
                p.push(Problem::new(
                    "pending",
                    format!("frame {} is answered by unseated {x}", f.id),
                ));
            }
        }
    }
}
