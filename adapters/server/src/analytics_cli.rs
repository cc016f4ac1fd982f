//! `vitrine analytics report`: the owner's analytics report from the database, as text for
//! people or as the JSON the owner endpoint answers.

use anyhow::Context;
use vitrine_core::analytics::{build_report, report_text};

use crate::cli::{AnalyticsCommand, ReportFormat};
use crate::database;

pub async fn run(command: AnalyticsCommand) -> anyhow::Result<()> {
    let AnalyticsCommand::Report(args) = command;
    let database = database::open(&args.database).await?;
    // The report lists the site's experiments in their order, against their controls.
    let experiments = database
        .repository()
        .profile()
        .await
        .context("could not read the site")?
        .map(|profile| profile.settings.experiments)
        .unwrap_or_default();
    let report = build_report(&*database.analytics_store(), &experiments)
        .await
        .context("could not read the analytics")?;
    match args.format {
        ReportFormat::Text => print!("{}", report_text(&report)),
        ReportFormat::Json => println!(
            "{}",
            serde_json::to_string_pretty(&report).context("could not write the report")?
        ),
    }
    database.close().await;
    Ok(())
}
