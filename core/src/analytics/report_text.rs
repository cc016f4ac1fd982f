//! The owner's analytics report as plain text, for `vitrine analytics report`: one section per
//! figure, days as ISO dates, and cookieless estimates marked with `~`.

use std::fmt::Write;

use super::report::{AnalyticsReport, ErrorGroup, KeyCount, WebVital};
use super::store::DailyTotal;

/// The civil (proleptic Gregorian) date of a day number since the Unix epoch, as `YYYY-MM-DD`
/// (H. Hinnant's `civil_from_days`).
pub fn iso_date(day: i64) -> String {
    let z = day + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

fn counts(out: &mut String, title: &str, rows: &[KeyCount]) {
    let _ = writeln!(out, "\n{title}");
    if rows.is_empty() {
        let _ = writeln!(out, "  (none yet)");
    }
    for row in rows {
        let _ = writeln!(out, "  {:>7}  {}", row.count, row.key);
    }
}

/// Script error groups: the count, the fingerprint and site version, and the message.
fn error_groups(out: &mut String, groups: &[ErrorGroup]) {
    let _ = writeln!(out, "\nScript errors (by fingerprint and site version)");
    if groups.is_empty() {
        let _ = writeln!(out, "  (none yet)");
    }
    for group in groups {
        let fingerprint = group.fingerprint.as_deref().unwrap_or("-");
        let version = group
            .site_version
            .map_or_else(|| "-".to_owned(), |v| v.to_string());
        let _ = writeln!(
            out,
            "  {:>7}  {fingerprint}  version {version}  {}",
            group.count, group.message
        );
    }
}

/// Rows of one kind per day: the date and the count.
fn daily_counts(out: &mut String, title: &str, days: &[DailyTotal]) {
    let _ = writeln!(out, "\n{title}");
    if days.is_empty() {
        let _ = writeln!(out, "  (none yet)");
    }
    for day in days {
        let _ = writeln!(out, "  {}  {:>7}", iso_date(day.day), day.count);
    }
}

/// Formats `mark` when a figure is wholly or partly a cookieless estimate.
fn estimate(cookieless: u64) -> &'static str {
    if cookieless > 0 { "~" } else { " " }
}

/// A p75 as the report prints it, with its rating when the metric has thresholds.
fn vital_text(vital: &WebVital) -> String {
    let value = match (vital.name.as_str(), vital.p75) {
        (_, None) => return "no samples yet (0 samples)".to_owned(),
        ("CLS", Some(v)) => format!("{v:.3}"),
        (_, Some(v)) => format!("{v:.0} ms"),
    };
    let rating = vital
        .rating
        .map(|rating| format!(", {}", rating.label()))
        .unwrap_or_default();
    format!("{value} ({} samples{rating})", vital.samples)
}

