//! The table-reservation block (OpenTable v2, type 66): a restaurant's booking widget from the
//! booking service, loaded only after the visitor accepted cookies, with a link to the
//! service's booking page for everyone else (000 s1, s6, s9).

use serde::{Deserialize, Serialize};

/// The booking service's origin: its widget script and its booking page live there.
pub const RESERVATION_ORIGIN: &str = "https://www.opentable.com";
/// Above this container width (in CSS pixels) the widget uses its wide theme (000 s4).
pub const WIDE_THEME_ABOVE_PX: u32 = 850;
/// At this container width or less the booking widget lays its fields out in a column (000 s4).
pub const COLUMN_LAYOUT_AT_MOST_PX: u32 = 750;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableReservationBlock {
    /// The restaurant's id at the booking service.
    pub restaurant_id: u32,
    /// The restaurant's name, shown above the widget and in the booking link.
    pub restaurant_name: String,
}

/// Why a table-reservation block was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TableReservationError {
    #[error("expected the restaurant's id at the booking service, a number above 0")]
    RestaurantId,
    #[error("the block needs the restaurant's name")]
    MissingName,
}

impl TableReservationBlock {
    pub fn check(&self) -> Result<(), TableReservationError> {
        if self.restaurant_id == 0 {
            return Err(TableReservationError::RestaurantId);
        }
        if self.restaurant_name.trim().is_empty() {
            return Err(TableReservationError::MissingName);
        }
        Ok(())
    }

    /// The booking page at the service, which works without the widget.
    pub fn booking_url(&self) -> String {
        format!(
            "{RESERVATION_ORIGIN}/restref/client/?rid={}",
            self.restaurant_id
        )
    }

    /// The widget script's address for a container of `width` CSS pixels.
    pub fn widget_script_url(&self, width: u32) -> String {
        let theme = if width > WIDE_THEME_ABOVE_PX {
            "wide"
        } else {
            "standard"
        };
        format!(
            "{RESERVATION_ORIGIN}/widget/reservation/loader?rid={}&type=standard&theme={theme}&overlay=false&iframe=true",
            self.restaurant_id
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block() -> TableReservationBlock {
        TableReservationBlock {
            restaurant_id: 412,
            restaurant_name: "Casa Barro".into(),
        }
    }

    #[test]
    fn the_wide_theme_starts_above_850_pixels() {
        assert!(block().widget_script_url(851).contains("&theme=wide&"));
        assert!(block().widget_script_url(850).contains("&theme=standard&"));
        assert_eq!(
            block().booking_url(),
            "https://www.opentable.com/restref/client/?rid=412"
        );
    }

    #[test]
    fn a_block_names_its_restaurant_and_its_id() {
        assert_eq!(block().check(), Ok(()));
        let mut bad = block();
        bad.restaurant_id = 0;
        assert_eq!(bad.check(), Err(TableReservationError::RestaurantId));
        bad.restaurant_id = 1;
        bad.restaurant_name = String::new();
        assert_eq!(
            bad.check().unwrap_err().to_string(),
            "the block needs the restaurant's name"
        );
    }
}
