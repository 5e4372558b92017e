//! Bots (D-130–D-134): given a game and an actor, choose a legal command for the
//! open decision, or an initiative when no decision is open.
//!
//! Two profiles, both built on the engine's own legal options
//! ([`crate::options`]) and so never illegal (a property test checks every
//! command they choose against [`crate::validate`]):
//!
//! - [`Profile::Random`]: uniform over the legal options. Every listed command
//!   weighs one, and every choice descriptor (Fremen relocation, Guild
//!   shipment, Tleilaxu revival) weighs one and is then filled uniformly
//!   inside its bounds ([`build_in`]). With no decision open, a faction's
//!   initiative is uniform over its Nexus plays and "nothing".
//! - [`Profile::Heuristic`]: values every option in spice-equivalents from
//!   what the actor may know (its own hand, public counts and positions —
//!   never another hand, the deck order or a traitor card) and takes the best;
//!   the reasoning of each decision is on the helpers of the private `heuristic` module below.
//!
//! A bot is deterministic for a seed: [`Bot`] owns its own generator
//! ([`BotRng`]), separate from the game's, so choosing never touches the
//! game's RNG. The pure form [`choose`] takes the seed per call (the C ABI
//! and the WASM binding export that one).

use ecaz_derive::WireDeserialize;
use schemars::JsonSchema;
use serde::Serialize;

use crate::base::board::{self, KARAMA};
use crate::base::ids::{Ambassador, CardId, Faction, Territory};
use crate::engine::options::{initiatives, listed, Choice, Position};
use crate::model::command::{Action, Command, EcazBranch, SectorForces};
use crate::model::game::{Actor, Decision, Game};
use crate::rules::effects::describe;

/// A bot's way of choosing.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, WireDeserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum Profile {
    /// Uniform over the legal options (seeded).
    #[default]
    Random,
    /// Values each option and takes the best (see the module docs).
    Heuristic,
}

impl Profile {
    /// Both profiles.
    pub const ALL: [Profile; 2] = [Profile::Random, Profile::Heuristic];

    /// The wire id (`random`, `heuristic`).
    pub const fn id(self) -> &'static str {
        match self {
            Profile::Random => "random",
            Profile::Heuristic => "heuristic",
        }
    }

    /// The profile with this wire id.
    pub fn from_id(id: &str) -> Option<Profile> {
        Profile::ALL.into_iter().find(|p| p.id() == id)
    }
}

impl std::fmt::Display for Profile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id())
    }
}

/// A small seeded generator (xorshift64*) for bots and the table simulator;
/// never the game's own RNG.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BotRng(u64);

impl BotRng {
    /// A generator from a seed (any seed, zero included).
    pub fn new(seed: u64) -> Self {
        BotRng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        let n = u64::try_from(n.max(1)).unwrap_or(u64::MAX);
        usize::try_from(self.next_u64() % n).unwrap_or(0)
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below_u32(&mut self, n: u32) -> u32 {
        u32::try_from(self.next_u64() % u64::from(n.max(1))).unwrap_or(0)
    }

    /// A number in `0..=n`.
    pub fn upto(&mut self, n: u32) -> u32 {
        u32::try_from(self.next_u64() % (u64::from(n) + 1)).unwrap_or(0)
    }

    /// True with probability `num / den`.
    pub fn chance(&mut self, num: u64, den: u64) -> bool {
        self.next_u64() % den.max(1) < num
    }

    /// One item, uniformly (None when empty).
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> Option<T> {
        let i = self.below(items.len());
        items.get(i).copied()
    }

    /// Shuffle in place (Fisher–Yates).
    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.below(i + 1);
            v.swap(i, j);
        }
    }
}

/// A seeded bot of one profile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bot {
    /// How it chooses.
    pub profile: Profile,
    rng: BotRng,
}

/// The pure form: what a bot of `profile` seeded with `seed` chooses for
/// `actor` in `game` (see [`Bot::choose`]).
pub fn choose(game: &Game, actor: Actor, profile: Profile, seed: u64) -> Option<Command> {
    Bot::new(profile, seed).choose(game, actor)
}

