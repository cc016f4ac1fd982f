//! Recurring billing from the command line and inside `vitrine serve`: `vitrine billing run`
//! charges the renewals due now and exits (for cron), `vitrine billing list` and
//! `vitrine billing cancel ID` are the owner's view and action, and the renewal scheduler is
//! a task of the server woken every `--billing-interval-seconds`. Both runners charge through
//! the same service, whose claim rows keep them from charging an attempt twice.

use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, bail};
use clap::{Args, Subcommand};
use tokio::task::JoinSet;
use vitrine_core::cart::Timestamp;
use vitrine_core::checkout::{
    OrderLinkKey, RecurringPayments, RenewalResult, RenewalRunReport, RenewalService,
    SubscriptionLinks, TestPaymentGateway,
};

use crate::cli::DatabaseArgs;
use crate::database;
use crate::payments::PaymentArgs;

#[derive(Debug, Clone, Subcommand)]
pub enum BillingCommand {
    /// Charge every renewal due now, retry declined ones on their dunning dates, cancel
    /// past-due subscriptions whose grace period is over, then exit. Safe to run from cron
    /// while servers run their own scheduler: an attempt is charged once.
    Run(BillingRunArgs),
    /// Print the newest subscriptions: id, status, address, product, price, next step.
    List(BillingListArgs),
    /// Cancel a subscription at once; its shopper gets a mail.
    Cancel(BillingCancelArgs),
}

/// How renewals are charged: by both `billing run` and the server's scheduler.
#[derive(Debug, Clone, Args)]
pub struct RenewalArgs {
    /// How many renewals are charged at once.
    #[arg(
        long,
        env = "VITRINE_BILLING_CONCURRENCY",
        value_name = "N",
        default_value_t = 8,
        value_parser = clap::value_parser!(u32).range(1..=256)
    )]
    pub billing_concurrency: u32,

    /// How long a runner holds a renewal it claimed before another runner may take it over
    /// (when the first died mid-charge), in seconds. Longer than the payment provider takes
    /// to answer.
    #[arg(
        long,
        env = "VITRINE_BILLING_LEASE_SECONDS",
        value_name = "SECONDS",
        default_value_t = 300,
        value_parser = clap::value_parser!(u64).range(1..=86_400)
    )]
    pub billing_lease_seconds: u64,
}

/// The scheduler of `vitrine serve`.
#[derive(Debug, Clone, Args)]
pub struct RenewalScheduleArgs {
    /// How often the server looks for renewals due, in seconds; 0 turns the scheduler off
    /// (for a deployment that runs `vitrine billing run` from cron instead).
    #[arg(
        long,
        env = "VITRINE_BILLING_INTERVAL_SECONDS",
        value_name = "SECONDS",
        default_value_t = 60
    )]
    pub billing_interval_seconds: u64,

    #[command(flatten)]
    pub renewals: RenewalArgs,
}

/// Where subscriptions live and what their mails link to.
#[derive(Debug, Clone, Args)]
pub struct BillingTarget {
    /// The URL visitors reach the site at, for the links in the mails.
    #[arg(
        long,
        env = "VITRINE_PUBLIC_URL",
        value_name = "URL",
        hide_env_values = true,
        default_value = "http://127.0.0.1:8080"
    )]
    pub public_url: String,

    /// The key that signs order and subscription links; the server's own (see `vitrine
    /// serve --help`). [default: the one kept in the data directory]
    #[arg(
        long,
        env = "VITRINE_ORDER_LINK_KEY",
        value_name = "HEX",
        hide_env_values = true,
        value_parser = crate::order_links::parse_key
    )]
    pub order_link_key: Option<OrderLinkKey>,

    #[command(flatten)]
    pub database: DatabaseArgs,
}

#[derive(Debug, Clone, Args)]
pub struct BillingRunArgs {
    #[command(flatten)]
    pub renewals: RenewalArgs,

    #[command(flatten)]
    pub payments: Box<PaymentArgs>,

    #[command(flatten)]
    pub target: BillingTarget,
}

#[derive(Debug, Clone, Args)]
pub struct BillingListArgs {
    /// How many subscriptions, newest first.
    #[arg(long, default_value_t = 100)]
    pub limit: u32,

    #[command(flatten)]
    pub target: BillingTarget,
}

#[derive(Debug, Clone, Args)]
pub struct BillingCancelArgs {
    /// The subscription's id (as `billing list` prints it).
    pub id: String,

