//! The CSV every owner's table exports: UTF-8, a header row, lines ended by CRLF (RFC 4180),
//! each cell quoted when it holds a comma, quote or line break, and a cell beginning with a
//! formula character (`=`, `+`, `-`, `@`, tab, carriage return) prefixed with an apostrophe
//! so a spreadsheet shows it as text rather than running it. The cell rule is the one the
//! submissions export of the command line already uses (`forms::export::csv_cell`), so the two
//! exports agree; it needs no CSV library.

use crate::forms::export::csv_cell;

/// The `Content-Type` of an export.
pub const CSV_CONTENT_TYPE: &str = "text/csv; charset=utf-8";

/// A CSV document being written, header first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CsvDocument {
    text: String,
    columns: usize,
}

impl CsvDocument {
    pub fn new(header: &[&str]) -> Self {
        let mut document = Self {
            text: String::new(),
            columns: header.len(),
        };
        document.push_line(header.iter().copied());
        document
    }

    /// Adds one row. A row with fewer cells than the header is padded with empty cells and
    /// one with more is cut, so every line has the header's columns.
    pub fn row<S: AsRef<str>>(&mut self, cells: &[S]) {
        let cells = cells
            .iter()
            .map(AsRef::as_ref)
            .chain(std::iter::repeat(""))
            .take(self.columns);
        self.push_line(cells);
    }

    fn push_line<'a>(&mut self, cells: impl Iterator<Item = &'a str>) {
        for (index, cell) in cells.enumerate() {
            if index > 0 {
                self.text.push(',');
            }
            self.text.push_str(&csv_cell(cell));
        }
        self.text.push_str("\r\n");
    }

    pub fn into_string(self) -> String {
        self.text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_are_quoted_and_formulas_are_defused() {
        let mut csv = CsvDocument::new(&["name", "note"]);
        csv.row(&["=HYPERLINK(\"x\")", "a, b"]);
        csv.row(&["+1", "-2"]);
        csv.row(&["@SUM(A1)", "line\nbreak"]);
        csv.row(&["Zoë"]);
        expect_test::expect![[r#"
            name,note
            "'=HYPERLINK(""x"")","a, b"
            '+1,'-2
            '@SUM(A1),"line
            break"
            Zoë,
        "#]]
        .assert_eq(&csv.into_string().replace("\r\n", "\n"));
    }

    #[test]
    fn lines_end_with_crlf() {
        let mut csv = CsvDocument::new(&["a"]);
        csv.row(&["1", "dropped"]);
        assert_eq!(csv.into_string(), "a\r\n1\r\n");
    }
}