impl Bot {
    /// A bot of `profile` with its own generator seeded by `seed`.
    pub fn new(profile: Profile, seed: u64) -> Self {
        Bot {
            profile,
            rng: BotRng::new(seed),
        }
    }

    /// The command `actor` sends now, if any:
    /// - an open frame owned by `actor` is always answered (the engine
    ///   guarantees a legal answer exists, D-70);
    /// - with no frame open, a faction may take an initiative (its Nexus
    ///   plays) or do nothing (`None`);
    /// - a frame owned by someone else, or the host with no frame open
    ///   (host reports are the table's business, see [`crate::sim`]): `None`.
    pub fn choose(&mut self, game: &Game, actor: Actor) -> Option<Command> {
        match game.open_frame() {
            Some(f) if f.actor == actor => match self.profile {
                Profile::Random => self.random_answer(game, actor),
                Profile::Heuristic => heuristic::answer(game, actor, &mut self.rng),
            },
            Some(_) => None,
            None => match actor {
                Actor::Host => None,
                Actor::Faction(f) => self.initiative(game, f),
            },
        }
    }

    /// What [`Bot::choose`] answers for faction `f` when no frame is open:
    /// one of its Nexus plays, or nothing.
    pub fn initiative(&mut self, game: &Game, f: Faction) -> Option<Command> {
        match self.profile {
            Profile::Random => {
                let mut plays = initiatives(game, f);
                // "Nothing" is one more option.
                let i = self.rng.below(plays.len() + 1);
                (i < plays.len()).then(|| plays.swap_remove(i))
            }
            Profile::Heuristic => heuristic::initiative(game, f),
        }
    }

    /// Uniform over the listed commands and the descriptors (each descriptor
    /// filled uniformly inside its bounds).
    fn random_answer(&mut self, game: &Game, actor: Actor) -> Option<Command> {
        let frame = game.open_frame()?;
        if let Decision::ChoamDiscard { beneficiary, .. } = frame.decision {
            // The listed commands are every subset of the hand, in hand order:
            // a uniform subset is each card in or out with even odds. (An
            // empty hand goes through `options`: a lapsed frame lists `pass`, D-70.)
            let hand = game.faction(beneficiary).map(|s| s.hand.as_slice()).unwrap_or_default();
            if !hand.is_empty() {
                let cards = hand.iter().copied().filter(|_| self.rng.chance(1, 2)).collect();
                let action = Action::DiscardForSpice { frame: frame.id, cards };
                return Some(Command::new(actor, action));
            }
        }
        let o = listed(game, actor);
        let n = o.commands.len() + o.choices.len();
        let i = self.rng.below(n);
        if let Some(c) = o.commands.get(i) {
            return Some(c.clone());
        }
        let d = o.choices.get(i - o.commands.len())?;
        build_in(&mut self.rng, d, actor).or_else(|| o.commands.into_iter().next())
    }
}

