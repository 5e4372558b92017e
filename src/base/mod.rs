//! The base vocabulary: ids and their printed names, static board data,
//! policies, the seeded RNG and the documented limits (docs/ARCHITECTURE.md).

pub(crate) mod board;
pub(crate) mod bounds;
pub(crate) mod ids;
pub(crate) mod order;
pub(crate) mod policy;
pub(crate) mod rng;
