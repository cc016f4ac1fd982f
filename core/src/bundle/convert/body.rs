//! Page bodies: a stacked list of `blocks`, or `rows` of `columns` on the 12-column grid.

use crate::bundle::BundleError;
use crate::bundle::convert::Converter;
use crate::bundle::dto::RowDto;
use crate::bundle::error::At;
use crate::bundle::text::derived_id;
use crate::site::{BlockId, Body, Column, GRID_COLUMNS, Layout, MAX_BLOCKS_PER_LAYOUT, Row};

/// Where a body is defined and whose it is, for block ids and error positions.
pub(crate) struct BodySource<'a> {
    pub at: At<'a>,
    /// The owner's id; derived block ids are `<owner>-<n>`.
    pub owner: &'a str,
}

impl Converter {
    /// Converts a body written either as `blocks` or as `rows`; neither gives an empty body.
    pub(crate) fn body(
        &mut self,
        source: &BodySource<'_>,
        blocks: Option<Vec<toml::Table>>,
        rows: Option<Vec<RowDto>>,
    ) -> Result<Body, BundleError> {
        let at = &source.at;
        let rows = match (blocks, rows) {
            (Some(_), Some(_)) => {
                return Err(at
                    .field("rows")
                    .error("expected either 'blocks' or 'rows', not both"));
            }
            (Some(blocks), None) => {
                let count = blocks.len();
                self.check_block_count(&at.field("blocks"), count)?;
                let mut rows = Vec::with_capacity(count);
                for (index, table) in blocks.into_iter().enumerate() {
                    let block_at = at.field("blocks").index(index);
                    let block = self.block(&block_at, table, &default_block_id(source, index))?;
                    rows.push(Row {
                        columns: vec![Column {
                            span: GRID_COLUMNS,
                            blocks: vec![block],
                        }],
                    });
                }
                rows
            }
            (None, Some(rows)) => self.rows(source, rows)?,
            (None, None) => Vec::new(),
        };
        let layout = Layout::new(rows).map_err(|error| at.error(error.to_string()))?;
        Ok(Body { raw: false, layout })
    }

    fn rows(
        &mut self,
        source: &BodySource<'_>,
        rows: Vec<RowDto>,
    ) -> Result<Vec<Row>, BundleError> {
        let at = &source.at;
        let count = rows
            .iter()
            .flat_map(|row| &row.columns)
            .map(|column| column.blocks.len())
            .sum();
        self.check_block_count(&at.field("rows"), count)?;
        let mut converted = Vec::with_capacity(rows.len());
        let mut block_number = 0;
        for (row_index, row) in rows.into_iter().enumerate() {
            let row_at = at.field("rows").index(row_index);
            let width: u32 = row
                .columns
                .iter()
                .map(|column| u32::from(column.span))
                .sum();
            if width > u32::from(GRID_COLUMNS) {
                return Err(row_at.error(format!(
                    "expected column spans adding up to at most {GRID_COLUMNS}, found {width}"
                )));
            }
            let mut columns = Vec::with_capacity(row.columns.len());
            for (column_index, column) in row.columns.into_iter().enumerate() {
                let column_at = row_at.field("columns").index(column_index);
                if !(1..=GRID_COLUMNS).contains(&column.span) {
                    return Err(column_at.field("span").error(format!(
                        "expected a span from 1 to {GRID_COLUMNS}, found {}",
                        column.span
                    )));
                }
                let mut blocks = Vec::with_capacity(column.blocks.len());
                for (block_index, table) in column.blocks.into_iter().enumerate() {
                    let block_at = column_at.field("blocks").index(block_index);
                    let id = default_block_id(source, block_number);
                    blocks.push(self.block(&block_at, table, &id)?);
                    block_number += 1;
                }
                columns.push(Column {
                    span: column.span,
                    blocks,
                });
            }
            converted.push(Row { columns });
        }
        Ok(converted)
    }

    fn check_block_count(&self, at: &At, count: usize) -> Result<(), BundleError> {
        if count > MAX_BLOCKS_PER_LAYOUT {
            return Err(at.error(format!(
                "expected at most {MAX_BLOCKS_PER_LAYOUT} blocks, found {count}"
            )));
        }
        Ok(())
    }
}

/// `<owner>-<n>`, counting blocks from 1 in reading order.
fn default_block_id(source: &BodySource<'_>, index: usize) -> String {
    derived_id(&[source.owner, &(index + 1).to_string()], BlockId::MAX_LEN)
}
