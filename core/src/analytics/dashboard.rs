//! The owner's dashboard: the analytics report of the range the owner picked, and the range's
//! totals beside those of the range just before it. Both come from the report's own store
//! queries, so the dashboard, `vitrine analytics report` and the JSON endpoint never disagree.

use serde::Serialize;

use crate::ports::RepositoryError;

use super::range::{DayRange, percent_change};
use super::report::{AnalyticsReport, build_report, kinds};
use super::store::{AnalyticsStore, DailyTotal, DailyViews};

/// A range's figures summed over its days. `visitors` adds up each day's distinct visitors,
/// so a visitor who comes back on another day counts again; `cookieless_views` says how many
/// views were counted without cookies, whose visitors are estimates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PeriodTotals {
    pub views: u64,
    pub visitors: u64,
    pub cookieless_views: u64,
    pub orders: u64,
    /// Order totals summed, in the currency's minor unit.
    pub revenue_cents: i64,
}

impl PeriodTotals {
    pub fn of(days: &[DailyViews], orders: &[DailyTotal]) -> Self {
        Self {
            views: days.iter().map(|d| d.views).sum(),
            visitors: days.iter().map(|d| d.visitors).sum(),
            cookieless_views: days.iter().map(|d| d.cookieless_views).sum(),
            orders: orders.iter().map(|d| d.count).sum(),
            // Totals are whole minor units, so rounding the float sum loses nothing.
            revenue_cents: orders.iter().map(|d| d.sum).sum::<f64>().round() as i64,
        }
    }
}

/// The change of each total from the previous range, in percent; `None` where the previous
/// range had nothing.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PeriodChanges {
    pub views: Option<f64>,
    pub visitors: Option<f64>,
    pub orders: Option<f64>,
    pub revenue: Option<f64>,
}

impl PeriodChanges {
    pub fn between(current: &PeriodTotals, previous: &PeriodTotals) -> Self {
        let cents = |value: i64| u64::try_from(value).unwrap_or(0);
        Self {
            views: percent_change(current.views, previous.views),
            visitors: percent_change(current.visitors, previous.visitors),
            orders: percent_change(current.orders, previous.orders),
            revenue: percent_change(cents(current.revenue_cents), cents(previous.revenue_cents)),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Dashboard {
    pub report: AnalyticsReport,
    pub totals: PeriodTotals,
    /// The range compared with, of the same length and ending the day before `report.range`.
    pub previous_range: Option<DayRange>,
    pub previous_totals: Option<PeriodTotals>,
    pub changes: Option<PeriodChanges>,
}

/// The dashboard of `range`.
pub async fn build_dashboard(
    store: &dyn AnalyticsStore,
    experiments: &crate::experiments::Experiments,
    range: DayRange,
) -> Result<Dashboard, RepositoryError> {
    let report = build_report(store, experiments, range).await?;
    let totals = PeriodTotals::of(&report.days, &report.orders);
    let previous_range = range.previous();
    let previous_totals = match previous_range {
        Some(previous) => Some(PeriodTotals::of(
            &store.daily_page_views(previous).await?,
            &store.daily_totals(kinds::ORDER, previous).await?,
        )),
        None => None,
    };
    Ok(Dashboard {
        changes: previous_totals.map(|previous| PeriodChanges::between(&totals, &previous)),
        report,
        totals,
        previous_range,
        previous_totals,
    })
}
