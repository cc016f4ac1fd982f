//! The Rust half of `cargo xtask bindings --bench`: the same calls `bench_calls.py` makes
//! through the Python bindings, made here directly on the exported Rust functions, so the
//! difference is what crossing the foreign-function boundary costs.

use std::hint::black_box;
use std::time::Instant;

const INFO_REQUEST: &str = r#"{"v":1,"id":"bench-1","name":"info","payload":{"pageType":"Page","cartCount":3,"signedIn":false,"locale":"en-US","experiments":{}}}"#;
const CALLS: u32 = 200_000;
const ROUNDS: usize = 7;

/// The median over several rounds of the time per call, in nanoseconds.
fn per_call_ns(call: fn()) -> f64 {
    let mut rounds: Vec<f64> = (0..ROUNDS)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..CALLS {
                call();
            }
            start.elapsed().as_nanos() as f64 / f64::from(CALLS)
        })
        .collect();
    rounds.sort_by(f64::total_cmp);
    rounds[ROUNDS / 2]
}

fn main() {
    let cases: [(&str, fn()); 3] = [
        ("cart_display_cap", || {
            black_box(vitrine_bindings::cart_display_cap());
        }),
        ("format_money", || {
            let formatted = vitrine_bindings::format_money(
                black_box(123_456_789),
                "EUR".to_owned(),
                "de-DE".to_owned(),
                false,
            );
            black_box(formatted.unwrap());
        }),
        ("parse_bridge_request", || {
            let request = vitrine_bindings::parse_bridge_request(INFO_REQUEST.to_owned());
            black_box(request.unwrap());
        }),
    ];
    for (name, call) in cases {
        println!("rust    {name:<22} {:>9.1} ns/call", per_call_ns(call));
    }
}
