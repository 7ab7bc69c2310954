//! The native command line: `gpu-primer --help`, `--version`, and one subcommand per engine feature.
//!
//! Contract: output on stdout, a one-line message on stderr and exit code 2 for bad input,
//! never a panic.

use std::io::Write;

const USAGE: &str = "\
gpu-primer: learn GPU compute, estimate memory, time and scaling for LLMs

Usage:
  gpu-primer <COMMAND> [ARGS]

Commands:
  help, --help, -h       Show this help
  version, --version, -V Show the version

Exit codes: 0 ok, 2 invalid input or usage.
";

/// Runs the command line and returns the process exit code.
pub fn run(args: &[String]) -> i32 {
    let out = std::io::stdout();
    let mut out = out.lock();
    match args.first().map(String::as_str) {
        None | Some("help" | "--help" | "-h") => {
            let _ = out.write_all(USAGE.as_bytes());
            0
        }
        Some("version" | "--version" | "-V") => {
            let _ = writeln!(out, "gpu-primer {}", env!("CARGO_PKG_VERSION"));
            0
        }
        Some(other) => {
            eprintln!("gpu-primer: unknown command '{other}' (try --help)");
            2
        }
    }
}
