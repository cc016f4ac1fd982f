//! Vitrine's task runner: `cargo xtask <command>`, the same commands locally and in CI.
//!
//! Each command lives in its own module with an `Args` struct and a `run` function; adding
//! one means a module, a `Command` variant and a match arm.

mod api_fuzz;
mod bench;
mod bench_images;
mod bindings;
mod codegen;
mod fuzz;
mod plugins;
mod process;
mod serve;
mod system_packages;
mod test;
mod web;
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
    /// Build the web assets and the release server, then serve the demo storefront on the
    /// embedded database. Arguments after `--` go to `vitrine serve`.
    Run {
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Benchmark the release build: page throughput next to a static file, JavaScript per
    /// page, and Lighthouse scores. Arguments after `--` go to the script (`--out FILE`,
    /// `--skip-lighthouse`, `--check`). `--pages` measures cached pages against nginx with
    /// wrk instead, `--bridge` the native bridge's round trip in Chromium with the simulated
    /// app; `--commerce`, `--load` and `--renewals` run the Rust benches.
    Bench {
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Run every test: web unit tests, Rust unit, property, HTTP and SQL tests (PostgreSQL
    /// when VITRINE_TEST_POSTGRES_URL is set), the React Native shell's jest suite, and the
    /// browser suite in headless Chromium.
    Test,
    /// Run only the browser suite: build the web assets, the plugins and the debug server,
    /// then run Playwright in headless Chromium in the same shards as `test`.
    E2e,
    /// Generate the native app's bindings (Kotlin, Swift, React Native) from `bindings/`;
    /// `--check` fails when the checked-in ones are stale, `--test` runs the Python tests
    /// against the compiled library, `--bench` times a binding call against the same in Rust.
    Bindings(bindings::Args),
    /// Serve the demo site on SQLite from a temporary directory and run schemathesis against
    /// its OpenAPI document with every check on (installs schemathesis into target/api-fuzz).
    ApiFuzz(api_fuzz::Args),
    /// Run every fuzz target of property-tests/fuzz (or the ones named) for a bounded time
    /// with cargo-fuzz and libFuzzer, installing cargo-fuzz when missing.
    Fuzz(fuzz::Args),
    /// Build the WebAssembly block plugins (examples and hostile test programs) into
    /// plugins/guests/target/plugins, installing the wasm32-wasip2 target when missing.
    Plugins,
}

fn main() -> ExitCode {
    let result = match Cli::parse().command {
        Command::Codegen(args) => codegen::run(&args),
        Command::Bindings(args) => bindings::run(&args),
        Command::Run { args } => serve::run_vitrine(&args),
        Command::Test => test::run_all(),
        Command::E2e => test::run_e2e(),
        Command::Plugins => plugins::build(),
        Command::Fuzz(args) => fuzz::run_targets(&args),
        Command::ApiFuzz(args) => api_fuzz::run_api_fuzz(&args),
        Command::Bench { args } => bench::run_benchmarks(&args),
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
