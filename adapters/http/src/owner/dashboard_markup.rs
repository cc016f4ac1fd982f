//! The HTML of the owner's dashboard: the range picker, the totals against the previous
//! range, and one table per figure. Tables are the dashboard without JavaScript and every
//! chart's accessible alternative: a table marked `data-chart` names the columns to draw
//! (`data-series` on their headers), and each row carries its day and each cell its raw
//! value, so the script draws exactly the numbers the table shows.

use std::fmt::Write;

use vitrine_core::analytics::{
    COOKIELESS_NOTE, Dashboard, DayRange, FormConversion, KeyCount, PeriodTotals, RangePreset,
    WebVital, iso_date,
};

use crate::render::PageAssets;
use crate::shared::request_parts::escape_html as escape;

/// What the dashboard answers when the analytics cannot be read.
pub(super) const UNAVAILABLE: &str = "The dashboard is unavailable. Please try again in a moment.";

/// The range as the request gave it, to show the picker as the owner left it, and the page
/// the picker reloads: the dashboard's own page, or `/config/` with its preview frame's
/// address kept.
pub(super) struct RangeForm<'a> {
    pub range: Option<&'a str>,
    pub from: Option<&'a str>,
    pub to: Option<&'a str>,
    pub action: &'a str,
    pub frame_url: Option<&'a str>,
}

impl RangeForm<'_> {
    /// The picker's link to a preset range, keeping the preview frame's address.
    fn preset_href(&self, preset: RangePreset) -> String {
        let mut query = url::form_urlencoded::Serializer::new(String::new());
        query.append_pair("range", preset.wire());
        if let Some(frame) = self.frame_url {
            query.append_pair("frameUrl", frame);
        }
        format!("{}?{}", self.action, query.finish())
    }

    fn hidden_frame(&self) -> String {
        self.frame_url
            .map(|frame| {
                format!(
                    "<input type=\"hidden\" name=\"frameUrl\" value=\"{}\">",
                    escape(frame)
                )
            })
            .unwrap_or_default()
    }
}

/// The dashboard script and its styles.
pub(super) fn head(assets: &PageAssets) -> String {
    let mut head = String::new();
    for href in &assets.stylesheets {
        let _ = write!(head, "<link rel=\"stylesheet\" href=\"{}\">", escape(href));
    }
    for href in &assets.module_preloads {
        let _ = write!(
            head,
            "<link rel=\"modulepreload\" href=\"{}\">",
            escape(href)
        );
    }
    for src in &assets.module_scripts {
        let _ = write!(
            head,
            "<script type=\"module\" src=\"{}\"></script>",
            escape(src)
        );
    }
    head
}

fn picker(form: &RangeForm<'_>) -> String {
    let chosen = form.range.unwrap_or(RangePreset::Last7Days.wire());
    let presets: String = RangePreset::ALL
        .iter()
        .map(|preset| {
            let current = if preset.wire() == chosen {
                " aria-current=\"page\""
            } else {
                ""
            };
            format!(
                "<li><a href=\"{href}\"{current}>{label}</a></li>",
                href = escape(&form.preset_href(*preset)),
                label = preset.label(),
            )
        })
        .collect();
    format!(
        "<nav aria-label=\"Range\"><ul class=\"dashboard-ranges\">{presets}</ul></nav>\
         <form method=\"get\" action=\"{action}\" class=\"dashboard-custom\">\
         <input type=\"hidden\" name=\"range\" value=\"custom\">{frame}\
         <label for=\"dashboard-from\">From</label> \
         <input id=\"dashboard-from\" name=\"from\" type=\"date\" required value=\"{from}\"> \
         <label for=\"dashboard-to\">To</label> \
         <input id=\"dashboard-to\" name=\"to\" type=\"date\" required value=\"{to}\"> \
         <button type=\"submit\">Show these days</button></form>",
        action = escape(form.action),
        frame = form.hidden_frame(),
        from = escape(form.from.unwrap_or_default()),
        to = escape(form.to.unwrap_or_default()),
    )
}

fn frame(body: &str) -> String {
    format!(
        "<header class=\"owner-bar\" aria-label=\"Owner area\">\
         <p><a href=\"/config/\">Back to the owner area</a></p></header>\
         <main class=\"owner-dashboard\" aria-labelledby=\"dashboard-title\">\
         <h1 id=\"dashboard-title\">Dashboard</h1>{body}</main>"
    )
}

