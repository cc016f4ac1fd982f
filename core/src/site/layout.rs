//! Page bodies: a 12-column grid of rows whose columns hold blocks.

use serde::{Deserialize, Serialize};

use crate::site::Block;

/// The layout grid's width in columns (spec 001 s9).
pub const GRID_COLUMNS: u8 = 12;
/// At most this many blocks in one layout (spec 001 s9).
pub const MAX_BLOCKS_PER_LAYOUT: usize = 60;

/// A page body. The default is spec 001 s3 "Layout data default": `raw = false` and an empty
/// 12-column layout.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Body {
    pub raw: bool,
    pub layout: Layout,
}

/// Rows of columns; each row's column spans add up to at most [`GRID_COLUMNS`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "UncheckedLayout")]
pub struct Layout {
    columns: u8,
    rows: Vec<Row>,
}

impl Default for Layout {
    fn default() -> Self {
        Self {
            columns: GRID_COLUMNS,
            rows: Vec::new(),
        }
    }
}

/// One horizontal band of the grid.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    pub columns: Vec<Column>,
}

/// A column spanning `span` of the 12 grid columns.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Column {
    pub span: u8,
    pub blocks: Vec<Block>,
}

/// Why a layout was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LayoutError {
    #[error("a layout has {GRID_COLUMNS} columns, not {0}")]
    WrongGrid(u8),
    #[error("row {row} spans {span} columns; at most {GRID_COLUMNS} fit")]
    RowTooWide { row: usize, span: u32 },
    #[error("row {row} has a column with a span of 0")]
    EmptyColumn { row: usize },
    #[error("the layout has {0} blocks; at most {MAX_BLOCKS_PER_LAYOUT} are allowed")]
    TooManyBlocks(usize),
}

impl Layout {
    pub fn new(rows: Vec<Row>) -> Result<Self, LayoutError> {
        for (index, row) in rows.iter().enumerate() {
            if row.columns.iter().any(|column| column.span == 0) {
                return Err(LayoutError::EmptyColumn { row: index });
            }
            let span: u32 = row
                .columns
                .iter()
                .map(|column| u32::from(column.span))
                .sum();
            if span > u32::from(GRID_COLUMNS) {
                return Err(LayoutError::RowTooWide { row: index, span });
            }
        }
        let layout = Self {
            columns: GRID_COLUMNS,
            rows,
        };
        let blocks = layout.blocks().count();
        if blocks > MAX_BLOCKS_PER_LAYOUT {
            return Err(LayoutError::TooManyBlocks(blocks));
        }
        Ok(layout)
    }

    /// A layout of one full-width column holding `blocks`, one row each.
    pub fn stacked(blocks: Vec<Block>) -> Result<Self, LayoutError> {
        Self::new(
            blocks
                .into_iter()
                .map(|block| Row {
                    columns: vec![Column {
                        span: GRID_COLUMNS,
                        blocks: vec![block],
                    }],
                })
                .collect(),
        )
    }

    pub fn columns(&self) -> u8 {
        self.columns
    }

    pub fn rows(&self) -> &[Row] {
        &self.rows
    }

    /// Every block in reading order.
    pub fn blocks(&self) -> impl Iterator<Item = &Block> {
        self.rows
            .iter()
            .flat_map(|row| row.columns.iter())
            .flat_map(|column| column.blocks.iter())
    }
}

#[derive(Deserialize)]
struct UncheckedLayout {
    columns: u8,
    rows: Vec<Row>,
}

impl TryFrom<UncheckedLayout> for Layout {
    type Error = LayoutError;

    fn try_from(unchecked: UncheckedLayout) -> Result<Self, Self::Error> {
        if unchecked.columns != GRID_COLUMNS {
            return Err(LayoutError::WrongGrid(unchecked.columns));
        }
        Self::new(unchecked.rows)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::site::{BlockContent, BlockId, SafeHtml};

    fn text_block(id: &str) -> Block {
        Block {
            id: BlockId::parse(id).unwrap(),
            content: BlockContent::Html {
                html: SafeHtml::sanitize("<p>x</p>"),
            },
        }
    }

    #[test]
    fn the_default_body_is_the_spec_default() {
        let body = serde_json::to_value(Body::default()).unwrap();
        assert_eq!(
            body,
            serde_json::json!({"raw": false, "layout": {"columns": 12, "rows": []}})
        );
    }

    #[test]
    fn rows_wider_than_the_grid_are_refused() {
        let row = Row {
            columns: vec![
                Column {
                    span: 8,
                    blocks: vec![],
                },
                Column {
                    span: 6,
                    blocks: vec![],
                },
            ],
        };
        assert_eq!(
            Layout::new(vec![row]).unwrap_err(),
            LayoutError::RowTooWide { row: 0, span: 14 }
        );
    }

    #[test]
    fn more_than_sixty_blocks_are_refused() {
        let blocks = (0..61).map(|i| text_block(&format!("b{i}"))).collect();
        assert_eq!(
            Layout::stacked(blocks).unwrap_err(),
            LayoutError::TooManyBlocks(61)
        );
    }

    #[test]
    fn deserializing_checks_the_grid() {
        let err = serde_json::from_str::<Layout>(r#"{"columns": 10, "rows": []}"#).unwrap_err();
        assert!(err.to_string().contains("12 columns"), "{err}");
    }
}
