//! The rules, one file per rule area. Each area offers `check_*` functions
//! that validate against an unchanged `&Game` and return a plan, and
//! `commit_*` functions that carry a plan out and cannot fail
//! (validate-then-mutate, ARCHITECTURE §3).

pub(crate) mod alliance;
pub(crate) mod cards;
pub(crate) mod clock;
pub(crate) mod duke;
pub(crate) mod effects;
pub(crate) mod entry;
pub(crate) mod frames;
pub(crate) mod karama;
pub(crate) mod knowledge;
pub(crate) mod nexus;
pub(crate) mod occupancy;
pub(crate) mod placement;
pub(crate) mod storm;
pub(crate) mod sync;
pub(crate) mod table;
pub(crate) mod trigger;
pub(crate) mod turn;
