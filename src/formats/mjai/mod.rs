//! mjai JSON lines: [`write`] (Mortal's dialect) from a decoded game, `read` (Mortal's dialect
//! and the older ones that carry a whole game) into the decoded events.

pub(crate) mod read;
mod write;

#[cfg(feature = "cli")]
pub(crate) use write::Writer;
pub use write::{tile_name, write};
