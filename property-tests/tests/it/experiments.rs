//! The one bucketing: a visitor's bucket and variant are stable, 100,000 visitor ids spread
//! over the variants within 1 % of their weights, and the buckets of two experiments are
//! independent (knowing a visitor's variant in one says nothing of the other).

use proptest::prelude::*;
use vitrine_core::experiments::fixtures::visitor;
use vitrine_core::experiments::{
    BUCKETS, Experiment, ExperimentType, Experiments, Variant, assign_all, bucket, pick_variant,
};

/// How many visitor ids the distribution checks use.
const VISITORS: u32 = 100_000;

/// Visitor ids shaped like the visitor cookie's (32 hex digits), distinct and deterministic.
fn visitor_id(n: u32) -> String {
    format!(
        "{:08x}{:024x}",
        n,
        u128::from(n).wrapping_mul(0x9e37_79b9_7f4a_7c15)
    )
}

fn experiment(name: &str, weights: &[u32]) -> Experiment {
    Experiment {
        name: name.to_owned(),
        experiment_type: ExperimentType::AbTest,
        variants: weights
            .iter()
            .enumerate()
            .map(|(index, weight)| Variant {
                name: format!("v{index}"),
                weight: *weight,
                changes: Vec::new(),
            })
            .collect(),
        segment: None,
        pages: Vec::new(),
    }
}

/// Share of each variant over the visitors, by the weights.
fn shares(name: &str, weights: &[u32]) -> Vec<f64> {
    let mut counts = vec![0u32; weights.len()];
    for n in 0..VISITORS {
        let index = pick_variant(bucket(name, &visitor_id(n)), weights).expect("positive weights");
        counts[index] += 1;
    }
    counts
        .into_iter()
        .map(|count| f64::from(count) / f64::from(VISITORS))
        .collect()
}

proptest! {
    #[test]
    fn a_visitors_bucket_and_variant_never_change(
        name in "[a-z0-9._-]{1,64}",
        id in "[0-9a-f-]{1,64}",
        weights in proptest::collection::vec(0u32..1000, 1..6),
    ) {
        prop_assume!(weights.iter().any(|weight| *weight > 0));
        let first = bucket(&name, &id);
        prop_assert!(first < BUCKETS);
        prop_assert_eq!(first, bucket(&name, &id));
        let site = Experiments(vec![experiment(&name, &weights)]);
        let once = assign_all(&site, "/", &visitor(&id));
        prop_assert_eq!(&once, &assign_all(&site, "/", &visitor(&id)));
        let chosen = &once[0].context.variant;
        let index: usize = chosen.trim_start_matches('v').parse().unwrap();
        prop_assert!(weights[index] > 0, "a variant of weight 0 is never shown");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4, ..ProptestConfig::default() })]

    #[test]
    fn visitors_spread_over_the_variants_within_one_percent_of_their_weights(
        name in "[a-z][a-z0-9-]{0,30}",
        weights in proptest::collection::vec(1u32..100, 2..5),
    ) {
        let total: u32 = weights.iter().sum();
        for (share, weight) in shares(&name, &weights).iter().zip(&weights) {
            let expected = f64::from(*weight) / f64::from(total);
            prop_assert!((share - expected).abs() <= 0.01, "{share} for {expected} ({weights:?})");
        }
    }
}

#[test]
fn buckets_are_uniform_within_one_percent_over_100000_ids() {
    let mut tenths = [0u32; 10];
    for n in 0..VISITORS {
        tenths[usize::from(bucket("home-headline", &visitor_id(n)) / 1000)] += 1;
    }
    for (tenth, count) in tenths.iter().enumerate() {
        let share = f64::from(*count) / f64::from(VISITORS);
        assert!((share - 0.1).abs() <= 0.01, "tenth {tenth} holds {share}");
    }
}

#[test]
fn two_experiments_bucket_independently() {
    // Each cell of the 2 x 2 table of (variant in one, variant in the other) holds a quarter
    // of the visitors, as it would if the two were drawn apart.
    let mut cells = [[0u32; 2]; 2];
    for n in 0..VISITORS {
        let id = visitor_id(n);
        let a = pick_variant(bucket("home-headline", &id), &[50, 50]).unwrap();
        let b = pick_variant(bucket("free-shipping-note", &id), &[50, 50]).unwrap();
        cells[a][b] += 1;
    }
    for (a, row) in cells.iter().enumerate() {
        for (b, count) in row.iter().enumerate() {
            let share = f64::from(*count) / f64::from(VISITORS);
            assert!(
                (share - 0.25).abs() <= 0.01,
                "cell ({a}, {b}) holds {share}"
            );
        }
    }
    let same_bucket = (0..VISITORS)
        .filter(|n| {
            let id = visitor_id(*n);
            bucket("home-headline", &id) == bucket("free-shipping-note", &id)
        })
        .count();
    assert!(
        same_bucket < 50,
        "{same_bucket} visitors share a bucket in both"
    );
}
