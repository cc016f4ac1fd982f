//! `vitrine analytics report`: the owner's analytics report from the database, as text for
//! people or as the JSON the owner endpoint answers; and `vitrine analytics generate`, which
//! writes made-up traffic to try the dashboard with.

use anyhow::Context;
use vitrine_core::analytics::{DayRange, build_report, day_number, report_text, sample_day};

use crate::cli::{AnalyticsCommand, AnalyticsGenerateArgs, AnalyticsReportArgs, ReportFormat};
use crate::database;

pub async fn run(command: AnalyticsCommand) -> anyhow::Result<()> {
    match command {
        AnalyticsCommand::Report(args) => report(args).await,
        AnalyticsCommand::Generate(args) => generate(args).await,
    }
}

async fn report(args: AnalyticsReportArgs) -> anyhow::Result<()> {
    let range = match (&args.from, &args.to) {
        (Some(from), Some(to)) => DayRange::from_dates(from, to)?,
        _ => DayRange::ALL,
    };
    let database = database::open(&args.database).await?;
    // The report lists the site's experiments in their order, against their controls.
    let experiments = database
        .repository()
        .profile()
        .await
        .context("could not read the site")?
        .map(|profile| profile.settings.experiments)
        .unwrap_or_default();
    let report = build_report(&*database.analytics_store(), &experiments, range)
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

async fn generate(args: AnalyticsGenerateArgs) -> anyhow::Result<()> {
    let database = database::open(&args.database).await?;
    let store = database.analytics_store();
    let now_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .context("the clock is before 1970")?
        .as_millis();
    let today = day_number(i64::try_from(now_ms).context("the clock is out of range")?);
    let mut written = 0;
    for day in (today - i64::from(args.days) + 1)..=today {
        let rows = sample_day(day, args.views_per_day, args.seed);
        // One batch per day keeps each transaction a few thousand rows.
        store
            .record_batch(&rows)
            .await
            .context("could not write the traffic")?;
        written += rows.len();
    }
    println!(
        "Wrote {written} analytics rows over {} days ending today.",
        args.days
    );
    database.close().await;
    Ok(())
}
