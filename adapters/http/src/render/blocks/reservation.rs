//! The table-reservation block: the restaurant's name and a link to the booking service's own
//! booking page, which works for everyone. The reservation island loads the service's widget
//! script in its place only after the visitor accepted cookies, choosing the wide theme above
//! 850 px of container width (000 s4). The owner's preview alert (000 s6) is never in this
//! HTML, which is cached for every visitor: the owner's part of the page context adds it.

use askama::Template;
use serde::Serialize;
use vitrine_core::site::TableReservationBlock;

#[derive(Debug, Template)]
#[template(path = "blocks/reservation.html", whitespace = "minimize")]
pub(crate) struct ReservationView<'a> {
    pub(crate) name: &'a str,
    pub(crate) booking_url: String,
}

/// The reservation island's props: the widget script for each theme.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ReservationProps {
    standard_script: String,
    wide_script: String,
    wide_above: u32,
}

impl<'a> ReservationView<'a> {
    pub(crate) fn new(block: &'a TableReservationBlock) -> Self {
        Self {
            name: &block.restaurant_name,
            booking_url: block.booking_url(),
        }
    }

    pub(crate) fn props(block: &TableReservationBlock) -> ReservationProps {
        let wide_above = vitrine_core::site::WIDE_THEME_ABOVE_PX;
        ReservationProps {
            standard_script: block.widget_script_url(wide_above),
            wide_script: block.widget_script_url(wide_above + 1),
            wide_above,
        }
    }
}
