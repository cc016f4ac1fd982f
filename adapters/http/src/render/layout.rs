//! The 12-column layout grid (spec 001 s9): rows of columns, each spanning some of the twelve
//! grid columns on desktop and stacking on mobile. Spans are classes (`col-span-1` to
//! `col-span-12`) because the pages' Content-Security-Policy allows no inline styles.

use askama::Template;
use vitrine_core::site::{BlockContent, GRID_COLUMNS, Layout};

use super::blocks::{BlockView, block_view};
use super::scope::RenderScope;

#[derive(Debug, Template)]
#[template(path = "partials/layout.html", whitespace = "minimize")]
pub(crate) struct LayoutView<'a> {
    pub(crate) rows: Vec<RowView<'a>>,
    /// Whether an HTML or text-effect block of this layout has its own `<h1>`.
    main_heading: bool,
}

super::markup::nested_templates!(LayoutView);

#[derive(Debug)]
pub(crate) struct RowView<'a> {
    pub(crate) columns: Vec<ColumnView<'a>>,
}

#[derive(Debug)]
pub(crate) struct ColumnView<'a> {
    /// 1 to 12.
    pub(crate) span: u8,
    pub(crate) blocks: Vec<BlockView<'a>>,
}

impl<'a> LayoutView<'a> {
    /// Builds the blocks in reading order, which is also the order images are handed out in,
    /// so the first image of the layout is the one that loads eagerly.
    pub(crate) fn new(scope: &RenderScope<'a>, layout: &'a Layout) -> Self {
        let rows = layout
            .rows()
            .iter()
            .filter(|row| row.columns.iter().any(|column| !column.blocks.is_empty()))
            .map(|row| RowView {
                columns: row
                    .columns
                    .iter()
                    .map(|column| ColumnView {
                        span: column.span.clamp(1, GRID_COLUMNS),
                        blocks: column
                            .blocks
                            .iter()
                            .map(|block| block_view(scope, block))
                            .collect(),
                    })
                    .collect(),
            })
            .collect();
        Self {
            rows,
            main_heading: has_main_heading(layout),
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// A page has one `h1`. When the owner wrote one into the page's text, the page title is
    /// not added as a second.
    pub(crate) fn has_main_heading(&self) -> bool {
        self.main_heading
    }
}

fn has_main_heading(layout: &Layout) -> bool {
    layout.blocks().any(|block| match &block.content {
        // The core's sanitiser writes tag names in lowercase.
        BlockContent::Html { html } => html.as_str().contains("<h1"),
        BlockContent::TextEffect(effect) => effect.level == Some(1),
        _ => false,
    })
}
