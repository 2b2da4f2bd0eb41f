//! `haifu params tsumo-rate`.

use anyhow::Result;

use crate::cli::ParamsArgs;
use crate::frames::write_atomically;
use crate::params;

pub fn run(args: &ParamsArgs) -> Result<u8> {
    let (value, csv) = params::tsumo_rate(&args.frames)?;
    write_atomically(
        &args.out,
        (serde_json::to_string_pretty(&value)? + "\n").as_bytes(),
    )?;
    let csv_path = args.out.with_extension("csv");
    write_atomically(&csv_path, csv.as_bytes())?;
    eprintln!("wrote {} and {}", args.out.display(), csv_path.display());
    Ok(0)
}
