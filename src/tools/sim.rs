//! The table simulator (D-133): a seeded host that plays the rest of Dune
//! plausibly enough to exercise Ecaz, reporting through the ordinary host
//! commands, while [`crate::bots`] answer every decision.
//!
//! One implementation serves the random-play invariant tests
//! (`tests/invariants.rs`), the `ecaz selfplay` command and the self-play
//! benchmark:
//! - [`random_setup`]: 2–6 seats (usually with Ecaz), allied pairs (often
//!   Ecaz + ally), explicit or seeded cohorts, the Nexus module and storm
//!   losses on or off, every policy varied, forces, hands, traitors, dead and
//!   captured leaders and Duke Vidal anywhere;
//! - [`random_arrival`], [`random_report`], [`random_duke_report`],
//!   [`random_table_report`]: random host reports, mostly consistent with the
//!   table (some are refused: the engine must refuse them cleanly);
//! - [`Table`]: a whole game. Each turn the host moves the storm (the Shield
//!   Wall falls now and then, the HMS moves, a Lasgun/Shield explosion or
//!   Atomics hits a stronghold), deals Nexus cards and makes or breaks
//!   alliances in the Spice Blow, gives CHOAM Charity, sells cards in the
//!   Bidding, revives forces and (for 5 spice) Duke Vidal; ends Revival so
//!   Ecaz places; ships and moves every faction, often into strongholds
//!   (arrivals that trigger Ambassadors, sometimes with linked reaction
//!   arrivals); fights battles where two factions share a stronghold (losses,
//!   Duke Vidal used, killed or captured, cards spent); pays out spice in the
//!   Collection. Karama answers (placement, Betrayal), Nexus plays and every
//!   decision come from the seats' bots. A small share of steps are noise
//!   (any random report), to keep the refusals exercised.
//!
//! Pure and deterministic: the table draws from its own [`BotRng`], never
//! from the game's RNG except through the engine's own commit points.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::base::board::{self, STRONGHOLDS};
use crate::base::ids::{Ambassador, ArrivalId, CardId, Faction, Leader, Phase, Sector, Territory, TraitorCard};
use crate::base::policy::{
    BgPool, DukeRevived, FrameVisibility, ReactionOrder, RichesePay, SecretAllyAudience, SecretAllyFaceDancers,
    SecretAllyScope, SupplyVisibility, Unavailable,
};
use crate::engine::apply::apply_mut;
use crate::engine::setup::{AmbassadorsSetup, FactionSetup, Setup};
use crate::extras::bots::{Bot, BotRng, Profile};
use crate::model::command::{Action, Cause, Command, Destruction, Origin, SectorForces};
use crate::model::error::ApplyError;
use crate::model::event::{Event, EventKind};
use crate::model::game::{Actor, DukeCustody, DukeSource, Forces, Game, HmsPointer, LeaderCustody, LeaderState};
use crate::model::game::{Stack, Zone};

// ---------------------------------------------------------------------------
// Board helpers
// ---------------------------------------------------------------------------

fn sectors_of(t: Territory) -> &'static [Sector] {
    board::info(t).sectors
}

/// Every sector the HMS may point at: a ring sector of a non-stronghold.
fn each_hms_pointer() -> impl Iterator<Item = (Territory, Sector)> + Clone {
    Territory::ALL
        .into_iter()
        .filter(|&t| !board::is_stronghold(t))
        .flat_map(|t| sectors_of(t).iter().map(move |&s| (t, s)))
        .filter(|&(_, s)| s != 0)
}

/// Every sector the HMS may point at: a ring sector of a non-stronghold.
pub fn hms_pointers() -> Vec<(Territory, Sector)> {
    each_hms_pointer().collect()
}

/// Every position on the board (the HMS only while in play).
fn each_position(hms: bool) -> impl Iterator<Item = (Territory, Sector)> + Clone {
    Territory::ALL
        .into_iter()
        .filter(move |&t| hms || t != Territory::HiddenMobileStronghold)
        .flat_map(|t| sectors_of(t).iter().map(move |&s| (t, s)))
}

/// Every position on the board (the HMS only while in play).
pub fn positions(hms: bool) -> Vec<(Territory, Sector)> {
    each_position(hms).collect()
}

/// The strongholds in play.
fn each_stronghold(hms: bool) -> impl Iterator<Item = Territory> + Clone {
    STRONGHOLDS
        .into_iter()
        .filter(move |&t| hms || t != Territory::HiddenMobileStronghold)
}

/// The strongholds in play.
pub fn strongholds(hms: bool) -> Vec<Territory> {
    each_stronghold(hms).collect()
}

/// One item of `items`, uniformly: the same draw as [`BotRng::pick`] on
/// the collected items, without collecting them (D-160).
fn pick_in<I: Iterator + Clone>(r: &mut BotRng, mut items: I) -> Option<I::Item> {
    let i = r.below(items.clone().count());
    items.nth(i)
}

/// A random sector of `t` (its first when it has one only).
fn sector_in(r: &mut BotRng, t: Territory) -> Sector {
    r.pick(sectors_of(t)).unwrap_or(0)
}

/// A random position, a stronghold half of the time.
pub fn random_position(r: &mut BotRng, hms: bool) -> (Territory, Sector) {
    if r.chance(1, 2) {
        let t = pick_in(r, each_stronghold(hms)).unwrap_or(Territory::Arrakeen);
        (t, sector_in(r, t))
    } else {
        pick_in(r, each_position(hms)).unwrap_or((Territory::Arrakeen, 10))
    }
}

fn u8_of(n: usize) -> u8 {
    u8::try_from(n).unwrap_or(u8::MAX)
}

