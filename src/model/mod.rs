//! The model: the game state, commands, events, errors and the host's table
//! types (docs/ARCHITECTURE.md).

pub(crate) mod command;
pub(crate) mod error;
pub(crate) mod event;
pub(crate) mod game;
pub(crate) mod table;

#[cfg(test)]
mod wire_tests;
