//! `vitrine submissions list` and `vitrine submissions export --format csv`: the owner's view
//! of what visitors sent through forms and newsletter blocks.

use anyhow::Context;
use vitrine_core::forms::export::to_csv;

use crate::cli::{ExportFormat, SubmissionsCommand};
use crate::database;

pub async fn run(command: SubmissionsCommand) -> anyhow::Result<()> {
    let args = match &command {
        SubmissionsCommand::List(args) => &args.database,
        SubmissionsCommand::Export(args) => &args.database,
    };
    let database = database::open(args).await?;
    let submissions = database
        .form_store()
        .list()
        .await
        .context("could not read the form submissions")?;
    match command {
        SubmissionsCommand::List(_) => {
            if submissions.is_empty() {
                println!("No form submissions yet.");
            }
            for submission in &submissions {
                println!(
                    "#{} {} at {}{}: {}",
                    submission.id,
                    submission.form_id,
                    submission.created_at,
                    if submission.spam { " (spam)" } else { "" },
                    submission.values_json
                );
            }
        }
        SubmissionsCommand::Export(args) => match args.format {
            ExportFormat::Csv => print!("{}", to_csv(&submissions)),
        },
    }
    database.close().await;
    Ok(())
}