pub fn to_text(report: &AnalyticsReport) -> String {
    let mut out = match report.range {
        Some(range) => format!("Days: {}\n\n", range.describe()),
        None => String::new(),
    };
    out.push_str("Views and visitors per day (UTC)\n");
    if report.days.is_empty() {
        out.push_str("  (none yet)\n");
    } else {
        out.push_str("  date          views  visitors  counted without cookies\n");
    }
    for day in &report.days {
        let _ = writeln!(
            out,
            "  {}  {:>7} {}{:>7}  {:>7}",
            iso_date(day.day),
            day.views,
            estimate(day.cookieless_views),
            day.visitors,
            day.cookieless_views
        );
    }
    let _ = writeln!(
        out,
        "\nOrders and revenue per day (UTC, in the shop's currency)"
    );
    if report.orders.is_empty() {
        let _ = writeln!(out, "  (none yet)");
    }
    for day in &report.orders {
        let _ = writeln!(
            out,
            "  {}  {:>7} orders {:>12.2}",
            iso_date(day.day),
            day.count,
            day.sum / 100.0
        );
    }
    counts(&mut out, "Top pages", &report.top_pages);
    counts(&mut out, "Referring sites", &report.referrers);
    counts(
        &mut out,
        "Campaigns (source / medium / campaign)",
        &report.campaigns,
    );
    counts(&mut out, "Devices", &report.devices);
    counts(&mut out, "Button clicks", &report.button_clicks);
    let _ = writeln!(out, "\nForm conversion (submissions per render)");
    if report.form_conversion.is_empty() {
        let _ = writeln!(out, "  (none yet)");
    }
    for form in &report.form_conversion {
        let rate = form
            .rate
            .map_or_else(|| "n/a".to_owned(), |r| format!("{:.1}%", r * 100.0));
        let _ = writeln!(
            out,
            "  {:>7} renders {:>7} submissions {:>7}  {}",
            form.renders, form.submissions, rate, form.form_id
        );
    }
    counts(&mut out, "Top products (orders)", &report.top_products);
    daily_counts(
        &mut out,
        "Newsletter sign-ups per day (UTC)",
        &report.newsletter_signups,
    );
    error_groups(&mut out, &report.errors);
    counts(
        &mut out,
        "Plugin failures (by block type)",
        &report.plugin_failures,
    );
    let _ = writeln!(out, "\nCore Web Vitals (75th percentile)");
    for vital in &report.web_vitals {
        let _ = writeln!(out, "  {:<4} {}", vital.name, vital_text(vital));
    }
    for page in &report.page_vitals {
        let _ = writeln!(out, "  {}", page.page_path);
        for vital in &page.vitals {
            let _ = writeln!(out, "    {:<4} {}", vital.name, vital_text(vital));
        }
    }
    experiments(&mut out, &report.experiments);
    counts(
        &mut out,
        "Refused payment attempts (too many failed payments by this visitor, cart or address)",
        &report.refused_payments,
    );
    let _ = writeln!(out, "\n~ {}", report.note);
    out
}