    #[command(flatten)]
    pub target: BillingTarget,
}

/// Where renewals are charged: Stripe with a key, the test gateway with `--test-payments`,
/// otherwise nowhere (none).
pub fn recurring_payments(
    args: &PaymentArgs,
) -> anyhow::Result<Option<Arc<dyn RecurringPayments>>> {
    if let Some(key) = &args.stripe_secret_key {
        return Ok(Some(Arc::new(crate::payments::stripe(args, key)?)));
    }
    if args.test_payments {
        return Ok(Some(Arc::new(TestPaymentGateway::new())));
    }
    Ok(None)
}

/// The renewal service over `database`, charging through `payments`.
pub fn renewal_service(
    database: &vitrine_sql::Database,
    payments: Arc<dyn RecurringPayments>,
    public_url: &str,
    order_links: &OrderLinkKey,
    args: &RenewalArgs,
) -> RenewalService {
    let lease_ms =
        i64::try_from(args.billing_lease_seconds.saturating_mul(1000)).unwrap_or(i64::MAX);
    RenewalService::new(
        database.renewal_store(),
        payments,
        SubscriptionLinks::new(public_url, order_links),
    )
    .with_lease_ms(lease_ms)
}

pub(crate) fn now() -> Timestamp {
    let millis = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_millis());
    Timestamp(i64::try_from(millis).unwrap_or(i64::MAX))
}

/// Charges everything due at `now`, `concurrency` renewals at once, until nothing due is
/// left that this run can settle.
pub async fn run_due(
    service: &RenewalService,
    now: Timestamp,
    concurrency: u32,
) -> anyhow::Result<RenewalRunReport> {
    let batch = concurrency.saturating_mul(16).max(64);
    let mut report = RenewalRunReport::default();
    loop {
        let due = service
            .due(now, batch)
            .await
            .context("could not read the subscriptions due")?;
        let fetched = due.len();
        let mut progressed = false;
        let mut running = JoinSet::new();
        for subscription in due {
            if running.len() >= concurrency as usize
                && let Some(done) = running.join_next().await
            {
                progressed |= count(&mut report, done)?;
            }
            let service = service.clone();
            running.spawn(async move { service.renew(&subscription, now).await });
        }
        while let Some(done) = running.join_next().await {
            progressed |= count(&mut report, done)?;
        }
        if !progressed || fetched < batch as usize {
            return Ok(report);
        }
    }
}

type Renewed =
    Result<Result<RenewalResult, vitrine_core::ports::RepositoryError>, tokio::task::JoinError>;

/// Adds one renewal to the report; whether it moved its subscription on.
fn count(report: &mut RenewalRunReport, done: Renewed) -> anyhow::Result<bool> {
    let result = done
        .context("a renewal task stopped")?
        .context("a renewal could not be recorded")?;
    report.add(&result);
    Ok(!matches!(
        result,
        RenewalResult::Skipped | RenewalResult::Unsettled { .. }
    ))
}

/// The server's scheduler: a run every `interval`, until the task is aborted. A failed run
/// is logged and the next one tries again.
pub fn spawn_scheduler(
    service: RenewalService,
    interval: Duration,
    concurrency: u32,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut ticks = tokio::time::interval(interval);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticks.tick().await;
            match run_due(&service, now(), concurrency).await {
                Ok(report) if report == RenewalRunReport::default() => {}
                Ok(report) => tracing::info!(?report, "renewal run done"),
                Err(error) => tracing::error!(error = format!("{error:#}"), "renewal run failed"),
            }
        }
    })
}

/// The renewal service of `vitrine serve`, when payments are configured: checkout keeps
/// subscription cards through it and the scheduler charges renewals with it.
pub fn configured_renewals(
    database: &vitrine_sql::Database,
    payments: &PaymentArgs,
    args: &RenewalArgs,
    public_url: &str,
    order_links: &OrderLinkKey,
) -> anyhow::Result<Option<RenewalService>> {
    let Some(gateway) = recurring_payments(payments)? else {
        tracing::warn!("no payments are configured, so no subscription renewal is charged");
        return Ok(None);
    };
    Ok(Some(renewal_service(
        database,
        gateway,
        public_url,
        order_links,
        args,
    )))
}

