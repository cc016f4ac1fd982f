//! Subscriptions in SQL: the statements and the row of the `subscriptions` table, which the
//! commerce store writes in an order's transaction and reads back by id, and the renewal
//! store reads and changes as renewals and the shopper's links move it.

use vitrine_core::cart::Timestamp;
use vitrine_core::catalog::{BillingPeriod, BillingUnit, Sku, SubscriptionPlan};
use vitrine_core::checkout::{Subscription, SubscriptionStatus};
use vitrine_core::money::Currency;
use vitrine_core::ports::RepositoryError;

macro_rules! subscription_columns {
    () => {
        "id, order_id, email, sku, product_name, quantity, price_cents, currency, \
         billing_every, billing_unit, billing_cycles, status, started, payments_made, \
         next_billing_at, skipped_periods, payment_method, failed_attempts, retry_at, \
         next_step_at, account_id"
    };
}

pub(crate) const INSERT_SUBSCRIPTION: &str = concat!(
    "INSERT INTO subscriptions (",
    subscription_columns!(),
    ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, \
     $18, $19, $20, $21)"
);

pub(crate) const SUBSCRIPTION_BY_ID: &str = concat!(
    "SELECT ",
    subscription_columns!(),
    " FROM subscriptions WHERE id = $1"
);

/// The insert of a [`SubscriptionRow`] as a query of either backend, for the transaction
/// of the order that starts the subscription.
macro_rules! insert_subscription {
    ($row:expr) => {{
        let row: $crate::subscription_rows::SubscriptionRow = $row;
        sqlx::query($crate::subscription_rows::INSERT_SUBSCRIPTION)
            .bind(row.id)
            .bind(row.order_id)
            .bind(row.email)
            .bind(row.sku)
            .bind(row.product_name)
            .bind(row.quantity)
            .bind(row.price_cents)
            .bind(row.currency)
            .bind(row.billing_every)
            .bind(row.billing_unit)
            .bind(row.billing_cycles)
            .bind(row.status)
            .bind(row.started)
            .bind(row.payments_made)
            .bind(row.next_billing_at)
            .bind(row.skipped_periods)
            .bind(row.payment_method)
            .bind(row.failed_attempts)
            .bind(row.retry_at)
            .bind(row.next_step_at)
            .bind(row.account_id)
    }};
}

pub(crate) use insert_subscription;

/// Reads the subscriptions `$sql` selects (with the columns of `subscription_columns!`) given
/// its `$bind`s, through `$pool`, as the core's subscriptions: the one mapping of rows every
/// read of the commerce store and the renewal store goes through. `$what` names the read in
/// the error of a failed query.
macro_rules! read_subscriptions {
    ($pool:expr, $sql:expr, $what:literal $(, $bind:expr)*) => {
        async {
            let rows: Vec<$crate::subscription_rows::SubscriptionRow> = sqlx::query_as($sql)
                $(.bind($bind))*
                .fetch_all($pool)
                .await
                .map_err($crate::errors::repository_error($what))?;
            rows.into_iter()
                .map($crate::subscription_rows::SubscriptionRow::into_subscription)
                .collect::<Result<Vec<vitrine_core::checkout::Subscription>, _>>()
        }
    };
}
pub(crate) use read_subscriptions;

/// Reads the subscription with id `$id` through `$pool`: the one reading the commerce store
/// and the renewal store share.
macro_rules! subscription_by_id {
    ($pool:expr, $id:expr) => {
        async {
            let found = $crate::subscription_rows::read_subscriptions!(
                $pool,
                $crate::subscription_rows::SUBSCRIPTION_BY_ID,
                "reading a subscription",
                $id
            )
            .await?;
            // The id is the table's key: one row at the most.
            Ok::<_, vitrine_core::ports::RepositoryError>(found.into_iter().next())
        }
    };
}
pub(crate) use subscription_by_id;

pub(crate) const SUBSCRIPTIONS_BY_EMAIL: &str = concat!(
    "SELECT ",
    subscription_columns!(),
    " FROM subscriptions WHERE lower(email) = lower($1) ORDER BY started DESC, id DESC"
);

/// Reads the subscriptions bought with `$email` (compared without case), newest first,
/// through `$pool`: the one reading the commerce store (for paid memberships) and the
/// renewal store (for the shopper's subscription pages) share.
macro_rules! subscriptions_by_email {
    ($pool:expr, $email:expr) => {
        $crate::subscription_rows::read_subscriptions!(
            $pool,
            $crate::subscription_rows::SUBSCRIPTIONS_BY_EMAIL,
            "reading an address's subscriptions",
            $email
        )
    };
}
pub(crate) use subscriptions_by_email;

pub(crate) const SUBSCRIPTIONS_OF_ACCOUNT: &str = concat!(
    "SELECT ",
    subscription_columns!(),
    " FROM subscriptions WHERE account_id = $1 ORDER BY started DESC, id DESC"
);

/// Reads the subscriptions that belong to the site-user account `$account`, newest first,
/// through `$pool`: the commerce store (for memberships) and the renewal store (for the
/// account page) share it.
macro_rules! subscriptions_of_account {
    ($pool:expr, $account:expr) => {
        $crate::subscription_rows::read_subscriptions!(
            $pool,
            $crate::subscription_rows::SUBSCRIPTIONS_OF_ACCOUNT,
            "reading an account's subscriptions",
            $account
        )
    };
}
pub(crate) use subscriptions_of_account;