/// Per experiment and variant: visitors (marked when some were counted without cookies),
/// conversions, the rate and the difference from the control with its 95 % interval, in
/// percentage points.
fn experiments(out: &mut String, figures: &[crate::experiments::ExperimentFigures]) {
    let _ = writeln!(
        out,
        "\nExperiments (conversions: form submissions and orders after an exposure)"
    );
    if figures.is_empty() {
        let _ = writeln!(out, "  (none yet)");
    }
    let points = |fraction: f64| format!("{:+.1}", fraction * 100.0);
    for line in figures {
        let rate = line
            .conversion_rate
            .map_or_else(|| "n/a".to_owned(), |r| format!("{:.1}%", r * 100.0));
        let difference = line.difference.as_ref().map_or_else(String::new, |d| {
            format!(
                "  {} points vs {} (95% CI {} to {})",
                points(d.difference),
                d.against,
                points(d.low),
                points(d.high)
            )
        });
        let _ = writeln!(
            out,
            "  {} / {}: {}{} visitors, {} conversions, {rate}{difference}",
            line.experiment,
            line.variant,
            estimate(line.cookieless_visitors).trim(),
            line.visitors,
            line.conversions,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analytics::{DailyViews, FormConversion, WebVital};

    #[test]
    fn days_are_iso_dates() {
        assert_eq!(iso_date(0), "1970-01-01");
        assert_eq!(iso_date(20_513), "2026-03-01");
        assert_eq!(iso_date(-1), "1969-12-31");
        assert_eq!(iso_date(11_016), "2000-02-29");
    }

    #[test]
    fn the_text_marks_cookieless_estimates() {
        let report = AnalyticsReport {
            range: Some(crate::analytics::DayRange::custom(20_513, 20_514).unwrap()),
            orders: vec![crate::analytics::DailyTotal {
                day: 20_514,
                count: 2,
                sum: 4599.0,
            }],
            page_vitals: vec![crate::analytics::PageVitals {
                page_path: "/shop".into(),
                vitals: vec![WebVital {
                    name: "LCP".into(),
                    p75: Some(4100.0),
                    samples: 3,
                    rating: Some(crate::analytics::VitalRating::Poor),
                }],
            }],
            days: vec![
                DailyViews {
                    day: 20_513,
                    views: 12,
                    visitors: 5,
                    cookieless_views: 3,
                },
                DailyViews {
                    day: 20_514,
                    views: 2,
                    visitors: 1,
                    cookieless_views: 0,
                },
            ],
            top_pages: vec![KeyCount {
                key: "/shop".into(),
                count: 9,
            }],
            referrers: vec![],
            button_clicks: vec![KeyCount {
                key: "Shop now".into(),
                count: 2,
            }],
            form_conversion: vec![FormConversion {
                form_id: "contact".into(),
                renders: 4,
                submissions: 1,
                rate: Some(0.25),
            }],
            campaigns: vec![KeyCount {
                key: "newsletter / email / spring".into(),
                count: 4,
            }],
            devices: vec![
                KeyCount {
                    key: "mobile".into(),
                    count: 8,
                },
                KeyCount {
                    key: "desktop".into(),
                    count: 6,
                },
            ],
            top_products: vec![KeyCount {
                key: "Ceramic mug".into(),
                count: 2,
            }],
            newsletter_signups: vec![DailyTotal {
                day: 20_513,
                count: 3,
                sum: 0.0,
            }],
            errors: vec![ErrorGroup {
                fingerprint: Some("0a1b2c3d4e5f6a7b".into()),
                site_version: Some(7),
                message: "TypeError: cart is undefined".into(),
                count: 5,
            }],
            plugin_failures: vec![],
            web_vitals: vec![
                WebVital {
                    name: "LCP".into(),
                    p75: Some(1234.4),
                    samples: 8,
                    rating: Some(crate::analytics::VitalRating::Good),
                },
                WebVital {
                    name: "CLS".into(),
                    p75: Some(0.05),
                    samples: 8,
                    rating: Some(crate::analytics::VitalRating::Good),
                },
                WebVital {
                    name: "INP".into(),
                    p75: None,
                    samples: 0,
                    rating: None,
                },
            ],
            experiments: vec![
                crate::experiments::ExperimentFigures {
                    experiment: "home-headline".into(),
                    variant: "control".into(),
                    visitors: 100,
                    cookieless_visitors: 0,
                    conversions: 5,
                    conversion_rate: Some(0.05),
                    difference: None,
                },
                crate::experiments::ExperimentFigures {
                    experiment: "home-headline".into(),
                    variant: "warm".into(),
                    visitors: 100,
                    cookieless_visitors: 10,
                    conversions: 10,
                    conversion_rate: Some(0.1),
                    difference: Some(crate::experiments::RateDifference {
                        against: "control".into(),
                        difference: 0.05,
                        low: -0.0205,
                        high: 0.1205,
                    }),
                },
            ],
            refused_payments: vec![KeyCount {
                key: "address".into(),
                count: 3,
            }],
            note: "estimates",
        };
        expect_test::expect![[r#"
            Days: 2026-03-01 to 2026-03-02

            Views and visitors per day (UTC)
              date          views  visitors  counted without cookies
              2026-03-01       12 ~      5        3
              2026-03-02        2        1        0

            Orders and revenue per day (UTC, in the shop's currency)
              2026-03-02        2 orders        45.99

            Top pages
                    9  /shop

            Referring sites
              (none yet)

            Campaigns (source / medium / campaign)
                    4  newsletter / email / spring

            Devices
                    8  mobile
                    6  desktop

            Button clicks
                    2  Shop now

            Form conversion (submissions per render)
                    4 renders       1 submissions   25.0%  contact

            Top products (orders)
                    2  Ceramic mug

            Newsletter sign-ups per day (UTC)
              2026-03-01        3

            Script errors (by fingerprint and site version)
                    5  0a1b2c3d4e5f6a7b  version 7  TypeError: cart is undefined

            Plugin failures (by block type)
              (none yet)

            Core Web Vitals (75th percentile)
              LCP  1234 ms (8 samples, good)
              CLS  0.050 (8 samples, good)
              INP  no samples yet (0 samples)
              /shop
                LCP  4100 ms (3 samples, poor)

            Experiments (conversions: form submissions and orders after an exposure)
              home-headline / control: 100 visitors, 5 conversions, 5.0%
              home-headline / warm: ~100 visitors, 10 conversions, 10.0%  +5.0 points vs control (95% CI -2.1 to +12.0)

            Refused payment attempts (too many failed payments by this visitor, cart or address)
                    3  address

            ~ estimates
        "#]]
        .assert_eq(&to_text(&report));
    }
}
