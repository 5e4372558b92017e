//! The codec layer: the engine's own JSON reader (`wire`, with the derive of
//! crate `ecaz-derive`) and writer (`writer`, with the encode helpers). It
//! knows nothing of the game (docs/ARCHITECTURE.md).

pub(crate) mod wire;
pub(crate) mod writer;
