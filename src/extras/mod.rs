//! Extras over the engine: bots and narration (docs/ARCHITECTURE.md).

pub mod bots;
pub mod narrate;