fn u32_of(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// The base catalog's Karama cards.
fn karama_cards() -> Vec<CardId> {
    crate::engine::setup::base_catalog()
        .iter()
        .enumerate()
        .filter(|(_, k)| k.as_str() == board::KARAMA)
        .filter_map(|(i, _)| u16::try_from(i).ok().map(CardId))
        .collect()
}

// ---------------------------------------------------------------------------
// Random setups
// ---------------------------------------------------------------------------

/// A random setup (see the module docs). `seats`: the seats to use, or
/// `None` for 2–6 random seats (usually with Ecaz).
pub fn random_setup(r: &mut BotRng, seed: u64, seats: Option<&[Faction]>) -> Setup {
    let mut seats = match seats {
        Some(s) => s.to_vec(),
        None => {
            let n = 2 + r.below(5);
            let mut pool: Vec<Faction> = Faction::ALL.to_vec();
            let mut seats = Vec::new();
            if r.chance(17, 20) {
                seats.push(Faction::Ecaz);
                pool.retain(|&f| f != Faction::Ecaz);
            }
            while seats.len() < n && !pool.is_empty() {
                let i = r.below(pool.len());
                seats.push(pool.remove(i));
            }
            seats
        }
    };
    r.shuffle(&mut seats);
    let ecaz_seated = seats.contains(&Faction::Ecaz);

    let mut s = Setup::for_seats(&seats, seed);
    s.storm = Some(u8_of(1 + r.below(18)));
    if r.chance(1, 5) {
        s.shield_wall_standing = Some(false);
    }
    if r.chance(1, 4) {
        s.turn = Some(u32_of(1 + r.below(5)));
        s.phase = r.pick(&Phase::ALL);
    }
    s.options.nexus = r.chance(1, 3);
    s.options.storm_losses = r.chance(1, 2);
    s.options.advanced = r.chance(1, 2);
    if r.chance(1, 3) {
        s.policies.supply_visibility = SupplyVisibility::OwnerOnly;
    }
    if r.chance(1, 3) {
        s.policies.bg_pool = BgPool::NotInSupplyNow;
    }
    if r.chance(1, 3) {
        s.policies.unavailable = Unavailable::AlwaysTriggerable;
    }
    if r.chance(1, 3) {
        s.policies.richese_pay = RichesePay::Purchase;
    }
    if r.chance(1, 3) {
        s.policies.duke_revived = DukeRevived::Ecaz;
    }
    if r.chance(1, 3) {
        s.policies.secret_ally_scope = SecretAllyScope::Controlled;
    }
    if r.chance(1, 3) {
        s.policies.secret_ally_audience = SecretAllyAudience::Table;
    }
    if r.chance(1, 3) {
        s.policies.secret_ally_face_dancers = SecretAllyFaceDancers::Yes;
    }
    // The host-kit policies (P-KARAMA-HOST, P-REACT-ORDER) vary with the
    // seed's bits, not the table's random stream, so every other choice of
    // a seed's table stays what it was.
    if (seed >> 3) % 4 == 1 {
        s.policies.reaction_order = ReactionOrder::HostFirst;
    }
    if (seed >> 5) % 4 == 2 {
        s.policies.karama_kinds = vec!["baliset".to_string(), "la_la_la".to_string()];
    }
    // P-FRAME-VIS: one seed in three; taken from the seed rather than drawn,
    // so every seed's table is otherwise the one it was before the policy.
    if seed % 3 == 2 {
        s.policies.frame_visibility = FrameVisibility::ActorOnly;
    }
    if seats.contains(&Faction::Ixians) && r.chance(2, 3) {
        if let Some((territory, sector)) = pick_in(r, each_hms_pointer()) {
            s.hms = Some(HmsPointer { territory, sector });
        }
    }
    let hms = s.hms.is_some();

    // Alliances: Ecaz + an ally, and/or another pair.
    let mut ally: BTreeMap<Faction, Faction> = BTreeMap::new();
    if ecaz_seated && r.chance(1, 3) {
        let others: Vec<Faction> = seats.iter().copied().filter(|&f| f != Faction::Ecaz).collect();
        if let Some(a) = r.pick(&others) {
            ally.insert(Faction::Ecaz, a);
            ally.insert(a, Faction::Ecaz);
        }
    }
    if r.chance(1, 4) {
        let free: Vec<Faction> = seats.iter().copied().filter(|f| !ally.contains_key(f)).collect();
        if free.len() >= 2 {
            if let Some(a) = r.pick(&free) {
                let rest: Vec<Faction> = free.into_iter().filter(|&f| f != a).collect();
                if let Some(b) = r.pick(&rest) {
                    ally.insert(a, b);
                    ally.insert(b, a);
                }
            }
        }
    }

    // Treachery cards: Karamas first, then random hands.
    let catalog_len = crate::engine::setup::base_catalog().len();
    let mut cards: Vec<CardId> = (0..catalog_len)
        .filter_map(|i| u16::try_from(i).ok().map(CardId))
        .collect();
    r.shuffle(&mut cards);
    let limit = |f: Faction| usize::from(board::faction_info(f).hand_limit);
    let mut hands: BTreeMap<Faction, Vec<CardId>> = BTreeMap::new();
    for k in karama_cards() {
        if r.chance(2, 3) {
            if let Some(f) = r.pick(&seats) {
                if hands.get(&f).map_or(0, Vec::len) < limit(f) {
                    hands.entry(f).or_default().push(k);
                    cards.retain(|&c| c != k);
                }
            }
        }
    }
    for &f in &seats {
        let want = r.below(limit(f).min(5) + 1);
        while hands.get(&f).map_or(0, Vec::len) < want.min(limit(f)) {
            let Some(c) = cards.pop() else { break };
            hands.entry(f).or_default().push(c);
        }
    }
    if r.chance(1, 5) {
        // A nearly empty deck: the effects' draws reshuffle the discard pile.
        let k = r.below(3).min(cards.len());
        let rest = cards.split_off(k);
        s.deck = Some(cards.clone());
        s.discard = rest;
    } else if r.chance(1, 3) {
        let k = r.below(4).min(cards.len());
        s.discard = cards.iter().copied().take(k).collect();
    }

    // Traitors (leaders of seated factions, each card once) and Face
    // Dancers. D-170: in about a quarter of the worlds the Cheap Hero/Heroine
    // card is in the Traitor deck too, placed in it by the seed, so that the
    // worlds without it draw exactly as they would without the option.
    let mix = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    s.options.cheap_hero_traitor = mix >> 62 == 0;
    let mut traitor_pool: Vec<TraitorCard> = seats
        .iter()
        .flat_map(|f| f.leaders())
        .map(TraitorCard::Leader)
        .collect();
    r.shuffle(&mut traitor_pool);
    if s.options.cheap_hero_traitor {
        let slots = u64::try_from(traitor_pool.len()).unwrap_or(0) + 1;
        let at = usize::try_from((mix >> 32) % slots).unwrap_or(0);
        traitor_pool.insert(at, TraitorCard::CheapHero);
    }

    // Nexus cards: often the Ecaz card is held, so its plays happen.
    let mut nexus_cards: Vec<Faction> = Faction::ALL.to_vec();
    r.shuffle(&mut nexus_cards);
    let unallied: Vec<Faction> = seats.iter().copied().filter(|f| !ally.contains_key(f)).collect();
    let ecaz_card_to = if s.options.nexus && !unallied.is_empty() && r.chance(1, 2) {
        nexus_cards.retain(|&c| c != Faction::Ecaz);
        r.pick(&unallied)
    } else {
        None
    };
    if s.options.nexus && r.chance(1, 3) {
        for _ in 0..1 + r.below(2) {
            if let Some(c) = nexus_cards.pop() {
                s.nexus_discard.push(c);
            }
        }
    }

    for &f in &seats {
        let spice = if f == Faction::Ecaz { r.below(16) } else { r.below(21) };
        let mut fs = FactionSetup {
            spice: Some(u32_of(spice)),
            hand: hands.remove(&f).unwrap_or_default(),
            ally: ally.get(&f).copied(),
            ..FactionSetup::default()
        };
        // Forces on the board and in the Tanks (reserves take the rest).
        let elite_budget = crate::base::board::elite_total(f);
        let normal_budget = 20 - elite_budget;
        let (mut used_n, mut used_e) = (0u32, 0u32);
        if (f != Faction::Ecaz && r.chance(1, 2)) || (f == Faction::Ecaz && r.chance(1, 3)) {
            let mut on_board: Vec<Stack> = Vec::new();
            for _ in 0..1 + r.below(3) {
                let (territory, sector) = random_position(r, hms);
                if on_board.iter().any(|x| x.territory == territory && x.sector == sector) {
                    continue;
                }
                let normal = r.upto((normal_budget - used_n).min(5));
                let elite = r.upto((elite_budget - used_e).min(2));
                let advisors = if f == Faction::BeneGesserit {
                    r.upto((normal_budget - used_n - normal).min(3))
                } else {
                    0
                };
                if normal + elite + advisors == 0 {
                    continue;
                }
                used_n += normal + advisors;
                used_e += elite;
                on_board.push(Stack {
                    territory,
                    sector,
                    normal,
                    elite,
                    advisors,
                });
            }
            fs.board = Some(on_board);
        } else if let Some(start) = crate::engine::setup::printed_start(f, hms, s.options.advanced) {
            // The printed start (D-56).
            used_n += start.iter().map(|x| x.normal + x.advisors).sum::<u32>();
            used_e += start.iter().map(|x| x.elite).sum::<u32>();
        } else {
            // A position the player chooses: here, all in reserves.
            fs.board = Some(Vec::new());
        }
        if r.chance(1, 3) {
            fs.tanks = Some(Forces {
                normal: r.upto(normal_budget.saturating_sub(used_n).min(4)),
                elite: r.upto(elite_budget.saturating_sub(used_e).min(1)),
            });
        }
        // Dead and captured leaders.
        let [first, second, ..] = f.leaders();
        if r.chance(1, 3) {
            fs.leaders.push(LeaderState {
                leader: first,
                custody: LeaderCustody::Tanks,
            });
        }
        if r.chance(1, 6) {
            if let Some(captor) = r.pick(&seats).filter(|&c| c != f) {
                fs.leaders.push(LeaderState {
                    leader: second,
                    custody: LeaderCustody::Captured { by: captor },
                });
            }
        }
        // Traitor cards / Face Dancers.
        if r.chance(1, 2) {
            for _ in 0..1 + r.below(2) {
                if let Some(l) = traitor_pool.pop() {
                    if f == Faction::Tleilaxu {
                        fs.face_dancers.push(l);
                    } else {
                        fs.traitors.push(l);
                    }
                }
            }
        }
        // A Nexus card (only unallied players hold one).
        if ecaz_card_to == Some(f) {
            fs.nexus = Some(Faction::Ecaz);
        } else if s.options.nexus && fs.ally.is_none() && r.chance(1, 2) {
            fs.nexus = nexus_cards.pop();
        }
        s.factions.insert(f, fs);
    }

    // Duke Vidal anywhere.
    let seat = r.pick(&seats).unwrap_or(Faction::Ecaz);
    match r.below(12) {
        6 | 7 => {
            let source = match seat {
                // R-NEX-CUN: Cunning control means the Ecaz Nexus card was spent.
                Faction::Ecaz if r.chance(1, 2) && !s.factions.values().any(|fs| fs.nexus == Some(Faction::Ecaz)) => {
                    DukeSource::NexusCunning
                }
                Faction::Moritani => DukeSource::Moritani,
                _ => DukeSource::EcazAmbassador,
            };
            s.duke = Some(DukeCustody::Controlled { by: seat, source });
        }
        8 | 9 => s.duke = Some(DukeCustody::Tanks),
        // R-DUKE-1: Ecaz never holds its own Duke captive.
        10 if seat != Faction::Ecaz => s.duke = Some(DukeCustody::Captured { by: seat }),
        11 => {
            if let Some(&a) = ally.get(&Faction::Ecaz) {
                s.duke = Some(DukeCustody::Controlled {
                    by: a,
                    source: DukeSource::AllianceLoan,
                });
                s.duke_before_loan = Some(DukeCustody::SetAside);
            } else if seats.contains(&Faction::Tleilaxu) {
                s.duke = Some(DukeCustody::Ghola { by: Faction::Tleilaxu });
            }
        }
        _ => {}
    }

    // An explicit Ambassador inventory two times in three (else the seeded draw).
    if ecaz_seated && r.chance(2, 3) {
        let mut non = Ambassador::NON_ECAZ.to_vec();
        r.shuffle(&mut non);
        let cohort: Vec<Ambassador> = non.into_iter().take(5).collect();
        let mut free = strongholds(hms);
        r.shuffle(&mut free);
        let mut zones = BTreeMap::new();
        for &t in &cohort {
            match r.below(10) {
                3..=7 => {
                    if let Some(territory) = free.pop() {
                        zones.insert(t, Zone::Placed { territory });
                    }
                }
                // A triggered BG token is removed, never used (R-INV-2,
                // R-TRG-8, D-48: a setup with BG used is refused).
                8 if t == Ambassador::BeneGesserit => {
                    zones.insert(t, Zone::Removed);
                }
                8 => {
                    zones.insert(t, Zone::Used);
                }
                9 if t == Ambassador::BeneGesserit => {
                    zones.insert(t, Zone::Removed);
                }
                _ => {}
            }
        }
        if r.chance(1, 3) {
            if let Some(territory) = free.pop() {
                zones.insert(Ambassador::Ecaz, Zone::Placed { territory });
            }
        }
        if !cohort.contains(&Ambassador::BeneGesserit) && r.chance(1, 4) {
            zones.insert(Ambassador::BeneGesserit, Zone::Removed);
        }
        s.ambassadors = Some(AmbassadorsSetup {
            zones,
            cohort,
            cycle: u32_of(r.below(3)),
            ..AmbassadorsSetup::default()
        });
    }
    s
}

// ---------------------------------------------------------------------------
// Random host reports
// ---------------------------------------------------------------------------

fn any_faction(r: &mut BotRng) -> Faction {
    r.pick(&Faction::ALL).unwrap_or(Faction::Ecaz)
}

fn seat(r: &mut BotRng, g: &Game) -> Faction {
    r.pick(g.seats()).unwrap_or(Faction::Ecaz)
}

/// A random arrival (mostly consistent with the table). `linked`: a frame is
/// open, so the report should name an open arrival as its parent.
pub fn random_arrival(r: &mut BotRng, g: &Game, linked: bool) -> Command {
    let hms = g.hms().is_some();
    let entrant = seat(r, g);
    let Some(st) = g.faction(entrant) else {
        // No seats at all: nothing can arrive; the phase ends instead.
        return Command::host(Action::EndPhase { phase: g.phase() });
    };
    let on_board = !st.board.is_empty() && (st.reserves.total() == 0 || r.chance(1, 2));
    let mut from = Origin::Reserves;
    let (mut normal, mut elite, advisors);
    let mut left: Option<(Territory, Sector)> = None;
    match st.board.get(r.below(st.board.len())).copied().filter(|_| on_board) {
        Some(stack) => {
            advisors = stack.advisors > 0 && (stack.normal + stack.elite == 0 || r.chance(1, 2));
            let (an, ae) = if advisors {
                (stack.advisors, 0)
            } else {
                (stack.normal, stack.elite)
            };
            normal = r.upto(an);
            elite = r.upto(ae);
            if normal + elite == 0 {
                if an > 0 {
                    normal = 1;
                } else {
                    elite = ae.min(1);
                }
            }
            left = Some((stack.territory, stack.sector));
            from = if r.chance(1, 4) {
                let mut sectors = vec![SectorForces {
                    sector: stack.sector,
                    normal,
                    elite,
                }];
                // Sometimes more of the same territory's sectors join the group.
                for other in &st.board {
                    if other.territory == stack.territory && other.sector != stack.sector && r.chance(1, 2) {
                        let (n, e) = if advisors {
                            (r.upto(other.advisors), 0)
                        } else {
                            (r.upto(other.normal), r.upto(other.elite))
                        };
                        normal += n;
                        elite += e;
                        sectors.push(SectorForces {
                            sector: other.sector,
                            normal: n,
                            elite: e,
                        });
                    }
                }
                Origin::Group {
                    territory: stack.territory,
                    sectors,
                }
            } else {
                Origin::Board {
                    territory: stack.territory,
                    sector: stack.sector,
                }
            };
        }
        None => {
            advisors = entrant == Faction::BeneGesserit && r.chance(1, 2);
            normal = r.upto(st.reserves.normal.min(6));
            elite = if advisors { 0 } else { r.upto(st.reserves.elite.min(3)) };
            if normal + elite == 0 {
                normal = 1; // refused when the reserves are empty
            }
        }
    }
    let placed: Vec<Territory> = g
        .ambassadors()
        .tokens
        .iter()
        .filter_map(|t| match t.zone {
            Zone::Placed { territory } => Some(territory),
            _ => None,
        })
        .collect();
    let roll = r.below(12);
    let (territory, sector) = match (roll, r.pick(&placed), left) {
        (0..=6, Some(t), _) => (t, sector_in(r, t)),
        (6, None, Some((t, _))) if sectors_of(t).len() > 1 || r.chance(1, 4) => {
            // Within the territory left: not an entry (or no movement at all).
            (t, sector_in(r, t))
        }
        (7..=8, _, _) => {
            let t = pick_in(r, each_stronghold(hms)).unwrap_or(Territory::Arrakeen);
            (t, sector_in(r, t))
        }
        (9, _, _) if r.chance(1, 3) => (
            r.pick(&Territory::ALL).unwrap_or(Territory::Arrakeen),
            u8_of(r.below(19)),
        ),
        _ => pick_in(r, each_position(hms)).unwrap_or((Territory::Arrakeen, 10)),
    };
    let parent = if linked {
        let open = g.open_arrivals();
        match open.get(r.below(open.len())) {
            Some(a) if r.chance(9, 10) => Some(a.id),
            _ if r.chance(1, 2) => Some(ArrivalId(u32_of(r.below(30)))),
            _ => None,
        }
    } else if r.chance(1, 25) {
        Some(ArrivalId(u32_of(r.below(30))))
    } else {
        None
    };
    let cause = r
        .pick(&[Cause::Shipment, Cause::Movement, Cause::Worm, Cause::Other])
        .unwrap_or(Cause::Other);
    Command::host(Action::Arrive {
        entrant,
        cause,
        from,
        territory,
        sector,
        normal,
        elite,
        advisors,
        parent,
        // P-REACT-ORDER (D-252): now and then the host asks for its
        // reactions first on one report (from the revision, not the
        // random stream, so the rest of the game's choices stay the same).
        reactions_first: g.revision() % 11 == 4,
    })
}

/// A random report of Duke Vidal's fate.
pub fn random_duke_report(r: &mut BotRng, g: &Game) -> Command {
    Command::host(match r.below(5) {
        0 => Action::DukeUsedInBattle {},
        1 => Action::DukeKilled {},
        2 => Action::DukeCaptured {
            by: if r.chance(9, 10) { seat(r, g) } else { any_faction(r) },
        },
        3 => Action::DukeRevived {},
        _ => Action::DukeToMoritani {},
    })
}

/// A random table-sync report (D-40–D-47), mostly consistent with the table.
pub fn random_table_report(r: &mut BotRng, g: &Game) -> Command {
    let f = seat(r, g);
    let other = seat(r, g);
    let (spice, hand, board_stacks, tanks) = g
        .faction(f)
        .map(|s| (s.spice, s.hand.clone(), s.board.clone(), s.tanks))
        .unwrap_or_default();
    let stack = board_stacks.get(r.below(board_stacks.len())).copied();
    let card = match r.pick(&hand) {
        Some(c) if r.chance(4, 5) => c,
        _ => CardId(u16::try_from(r.below(34)).unwrap_or(0)),
    };
    let leaders: Vec<Leader> = g.seats().iter().flat_map(|s| s.leaders()).collect();
    let cards: Vec<TraitorCard> = leaders
        .iter()
        .copied()
        .map(TraitorCard::Leader)
        .chain(g.options().cheap_hero_traitor.then_some(TraitorCard::CheapHero))
        .collect();
    let action = match r.below(16) {
        0 => Action::GainSpice {
            faction: f,
            amount: r.upto(8),
        },
        1 => Action::PaySpice {
            faction: f,
            amount: 1 + r.upto(spice.min(6)),
            to: r.chance(1, 2).then_some(other),
        },
        2 | 3 => Action::DrawCard { faction: f },
        4 => Action::DiscardCard { faction: f, card },
        5 => Action::GiveCard {
            from: f,
            to: other,
            card,
        },
        6 => {
            let mut traitors: Vec<TraitorCard> = (0..r.below(3)).filter_map(|_| r.pick(&cards)).collect();
            traitors.dedup();
            if f == Faction::Tleilaxu {
                Action::SetFaceDancers { face_dancers: traitors }
            } else {
                Action::SetTraitors { faction: f, traitors }
            }
        }
        7..=9 => match stack {
            Some(x) => {
                let (normal, elite, advisors) = (r.upto(x.normal), r.upto(x.elite), r.upto(x.advisors));
                let (normal, elite, advisors) = if normal + elite + advisors == 0 {
                    (x.normal.min(1), x.elite.min(1), x.advisors.min(1))
                } else {
                    (normal, elite, advisors)
                };
                let (faction, territory, sector) = (f, x.territory, x.sector);
                if r.chance(2, 3) {
                    Action::LoseForces {
                        faction,
                        territory,
                        sector,
                        normal,
                        elite,
                        advisors,
                    }
                } else {
                    Action::ReturnForces {
                        faction,
                        territory,
                        sector,
                        normal,
                        elite,
                        advisors,
                    }
                }
            }
            None => Action::ReviveFromTanks {
                faction: f,
                normal: 1,
                elite: 0,
            },
        },
        10 => Action::ReviveFromTanks {
            faction: f,
            normal: r.upto(tanks.normal.min(3)),
            elite: r.upto(tanks.elite.min(1)),
        },
        11 => {
            let x = g
                .faction(Faction::BeneGesserit)
                .and_then(|s| s.board.first().copied())
                .unwrap_or(Stack {
                    territory: Territory::Arrakeen,
                    sector: 10,
                    normal: 1,
                    elite: 0,
                    advisors: 1,
                });
            let to_fighters = x.advisors > 0 && (x.normal == 0 || r.chance(1, 2));
            let most = if to_fighters { x.advisors } else { x.normal };
            Action::FlipAdvisors {
                territory: x.territory,
                sector: x.sector,
                count: 1 + r.upto(most.saturating_sub(1)),
                to_fighters,
            }
        }
        12 => Action::SetLeader {
            leader: r.pick(&leaders).unwrap_or(Leader::ALL[0]),
            custody: match r.below(4) {
                0 => LeaderCustody::Available,
                1 => LeaderCustody::Tanks,
                2 => LeaderCustody::Captured { by: other },
                // Only the Tleilaxu make gholas (D-168).
                _ => LeaderCustody::Ghola { by: Faction::Tleilaxu },
            },
        },
        13 => Action::FormAlliance { a: f, b: other },
        14 => Action::BreakAlliance { faction: f },
        _ => Action::SetHandLimit {
            faction: f,
            limit: u8_of(1 + r.below(8)),
        },
    };
    Command::host(action)
}

/// Any random host report for a table with no open frame.
pub fn random_report(r: &mut BotRng, g: &Game) -> Command {
    let a = match r.below(18) {
        0..=5 | 12 => return random_arrival(r, g, false),
        6 => return random_duke_report(r, g),
        13..=16 => return random_table_report(r, g),
        7 if g.phase() == Phase::Storm || r.chance(1, 4) => Action::MoveStorm {
            sectors: u32_of(r.below(25)),
        },
        8 if g.phase() == Phase::Storm || r.chance(1, 4) => Action::DestroyShieldWall {},
        9 => Action::DestroyTerritory {
            territory: r.pick(&STRONGHOLDS).unwrap_or(Territory::Arrakeen),
            cause: r
                .pick(&[
                    Destruction::LasgunShield,
                    Destruction::AtomicsTerror,
                    Destruction::Other,
                ])
                .unwrap_or(Destruction::Other),
        },
        10 if g.hms().is_some() || r.chance(1, 4) => {
            let (territory, sector) = pick_in(r, each_hms_pointer()).unwrap_or((Territory::PlasticBasin, 13));
            Action::MoveHms { territory, sector }
        }
        11 if g.options().nexus || r.chance(1, 4) => {
            let faction = seat(r, g);
            if r.chance(2, 3) {
                Action::DealNexus { faction }
            } else {
                Action::DiscardNexus { faction }
            }
        }
        _ => return random_arrival(r, g, false),
    };
    Command::host(a)
}

// ---------------------------------------------------------------------------
// The table
// ---------------------------------------------------------------------------

/// How a [`Table`] plays.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableConfig {
    /// Turns to play from the setup's turn (the game stops at the start of
    /// the turn after the last one).
    pub turns: u32,
    /// Safety cap on commands sent in one game.
    pub max_commands: u32,
    /// One step in `noise` is any random host report (0: never).
    pub noise: u32,
    /// The bot of each seat (absent seats use `default_profile`).
    pub profiles: BTreeMap<Faction, Profile>,
    /// The profile of seats not in `profiles` and of the host's Karama answers.
    pub default_profile: Profile,
}

