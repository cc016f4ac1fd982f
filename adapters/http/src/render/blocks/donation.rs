//! The donation block (type 52): its cause, the suggested amounts to pick from, and a button
//! to the donation page its id names. A plain GET form, so it works without JavaScript and
//! the chosen amount arrives on the donation page already picked.

use askama::Template;
use vitrine_core::site::DonationBlock;

use crate::render::scope::RenderScope;

/// One suggested amount: its value in minor units and how it reads.
#[derive(Debug)]
pub(crate) struct AmountChoice {
    pub(crate) value: i64,
    pub(crate) text: String,
}

#[derive(Debug, Template)]
#[template(path = "blocks/donation.html", whitespace = "minimize")]
pub(crate) struct DonationBlockView<'a> {
    /// The block's id: the donation page's `donatePageId`.
    pub(crate) id: &'a str,
    pub(crate) title: &'a str,
    pub(crate) description: &'a str,
    pub(crate) button_label: &'a str,
    pub(crate) amounts: Vec<AmountChoice>,
}

impl<'a> DonationBlockView<'a> {
    pub(crate) fn new(scope: &RenderScope<'_>, id: &'a str, block: &'a DonationBlock) -> Self {
        Self {
            id,
            title: &block.title,
            description: &block.description,
            button_label: &block.button_label,
            amounts: block
                .suggested_amounts
                .iter()
                .map(|&value| AmountChoice {
                    value,
                    text: scope.money(value),
                })
                .collect(),
        }
    }
}
