//! The owner's tables at `/config/` (issue 18 §3): which tables there are, what each role may
//! see and do in them, the page and search every table store answers, and the CSV every table
//! exports. The stores themselves (submissions, orders, subscribers, consent receipts,
//! reviews) keep their own ports; each answers a [`TableQuery`] with a [`TablePage`].

mod access;
mod csv;
mod query;

pub use access::{OwnerTable, TableAction};
pub use csv::{CSV_CONTENT_TYPE, CsvDocument};
pub use query::{
    MAX_EXPORT_ROWS, MAX_SEARCH_CHARS, TABLE_PAGE_SIZE, TablePage, TableQuery, TableQueryError,
};