impl Default for TableConfig {
    fn default() -> Self {
        TableConfig {
            turns: 10,
            max_commands: 5_000,
            noise: 25,
            profiles: BTreeMap::new(),
            default_profile: Profile::Random,
        }
    }
}

/// Who sent a command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mover {
    /// A seat's bot answered an open decision.
    Decision,
    /// A seat's bot took an initiative (a Nexus play).
    Initiative,
    /// The host answered a host frame (Karama answers, reactions done).
    HostFrame,
    /// A plausible host report.
    Host,
    /// A random host report (noise).
    Noise,
}

/// One step of a table.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// The command sent.
    pub command: Command,
    /// Who sent it.
    pub mover: Mover,
    /// Its events, or the refusal.
    pub outcome: Result<Vec<Event>, ApplyError>,
}

/// A game in progress between bots and a simulated host.
#[derive(Debug, Clone)]
pub struct Table {
    game: Game,
    rng: BotRng,
    bots: Vec<(Faction, Bot)>,
    host_bot: Bot,
    config: TableConfig,
    start_turn: u32,
    sent: u32,
    /// (turn, phase) the host's plan is for, and how far it got.
    plan: (u32, Phase, u32),
    /// Duke Vidal was revived; Ecaz pays next.
    owe_duke: bool,
}

