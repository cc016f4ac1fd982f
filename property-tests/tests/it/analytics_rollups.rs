//! The dashboard's daily roll-ups, added up batch by batch as a store writes them, equal the
//! figures counted over all the raw rows at once, however the rows are split into batches.

use std::collections::{BTreeMap, BTreeSet};

use proptest::prelude::*;
use vitrine_core::analytics::{
    Counted, PAGE_VIEW, ReportKey, StoredHit, day_counts, day_number, page_view_visitors,
};

const DAY_MS: i64 = 86_400_000;

prop_compose! {
    fn row()(
        kind in prop_oneof![Just(PAGE_VIEW), Just("order"), Just("button-click")],
        visitor in proptest::option::weighted(0.9, "[a-d]"),
        cookieless in any::<bool>(),
        day in 0i64..3,
        at in 0i64..DAY_MS,
        page in proptest::option::of("/[a-c]?"),
        subject in proptest::option::of("[xy]"),
        value in proptest::option::of(0u16..1_000),
        device in proptest::option::of(prop_oneof![Just("mobile"), Just("desktop")]),
    ) -> StoredHit {
        StoredHit {
            kind: kind.to_owned(),
            visitor_key: visitor,
            cookieless,
            page_path: page,
            recorded_at_ms: day * DAY_MS + at,
            subject,
            metric_value: value.map(f64::from),
            device: device.map(str::to_owned),
            ..StoredHit::default()
        }
    }
}

type Totals = BTreeMap<(String, &'static str, i64, String), (u64, f64)>;

/// What a store holds after writing `batches` one after another: the remembered visitors
/// decide which of a batch's visitors are new, as the visitors table does.
fn rolled_up(batches: &[Vec<StoredHit>]) -> Totals {
    let mut remembered: BTreeSet<(i64, String)> = BTreeSet::new();
    let mut totals = Totals::new();
    for batch in batches {
        let mut new_visitors = BTreeMap::new();
        for (day, visitor) in page_view_visitors(batch) {
            if remembered.insert((day, visitor.to_owned())) {
                *new_visitors.entry(day).or_insert(0) += 1;
            }
        }
        for count in day_counts(batch, &new_visitors) {
            let key = (
                count.kind.to_owned(),
                count.counted.name(),
                count.day,
                count.label.to_owned(),
            );
            let total = totals.entry(key).or_default();
            total.0 += count.n;
            total.1 += count.sum;
        }
    }
    totals
}

/// The reference: each figure counted straight from every row.
fn counted_directly(rows: &[StoredHit]) -> Totals {
    let mut totals = Totals::new();
    let mut add = |row: &StoredHit, counted: Counted, label: &str| {
        let day = day_number(row.recorded_at_ms);
        let key = (row.kind.clone(), counted.name(), day, label.to_owned());
        let total = totals.entry(key).or_default();
        total.0 += 1;
        total.1 += row.metric_value.unwrap_or(0.0);
    };
    for row in rows {
        add(row, Counted::Rows, "");
        if row.cookieless {
            add(row, Counted::CookielessRows, "");
        }
        for (key, label) in [
            (ReportKey::PagePath, &row.page_path),
            (ReportKey::Subject, &row.subject),
            (ReportKey::Campaign, &row.campaign),
            (ReportKey::Device, &row.device),
        ] {
            if let Some(label) = label {
                add(row, Counted::Key(key), label);
            }
        }
    }
    let visitors: BTreeSet<(i64, &str)> = rows
        .iter()
        .filter(|row| row.kind == PAGE_VIEW)
        .filter_map(|row| Some((day_number(row.recorded_at_ms), row.visitor_key.as_deref()?)))
        .collect();
    for (day, _) in visitors {
        let key = (
            PAGE_VIEW.to_owned(),
            Counted::Visitors.name(),
            day,
            String::new(),
        );
        totals.entry(key).or_default().0 += 1;
    }
    totals
}

proptest! {
    #[test]
    fn roll_ups_added_batch_by_batch_equal_the_raw_rows(
        rows in proptest::collection::vec(row(), 0..60),
        cuts in proptest::collection::vec(0usize..60, 0..6),
    ) {
        let mut cuts: Vec<usize> = cuts.into_iter().map(|cut| cut.min(rows.len())).collect();
        cuts.push(0);
        cuts.push(rows.len());
        cuts.sort_unstable();
        let batches: Vec<Vec<StoredHit>> =
            cuts.windows(2).map(|pair| rows[pair[0]..pair[1]].to_vec()).collect();
        prop_assert_eq!(rolled_up(&batches), counted_directly(&rows));
    }
}