/// The page for a range that does not parse: the picker and why.
pub(super) fn invalid_range(form: &RangeForm<'_>, error: &str) -> String {
    frame(&invalid_range_body(form, error))
}

/// Why a range does not parse, above the picker to choose another.
pub(super) fn invalid_range_body(form: &RangeForm<'_>, error: &str) -> String {
    format!("{}{}", super::markup::alert(Some(error)), picker(form))
}

pub(super) fn money(cents: f64) -> String {
    format!("{:.2}", cents / 100.0)
}

fn change(value: Option<f64>) -> String {
    match value {
        Some(percent) => format!("{percent:+.1} %"),
        None => "new".to_owned(),
    }
}

fn totals(dashboard: &Dashboard) -> String {
    let none = PeriodTotals::default();
    let previous = dashboard.previous_totals.as_ref().unwrap_or(&none);
    let changes = dashboard.changes.unwrap_or_default();
    let current = &dashboard.totals;
    let rows = [
        (
            "Page views",
            current.views.to_string(),
            previous.views.to_string(),
            changes.views,
        ),
        (
            "Visitors (daily, summed)",
            current.visitors.to_string(),
            previous.visitors.to_string(),
            changes.visitors,
        ),
        (
            "Orders",
            current.orders.to_string(),
            previous.orders.to_string(),
            changes.orders,
        ),
        (
            "Revenue",
            money(current.revenue_cents as f64),
            money(previous.revenue_cents as f64),
            changes.revenue,
        ),
    ];
    let body: String = rows
        .iter()
        .map(|(name, now, before, delta)| {
            format!(
                "<tr><th scope=\"row\">{name}</th><td>{now}</td><td>{before}</td><td>{}</td></tr>",
                change(*delta)
            )
        })
        .collect();
    format!(
        "<section aria-labelledby=\"dashboard-totals\"><h2 id=\"dashboard-totals\">At a glance</h2>\
         <table class=\"dashboard-totals\"><thead><tr><th scope=\"col\">Figure</th>\
         <th scope=\"col\">This range</th><th scope=\"col\">Previous range</th>\
         <th scope=\"col\">Change</th></tr></thead><tbody>{body}</tbody></table></section>"
    )
}

/// A section with a chart over the days of the range and its table. `columns` are the
/// headers after the date, each with whether the chart draws it; `cells` gives a day's
/// (shown text, raw value) per column.
pub(super) fn daily_chart(
    id: &str,
    title: &str,
    range: DayRange,
    columns: &[(&str, bool)],
    cells: impl Fn(i64) -> Vec<(String, f64)>,
    note: &str,
) -> String {
    let headers: String = columns
        .iter()
        .map(|(name, drawn)| {
            let series = if *drawn { " data-series" } else { "" };
            format!("<th scope=\"col\"{series}>{}</th>", escape(name))
        })
        .collect();
    let mut rows = String::new();
    for day in range.days() {
        let _ = write!(
            rows,
            "<tr data-day=\"{day}\"><th scope=\"row\">{}</th>",
            iso_date(day)
        );
        for (shown, value) in cells(day) {
            let _ = write!(rows, "<td data-value=\"{value}\">{}</td>", escape(&shown));
        }
        rows.push_str("</tr>");
    }
    format!(
        "<section aria-labelledby=\"{id}-title\"><h2 id=\"{id}-title\">{title}</h2>\
         <figure class=\"dashboard-chart\" data-chart-for=\"{id}-table\" hidden></figure>\
         <div class=\"dashboard-scroll\" tabindex=\"0\" role=\"region\" aria-labelledby=\"{id}-caption\">\
         <table id=\"{id}-table\" data-chart=\"line\">\
         <caption id=\"{id}-caption\">{title}, one row per day (UTC)</caption>\
         <thead><tr><th scope=\"col\">Date</th>{headers}</tr></thead><tbody>{rows}</tbody>\
         </table></div>{note}</section>",
        title = escape(title),
    )
}