impl Table {
    /// A table for `game`; every seat's bot is seeded from `seed`.
    pub fn new(game: Game, seed: u64, config: TableConfig) -> Self {
        let mut rng = BotRng::new(seed ^ 0x5EED_7AB1E);
        let bots = game
            .seats()
            .iter()
            .map(|&f| {
                let p = config.profiles.get(&f).copied().unwrap_or(config.default_profile);
                (f, Bot::new(p, rng.next_u64()))
            })
            .collect();
        let host_bot = Bot::new(config.default_profile, rng.next_u64());
        let start_turn = game.turn();
        let plan = (game.turn(), game.phase(), 0);
        Table {
            game,
            rng,
            bots,
            host_bot,
            config,
            start_turn,
            sent: 0,
            plan,
            owe_duke: false,
        }
    }

    /// A random game (see [`random_setup`]) at a table.
    pub fn random(seed: u64, seats: Option<&[Faction]>, config: TableConfig) -> Result<Self, ApplyError> {
        let mut r = BotRng::new(seed.wrapping_add(1));
        let game = random_setup(&mut r, seed, seats).build()?;
        Ok(Table::new(game, seed, config))
    }

    /// The game now.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Turns completed since the start.
    pub fn turns_played(&self) -> u32 {
        self.game.turn().saturating_sub(self.start_turn)
    }

