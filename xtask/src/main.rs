//! Vitrine's task runner: `cargo xtask <command>`, the same commands locally and in CI.
//!
//! Each command lives in its own module with an `Args` struct and a `run` function; adding
//! one means a module, a `Command` variant and a match arm.

mod codegen;
mod workspace;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Debug, Parser)]
#[command(name = "cargo xtask", about = "Vitrine's task runner")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Generate the web client's TypeScript enumerations, currency table and money test
    /// vectors from the Rust core.
    Codegen(codegen::Args),
}

fn main() -> ExitCode {
    let result = match Cli::parse().command {
        Command::Codegen(args) => codegen::run(&args),
    };
    // Printed by hand rather than by returning the error from `main`, so a failed check shows
    // its message and causes without a backtrace.
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::FAILURE
        }
    }
}
