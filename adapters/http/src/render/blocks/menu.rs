//! The menu block: every menu as a titled panel, all shown, which is the block without
//! script. The menu island makes them tabs (one shown at a time, the first at first; 000 s4),
//! with the WAI-ARIA tabs pattern's keyboard support.

use askama::Template;
use vitrine_core::site::{MenuBlock, MenuTab};

#[derive(Debug, Template)]
#[template(path = "blocks/menu.html", whitespace = "minimize")]
pub(crate) struct MenuView<'a> {
    pub(crate) id: &'a str,
    pub(crate) tabs: Vec<(usize, &'a MenuTab)>,
}

impl<'a> MenuView<'a> {
    pub(crate) fn new(id: &'a str, block: &'a MenuBlock) -> Self {
        Self {
            id,
            tabs: block.tabs.iter().enumerate().collect(),
        }
    }
}
