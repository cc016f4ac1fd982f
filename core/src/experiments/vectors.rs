//! Decision vectors for the web client: buckets of many (experiment, visitor) pairs, variant
//! picks over several weightings and the gating rules' answers, written by `cargo xtask
//! codegen` to `web/src/generated/experiment-vectors.json`, so the browser's bucketing cannot
//! drift from this one.

use serde::Serialize;

use super::bucketing::{BUCKETS, bucket, pick_variant, sample_picks};
use super::gating::{mouse_position_tracking_enabled, session_replay_enabled};

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BucketVector {
    pub experiment: String,
    pub visitor_id: String,
    pub bucket: u16,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PickVector {
    pub bucket: u16,
    pub weights: Vec<u32>,
    /// The variant's index; none when the weights add up to nothing.
    pub index: Option<usize>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionReplayVector {
    pub toggle_on: bool,
    pub bucket: u16,
    pub sample_per_ten_thousand: u16,
    pub cpu_cores: Option<u32>,
    pub enabled: bool,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ExperimentVectors {
    pub buckets_count: u16,
    pub buckets: Vec<BucketVector>,
    pub picks: Vec<PickVector>,
    pub mouse_tracking: Vec<(bool, bool)>,
    pub session_replay: Vec<SessionReplayVector>,
}

/// Every vector, in a fixed order.
pub fn experiment_vectors() -> ExperimentVectors {
    let experiments = ["home-headline", "free-shipping-note", "é-unicode", "a", ""];
    let mut visitors: Vec<String> = (0..40)
        .map(|n| format!("{n:08x}-7c1e-4b2a-9d3f-{:012x}", n * 7919))
        .collect();
    visitors.extend(["", "ünïcödé visitor", "0123456789abcdef0123456789abcdef"].map(String::from));
    let buckets = experiments
        .iter()
        .flat_map(|experiment| {
            visitors.iter().map(move |visitor| BucketVector {
                experiment: (*experiment).to_owned(),
                visitor_id: visitor.clone(),
                bucket: bucket(experiment, visitor),
            })
        })
        .collect();
    let weightings: [&[u32]; 6] = [
        &[50, 50],
        &[1, 1, 1],
        &[90, 10],
        &[0, 100],
        &[0, 0],
        &[1_000_000],
    ];
    let picks = weightings
        .iter()
        .flat_map(|weights| {
            [
                0,
                1,
                999,
                3333,
                3334,
                4999,
                5000,
                6666,
                6667,
                8999,
                9000,
                BUCKETS - 1,
            ]
            .into_iter()
            .map(|bucket| PickVector {
                bucket,
                weights: weights.to_vec(),
                index: pick_variant(bucket, weights),
            })
        })
        .collect();
    let mut session_replay = Vec::new();
    for toggle_on in [false, true] {
        for (bucket, sample) in [(0, 100), (99, 100), (100, 100), (5000, 0), (9999, 10_000)] {
            for cpu_cores in [None, Some(1), Some(2), Some(3), Some(8)] {
                session_replay.push(SessionReplayVector {
                    toggle_on,
                    bucket,
                    sample_per_ten_thousand: sample,
                    cpu_cores,
                    enabled: session_replay_enabled(
                        toggle_on,
                        sample_picks(bucket, sample),
                        cpu_cores,
                    ),
                });
            }
        }
    }
    ExperimentVectors {
        buckets_count: BUCKETS,
        buckets,
        picks,
        mouse_tracking: [false, true]
            .map(|signed_in| (signed_in, mouse_position_tracking_enabled(signed_in)))
            .to_vec(),
        session_replay,
    }
}
