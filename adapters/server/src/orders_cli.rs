//! `vitrine orders show|refund|fulfil|cancel`: an owner's work on an order after checkout from
//! the command line, through the core's aftercare service over the database and the
//! configured payment gateway. The shopper's mails go into the delivery outbox, which a
//! running `vitrine serve` with mail configured sends.

use std::sync::Arc;

use anyhow::Context;
use clap::{Args, Subcommand};
use vitrine_core::cart::Timestamp;
use vitrine_core::checkout::{
    OrderAftercareService, OrderSummary, RefundLine, RefundRequest, TestPaymentGateway,
    TrackingUrl, parse_amount,
};
use vitrine_core::forms::SiteLinks;
use vitrine_core::money::{FormatOptions, Locale, Money, format};

use crate::cli::DatabaseArgs;

#[derive(Debug, Clone, Subcommand)]
pub enum OrdersCommand {
    /// Print an order's totals, payment, refunds and whether it was sent or cancelled.
    Show(OrderArgs),
    /// Refund an order through the payment gateway: everything left, an amount, or units
    /// (which go back to stock). The shopper is mailed.
    Refund(RefundArgs),
    /// Mark an order sent, and mail the shopper the carrier's tracking link.
    Fulfil(FulfilArgs),
    /// Cancel an order that was not sent: what is left of its payment is refunded, its
    /// units go back to stock, and the shopper is mailed.
    Cancel(OrderArgs),
}

/// Where the order lives and how its mails link to it.
#[derive(Debug, Clone, Args)]
pub struct OrderContext {
    #[command(flatten)]
    pub database: DatabaseArgs,

    /// The URL shoppers reach the site at, for the order links in mails.
    #[arg(
        long,
        env = "VITRINE_PUBLIC_URL",
        value_name = "URL",
        default_value = "http://127.0.0.1:8080"
    )]
    pub public_url: String,

    /// The key the server signs order links with (see `vitrine serve --help`).
    /// [default: the one kept in the data directory]
    #[arg(
        long,
        env = "VITRINE_ORDER_LINK_KEY",
        value_name = "HEX",
        hide_env_values = true,
        value_parser = crate::order_links::parse_key
    )]
    pub order_link_key: Option<vitrine_core::checkout::OrderLinkKey>,

    #[command(flatten)]
    pub payments: Box<crate::payments::PaymentArgs>,
}

#[derive(Debug, Clone, Args)]
pub struct OrderArgs {
    /// The order's id, as in its mails and pages (order-...).
    pub id: String,

    #[command(flatten)]
    pub context: OrderContext,
}

#[derive(Debug, Clone, Args)]
pub struct RefundArgs {
    pub id: String,

    /// The amount to give back in the order's currency, e.g. 12.50. [default: the price of
    /// the --line units, or everything left when no --line is given]
    #[arg(long, value_name = "AMOUNT")]
    pub amount: Option<String>,

    /// Units to refund and put back in stock, as SKU:QUANTITY; repeat for several SKUs.
    #[arg(long = "line", value_name = "SKU:QTY", value_parser = parse_line)]
    pub lines: Vec<RefundLine>,

    #[command(flatten)]
    pub context: OrderContext,
}

#[derive(Debug, Clone, Args)]
pub struct FulfilArgs {
    pub id: String,

    /// The carrier's tracking page (http:// or https://).
    #[arg(long, value_name = "URL", value_parser = parse_tracking)]
    pub tracking: TrackingUrl,

    #[command(flatten)]
    pub context: OrderContext,
}

fn parse_line(text: &str) -> Result<RefundLine, String> {
    RefundLine::parse(text).map_err(|error| error.to_string())
}

fn parse_tracking(text: &str) -> Result<TrackingUrl, String> {
    TrackingUrl::parse(text).map_err(|error| error.to_string())
}

fn now() -> Timestamp {
    Timestamp(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |elapsed| {
                i64::try_from(elapsed.as_millis()).unwrap_or(i64::MAX)
            }),
    )
}

