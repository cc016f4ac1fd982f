//! `vitrine`: the composition root. It reads the command line, builds the adapters, hands them
//! to the core's services and runs the chosen command; no business rule lives here.

mod abandoned_payments;
mod ad_pixel;
mod analytics_cli;
mod billing_cli;
mod census;
mod cli;
mod database;
mod delivery;
mod geocoder;
mod http_args;
mod http_workers;
mod import;
mod logging;
mod map_tiles;
mod media_cli;
mod order_links;
mod orders_cli;
mod owner_cli;
mod payments;
mod plugin_build;
mod plugin_cli;
mod plugin_collections;
mod plugin_new;
mod plugins;
mod serve;
mod shared_state;
mod submissions;
mod web_assets;

use std::process::ExitCode;

use clap::Parser;

use crate::cli::{Cli, Command};

#[tokio::main]
async fn main() -> ExitCode {
    let cli = Cli::parse();
    logging::init();
    let result = match cli.command {
        Command::Serve(args) => serve::run(*args).await,
        Command::Import(args) => import::run(args).await,
        Command::Migrate(args) => migrate(args).await,
        Command::Submissions(command) => submissions::run(command).await,
        Command::Plugin(command) => plugin_cli::run(command),
        Command::Analytics(command) => analytics_cli::run(command).await,
        Command::Media(command) => media_cli::run(command).await,
        Command::Owner(command) => owner_cli::run(command).await,
        Command::Orders(command) => orders_cli::run(command).await,
        Command::Billing(command) => billing_cli::run(command).await,
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            // `{:#}` prints the whole chain: what failed, then each cause, separated by colons.
            eprintln!("error: {error:#}");
            ExitCode::FAILURE
        }
    }
}

async fn migrate(args: cli::MigrateArgs) -> anyhow::Result<()> {
    let database = database::open(&args.database).await?;
    println!(
        "The {} database {} is up to date.",
        database.kind(),
        database.url()
    );
    database.close().await;
    Ok(())
}
