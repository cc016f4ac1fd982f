//! Daily roll-ups of census rows: what a batch adds to each day's counts, so the dashboard's
//! per-day figures and top lists read a few rows a day and key instead of every row of the
//! range. A store writes them in the batch's transaction, beside the raw rows they count.

use std::collections::{BTreeMap, BTreeSet};

use super::cookieless::day_number;
use super::report::ReportKey;
use super::store::{PAGE_VIEW, StoredHit};

/// What one of a day's counts counts, among the rows of a kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Counted {
    /// Every row.
    Rows,
    /// The rows counted without cookies (by the daily cookieless hash).
    CookielessRows,
    /// Distinct visitors of the day's page views (only kept for [`PAGE_VIEW`]).
    Visitors,
    /// The rows with one value of a key (page path, subject, campaign or device class).
    Key(ReportKey),
}

impl Counted {
    /// The name a store keeps the count under.
    pub fn name(self) -> &'static str {
        match self {
            Self::Rows => "rows",
            Self::CookielessRows => "cookieless",
            Self::Visitors => "visitors",
            Self::Key(ReportKey::PagePath) => "page_path",
            Self::Key(ReportKey::Subject) => "subject",
            Self::Key(ReportKey::Campaign) => "campaign",
            Self::Key(ReportKey::Device) => "device",
        }
    }
}

/// What a batch adds to one count: `n` rows (or new visitors) of `kind` on `day` with `label`
/// (the key's value; empty for the counts that have none), whose metric values sum to `sum`.
#[derive(Debug, Clone, PartialEq)]
pub struct DayCount<'a> {
    pub kind: &'a str,
    pub counted: Counted,
    pub day: i64,
    pub label: &'a str,
    pub n: u64,
    pub sum: f64,
}

/// The distinct `(day, visitor key)` pairs of a batch's page views, in order: the visitors a
/// store remembers per day so that a visitor seen again later that day is not counted twice.
pub fn page_view_visitors(rows: &[StoredHit]) -> BTreeSet<(i64, &str)> {
    rows.iter()
        .filter(|row| row.kind == PAGE_VIEW)
        .filter_map(|row| Some((day_number(row.recorded_at_ms), row.visitor_key.as_deref()?)))
        .collect()
}

/// What a batch adds to each count, given how many of its page-view visitors are new to
/// their day (`new_visitors`, by day: those the store had not yet counted). One entry per
/// count, ordered by kind, name, day and label, so that writers that add to the same counts
/// take their locks in the same order.
pub fn day_counts<'a>(
    rows: &'a [StoredHit],
    new_visitors: &BTreeMap<i64, u64>,
) -> Vec<DayCount<'a>> {
    let mut counts: BTreeMap<(&str, &str, i64, &str), DayCount<'a>> = BTreeMap::new();
    let mut add = |kind: &'a str, counted: Counted, day: i64, label: &'a str, n: u64, sum| {
        let count = counts
            .entry((kind, counted.name(), day, label))
            .or_insert(DayCount {
                kind,
                counted,
                day,
                label,
                n: 0,
                sum: 0.0,
            });
        count.n += n;
        count.sum += sum;
    };
    for row in rows {
        let day = day_number(row.recorded_at_ms);
        let value = row.metric_value.unwrap_or(0.0);
        add(&row.kind, Counted::Rows, day, "", 1, value);
        if row.cookieless {
            add(&row.kind, Counted::CookielessRows, day, "", 1, value);
        }
        let keyed = [
            (ReportKey::PagePath, &row.page_path),
            (ReportKey::Subject, &row.subject),
            (ReportKey::Campaign, &row.campaign),
            (ReportKey::Device, &row.device),
        ];
        for (key, label) in keyed {
            if let Some(label) = label {
                add(&row.kind, Counted::Key(key), day, label, 1, value);
            }
        }
    }
    for (&day, &n) in new_visitors.iter().filter(|(_, n)| **n > 0) {
        add(PAGE_VIEW, Counted::Visitors, day, "", n, 0.0);
    }
    counts.into_values().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const DAY_MS: i64 = 86_400_000;

    fn view(visitor: &str, day: i64, path: &str) -> StoredHit {
        StoredHit {
            kind: PAGE_VIEW.into(),
            visitor_key: Some(visitor.into()),
            page_path: Some(path.into()),
            recorded_at_ms: day * DAY_MS + 1_000,
            ..StoredHit::default()
        }
    }

    /// The page views' count of `counted` on `day` with `label`.
    fn find<'a>(
        counts: &'a [DayCount<'_>],
        counted: Counted,
        day: i64,
        label: &str,
    ) -> Option<&'a DayCount<'a>> {
        counts.iter().find(|count| {
            (count.kind, count.counted, count.day, count.label) == (PAGE_VIEW, counted, day, label)
        })
    }

    #[test]
    fn rows_are_counted_per_kind_day_and_key() {
        let mut order = StoredHit {
            kind: "order".into(),
            metric_value: Some(1250.0),
            subject: Some("order".into()),
            recorded_at_ms: 3 * DAY_MS,
            ..StoredHit::default()
        };
        let rows = vec![
            view("a", 3, "/"),
            view("b", 3, "/"),
            view("a", 3, "/shop"),
            view("a", 4, "/"),
            order.clone(),
            {
                order.metric_value = Some(750.0);
                order
            },
        ];
        let counts = day_counts(&rows, &BTreeMap::new());
        let views = |day| find(&counts, Counted::Rows, day, "").map(|count| count.n);
        assert_eq!((views(3), views(4)), (Some(3), Some(1)));
        let home = find(&counts, Counted::Key(ReportKey::PagePath), 3, "/").unwrap();
        assert_eq!(home.n, 2);
        let orders = counts
            .iter()
            .find(|count| count.kind == "order" && count.counted == Counted::Rows)
            .unwrap();
        assert_eq!((orders.n, orders.sum), (2, 2000.0));
        assert!(find(&counts, Counted::CookielessRows, 3, "").is_none());
        assert!(find(&counts, Counted::Visitors, 3, "").is_none());
    }

    #[test]
    fn only_new_visitors_are_added_to_a_days_visitors() {
        let rows = vec![view("a", 3, "/"), view("a", 3, "/"), view("b", 4, "/")];
        assert_eq!(
            page_view_visitors(&rows).into_iter().collect::<Vec<_>>(),
            vec![(3, "a"), (4, "b")]
        );
        let counts = day_counts(&rows, &BTreeMap::from([(3, 1), (4, 0)]));
        assert_eq!(find(&counts, Counted::Visitors, 3, "").unwrap().n, 1);
        assert!(find(&counts, Counted::Visitors, 4, "").is_none());
    }

    #[test]
    fn cookieless_rows_and_rows_without_keys_are_told_apart() {
        let mut row = view("hash", 5, "/");
        row.cookieless = true;
        row.page_path = None;
        let rows = [row];
        let counts = day_counts(&rows, &BTreeMap::new());
        let names: Vec<_> = counts.iter().map(|count| count.counted.name()).collect();
        assert_eq!(names, ["cookieless", "rows"]);
    }

    #[test]
    fn counts_come_in_the_order_writers_lock_them() {
        let rows = vec![view("b", 9, "/z"), view("a", 2, "/a"), view("c", 9, "/a")];
        let counts = day_counts(&rows, &BTreeMap::from([(9, 2), (2, 1)]));
        let keys: Vec<_> = counts
            .iter()
            .map(|count| (count.kind, count.counted.name(), count.day, count.label))
            .collect();
        let mut sorted = keys.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(keys, sorted);
    }
}
