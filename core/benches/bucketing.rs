//! Bucketing decisions per second: `cargo bench -p vitrine-core --features test-support --bench
//! bucketing`. One bucket (a SHA-256 of the experiment's name and the visitor's id), and a
//! page's whole decision (the demo's two experiments: segment, bucket and variant of each) as
//! the server makes it before every page with experiments. One thread: decisions per second
//! per core is the inverse.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use vitrine_core::experiments::fixtures::{demo_experiments, visitor};
use vitrine_core::experiments::{VisitorFacts, assign_all, bucket};

fn bucketing(c: &mut Criterion) {
    let ids: Vec<String> = (0..1024u32).map(|n| format!("{n:032x}")).collect();
    let mut group = c.benchmark_group("bucketing");
    group.throughput(Throughput::Elements(1));
    let mut next = 0usize;
    group.bench_function("one bucket", |b| {
        b.iter(|| {
            next = (next + 1) % ids.len();
            black_box(bucket(black_box("home-headline"), &ids[next]))
        })
    });
    let experiments = demo_experiments();
    let visitors: Vec<VisitorFacts> = ids.iter().map(|id| visitor(id)).collect();
    group.bench_function("a page's decisions (two experiments)", |b| {
        b.iter(|| {
            next = (next + 1) % visitors.len();
            black_box(assign_all(&experiments, "/", &visitors[next]))
        })
    });
    group.finish();
}

criterion_group!(benches, bucketing);
criterion_main!(benches);