    /// The game is over: the turns are played (and nothing is pending), or
    /// the command cap is reached.
    pub fn finished(&self) -> bool {
        (self.turns_played() >= self.config.turns && self.game.pending().is_empty())
            || self.sent >= self.config.max_commands
    }

    /// The next command and who sends it (the table's bots and host draw
    /// from their generators; the game is not changed).
    pub fn next_command(&mut self) -> (Command, Mover) {
        self.sent = self.sent.saturating_add(1);
        let g = &self.game;
        if let Some(frame) = g.open_frame() {
            let actor = frame.actor;
            // A reaction arrival linked to the open entry, now and then (BG
            // accompaniment, a worm, a second shipment …).
            let reacting = !g.open_arrivals().is_empty();
            if reacting && self.rng.chance(1, 12) {
                return (random_arrival(&mut self.rng, g, true), Mover::Noise);
            }
            let bot = match actor {
                Actor::Host => Some(&mut self.host_bot),
                Actor::Faction(f) => self.bots.iter_mut().find(|(s, _)| *s == f).map(|(_, b)| b),
            };
            let pick = bot.and_then(|b| b.choose(g, actor));
            let mover = if actor == Actor::Host {
                Mover::HostFrame
            } else {
                Mover::Decision
            };
            if let Some(c) = pick {
                return (c, mover);
            }
        } else {
            // Initiatives first (each seat's bot in turn order).
            for (f, bot) in &mut self.bots {
                if let Some(c) = bot.initiative(g, *f) {
                    return (c, Mover::Initiative);
                }
            }
        }
        if self.config.noise > 0 && self.rng.below_u32(self.config.noise) == 0 {
            return (random_report(&mut self.rng, &self.game), Mover::Noise);
        }
        (self.host_report(), Mover::Host)
    }

    /// Send the next command (in place).
    pub fn step(&mut self) -> Step {
        let (command, mover) = self.next_command();
        let outcome = apply_mut(&mut self.game, &command);
        Step {
            command,
            mover,
            outcome,
        }
    }

    /// The host's next plausible report for the current phase; the phase
    /// ends when its plan is done.
    fn host_report(&mut self) -> Command {
        let (turn, phase) = (self.game.turn(), self.game.phase());
        if self.plan.0 != turn || self.plan.1 != phase {
            self.plan = (turn, phase, 0);
        }
        loop {
            let i = self.plan.2;
            self.plan.2 = i.saturating_add(1);
            match self.phase_report(phase, i) {
                Plan::Report(a) => return Command::host(a),
                Plan::Skip => {}
                Plan::Done => return Command::host(Action::EndPhase { phase }),
            }
        }
    }

