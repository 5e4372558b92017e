//! Extras over the engine: bots, narration and the host's table mirror
//! (docs/ARCHITECTURE.md).

pub mod bots;
pub(crate) mod mirror;
pub mod narrate;
