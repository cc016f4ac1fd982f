//! The client feature gating rules of 001 s6, a copy of `vitrine_core::experiments` gating,
//! checked against the core's vectors.

/** Mouse position tracking only with a signed-in account in the page context. */
export function mousePositionTrackingEnabled(authenticatedAccount: boolean): boolean {
  return authenticatedAccount;
}

/**
 * A session-replay tool only when its feature toggle is on, the experiment's sample picks the
 * visitor and the device has more than 2 CPU cores (`navigator.hardwareConcurrency`); a device
 * that does not say is not assumed to have more.
 */
export function sessionReplayEnabled(toggleOn: boolean, sampled: boolean, cpuCores: number | undefined): boolean {
  return toggleOn && sampled && cpuCores !== undefined && cpuCores > 2;
}
