//! The command-line options the server benches share.

/// The value after `name` among the bench's arguments.
pub fn option(name: &str) -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    let at = args.iter().position(|arg| arg == name)?;
    args.get(at + 1).cloned()
}

/// `--concurrency A,B,...`, or `default` in that form.
pub fn concurrency_levels(default: &str) -> Vec<usize> {
    option("--concurrency")
        .unwrap_or_else(|| default.to_owned())
        .split(',')
        .map(|n| n.trim().parse().expect("a concurrency"))
        .collect()
}