async fn service(context: &OrderContext) -> anyhow::Result<OrderAftercareService> {
    let database = crate::database::open(&context.database).await?;
    let key = crate::order_links::key(context.order_link_key.as_ref(), &context.database.data_dir)?;
    // Without a Stripe key the orders were paid through the test gateway (or not at all).
    let payments = crate::payments::configure(&context.payments)?
        .unwrap_or_else(|| Arc::new(TestPaymentGateway::new()));
    Ok(OrderAftercareService::new(
        database.order_aftercare_store(),
        payments,
        SiteLinks::new(&context.public_url).with_order_link_key(key),
    ))
}

fn money(cents: i64, summary: &OrderSummary) -> String {
    format(
        Money::new(cents, summary.order.currency),
        &Locale::default(),
        FormatOptions::default(),
    )
}

/// The order as the owner reads it.
fn summary_text(summary: &OrderSummary) -> String {
    let order = &summary.order;
    let mut text = format!(
        "Order {} for {}\n  total {}, payment {}, {}\n",
        order.id,
        order.email,
        money(order.grand_total_cents, summary),
        order.payment_status.as_str(),
        summary.aftercare.fulfilment.word(),
    );
    if let vitrine_core::checkout::Fulfilment::Fulfilled { tracking_url, .. } =
        &summary.aftercare.fulfilment
    {
        text.push_str(&format!("  tracking {}\n", tracking_url.as_str()));
    }
    for refund in &summary.aftercare.refunds {
        let units: Vec<String> = refund
            .lines
            .iter()
            .map(|line| format!("{}:{}", line.sku.as_str(), line.quantity))
            .collect();
        text.push_str(&format!(
            "  refund {} {} {}{}{}\n",
            refund.id,
            money(refund.amount_cents, summary),
            refund.state.as_str(),
            if units.is_empty() {
                String::new()
            } else {
                format!(" ({})", units.join(", "))
            },
            if refund.reason.is_empty() {
                String::new()
            } else {
                format!(": {}", refund.reason)
            },
        ));
    }
    text.push_str(&format!(
        "  left to refund {}\n",
        money(summary.refundable_cents, summary)
    ));
    text
}

pub async fn run(command: OrdersCommand) -> anyhow::Result<()> {
    match command {
        OrdersCommand::Show(args) => {
            let service = service(&args.context).await?;
            let summary = service.summary(&args.id).await?;
            print!("{}", summary_text(&summary));
        }
        OrdersCommand::Refund(args) => {
            let service = service(&args.context).await?;
            let summary = service.summary(&args.id).await?;
            let amount_cents = match &args.amount {
                Some(text) => Some(
                    parse_amount(text.trim(), summary.order.currency)
                        .filter(|cents| *cents > 0)
                        .with_context(|| {
                            format!(
                                "--amount {text:?} is not an amount in {} (like 12.50)",
                                summary.order.currency.code()
                            )
                        })?,
                ),
                None => None,
            };
            let request = RefundRequest {
                amount_cents,
                lines: args.lines,
            };
            let refund = service.refund(&args.id, &request, now()).await?;
            println!(
                "Refunded {} of order {} ({}).",
                money(refund.amount_cents, &summary),
                args.id,
                refund.id
            );
            for line in &refund.lines {
                println!("  {} x {} back in stock", line.quantity, line.sku.as_str());
            }
        }
        OrdersCommand::Fulfil(args) => {
            let service = service(&args.context).await?;
            service.fulfil(&args.id, &args.tracking, now()).await?;
            println!(
                "Order {} is marked sent; the shopper is mailed {}.",
                args.id,
                args.tracking.as_str()
            );
        }
        OrdersCommand::Cancel(args) => {
            let service = service(&args.context).await?;
            let summary = service.summary(&args.id).await?;
            let refunded = service.cancel(&args.id, now()).await?;
            println!(
                "Order {} is cancelled; {} refunded, its units are back in stock.",
                args.id,
                money(refunded, &summary)
            );
        }
    }
    Ok(())
}
