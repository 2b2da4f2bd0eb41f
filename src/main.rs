use std::process::ExitCode;

fn main() -> ExitCode {
    haifu::cli::main()
}