/// The scheduler `vitrine serve` starts, unless payments are off or it is turned off.
pub fn serve_scheduler(
    service: Option<RenewalService>,
    schedule: &RenewalScheduleArgs,
) -> Option<tokio::task::JoinHandle<()>> {
    if schedule.billing_interval_seconds == 0 {
        tracing::info!("the renewal scheduler is off (--billing-interval-seconds 0)");
        return None;
    }
    Some(spawn_scheduler(
        service?,
        Duration::from_secs(schedule.billing_interval_seconds),
        schedule.renewals.billing_concurrency,
    ))
}

pub async fn run(command: BillingCommand) -> anyhow::Result<()> {
    let target = match &command {
        BillingCommand::Run(args) => &args.target,
        BillingCommand::List(args) => &args.target,
        BillingCommand::Cancel(args) => &args.target,
    }
    .clone();
    let order_links =
        crate::order_links::key(target.order_link_key.as_ref(), &target.database.data_dir)?;
    let database = database::open(&target.database).await?;
    let outcome = execute(&database, command, &target, &order_links).await;
    database.close().await;
    outcome
}

async fn execute(
    database: &vitrine_sql::Database,
    command: BillingCommand,
    target: &BillingTarget,
    order_links: &OrderLinkKey,
) -> anyhow::Result<()> {
    // Listing and cancelling charge nothing, so they need no gateway.
    let quiet = || -> Arc<dyn RecurringPayments> { Arc::new(TestPaymentGateway::new()) };
    match command {
        BillingCommand::Run(args) => {
            let Some(gateway) = recurring_payments(&args.payments)? else {
                bail!(
                    "no payments are configured: give a Stripe key (--stripe-secret-key / \
                     VITRINE_STRIPE_SECRET_KEY) or --test-payments"
                );
            };
            let service = renewal_service(
                database,
                gateway,
                &target.public_url,
                order_links,
                &args.renewals,
            );
            let report = run_due(&service, now(), args.renewals.billing_concurrency).await?;
            println!(
                "Renewals: {} paid, {} declined, {} cancelled after dunning, {} left to another runner, {} without an answer yet.",
                report.paid, report.declined, report.cancelled, report.skipped, report.unsettled
            );
            Ok(())
        }
        BillingCommand::List(args) => {
            let service = renewal_service(
                database,
                quiet(),
                &target.public_url,
                order_links,
                &default_renewals(),
            );
            let subscriptions = service
                .list(args.limit)
                .await
                .context("could not read the subscriptions")?;
            if subscriptions.is_empty() {
                println!("No subscriptions yet.");
            }
            for subscription in subscriptions {
                println!("{}", list_line(&subscription));
            }
            Ok(())
        }
        BillingCommand::Cancel(args) => {
            let service = renewal_service(
                database,
                quiet(),
                &target.public_url,
                order_links,
                &default_renewals(),
            );
            let cancelled = service
                .cancel(&args.id, now())
                .await
                .with_context(|| format!("could not cancel {}", args.id))?;
            println!(
                "Cancelled {} ({}); {} gets a mail.",
                cancelled.id, cancelled.product_name, cancelled.email
            );
            Ok(())
        }
    }
}

fn default_renewals() -> RenewalArgs {
    RenewalArgs {
        billing_concurrency: 1,
        billing_lease_seconds: 300,
    }
}

/// One subscription as `billing list` prints it: tab-separated, for people and for `cut`.
fn list_line(subscription: &vitrine_core::checkout::Subscription) -> String {
    let next = match subscription.next_step() {
        Some((when, vitrine_core::checkout::BillingStep::Charge { attempt: 0, .. })) => {
            format!("charge at {}", instant(when))
        }
        Some((when, vitrine_core::checkout::BillingStep::Charge { attempt, .. })) => {
            format!("retry {attempt} at {}", instant(when))
        }
        Some((when, vitrine_core::checkout::BillingStep::Cancel)) => {
            format!("cancel at {}", instant(when))
        }
        None => "-".to_owned(),
    };
    format!(
        "{}\t{}\t{}\t{} x {}\t{} {}\t{} paid\t{next}",
        subscription.id,
        subscription.status.as_str(),
        subscription.email,
        subscription.quantity,
        subscription.product_name,
        subscription.price_cents,
        subscription.currency.code(),
        subscription.payments_made,
    )
}

/// An instant as RFC 3339 in UTC.
fn instant(at: Timestamp) -> String {
    time::OffsetDateTime::from_unix_timestamp(at.millis().div_euclid(1000))
        .ok()
        .and_then(|moment| {
            moment
                .format(&time::format_description::well_known::Rfc3339)
                .ok()
        })
        .unwrap_or_else(|| at.millis().to_string())
}
