//! One module per subcommand: turn parsed arguments into a run and a printed result.

pub mod danger_eval;
pub mod ingest;
pub mod params;
pub mod run;
pub mod stats;
