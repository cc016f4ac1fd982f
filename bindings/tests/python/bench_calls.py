"""The Python half of `cargo xtask bindings --bench`: the calls `examples/call_cost.rs` makes in
Rust, made here through uniffi's Python bindings on the real compiled library."""

import os
import sys
import time

sys.path.insert(0, os.environ["VITRINE_BINDINGS_PYTHON"])

import vitrine_bindings as vb  # noqa: E402

INFO_REQUEST = '{"v":1,"id":"bench-1","name":"info","payload":{"pageType":"Page","cartCount":3,"signedIn":false,"locale":"en-US","experiments":{}}}'
CALLS = 50_000
ROUNDS = 7


def per_call_ns(call):
    """The median over several rounds of the time per call, in nanoseconds."""
    rounds = []
    for _ in range(ROUNDS):
        start = time.perf_counter_ns()
        for _ in range(CALLS):
            call()
        rounds.append((time.perf_counter_ns() - start) / CALLS)
    rounds.sort()
    return rounds[ROUNDS // 2]


def main():
    cases = [
        ("cart_display_cap", vb.cart_display_cap),
        ("format_money", lambda: vb.format_money(123_456_789, "EUR", "de-DE", False)),
        ("parse_bridge_request", lambda: vb.parse_bridge_request(INFO_REQUEST)),
    ]
    for name, call in cases:
        print(f"python  {name:<22} {per_call_ns(call):>9.1f} ns/call")


if __name__ == "__main__":
    main()
