//! The timing helpers of 001 s8 and s9: the throttle that spaces repeated work by its own cost,
//! the wait-for-element poll, and the relative-time refresh.

/// The throttle looks at this many of the latest run times (001 s9).
pub const THROTTLE_SAMPLES: usize = 22;
/// The wait-for-element helper looks again this often (001 s9).
pub const WAIT_FOR_ELEMENT_POLL_MS: u32 = 100;
/// A relative time ("5 minutes ago") is written again this often (001 s9).
pub const RELATIVE_TIME_REFRESH_MS: u32 = 5000;

/// How long the throttle waits before the next run: twice the average of the latest 22 run
/// times, in milliseconds; nothing before the first run. Run times that are not a non-negative
/// number are left out.
pub fn throttle_wait_ms(run_times_ms: &[f64]) -> f64 {
    let latest = &run_times_ms[run_times_ms.len().saturating_sub(THROTTLE_SAMPLES)..];
    let valid: Vec<f64> = latest
        .iter()
        .copied()
        .filter(|ms| ms.is_finite() && *ms >= 0.0)
        .collect();
    if valid.is_empty() {
        return 0.0;
    }
    2.0 * valid.iter().sum::<f64>() / valid.len() as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waits_twice_the_average_of_the_latest_runs() {
        assert_eq!(throttle_wait_ms(&[]), 0.0);
        assert_eq!(throttle_wait_ms(&[10.0, 20.0]), 30.0);
        let mut runs = vec![1000.0; 5];
        runs.extend([5.0; 22]);
        assert_eq!(throttle_wait_ms(&runs), 10.0);
        assert_eq!(throttle_wait_ms(&[f64::NAN, -3.0, 4.0]), 8.0);
    }
}
