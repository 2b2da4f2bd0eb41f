//! `make mutants` only (TESTING.md): the tests cargo-mutants runs, as modules of one test
//! binary, so that a mutant links one binary instead of nine, each of which links polars
//! (with the build limited to it and the unit tests, about 17 s a mutant rather than 30:
//! TESTING.md). Built only with the `mutants` feature;
//! `cargo test` runs the same tests from their own files.
#![allow(clippy::type_complexity)]
// Each suite file declares its own `mod common;`, as it must when built alone.
#![allow(clippy::duplicate_mod)]

#[path = "agree.rs"]
mod agree;
#[path = "append.rs"]
mod append;
#[path = "bad_input.rs"]
mod bad_input;
#[path = "compare.rs"]
mod compare;
#[path = "corpus.rs"]
mod corpus;
#[path = "danger_by_turn.rs"]
mod danger_by_turn;
#[path = "every_decision.rs"]
mod every_decision;
#[path = "every_format.rs"]
mod every_format;
#[path = "fixture_danger.rs"]
mod fixture_danger;
#[path = "fixture_melds.rs"]
mod fixture_melds;
#[path = "fixture_peer_v3.rs"]
mod fixture_peer_v3;
#[path = "fixture_riichi_v3.rs"]
mod fixture_riichi_v3;
#[path = "fixture_stats.rs"]
mod fixture_stats;
#[path = "formats_read.rs"]
mod formats_read;
#[path = "hand_reading.rs"]
mod hand_reading;
#[path = "mjai_write.rs"]
mod mjai_write;
#[path = "parts_layout.rs"]
mod parts_layout;
#[path = "players.rs"]
mod players;
#[path = "report_values.rs"]
mod report_values;
#[path = "reports.rs"]
mod reports;
#[path = "review.rs"]
mod review;
#[path = "rolled_parts.rs"]
mod rolled_parts;
#[path = "sanma.rs"]
mod sanma;
#[path = "tables.rs"]
mod tables;
#[path = "tenhou6_write.rs"]
mod tenhou6_write;
#[path = "tsumo.rs"]
mod tsumo;
#[path = "wall.rs"]
mod wall;
