//! Interactive blocks. Each renders native HTML that already works (the accordion is a set of
//! `<details>` elements) and carries island props for the script that adds the rest.

use askama::Template;
use serde::Serialize;
use vitrine_core::site::AccordionItem;

use crate::render::markup::Markup;

/// The accordion of spec 000 s4: items open and close natively; a single-open accordion
/// groups its `<details>` by `name`, which browsers that support it use to close the others.
#[derive(Debug, Template)]
#[template(path = "blocks/accordion.html", whitespace = "minimize")]
pub(crate) struct AccordionBlock<'a> {
    /// The `<details name>` group, only when one item at a time may be open.
    pub(crate) group: Option<String>,
    pub(crate) items: Vec<AccordionItemView<'a>>,
    allow_multiple: bool,
    first_open: bool,
}

#[derive(Debug)]
pub(crate) struct AccordionItemView<'a> {
    pub(crate) title: &'a str,
    pub(crate) body: Markup,
    pub(crate) open: bool,
}

/// The accordion island's props, as the web client's `parseAccordionOptions` reads them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct AccordionProps {
    pub(crate) allow_multiple: bool,
    pub(crate) first_open: bool,
}

impl<'a> AccordionBlock<'a> {
    pub(crate) fn new(
        block_id: &str,
        items: &'a [AccordionItem],
        allow_multiple: bool,
        first_open: bool,
    ) -> Self {
        Self {
            group: (!allow_multiple).then(|| format!("accordion-{block_id}")),
            items: items
                .iter()
                .enumerate()
                .map(|(index, item)| AccordionItemView {
                    title: &item.title,
                    body: Markup::sanitized(&item.body),
                    open: first_open && index == 0,
                })
                .collect(),
            allow_multiple,
            first_open,
        }
    }

    pub(crate) fn props(&self) -> AccordionProps {
        AccordionProps {
            allow_multiple: self.allow_multiple,
            first_open: self.first_open,
        }
    }
}
