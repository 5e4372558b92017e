//! The engine: a setup built into a game, `apply` (check, then commit), the
//! legal options and the per-viewer views (docs/ARCHITECTURE.md).

pub(crate) mod apply;
pub(crate) mod options;
pub(crate) mod setup;
pub(crate) mod view;
