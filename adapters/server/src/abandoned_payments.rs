//! The clean-up of payments abandoned in the browser, run beside the server: every minute it
//! asks the cart service to end the orders that waited longer than
//! [`ABANDONED_BROWSER_PAYMENT_SECONDS`] for their payer, so their stock comes back. Each
//! step is asked of the payment provider and recorded once, so every server of a shop may
//! run it, and a restarted one simply picks up what is still waiting.

use std::sync::Arc;
use std::time::Duration;

use vitrine_core::checkout::{ABANDONED_BROWSER_PAYMENT_SECONDS, CartService};

/// How often the clean-up looks: a minute, small beside the half hour an order may wait.
const INTERVAL: Duration = Duration::from_secs(60);

/// Starts the clean-up when the shop takes payments in the browser; none otherwise.
pub fn spawn_cleanup(carts: Arc<CartService>) -> Option<tokio::task::JoinHandle<()>> {
    carts.payments().browser_card_fields()?;
    tracing::info!(
        window_seconds = ABANDONED_BROWSER_PAYMENT_SECONDS,
        "payments abandoned in the browser are cancelled after their window"
    );
    Some(tokio::spawn(async move {
        let mut ticks = tokio::time::interval(INTERVAL);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticks.tick().await;
            match carts
                .cancel_abandoned_browser_payments(crate::billing_cli::now())
                .await
            {
                Ok(0) => {}
                Ok(ended) => tracing::info!(ended, "abandoned browser payments looked at"),
                Err(error) => {
                    tracing::error!(%error, "the abandoned browser payments could not be listed");
                }
            }
        }
    }))
}
