//! The dashboard's figures added with issue 18 s3 beside the first ones: campaigns, devices,
//! top products, newsletter sign-ups per day, script errors by fingerprint and site version,
//! and plugin failures. Like every figure they are tables first (the dashboard without
//! JavaScript, and each chart's accessible alternative); sign-ups per day is drawn as a chart
//! from its table like the other daily figures.

use std::fmt::Write;

use vitrine_core::analytics::{AnalyticsReport, DayRange, ErrorGroup};

use super::dashboard_markup::{counts_table, daily_chart};
use crate::shared::request_parts::escape_html as escape;

pub(super) fn campaigns(report: &AnalyticsReport) -> String {
    counts_table(
        "dashboard-campaigns",
        "Campaigns",
        "Source / medium / campaign",
        &report.campaigns,
    )
}

/// Page views by device class, each with its share of the classed views.
pub(super) fn devices(report: &AnalyticsReport) -> String {
    let classed: u64 = report.devices.iter().map(|row| row.count).sum();
    let body = if report.devices.is_empty() {
        "<p>Nothing in this range.</p>".to_owned()
    } else {
        let rows: String = report
            .devices
            .iter()
            .map(|row| {
                format!(
                    "<tr><th scope=\"row\">{}</th><td>{}</td><td>{}</td></tr>",
                    escape(&row.key),
                    row.count,
                    share(row.count, classed)
                )
            })
            .collect();
        format!(
            "<table><thead><tr><th scope=\"col\">Device</th><th scope=\"col\">Page views</th>\
             <th scope=\"col\">Share</th></tr></thead><tbody>{rows}</tbody></table>"
        )
    };
    format!(
        "<section aria-labelledby=\"dashboard-devices\"><h2 id=\"dashboard-devices\">Devices</h2>\
         {body}<p class=\"dashboard-note\">By the width of the window the page was shown in: \
         phones up to 767 pixels, tablets up to 1023, desktops beyond.</p></section>"
    )
}

fn share(count: u64, total: u64) -> String {
    if total == 0 {
        return "0.0 %".to_owned();
    }
    format!("{:.1} %", count as f64 * 100.0 / total as f64)
}

pub(super) fn top_products(report: &AnalyticsReport) -> String {
    counts_table(
        "dashboard-products",
        "Top products",
        "Product (orders it was in)",
        &report.top_products,
    )
}

pub(super) fn newsletter_signups(report: &AnalyticsReport, range: DayRange) -> String {
    daily_chart(
        "dashboard-signups",
        "Newsletter sign-ups per day",
        range,
        &[("Sign-ups", true)],
        |day| {
            let count = report
                .newsletter_signups
                .iter()
                .find(|d| d.day == day)
                .map_or(0, |d| d.count);
            vec![(count.to_string(), count as f64)]
        },
        "",
    )
}

/// Script errors, one line per fingerprint and site version.
pub(super) fn script_errors(report: &AnalyticsReport) -> String {
    let body = if report.errors.is_empty() {
        "<p>Nothing in this range.</p>".to_owned()
    } else {
        let mut rows = String::new();
        for group in &report.errors {
            let _ = write!(rows, "{}", error_row(group));
        }
        format!(
            "<table><thead><tr><th scope=\"col\">Message</th><th scope=\"col\">Fingerprint</th>\
             <th scope=\"col\">Site version</th><th scope=\"col\">Count</th></tr></thead>\
             <tbody>{rows}</tbody></table>"
        )
    };
    format!(
        "<section aria-labelledby=\"dashboard-errors\"><h2 id=\"dashboard-errors\">Script errors</h2>\
         {body}<p class=\"dashboard-note\">Grouped by fingerprint (the message and the top of the \
         stack) and by the published version of the site they happened on.</p></section>"
    )
}

fn error_row(group: &ErrorGroup) -> String {
    let unknown = "not recorded";
    format!(
        "<tr><th scope=\"row\">{message}</th><td><code>{fingerprint}</code></td>\
         <td>{version}</td><td>{count}</td></tr>",
        message = escape(&group.message),
        fingerprint = escape(group.fingerprint.as_deref().unwrap_or(unknown)),
        version = group
            .site_version
            .map_or_else(|| unknown.to_owned(), |v| v.to_string()),
        count = group.count,
    )
}

pub(super) fn plugin_failures(report: &AnalyticsReport) -> String {
    counts_table(
        "dashboard-plugins",
        "Plugin failures",
        "Block type",
        &report.plugin_failures,
    )
}

#[cfg(test)]
mod tests {
    use vitrine_core::analytics::KeyCount;

    use super::*;

    #[test]
    fn device_shares_are_of_the_classed_views() {
        assert_eq!(share(1, 4), "25.0 %");
        assert_eq!(share(0, 0), "0.0 %");
    }

    #[test]
    fn an_error_without_a_fingerprint_says_so() {
        let row = error_row(&ErrorGroup {
            fingerprint: None,
            site_version: None,
            message: "<b>x</b>".into(),
            count: 2,
        });
        assert!(row.contains("&lt;b&gt;x&lt;/b&gt;"));
        assert!(row.contains("<code>not recorded</code>"));
    }

    #[test]
    fn empty_lists_say_so() {
        assert!(counts_table("x", "X", "Key", &Vec::<KeyCount>::new()).contains("Nothing"));
    }
}
