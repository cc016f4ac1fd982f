//! The calendar block: one table per month of its span (see `calendar_months`), each with links
//! to the months before and after. The links are in-page anchors and styles show the targeted
//! month (the opening one, normally the current month, when none is), so moving between months
//! needs no script and the page stays one cached document; without styles every month is
//! listed. The current month comes from the page service's clock, and the page cache keys pages
//! by that clock's day, so a cached calendar never opens on last month.

use askama::Template;
use vitrine_core::site::{BlockId, CalendarBlock, YearMonth, calendar_months};

use crate::render::items::item_path;
use crate::render::scope::RenderScope;

const WEEKDAYS: [(&str, &str); 7] = [
    ("Mon", "Monday"),
    ("Tue", "Tuesday"),
    ("Wed", "Wednesday"),
    ("Thu", "Thursday"),
    ("Fri", "Friday"),
    ("Sat", "Saturday"),
    ("Sun", "Sunday"),
];

#[derive(Debug, Template)]
#[template(path = "blocks/calendar.html", whitespace = "minimize")]
pub(crate) struct CalendarView<'a> {
    pub(crate) title: Option<&'a str>,
    pub(crate) weekdays: [(&'static str, &'static str); 7],
    pub(crate) months: Vec<MonthView<'a>>,
}

#[derive(Debug)]
pub(crate) struct MonthView<'a> {
    /// The anchor of this month, `calendar-<block>-2027-05`.
    pub(crate) anchor: String,
    pub(crate) name: String,
    /// The month shown when no month is targeted: the current one, or the owner's choice.
    pub(crate) opening: bool,
    pub(crate) previous: Option<(String, String)>,
    pub(crate) next: Option<(String, String)>,
    pub(crate) weeks: Vec<[Option<DayView<'a>>; 7]>,
}

#[derive(Debug, Clone)]
pub(crate) struct DayView<'a> {
    pub(crate) day: u8,
    pub(crate) entries: Vec<EntryView<'a>>,
}

#[derive(Debug, Clone)]
pub(crate) struct EntryView<'a> {
    pub(crate) title: &'a str,
    pub(crate) href: String,
}

impl<'a> CalendarView<'a> {
    pub(crate) fn new(scope: &RenderScope<'a>, id: &'a BlockId, block: &'a CalendarBlock) -> Self {
        let dated: Vec<(i64, EntryView<'a>)> = scope
            .view
            .resolved
            .calendars
            .get(id)
            .map(|content| {
                content
                    .items
                    .iter()
                    .map(|item| {
                        let entry = EntryView {
                            title: &item.title,
                            href: scope.page_href(item_path(&content.collection, item)),
                        };
                        (item.published_on, entry)
                    })
                    .collect()
            })
            .unwrap_or_default();
        let anchor = |month: YearMonth| format!("calendar-{id}-{month}");
        let name = |month: YearMonth| format!("{} {}", month.month(), month.year());
        let grid = calendar_months(
            &dated,
            block.opening_month,
            scope.view.resolved.current_month,
        );
        let first = grid.months.first().map(|month| month.month);
        let last = grid.months.last().map(|month| month.month);
        let opening = grid.opening;
        let months = grid
            .months
            .into_iter()
            .map(|month| {
                let here = month.month;
                let link = |other: YearMonth| (anchor(other), name(other));
                MonthView {
                    anchor: anchor(here),
                    name: name(here),
                    opening: here == opening,
                    previous: (Some(here) != first).then(|| link(here.previous())),
                    next: (Some(here) != last).then(|| link(here.next())),
                    weeks: month
                        .weeks
                        .into_iter()
                        .map(|week| {
                            week.map(|day| {
                                day.map(|day| DayView {
                                    day: day.day,
                                    entries: day.entries,
                                })
                            })
                        })
                        .collect(),
                }
            })
            .collect();
        Self {
            title: block
                .title
                .as_deref()
                .filter(|title| !title.trim().is_empty()),
            weekdays: WEEKDAYS,
            months,
        }
    }
}
