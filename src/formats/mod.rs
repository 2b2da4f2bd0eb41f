//! Log formats other than Tenhou's mjlog XML (`crate::mjlog`). Each module knows its format
//! and nothing of statistics.
//!
//! - [`mjai`]: mjai JSON lines (Mortal's dialect), written from a decoded mjlog game
//!   (`haifu convert --to mjai`).

pub mod mjai;