    /// Step `i` of the host's plan for `phase`.
    fn phase_report(&mut self, phase: Phase, i: u32) -> Plan {
        let g = &self.game;
        let r = &mut self.rng;
        let seats = g.seats();
        let n = u32_of(seats.len());
        match phase {
            Phase::Storm => match i {
                0 => Plan::Report(Action::MoveStorm {
                    sectors: 1 + r.below_u32(6),
                }),
                // Family Atomics now and then (the storm then reaches the cities).
                1 if g.shield_wall_standing() && r.chance(1, 30) => Plan::Report(Action::DestroyShieldWall {}),
                2 if g.hms().is_some() && r.chance(1, 2) => match pick_in(r, each_hms_pointer()) {
                    Some((territory, sector)) => Plan::Report(Action::MoveHms { territory, sector }),
                    None => Plan::Skip,
                },
                _ if i <= 2 => Plan::Skip,
                _ => Plan::Done,
            },
            Phase::SpiceBlow => match i {
                // Nexus: deal a card to an unallied player without one.
                0 if g.options().nexus && r.chance(1, 2) => {
                    let want: Vec<Faction> = seats
                        .iter()
                        .copied()
                        .filter(|&f| g.faction(f).is_some_and(|s| s.ally.is_none() && s.nexus.is_none()))
                        .collect();
                    match r.pick(&want) {
                        Some(faction) => Plan::Report(Action::DealNexus { faction }),
                        None => Plan::Skip,
                    }
                }
                // Nexus: an alliance forms or breaks.
                1 if r.chance(1, 6) => {
                    let free: Vec<Faction> = seats
                        .iter()
                        .copied()
                        .filter(|&f| g.faction(f).is_some_and(|s| s.ally.is_none()))
                        .collect();
                    match (r.pick(&free), r.pick(&free)) {
                        (Some(a), Some(b)) if a != b => Plan::Report(Action::FormAlliance { a, b }),
                        _ => Plan::Skip,
                    }
                }
                2 if r.chance(1, 10) => {
                    let allied: Vec<Faction> = seats
                        .iter()
                        .copied()
                        .filter(|&f| g.faction(f).is_some_and(|s| s.ally.is_some()))
                        .collect();
                    match r.pick(&allied) {
                        Some(faction) => Plan::Report(Action::BreakAlliance { faction }),
                        None => Plan::Skip,
                    }
                }
                _ if i <= 2 => Plan::Skip,
                _ => Plan::Done,
            },
            // CHOAM Charity: up to 2 spice for the poor.
            Phase::ChoamCharity => match seats.get(usize::try_from(i).unwrap_or(usize::MAX)) {
                Some(&faction) => match g.faction(faction).map_or(2, |s| s.spice) {
                    s @ 0..=1 => Plan::Report(Action::GainSpice { faction, amount: 2 - s }),
                    _ => Plan::Skip,
                },
                None => Plan::Done,
            },
            // Bidding: a card or two sold to players below their limit.
            Phase::Bidding => {
                if i >= 4 {
                    return Plan::Done;
                }
                let Some(faction) = r.pick(seats) else {
                    return Plan::Done;
                };
                let Some(s) = g.faction(faction) else { return Plan::Skip };
                let price = 1 + r.below_u32(4);
                if s.hand.len() >= usize::from(s.hand_limit) || g.treachery().deck.is_empty() && r.chance(1, 2) {
                    return Plan::Skip;
                }
                if i % 2 == 0 {
                    if s.spice < price {
                        return Plan::Skip;
                    }
                    let to = seats.contains(&Faction::Emperor).then_some(Faction::Emperor);
                    let to = to.filter(|&e| e != faction);
                    Plan::Report(Action::PaySpice {
                        faction,
                        amount: price,
                        to,
                    })
                } else {
                    Plan::Report(Action::DrawCard { faction })
                }
            }
            // Revival: free forces back to reserves; Duke Vidal for 5 spice.
            Phase::Revival => {
                if i < n {
                    let Some(&faction) = seats.get(usize::try_from(i).unwrap_or(usize::MAX)) else {
                        return Plan::Skip;
                    };
                    let tanks = g.faction(faction).map(|s| s.tanks).unwrap_or_default();
                    if tanks.total() == 0 {
                        return Plan::Skip;
                    }
                    let normal = tanks.normal.min(2);
                    let elite = u32::from(normal < 2 && tanks.elite > 0);
                    return Plan::Report(Action::ReviveFromTanks { faction, normal, elite });
                }
                let ecaz_spice = g.faction(Faction::Ecaz).map_or(0, |s| s.spice);
                match i - n {
                    0 if g.duke().custody == DukeCustody::Tanks && ecaz_spice >= 5 && r.chance(1, 2) => {
                        self.owe_duke = true;
                        Plan::Report(Action::DukeRevived {})
                    }
                    // Ecaz pays the 5 spice of his revival (R-DUKE-4).
                    1 if std::mem::take(&mut self.owe_duke) => Plan::Report(Action::PaySpice {
                        faction: Faction::Ecaz,
                        amount: 5,
                        to: None,
                    }),
                    0 | 1 => Plan::Skip,
                    _ => Plan::Done,
                }
            }
            // Shipment and Movement: each seat ships, then moves.
            Phase::ShipmentMovement => {
                if i >= 2 * n {
                    return Plan::Done;
                }
                let Some(&f) = seats.get(usize::try_from(i / 2).unwrap_or(usize::MAX)) else {
                    return Plan::Done;
                };
                let action = if i % 2 == 0 { ship(r, g, f) } else { movement(r, g, f) };
                action.map_or(Plan::Skip, Plan::Report)
            }
            Phase::Battle => {
                if i >= 3 {
                    return Plan::Done;
                }
                battle(r, g).map_or(Plan::Skip, Plan::Report)
            }
            // Collection: 2 spice per force stack outside the strongholds.
            Phase::Collection => match seats.get(usize::try_from(i).unwrap_or(usize::MAX)) {
                Some(&faction) => {
                    let stacks = g.faction(faction).map_or(0, |s| {
                        s.board.iter().filter(|x| !board::is_stronghold(x.territory)).count()
                    });
                    let amount = u32_of(stacks.min(3)) * 2;
                    if amount == 0 || g.faction(faction).is_some_and(|s| s.spice > 60) {
                        Plan::Skip
                    } else {
                        Plan::Report(Action::GainSpice { faction, amount })
                    }
                }
                None => Plan::Done,
            },
            Phase::Mentat => Plan::Done,
        }
    }
}

enum Plan {
    Report(Action),
    Skip,
    Done,
}

/// A shipment from reserves: often into a stronghold, paid for.
fn ship(r: &mut BotRng, g: &Game, f: Faction) -> Option<Action> {
    let s = g.faction(f)?;
    let total = s.reserves.total();
    if total == 0 || r.chance(1, 4) {
        return None;
    }
    let hms = g.hms().is_some();
    let territory = if r.chance(2, 3) {
        // A stronghold holding an Ambassador half of the time.
        let placed: Vec<Territory> = g
            .ambassadors()
            .tokens
            .iter()
            .filter_map(|t| match t.zone {
                Zone::Placed { territory }
                    if territory != Territory::HiddenMobileStronghold || f == Faction::Ixians =>
                {
                    Some(territory)
                }
                _ => None,
            })
            .collect();
        match r.pick(&placed) {
            Some(t) if r.chance(1, 2) => t,
            _ => pick_in(r, each_stronghold(hms && f == Faction::Ixians)).unwrap_or(Territory::Arrakeen),
        }
    } else {
        pick_in(r, each_position(false))?.0
    };
    let sector = sector_in(r, territory);
    let normal = r.upto(s.reserves.normal.min(5));
    let elite = r.upto(s.reserves.elite.min(2));
    let (normal, elite) = if normal + elite == 0 {
        (s.reserves.normal.min(1), u32::from(s.reserves.normal == 0))
    } else {
        (normal, elite)
    };
    let advisors = f == Faction::BeneGesserit && r.chance(1, 3) && elite == 0;
    Some(Action::Arrive {
        entrant: f,
        cause: Cause::Shipment,
        from: Origin::Reserves,
        territory,
        sector,
        normal,
        elite,
        advisors,
        parent: None,
        reactions_first: false,
    })
}

