//! Typed steps between state formats that share one document shape
//! (docs/integration.md §6). A format-2 document decodes as a current
//! [`Game`]; what changed from format 2 to 3 is what some values mean, so the
//! step rewrites typed fields, never text. Older formats whose shape differs
//! are rewritten first by `json::migrate` up to [`TYPED_FROM`].

use crate::base::board::elite_total;
use crate::base::ids::Faction;
use crate::model::error::ApplyError;
use crate::model::game::{DukeCustody, DukeSource, FactionState, Game, LeaderCustody, FORMAT_VERSION};

/// The first format whose documents have the current shape: from here on
/// every step is typed ([`upgrade`]).
pub const TYPED_FROM: u32 = 2;

/// The first format with the revision guard's `revision` field (D-230): the
/// one shape change after [`TYPED_FROM`], made on the document by
/// `json::migrate` for every older state before the typed steps run.
pub const REVISION_FROM: u32 = 4;

/// CHOAM's hand limit by default before format 3 (the specification's error,
/// corrected in `board.md`: D-162).
const OLD_CHOAM_HAND_LIMIT: u8 = 4;

/// Bring a decoded game of format [`TYPED_FROM`] or later up to
/// [`FORMAT_VERSION`], one typed step at a time; any other version is
/// `state/unsupported_version`.
pub fn upgrade(g: &mut Game) -> Result<(), ApplyError> {
    if !(TYPED_FROM..=FORMAT_VERSION).contains(&g.version) {
        return Err(ApplyError::UnsupportedVersion {
            found: g.version.to_string(),
            supported: FORMAT_VERSION,
        });
    }
    while g.version < FORMAT_VERSION {
        if g.version == 2 {
            migrate_2_to_3(g);
        }
        // 3 → 4 (D-230) changes the shape only: `revision` was added to the
        // document by `json::migrate`; no value changes meaning.
        g.version = g.version.saturating_add(1);
    }
    Ok(())
}

/// Format 2 → 3 (D-171): the defaults and meanings corrected by D-162 …
/// D-168.
///
/// * CHOAM's hand limit of 4 came from the old default (a host's
///   `setHandLimit` to 4 cannot be told apart from it): it becomes 5 (D-162).
/// * The Ixians had 16 Suboids and 4 Cyborgs; they have 13 and 7 (D-163).
///   Suboids become Cyborgs until the Ixians hold 7 elite forces: first in
///   the reserves, then in the Tanks, then on the board, stack by stack in
///   the saved order — no force moves, and the 20 are conserved.
/// * Only the Tleilaxu hold gholas (D-168): a ghola held by another faction
///   becomes that faction's captive (a leader, or Duke Vidal; a Duke ghola
///   held by Ecaz becomes Ecaz's, held until used in a battle, as Ecaz
///   cannot capture him, D-73).
/// * A captured Duke's return custody was not recorded: it stays none (he is
///   set aside when returned, as format 2 did).
pub fn migrate_2_to_3(g: &mut Game) {
    for s in &mut g.factions {
        if s.faction == Faction::Choam && s.hand_limit == OLD_CHOAM_HAND_LIMIT {
            s.hand_limit = crate::base::board::faction_info(Faction::Choam).hand_limit;
        }
        if s.faction == Faction::Ixians {
            cyborgs(s);
        }
        for l in &mut s.leaders {
            if let LeaderCustody::Ghola { by } = l.custody {
                if by != Faction::Tleilaxu {
                    l.custody = LeaderCustody::Captured { by };
                }
            }
        }
    }
    if let DukeCustody::Ghola { by } = g.duke.custody {
        g.duke.custody = match by {
            Faction::Tleilaxu => g.duke.custody,
            Faction::Ecaz => DukeCustody::Controlled {
                by,
                source: DukeSource::EcazAmbassador,
            },
            _ => DukeCustody::Captured { by },
        };
    }
}

/// Turn Suboids into Cyborgs until the Ixians hold their 7 (D-163).
fn cyborgs(s: &mut FactionState) {
    let elite = s
        .board
        .iter()
        .map(|x| x.elite)
        .fold(s.reserves.elite.saturating_add(s.tanks.elite), u32::saturating_add);
    let mut need = elite_total(Faction::Ixians).saturating_sub(elite);
    let mut turn = |normal: &mut u32, elite: &mut u32| {
        let n = need.min(*normal);
        *normal -= n;
        *elite = elite.saturating_add(n);
        need -= n;
    };
    turn(&mut s.reserves.normal, &mut s.reserves.elite);
    turn(&mut s.tanks.normal, &mut s.tanks.elite);
    for x in &mut s.board {
        turn(&mut x.normal, &mut x.elite);
    }
}