/// A uniformly random command inside a choice descriptor (None when it
/// allows none): a random source, a random non-empty part of each of some of
/// its sectors, a random destination it moves to; a random count and mix of
/// reserves to a random destination; a random leader, the Duke, or a random
/// number of forces.
pub fn build_in(r: &mut BotRng, d: &Choice, actor: Actor) -> Option<Command> {
    let action = match d {
        Choice::Relocate { frame, sources } => {
            let src = sources.get(r.below(sources.len()))?;
            let mut group: Vec<SectorForces> = Vec::new();
            let last = src.sectors.len().saturating_sub(1);
            for (i, l) in src.sectors.iter().enumerate() {
                if !(group.is_empty() && i == last) && r.chance(1, 3) {
                    continue;
                }
                let (mut n, mut e) = (r.upto(l.normal), r.upto(l.elite));
                if n.saturating_add(e) == 0 {
                    if l.normal > 0 {
                        n = 1;
                    } else {
                        e = 1;
                    }
                }
                group.push(SectorForces {
                    sector: l.sector,
                    normal: n,
                    elite: e,
                });
            }
            let targets: Vec<Position> = src
                .destinations
                .iter()
                .copied()
                .filter(|p| p.territory != src.territory || !group.iter().all(|x| x.sector == p.sector))
                .collect();
            let to = r.pick(&targets)?;
            Action::Relocate {
                frame: *frame,
                from: src.territory,
                group,
                advisors: src.advisors,
                to: to.territory,
                sector: to.sector,
            }
        }
        Choice::Ship {
            frame,
            reserves,
            max,
            destinations,
        } => {
            let most = reserves.total().min(*max);
            if most == 0 {
                return None;
            }
            let to = r.pick(destinations)?;
            let total = 1 + r.below_u32(most);
            let elite_min = total.saturating_sub(reserves.normal);
            let elite_max = total.min(reserves.elite);
            let elite = elite_min + r.upto(elite_max.saturating_sub(elite_min));
            Action::Ship {
                frame: *frame,
                territory: to.territory,
                sector: to.sector,
                normal: total - elite,
                elite,
            }
        }
        Choice::Revive {
            frame,
            leaders,
            duke,
            tanks,
            max,
            elite_left,
        } => {
            let frame = *frame;
            match (r.below(3), r.pick(leaders)) {
                (0, Some(leader)) => Action::ReviveLeader { frame, leader },
                (1, _) if *duke => Action::ReviveDuke { frame },
                _ => {
                    let elite = r.upto(tanks.elite.min(*elite_left).min(*max));
                    let normal = r.upto(tanks.normal.min(max.saturating_sub(elite)));
                    Action::ReviveForces { frame, normal, elite }
                }
            }
        }
        // D-83: any subset of the listed cards; each card in or out with even odds.
        Choice::Discard { frame, cards } => Action::DiscardForSpice {
            frame: *frame,
            cards: cards.iter().copied().filter(|_| r.chance(1, 2)).collect(),
        },
    };
    Some(Command::new(actor, action))
}

/// The heuristic profile: each decision valued in spice-equivalents.
mod heuristic {
    use super::*;

    /// Spice kept in hand when buying or placing ("rich" means above it).
    const RESERVE: u32 = 3;

    /// Value of a Treachery card kind to its holder. Worthless cards are 0
    /// (the ones CHOAM discards and the Ixian swap gives away first); Karama
    /// and the strongest weapons and defences lead.
    pub(super) fn card_value(kind: &str) -> i32 {
        if board::is_worthless(kind) {
            return 0;
        }
        match kind {
            KARAMA => 10,
            "lasgun" => 8,
            "crysknife" | "maula_pistol" | "slip_tip" | "stunner" | "chaumas" | "chaumurky" | "ellaca_drug"
            | "gom_jabbar" => 6,
            "shield" | "family_atomics" | "tleilaxu_ghola" => 5,
            "snooper" | "cheap_hero" | "cheap_heroine" | "hajr" => 4,
            _ => 3,
        }
    }

    fn kind_value(game: &Game, card: CardId) -> i32 {
        game.treachery.kind(card).map_or(3, card_value)
    }

    fn worthless(game: &Game, card: CardId) -> bool {
        kind_value(game, card) == 0
    }

    fn spice(game: &Game, f: Faction) -> u32 {
        game.faction(f).map_or(0, |s| s.spice)
    }

    fn ally(game: &Game, f: Faction) -> Option<Faction> {
        game.faction(f).and_then(|s| s.ally)
    }

    fn on_board(game: &Game, f: Faction) -> u32 {
        game.faction(f).map_or(0, |s| s.on_board())
    }

    /// Forces of `f` in `t` (every sector).
    fn forces_in(game: &Game, f: Faction, t: Territory) -> u32 {
        game.faction(f).map_or(0, |s| {
            s.board
                .iter()
                .filter(|x| x.territory == t)
                .map(|x| x.total())
                .fold(0, u32::saturating_add)
        })
    }

    fn i32_of(n: u32) -> i32 {
        i32::try_from(n).unwrap_or(i32::MAX)
    }