pub(super) fn counts_table(id: &str, title: &str, key: &str, counts: &[KeyCount]) -> String {
    let key = escape(key);
    let body = if counts.is_empty() {
        "<p>Nothing in this range.</p>".to_owned()
    } else {
        let rows: String = counts
            .iter()
            .map(|row| {
                format!(
                    "<tr><th scope=\"row\">{}</th><td>{}</td></tr>",
                    escape(&row.key),
                    row.count
                )
            })
            .collect();
        format!(
            "<table><thead><tr><th scope=\"col\">{key}</th><th scope=\"col\">Count</th></tr>\
             </thead><tbody>{rows}</tbody></table>"
        )
    };
    format!(
        "<section aria-labelledby=\"{id}\"><h2 id=\"{id}\">{title}</h2>{body}</section>",
        title = escape(title),
    )
}

fn form_conversion(forms: &[FormConversion]) -> String {
    let body = if forms.is_empty() {
        "<p>Nothing in this range.</p>".to_owned()
    } else {
        let rows: String = forms
            .iter()
            .map(|form| {
                let rate = form.rate.map_or("not measured".to_owned(), |rate| {
                    format!("{:.1} %", rate * 100.0)
                });
                format!(
                    "<tr><th scope=\"row\">{}</th><td>{}</td><td>{}</td><td>{rate}</td></tr>",
                    escape(&form.form_id),
                    form.renders,
                    form.submissions
                )
            })
            .collect();
        format!(
            "<table><thead><tr><th scope=\"col\">Form</th><th scope=\"col\">Shown</th>\
             <th scope=\"col\">Submitted</th><th scope=\"col\">Conversion</th></tr></thead>\
             <tbody>{rows}</tbody></table>"
        )
    };
    format!(
        "<section aria-labelledby=\"dashboard-forms\"><h2 id=\"dashboard-forms\">Form conversion</h2>\
         {body}</section>"
    )
}

fn vital_cells(vitals: &[WebVital]) -> String {
    vitals
        .iter()
        .map(|vital| match (vital.p75, vital.rating) {
            (Some(p75), Some(rating)) => {
                let shown = if vital.name == "CLS" {
                    format!("{p75:.2}")
                } else {
                    format!("{p75:.0} ms")
                };
                format!(
                    "<td class=\"vital-{class}\">{shown} ({label}, {samples} samples)</td>",
                    class = rating_class(rating.label()),
                    label = rating.label(),
                    samples = vital.samples,
                )
            }
            _ => "<td>no samples</td>".to_owned(),
        })
        .collect()
}

fn rating_class(label: &str) -> String {
    label.replace(' ', "-")
}

fn web_vitals(dashboard: &Dashboard) -> String {
    let report = &dashboard.report;
    let headers: String = report
        .web_vitals
        .iter()
        .map(|vital| format!("<th scope=\"col\">{} p75</th>", escape(&vital.name)))
        .collect();
    let mut rows = format!(
        "<tr><th scope=\"row\">Every page</th>{}</tr>",
        vital_cells(&report.web_vitals)
    );
    for page in &report.page_vitals {
        let _ = write!(
            rows,
            "<tr><th scope=\"row\">{}</th>{}</tr>",
            escape(&page.page_path),
            vital_cells(&page.vitals)
        );
    }
    format!(
        "<section aria-labelledby=\"dashboard-vitals\"><h2 id=\"dashboard-vitals\">Core Web Vitals</h2>\
         <p>The 75th percentile of each page's visits, rated against the thresholds: LCP good up \
         to 2500 ms, poor above 4000 ms; INP good up to 200 ms, poor above 500 ms; CLS good up \
         to 0.1, poor above 0.25.</p>\
         <table><thead><tr><th scope=\"col\">Page</th>{headers}</tr></thead><tbody>{rows}</tbody>\
         </table></section>"
    )
}