/// Records the account of a subscription that has none; a second claim changes nothing.
pub(crate) const CLAIM_SUBSCRIPTION: &str =
    "UPDATE subscriptions SET account_id = $2 WHERE id = $1 AND account_id IS NULL";

pub(crate) const ACCOUNT_OF_SUBSCRIPTION: &str =
    "SELECT account_id FROM subscriptions WHERE id = $1";

/// A subscription as stored: the plan in three columns, times in milliseconds.
#[derive(sqlx::FromRow)]
pub(crate) struct SubscriptionRow {
    pub(crate) id: String,
    pub(crate) order_id: String,
    pub(crate) email: String,
    pub(crate) sku: String,
    pub(crate) product_name: String,
    pub(crate) quantity: i64,
    pub(crate) price_cents: i64,
    pub(crate) currency: String,
    pub(crate) billing_every: i64,
    pub(crate) billing_unit: String,
    pub(crate) billing_cycles: i64,
    pub(crate) status: String,
    pub(crate) started: i64,
    pub(crate) payments_made: i64,
    pub(crate) next_billing_at: Option<i64>,
    pub(crate) skipped_periods: i64,
    pub(crate) payment_method: Option<String>,
    pub(crate) failed_attempts: i64,
    pub(crate) retry_at: Option<i64>,
    /// When [`Subscription::next_step`] falls due: written, never read back.
    pub(crate) next_step_at: Option<i64>,
    pub(crate) account_id: Option<String>,
}

fn corrupt(what: &str, reason: impl ToString) -> RepositoryError {
    RepositoryError::Corrupt {
        what: what.to_owned(),
        reason: reason.to_string(),
    }
}

fn unit_text(unit: BillingUnit) -> &'static str {
    match unit {
        BillingUnit::Week => "week",
        BillingUnit::Month => "month",
        BillingUnit::Year => "year",
    }
}

fn count(value: i64, what: &str) -> Result<u32, RepositoryError> {
    u32::try_from(value).map_err(|error| corrupt(what, error))
}

impl SubscriptionRow {
    pub(crate) fn new(subscription: &Subscription) -> Self {
        let plan = subscription.plan;
        Self {
            id: subscription.id.clone(),
            order_id: subscription.order_id.clone(),
            email: subscription.email.clone(),
            sku: subscription.sku.as_str().to_owned(),
            product_name: subscription.product_name.clone(),
            quantity: i64::from(subscription.quantity),
            price_cents: subscription.price_cents,
            currency: subscription.currency.code().to_owned(),
            billing_every: i64::from(plan.billing_period.value),
            billing_unit: unit_text(plan.billing_period.unit).to_owned(),
            billing_cycles: i64::from(plan.num_billing_cycles.unwrap_or(0)),
            status: subscription.status.as_str().to_owned(),
            started: subscription.started.millis(),
            payments_made: i64::from(subscription.payments_made),
            next_billing_at: subscription.next_billing.map(Timestamp::millis),
            skipped_periods: i64::from(subscription.skipped_periods),
            payment_method: subscription.payment_method.clone(),
            failed_attempts: i64::from(subscription.failed_attempts),
            retry_at: subscription.retry_at.map(Timestamp::millis),
            next_step_at: subscription.next_step().map(|(when, _)| when.millis()),
            account_id: subscription.account.clone(),
        }
    }

    pub(crate) fn into_subscription(self) -> Result<Subscription, RepositoryError> {
        let unit = match self.billing_unit.as_str() {
            "week" => BillingUnit::Week,
            "month" => BillingUnit::Month,
            "year" => BillingUnit::Year,
            other => return Err(corrupt("a billing unit", other)),
        };
        let cycles = count(self.billing_cycles, "a subscription's billing cycles")?;
        Ok(Subscription {
            sku: Sku::parse(self.sku).map_err(|error| corrupt("a subscription SKU", error))?,
            currency: Currency::from_code(&self.currency)
                .map_err(|error| corrupt("a subscription currency", error))?,
            status: SubscriptionStatus::parse(&self.status)
                .ok_or_else(|| corrupt("a subscription status", &self.status))?,
            plan: SubscriptionPlan {
                // 0 is stored for a plan without a count; both mean until cancelled.
                num_billing_cycles: (cycles > 0).then_some(cycles),
                billing_period: BillingPeriod {
                    value: count(self.billing_every, "a billing period")?,
                    unit,
                },
            },
            quantity: count(self.quantity, "a subscription's quantity")?,
            payments_made: count(self.payments_made, "a subscription's payments")?,
            skipped_periods: count(self.skipped_periods, "a subscription's skipped periods")?,
            failed_attempts: count(self.failed_attempts, "a subscription's failed attempts")?,
            retry_at: self.retry_at.map(Timestamp),
            payment_method: self.payment_method,
            id: self.id,
            order_id: self.order_id,
            email: self.email,
            account: self.account_id,
            product_name: self.product_name,
            price_cents: self.price_cents,
            started: Timestamp(self.started),
            next_billing: self.next_billing_at.map(Timestamp),
        })
    }
}