    /// What `beneficiary` gains from `token`'s effect against `entrant`, as
    /// `viewer` (who decides) can judge it: from public facts, and from the
    /// beneficiary's hand and spice only when the viewer is the beneficiary
    /// (another's hand counts by its public size, ~1 card in 6 worthless):
    /// Emperor 5 spice; CHOAM 3 per worthless card; Richese a card (worth ~6)
    /// for 3 when below the limit and rich; Ixians the gain of swapping the
    /// worst card; Tleilaxu the best revival; Guild up to 4 forces onto the
    /// board free; Fremen a free move when it has forces out;
    /// Atreides/Harkonnen information (small); the Ecaz token the Duke or an
    /// alliance; BG its best copy.
    pub(super) fn effect_value(
        game: &Game,
        token: Ambassador,
        beneficiary: Faction,
        entrant: Faction,
        viewer: Faction,
    ) -> i32 {
        let Some(s) = game.faction(beneficiary) else { return 0 };
        let own = viewer == beneficiary;
        let held = i32::try_from(s.hand.len()).unwrap_or(i32::MAX);
        let below = s.hand.len() < usize::from(s.hand_limit);
        match token {
            Ambassador::Emperor => 5,
            Ambassador::Choam if own => {
                3 * i32::try_from(s.hand.iter().filter(|&&c| worthless(game, c)).count()).unwrap_or(0)
            }
            Ambassador::Choam => held / 2,
            Ambassador::Richese if own => {
                if below && s.spice >= 3 + RESERVE {
                    3
                } else {
                    0
                }
            }
            Ambassador::Richese => i32::from(below),
            Ambassador::Ixians if own => match s.hand.iter().map(|&c| kind_value(game, c)).min() {
                Some(worst) => (4 - worst).max(0),
                None => 0,
            },
            Ambassador::Ixians => i32::from(held > 0),
            Ambassador::Tleilaxu => {
                let forces = i32_of(s.tanks.total().min(describe::TLEILAXU_MAX));
                let leader = if describe::dead_leaders(game, beneficiary).is_empty() {
                    0
                } else {
                    4
                };
                let duke = if describe::duke_revivable(game, beneficiary) {
                    6
                } else {
                    0
                };
                forces.max(leader).max(duke)
            }
            Ambassador::Guild => i32_of(s.reserves.total().min(describe::GUILD_MAX)),
            Ambassador::Fremen => {
                if s.board.is_empty() {
                    0
                } else {
                    2
                }
            }
            Ambassador::Atreides => {
                let seen = game.faction(entrant).map_or(0, |e| e.hand.len());
                if seen > 0 {
                    2
                } else {
                    0
                }
            }
            Ambassador::Harkonnen => 1,
            Ambassador::Ecaz => 4,
            Ambassador::BeneGesserit => 4,
        }
    }

    /// How likely a stronghold is to be entered by a faction whose entry
    /// triggers (not Ecaz, not its ally, R-TRG-2), in tenths: a base chance,
    /// more for each such faction already there (reinforcing is an entry)
    /// or next door; the two cities draw traffic.
    fn entry_odds(game: &Game, t: Territory, token: Ambassador) -> i32 {
        let ecaz_ally = ally(game, Faction::Ecaz);
        let mut odds = 2;
        if matches!(t, Territory::Arrakeen | Territory::Carthag) {
            odds += 1;
        }
        let neighbours = board::info(t).neighbours;
        for &f in game.seats() {
            if f == Faction::Ecaz || Some(f) == ecaz_ally || token.faction() == f {
                continue;
            }
            if forces_in(game, f, t) > 0 {
                odds += 3;
            } else if neighbours.iter().any(|&n| forces_in(game, f, n) > 0) {
                odds += 1;
            }
        }
        odds.min(10)
    }

    /// The token's value to Ecaz when it triggers, without knowing the
    /// entrant (the Ecaz token is reusable: it returns to the supply).
    fn token_value(game: &Game, token: Ambassador) -> i32 {
        match token {
            Ambassador::Atreides | Ambassador::Harkonnen => 2,
            _ => effect_value(game, token, Faction::Ecaz, Faction::Ecaz, Faction::Ecaz).max(2),
        }
    }

