//! The client feature gating rules of 001 s6, as pure functions the browser's copy
//! (`web/src/experiments/gating.ts`) is checked against.

/// Mouse position tracking is enabled only when a signed-in account is in the page context.
pub fn mouse_position_tracking_enabled(authenticated_account: bool) -> bool {
    authenticated_account
}

/// A session-replay tool is enabled only when its feature toggle is on, the experiment's
/// sample picks the visitor, and the device has more than 2 CPU cores. A device that does not
/// say how many cores it has is not assumed to have more.
pub fn session_replay_enabled(toggle_on: bool, sampled: bool, cpu_cores: Option<u32>) -> bool {
    toggle_on && sampled && cpu_cores.is_some_and(|cores| cores > 2)
}