/// A movement of one stack to a neighbouring territory (or, for the HMS's
/// pointer territory, into the HMS).
fn movement(r: &mut BotRng, g: &Game, f: Faction) -> Option<Action> {
    let s = g.faction(f)?;
    let stack = *s.board.get(r.below(s.board.len()))?;
    if r.chance(1, 5) {
        return None;
    }
    let mut targets: Vec<Territory> = board::info(stack.territory).neighbours.to_vec();
    if g.hms().is_some_and(|h| h.territory == stack.territory) {
        targets.push(Territory::HiddenMobileStronghold);
    }
    // Toward strongholds when one is next door.
    let near: Vec<Territory> = targets.iter().copied().filter(|&t| board::is_stronghold(t)).collect();
    let to = match r.pick(&near) {
        Some(t) if r.chance(2, 3) => t,
        _ => r.pick(&targets)?,
    };
    let advisors = stack.advisors > 0 && stack.normal + stack.elite == 0;
    let (normal, elite) = if advisors {
        (stack.advisors, 0)
    } else {
        (stack.normal, stack.elite)
    };
    if normal + elite == 0 {
        return None;
    }
    Some(Action::Arrive {
        entrant: f,
        cause: Cause::Movement,
        from: Origin::Board {
            territory: stack.territory,
            sector: stack.sector,
        },
        territory: to,
        sector: sector_in(r, to),
        normal,
        elite,
        advisors,
        parent: None,
        reactions_first: false,
    })
}

/// One battle report: where two factions (not allies) share a stronghold,
/// the loser's forces there die, leaders die or are captured, Duke Vidal is
/// used, killed or captured, spent cards are discarded; a Lasgun/Shield
/// explosion now and then.
fn battle(r: &mut BotRng, g: &Game) -> Option<Action> {
    let mut fights: Vec<(Territory, Faction, Faction)> = Vec::new();
    for t in STRONGHOLDS {
        // The first two seats (in seat order) with forces here.
        let mut here = g.seats().iter().copied().filter(|&f| {
            g.faction(f)
                .is_some_and(|s| s.board.iter().any(|x| x.territory == t && x.normal + x.elite > 0))
        });
        if let (Some(a), Some(b)) = (here.next(), here.next()) {
            let allied = g.faction(a).and_then(|s| s.ally) == Some(b);
            if !allied {
                fights.push((t, a, b));
            }
        }
    }
    let (territory, a, b) = r.pick(&fights)?;
    let (winner, loser) = if r.chance(1, 2) { (a, b) } else { (b, a) };
    let duke = g.duke().controller();
    match r.below(10) {
        // Duke Vidal fought for one side.
        0 | 1 if duke == Some(winner) => return Some(Action::DukeUsedInBattle {}),
        0 | 1 if duke == Some(loser) => return Some(Action::DukeKilled {}),
        2 if duke == Some(loser) && winner == Faction::Harkonnen => {
            return Some(Action::DukeCaptured { by: winner });
        }
        3 if r.chance(1, 4) => {
            return Some(Action::DestroyTerritory {
                territory,
                cause: Destruction::LasgunShield,
            })
        }
        // The loser's leader dies; a card is spent.
        4 => {
            let s = g.faction(loser)?;
            let leader = s
                .leaders
                .iter()
                .find(|l| l.custody == LeaderCustody::Available)
                .map(|l| l.leader)
                .or_else(|| {
                    loser
                        .leaders()
                        .into_iter()
                        .find(|l| !s.leaders.iter().any(|x| x.leader == *l))
                })?;
            return Some(Action::SetLeader {
                leader,
                custody: LeaderCustody::Tanks,
            });
        }
        5 => {
            let card = *g.faction(winner)?.hand.first()?;
            return Some(Action::DiscardCard { faction: winner, card });
        }
        _ => {}
    }
    let stack = g
        .faction(loser)?
        .board
        .iter()
        .find(|x| x.territory == territory && x.normal + x.elite > 0)
        .copied()?;
    Some(Action::LoseForces {
        faction: loser,
        territory,
        sector: stack.sector,
        normal: stack.normal,
        elite: stack.elite,
        advisors: 0,
    })
}

// ---------------------------------------------------------------------------
// Statistics
// ---------------------------------------------------------------------------

/// What happened over self-play games (the `ecaz selfplay` summary).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Stats {
    /// Games played.
    pub games: u64,
    /// Turns played (all games).
    pub turns: u64,
    /// Commands sent (accepted or refused).
    pub commands: u64,
    /// Commands accepted.
    pub accepted: u64,
    /// Commands refused (host reports the table got wrong, and noise).
    pub refused: u64,
    /// Decisions answered by the seats' bots.
    pub decisions: u64,
    /// Initiatives taken by the seats' bots (Nexus plays).
    pub initiatives: u64,
    /// Host frames answered (Karama answers, reactions done).
    pub host_frames: u64,
    /// Host reports sent (plausible and noise).
    pub host_reports: u64,
    /// Ambassadors triggered, by token.
    pub triggered: BTreeMap<String, u64>,
    /// Effects copied by the Bene Gesserit token, by effect.
    pub copied: BTreeMap<String, u64>,
    /// Triggers declined.
    pub declined: u64,
    /// Spice gained through each effect.
    pub spice_by_effect: BTreeMap<String, u64>,
    /// Spice gained through effects, by beneficiary.
    pub effect_spice_by_faction: BTreeMap<String, u64>,
    /// Cohort recycles.
    pub recycles: u64,
    /// Duke Vidal custody changes, by reason.
    pub duke_moves: BTreeMap<String, u64>,
    /// Ambassadors placed.
    pub placements: u64,
    /// Spice Ecaz paid for placements.
    pub placement_spice: u64,
    /// Ecaz's spice at the end of each game, summed (games with Ecaz seated).
    pub ecaz_final_spice: u64,
    /// Games with Ecaz seated.
    pub ecaz_games: u64,
    /// Placements cancelled with Karama.
    pub placements_cancelled: u64,
    /// Alliances formed (any route).
    pub alliances: u64,
    /// Nexus cards played, by mode.
    pub nexus_plays: BTreeMap<String, u64>,
    /// Arrivals (entries and moves), and those linked to an open one.
    pub arrivals: u64,
    /// Arrivals linked to an open arrival.
    pub nested_arrivals: u64,
    /// Violations found by the checks (0 unless checking).
    pub violations: u64,
}

impl Stats {
    /// Duke Vidal custody changes in all.
    pub fn duke_changes(&self) -> u64 {
        self.duke_moves.values().sum()
    }

    /// Average placements per turn.
    pub fn placements_per_turn(&self) -> f64 {
        if self.turns == 0 {
            0.0
        } else {
            // Counts stay far below 2^52: exact as f64.
            self.placements as f64 / self.turns as f64
        }
    }

    /// Spice gained through effects in all.
    pub fn effect_spice(&self) -> u64 {
        self.spice_by_effect.values().sum()
    }

    /// Count the end of a game.
    pub fn finish(&mut self, table: &Table) {
        self.turns = u64::from(table.turns_played());
        if let Some(s) = table.game().faction(Faction::Ecaz) {
            self.ecaz_games = 1;
            self.ecaz_final_spice = u64::from(s.spice);
        }
    }

    /// Count one step.
    pub fn record(&mut self, step: &Step) {
        self.commands += 1;
        match step.mover {
            Mover::Decision => self.decisions += 1,
            Mover::Initiative => self.initiatives += 1,
            Mover::HostFrame => self.host_frames += 1,
            Mover::Host | Mover::Noise => self.host_reports += 1,
        }
        match &step.outcome {
            Ok(events) => {
                self.accepted += 1;
                self.events(events);
            }
            Err(_) => self.refused += 1,
        }
    }

    fn bump(map: &mut BTreeMap<String, u64>, key: &str, by: u64) {
        match map.get_mut(key) {
            Some(v) => *v += by,
            None => {
                map.insert(key.to_string(), by);
            }
        }
    }