    /// Placement (R-PLC-1/2): place the token and stronghold with the best
    /// expected value (entry odds × token value) while it beats the rising
    /// cost and Ecaz stays above its reserve; otherwise finish.
    fn placement(game: &Game, listed: Vec<Command>) -> Option<Command> {
        let cost = u32::from(game.ambassadors.placement.placed) + 1;
        let affordable = spice(game, Faction::Ecaz) >= cost + RESERVE;
        let mut best: Option<(i32, Command)> = None;
        let mut finish = None;
        for c in listed {
            match c.action {
                Action::Place { token, territory, .. } if affordable => {
                    let score = entry_odds(game, territory, token) * token_value(game, token);
                    if score >= 10 * i32_of(cost) && best.as_ref().is_none_or(|(b, _)| score > *b) {
                        best = Some((score, c));
                    }
                }
                Action::FinishPlacement { .. } => finish = Some(c),
                _ => {}
            }
        }
        best.map(|(_, c)| c).or(finish)
    }

    /// Answer the open frame owned by `actor`.
    pub(super) fn answer(game: &Game, actor: Actor, rng: &mut BotRng) -> Option<Command> {
        let frame = game.open_frame()?;
        let id = frame.id;
        let cmd = |action| Some(Command::new(actor, action));
        match &frame.decision {
            // CHOAM: discard the worthless cards (none when there are none).
            // An empty hand goes through `options` (a lapsed frame lists `pass`, D-70).
            Decision::ChoamDiscard { beneficiary, .. } => {
                let hand = game
                    .faction(*beneficiary)
                    .map(|s| s.hand.as_slice())
                    .unwrap_or_default();
                if !hand.is_empty() {
                    let cards = hand.iter().copied().filter(|&c| worthless(game, c)).collect();
                    return cmd(Action::DiscardForSpice { frame: id, cards });
                }
            }
            // Ixians: give away the least valuable card (`pass` when the hand
            // emptied meanwhile, D-70).
            Decision::IxianSwap { beneficiary, .. } => {
                let hand = game
                    .faction(*beneficiary)
                    .map(|s| s.hand.as_slice())
                    .unwrap_or_default();
                if let Some(card) = hand.iter().copied().min_by_key(|&c| kind_value(game, c)) {
                    return cmd(Action::SwapCard { frame: id, card });
                }
            }
            _ => {}
        }
        let o = listed(game, actor);
        let first = o.commands.first().cloned();
        let pick = match &frame.decision {
            Decision::Placement => placement(game, o.commands),
            // Trigger for whoever gains most; decline when nobody gains.
            Decision::TriggerOffer { token, entrant, .. } => {
                let mut best: Option<(i32, Command)> = None;
                for c in &o.commands {
                    if let Action::Trigger { beneficiary, .. } = c.action {
                        let v = effect_value(game, *token, beneficiary, *entrant, Faction::Ecaz);
                        if v > 0 && best.as_ref().is_none_or(|(b, _)| v > *b) {
                            best = Some((v, c.clone()));
                        }
                    }
                }
                best.map(|(_, c)| c).or(first)
            }
            // BG: copy the effect worth most to the beneficiary.
            Decision::CopyEffect {
                entrant, beneficiary, ..
            } => o
                .commands
                .iter()
                .max_by_key(|c| match c.action {
                    Action::Copy { effect, .. } => effect_value(game, effect, *beneficiary, *entrant, Faction::Ecaz),
                    _ => i32::MIN,
                })
                .cloned(),
            // Richese: buy when below the limit and rich.
            Decision::RicheseBuy { beneficiary, .. } => {
                let rich = spice(game, *beneficiary) >= 3 + RESERVE;
                o.commands
                    .iter()
                    .find(|c| matches!(c.action, Action::BuyCard { buy, .. } if buy == rich))
                    .cloned()
                    .or(first)
            }
            // Ecaz: an unallied Ecaz allies with an entrant at least as
            // strong on the board as itself; otherwise it takes the Duke.
            Decision::EcazBranch { entrant, .. } => {
                let ally_up = on_board(game, *entrant) >= on_board(game, Faction::Ecaz);
                let want = if ally_up {
                    EcazBranch::Alliance
                } else {
                    EcazBranch::Duke
                };
                o.commands
                    .iter()
                    .find(|c| matches!(c.action, Action::ChooseBranch { branch, .. } if branch == want))
                    .cloned()
                    .or(first)
            }
            // The entrant accepts an alliance with an Ecaz worth having: at
            // least half its own forces on the board (Ecaz's spice is hidden).
            Decision::AllianceOffer { entrant, .. } => {
                let accept = 2 * on_board(game, Faction::Ecaz) >= on_board(game, *entrant);
                o.commands
                    .iter()
                    .find(|c| matches!(c.action, Action::AnswerAlliance { accept: a, .. } if a == accept))
                    .cloned()
                    .or(first)
            }
            // Lend the Duke to an ally with more forces on the board (more
            // likely to fight this turn).
            Decision::DukeLoan { ally, .. } => {
                let lend = on_board(game, *ally) > on_board(game, Faction::Ecaz);
                o.commands
                    .iter()
                    .find(|c| matches!(c.action, Action::LendDuke { lend: l, .. } if l == lend))
                    .cloned()
                    .or(first)
            }
            Decision::FremenRelocation { .. } | Decision::GuildShipment { .. } | Decision::TleilaxuRevival { .. } => {
                o.choices.first().and_then(|d| board_choice(game, d, actor)).or(first)
            }
            // A Karama holder not allied with Ecaz cancels a placement into a
            // stronghold where it has forces (it would trigger on its own
            // reinforcements); otherwise the placement is allowed.
            Decision::PlacementResponse { territory, .. } => {
                let ecaz_ally = ally(game, Faction::Ecaz);
                o.commands
                    .iter()
                    .find(|c| match c.action {
                        Action::CancelPlacement { faction, .. } => {
                            Some(faction) != ecaz_ally && forces_in(game, faction, *territory) > 0
                        }
                        _ => false,
                    })
                    .cloned()
                    .or_else(|| {
                        o.commands
                            .iter()
                            .find(|c| matches!(c.action, Action::AllowPlacement { .. }))
                            .cloned()
                    })
                    .or(first)
            }
            // Ecaz or its ally cancels Betrayal with a Karama when they can.
            Decision::BetrayalResponse { ally: victim, .. } => o
                .commands
                .iter()
                .find(|c| {
                    matches!(c.action, Action::CancelBetrayal { faction, .. }
                        if faction == Faction::Ecaz || faction == *victim)
                })
                .or_else(|| {
                    o.commands
                        .iter()
                        .find(|c| matches!(c.action, Action::AllowBetrayal { .. }))
                })
                .cloned()
                .or(first),
            Decision::HostReactions { .. } | Decision::ChoamDiscard { .. } | Decision::IxianSwap { .. } => first,
        };
        // A fallback that can only matter if a rule adds options: uniform.
        pick.or_else(|| {
            let o = listed(game, actor);
            o.commands.get(rng.below(o.commands.len())).cloned()
        })
    }