fn experiments(dashboard: &Dashboard) -> String {
    let figures = &dashboard.report.experiments;
    if figures.is_empty() {
        return String::new();
    }
    let rows: String = figures
        .iter()
        .map(|line| {
            let rate = line
                .conversion_rate
                .map_or("none yet".to_owned(), |rate| format!("{:.1} %", rate * 100.0));
            let against = line.difference.as_ref().map_or("control".to_owned(), |d| {
                format!(
                    "{:+.1} points against {} (95 %: {:+.1} to {:+.1})",
                    d.difference * 100.0,
                    escape(&d.against),
                    d.low * 100.0,
                    d.high * 100.0
                )
            });
            format!(
                "<tr><th scope=\"row\">{} / {}</th><td>{}</td><td>{}</td><td>{rate}</td><td>{against}</td></tr>",
                escape(&line.experiment),
                escape(&line.variant),
                line.visitors,
                line.conversions,
            )
        })
        .collect();
    format!(
        "<section aria-labelledby=\"dashboard-experiments\"><h2 id=\"dashboard-experiments\">Experiments</h2>\
         <table><thead><tr><th scope=\"col\">Experiment / variant</th><th scope=\"col\">Visitors</th>\
         <th scope=\"col\">Conversions</th><th scope=\"col\">Rate</th><th scope=\"col\">Difference</th>\
         </tr></thead><tbody>{rows}</tbody></table></section>"
    )
}

/// The whole dashboard of a range, as its own page.
pub(super) fn dashboard(form: &RangeForm<'_>, dashboard: &Dashboard) -> String {
    frame(&dashboard_body(form, dashboard))
}

/// Every figure of the dashboard of a range: what its page and `/config/` show.
pub(super) fn dashboard_body(form: &RangeForm<'_>, dashboard: &Dashboard) -> String {
    let report = &dashboard.report;
    let range = report.range.unwrap_or(DayRange::ALL);
    let compared = dashboard
        .previous_range
        .map(|previous| format!(", compared with {}", previous.describe()))
        .unwrap_or_default();
    let traffic = daily_chart(
        "dashboard-traffic",
        "Visitors and page views per day",
        range,
        &[
            ("Page views", true),
            ("Visitors", true),
            ("Counted without cookies", false),
        ],
        |day| {
            let found = report.days.iter().find(|d| d.day == day);
            let views = found.map_or(0, |d| d.views);
            let visitors = found.map_or(0, |d| d.visitors);
            let cookieless = found.map_or(0, |d| d.cookieless_views);
            // A day with cookieless views has estimated visitors, marked like the report's `~`.
            let mark = if cookieless > 0 { "~" } else { "" };
            vec![
                (views.to_string(), views as f64),
                (format!("{mark}{visitors}"), visitors as f64),
                (cookieless.to_string(), cookieless as f64),
            ]
        },
        &format!(
            "<p class=\"dashboard-note\">~ marks an estimate. {}</p>",
            escape(COOKIELESS_NOTE)
        ),
    );
    let orders = daily_chart(
        "dashboard-orders",
        "Orders and revenue per day",
        range,
        &[("Orders", true), ("Revenue", true)],
        |day| {
            let found = report.orders.iter().find(|d| d.day == day);
            let count = found.map_or(0, |d| d.count);
            let sum = found.map_or(0.0, |d| d.sum);
            vec![(count.to_string(), count as f64), (money(sum), sum / 100.0)]
        },
        "<p class=\"dashboard-note\">Revenue is order totals in the shop's currency.</p>",
    );
    format!(
        "<p>{described}{compared}.</p>{picker}{totals}{traffic}{orders}{pages}{referrers}\
         {campaigns}{devices}{clicks}{forms}{products}{signups}{vitals}{errors}{plugins}\
         {experiments}",
        described = escape(&range.describe()),
        compared = escape(&compared),
        picker = picker(form),
        totals = totals(dashboard),
        pages = counts_table("dashboard-pages", "Top pages", "Page", &report.top_pages),
        referrers = counts_table(
            "dashboard-referrers",
            "Referring sites",
            "Site",
            &report.referrers
        ),
        campaigns = super::dashboard_figures::campaigns(report),
        devices = super::dashboard_figures::devices(report),
        clicks = counts_table(
            "dashboard-clicks",
            "Button clicks",
            "Button",
            &report.button_clicks
        ),
        forms = form_conversion(&report.form_conversion),
        products = super::dashboard_figures::top_products(report),
        signups = super::dashboard_figures::newsletter_signups(report, range),
        vitals = web_vitals(dashboard),
        errors = super::dashboard_figures::script_errors(report),
        plugins = super::dashboard_figures::plugin_failures(report),
        experiments = experiments(dashboard),
    )
}
