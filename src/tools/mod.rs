//! Tools over the JSON door and the engine: the simulated table, audits, the
//! scenario runner and the schema export (docs/ARCHITECTURE.md).

pub mod audit;
pub mod scenario;
pub mod schema;
pub mod sim;