    /// Prefer strongholds: the destinations inside one, else none.
    fn stronghold_targets(list: &[Position]) -> Vec<Position> {
        list.iter()
            .copied()
            .filter(|p| board::is_stronghold(p.territory))
            .collect()
    }

    /// The board effects: move the largest group standing outside the
    /// strongholds into one (where the beneficiary already is, if it can);
    /// ship as many reserves as allowed (elites first) into a stronghold;
    /// revive the Duke, else a leader when few forces wait, else forces.
    /// Pass when none of that is possible.
    fn board_choice(game: &Game, d: &Choice, actor: Actor) -> Option<Command> {
        let me = match actor {
            Actor::Faction(f) => f,
            Actor::Host => return None,
        };
        let mine = |t: Territory| forces_in(game, me, t) > 0;
        let prefer = |list: Vec<Position>| -> Option<Position> {
            list.iter()
                .copied()
                .find(|p| mine(p.territory))
                .or_else(|| list.first().copied())
        };
        let action = match d {
            Choice::Relocate { frame, sources } => {
                let src = sources
                    .iter()
                    .filter(|s| !board::is_stronghold(s.territory))
                    .max_by_key(|s| s.sectors.iter().map(|x| x.normal.saturating_add(x.elite)).sum::<u32>())?;
                let to = prefer(stronghold_targets(&src.destinations))?;
                Action::Relocate {
                    frame: *frame,
                    from: src.territory,
                    group: src.sectors.clone(),
                    advisors: src.advisors,
                    to: to.territory,
                    sector: to.sector,
                }
            }
            Choice::Ship {
                frame,
                reserves,
                max,
                destinations,
            } => {
                let n = reserves.total().min(*max);
                if n == 0 {
                    return None;
                }
                let to = prefer(stronghold_targets(destinations))?;
                let elite = reserves.elite.min(n);
                Action::Ship {
                    frame: *frame,
                    territory: to.territory,
                    sector: to.sector,
                    normal: n - elite,
                    elite,
                }
            }
            Choice::Revive {
                frame,
                leaders,
                duke,
                tanks,
                max,
                elite_left,
            } => {
                let frame = *frame;
                let elite = tanks.elite.min(*elite_left).min(*max);
                let normal = tanks.normal.min(max.saturating_sub(elite));
                let strongest = leaders.iter().copied().max_by_key(|l| l.strength());
                if *duke {
                    Action::ReviveDuke { frame }
                } else if let (Some(leader), true) = (strongest, normal + elite < 3) {
                    Action::ReviveLeader { frame, leader }
                } else if normal + elite > 0 {
                    Action::ReviveForces { frame, normal, elite }
                } else {
                    return None;
                }
            }
            // CHOAM is answered before the board effects (worthless cards only).
            Choice::Discard { .. } => return None,
        };
        Some(Command::new(actor, action))
    }

