//! Log output: human-readable lines by default, one JSON object per line when
//! `VITRINE_LOG_FORMAT=json`, filtered by `RUST_LOG` (default `info`).

use std::io::IsTerminal;

use tracing_subscriber::EnvFilter;

/// The variable that switches logs to JSON.
pub const LOG_FORMAT_VARIABLE: &str = "VITRINE_LOG_FORMAT";

/// Installs the global subscriber. Logs go to standard error so standard output carries only
/// what the command itself reports.
pub fn init() {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let json =
        std::env::var(LOG_FORMAT_VARIABLE).is_ok_and(|format| format.eq_ignore_ascii_case("json"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        // Colours only for a person at a terminal, not for a log file or collector.
        .with_ansi(std::io::stderr().is_terminal());
    if json {
        builder.json().with_current_span(true).init();
    } else {
        builder.init();
    }
}