    /// Count one command's events (spice is credited to the effect that
    /// resolves after it in the same batch).
    pub fn events(&mut self, events: &[Event]) {
        let mut pending: Vec<(Faction, u32)> = Vec::new();
        for e in events {
            match &e.event {
                EventKind::AmbassadorTriggered { token, .. } => Self::bump(&mut self.triggered, token.id(), 1),
                EventKind::EffectCopied { effect, .. } => Self::bump(&mut self.copied, effect.id(), 1),
                EventKind::TriggerDeclined { .. } => self.declined += 1,
                EventKind::SpiceGained { faction, amount } => pending.push((*faction, *amount)),
                EventKind::EffectResolved { effect, .. } => {
                    for (f, amount) in pending.drain(..) {
                        Self::bump(&mut self.spice_by_effect, effect.id(), u64::from(amount));
                        Self::bump(&mut self.effect_spice_by_faction, f.id(), u64::from(amount));
                    }
                }
                EventKind::CohortRecycled { .. } => self.recycles += 1,
                EventKind::DukeMoved { reason, .. } => {
                    let key = serde_json::to_value(reason)
                        .ok()
                        .and_then(|v| v.as_str().map(str::to_string))
                        .unwrap_or_default();
                    Self::bump(&mut self.duke_moves, &key, 1);
                }
                EventKind::AmbassadorPlaced { cost, .. } => {
                    self.placements += 1;
                    self.placement_spice += u64::from(*cost);
                }
                EventKind::PlacementCancelled { .. } => self.placements_cancelled += 1,
                EventKind::AllianceFormed { .. } => self.alliances += 1,
                EventKind::NexusPlayed { mode, .. } => Self::bump(&mut self.nexus_plays, mode.name(), 1),
                EventKind::Arrived { parent, .. } => {
                    self.arrivals += 1;
                    if parent.is_some() {
                        self.nested_arrivals += 1;
                    }
                }
                _ => {}
            }
        }
    }

    /// Add another tally.
    pub fn merge(&mut self, o: &Stats) {
        self.games += o.games;
        self.turns += o.turns;
        self.commands += o.commands;
        self.accepted += o.accepted;
        self.refused += o.refused;
        self.decisions += o.decisions;
        self.initiatives += o.initiatives;
        self.host_frames += o.host_frames;
        self.host_reports += o.host_reports;
        self.declined += o.declined;
        self.recycles += o.recycles;
        self.placements += o.placements;
        self.placement_spice += o.placement_spice;
        self.ecaz_final_spice += o.ecaz_final_spice;
        self.ecaz_games += o.ecaz_games;
        self.placements_cancelled += o.placements_cancelled;
        self.alliances += o.alliances;
        self.arrivals += o.arrivals;
        self.nested_arrivals += o.nested_arrivals;
        self.violations += o.violations;
        for (mine, theirs) in [
            (&mut self.triggered, &o.triggered),
            (&mut self.copied, &o.copied),
            (&mut self.spice_by_effect, &o.spice_by_effect),
            (&mut self.effect_spice_by_faction, &o.effect_spice_by_faction),
            (&mut self.duke_moves, &o.duke_moves),
            (&mut self.nexus_plays, &o.nexus_plays),
        ] {
            for (k, v) in theirs {
                Self::bump(mine, k, *v);
            }
        }
    }
}

/// How much a checked run checks after every command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CheckLevel {
    /// Liveness, every state invariant and a JSON reload after every command.
    Full,
    /// Liveness and every state invariant (in memory) after every command;
    /// the JSON reload only at the end of each game.
    Fast,
    /// D-231: only the table mirror after every command ([`check_mirror`];
    /// every level checks it).
    Mirror,
}

/// D-231: the table mirror follows the command: `apply_events(before,
/// events) == table_of(after)`, where `before` is `table_of` the game the
/// command was applied to.
pub fn check_mirror(before: &crate::TableFacts, events: &[crate::Event], after: &Game) -> Vec<String> {
    match crate::extras::mirror::apply_events(before, events) {
        Err(e) => vec![format!("mirror: {e}")],
        Ok(mirrored) => {
            let engine = crate::extras::mirror::table_of(after);
            // The difference list only when they differ (it is the slow part).
            if mirrored == engine {
                return Vec::new();
            }
            crate::extras::mirror::diff_table(&mirrored, &engine)
                .into_iter()
                .map(|d| {
                    format!(
                        "mirror: {} is {} by the events, {} in the game",
                        d.path, d.before, d.after
                    )
                })
                .collect()
        }
    }
}

/// Closed round trip ([`crate::tools::audit::reload`]): the state saves and loads
/// again (every state invariant checked by the loader) as the same value and bytes.
pub fn check_reload(game: &Game) -> Vec<String> {
    crate::tools::audit::reload(game)
        .err()
        .map(|e| format!("reload: {e}"))
        .into_iter()
        .collect()
}

/// The checks after every command of a checked run (`ecaz selfplay --check`):
/// liveness ([`crate::tools::audit::liveness`]: an open frame's actor has a legal
/// command, everything `options` lists is accepted, every open arrival has
/// something to settle, a quiet game can end its phase) and every state invariant — the 11 tokens, each
/// faction's 20 forces, every card and Nexus card, leaders, alliances, the
/// Duke, frames and arrivals, the ceilings — checked in memory
/// ([`CheckLevel::Fast`]) or through a JSON reload ([`CheckLevel::Full`]).
///
/// Returns a description of each violation (empty when all hold).
pub fn check(game: &Game, level: CheckLevel) -> Vec<String> {
    if level == CheckLevel::Mirror {
        return Vec::new();
    }
    let mut out: Vec<String> = crate::tools::audit::liveness(game)
        .err()
        .map(|e| format!("liveness: {e}"))
        .into_iter()
        .collect();
    match level {
        CheckLevel::Full => out.extend(check_reload(game)),
        CheckLevel::Fast => {
            for p in crate::check::problems(game) {
                out.push(format!("invariant: {}: {}", p.path, p.message));
            }
        }
        CheckLevel::Mirror => {}
    }
    out
}

/// Play one game to the end (no checks); its tally.
pub fn play(table: &mut Table) -> Stats {
    let mut stats = Stats {
        games: 1,
        ..Stats::default()
    };
    while !table.finished() {
        let step = table.step();
        stats.record(&step);
    }
    stats.finish(table);
    stats
}

#[cfg(test)]
#[allow(clippy::panic)]
mod tests {
    use super::*;

    #[test]
    fn issue_16_a_table_plays_whole_turns_and_triggers_ambassadors() {
        let mut all = Stats::default();
        for seed in 0..40 {
            let mut t = Table::random(seed, None, TableConfig::default()).unwrap_or_else(|e| panic!("{e}"));
            all.merge(&play(&mut t));
        }
        assert_eq!(all.games, 40);
        assert!(all.turns >= 40 * 9, "{all:?}");
        assert!(all.placements > 20, "{all:?}");
        assert!(all.triggered.values().sum::<u64>() > 20, "{all:?}");
        assert!(all.decisions > 100, "{all:?}");
    }

    #[test]
    fn issue_16_a_table_is_deterministic_for_a_seed() {
        let run = |seed| {
            let mut t = Table::random(seed, None, TableConfig::default()).unwrap_or_else(|e| panic!("{e}"));
            let mut out = Vec::new();
            while !t.finished() {
                out.push(t.step());
            }
            (out, t.game().clone())
        };
        assert_eq!(run(3), run(3));
    }
}
