//! One module per subcommand: turn parsed arguments into a run and a printed result.

pub mod ingest;