    /// Initiatives with no decision open: the Ecaz Nexus card when worth it.
    /// Cunning when Ecaz does not control Duke Vidal; Betrayal where Ecaz's
    /// ally has the most forces, if at least 2; Secret Ally about the
    /// strongest other player on the board.
    pub(super) fn initiative(game: &Game, f: Faction) -> Option<Command> {
        let plays = initiatives(game, f);
        if plays.is_empty() {
            return None;
        }
        let ecaz_ally = ally(game, Faction::Ecaz);
        let mut best: Option<(u32, Command)> = None;
        for c in plays {
            let score = match c.action {
                Action::PlayCunning {} => {
                    if game.duke.controller() == Some(Faction::Ecaz) {
                        0
                    } else {
                        100
                    }
                }
                Action::PlayBetrayal { territory } => {
                    let n = ecaz_ally.map_or(0, |a| forces_in(game, a, territory));
                    if n >= 2 {
                        n
                    } else {
                        0
                    }
                }
                Action::PlaySecretAlly { target } if target != f => 1 + on_board(game, target),
                _ => 0,
            };
            if score > 0 && best.as_ref().is_none_or(|(b, _)| score > *b) {
                best = Some((score, c));
            }
        }
        best.map(|(_, c)| c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profile_ids_round_trip() {
        for p in Profile::ALL {
            assert_eq!(Profile::from_id(p.id()), Some(p));
        }
        assert_eq!(Profile::from_id("greedy"), None);
    }

    #[test]
    fn worthless_cards_are_worth_nothing_and_karama_most() {
        for (kind, _) in board::BASE_TREACHERY {
            let v = heuristic::card_value(kind);
            assert!((0..=10).contains(&v), "{kind}");
        }
        assert_eq!(heuristic::card_value("kulon"), 0);
        assert_eq!(heuristic::card_value(KARAMA), 10);
    }

    #[test]
    fn bot_rng_is_deterministic_and_in_range() {
        let mut a = BotRng::new(7);
        let mut b = BotRng::new(7);
        for n in 1..50 {
            let x = a.below(n);
            assert_eq!(x, b.below(n));
            assert!(x < n);
        }
        assert_eq!(a.pick::<u8>(&[]), None);
    }
}
