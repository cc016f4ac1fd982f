//! The HTML every owner's table shares: the tables' navigation, the search form, the CSV
//! link, the count, the table with its caption and column headers, and the links to the
//! previous and next pages. Every text is escaped; rows come escaped from their table.

use axum::http::StatusCode;
use axum::response::Response;
use vitrine_core::owners::OwnerViewer;
use vitrine_core::owners::tables::{OwnerTable, TablePage, TableQuery};

use super::super::markup as owner_markup;
use crate::shared::request_parts::escape_html as escape;

/// The links to every table, the current one marked for screen readers.
pub(super) fn navigation(current: Option<OwnerTable>) -> String {
    let links: String = OwnerTable::ALL
        .iter()
        .map(|table| {
            let current = if Some(*table) == current {
                " aria-current=\"page\""
            } else {
                ""
            };
            format!(
                "<li><a href=\"/config/{slug}\"{current}>{title}</a></li>",
                slug = table.slug(),
                title = table.title(),
            )
        })
        .collect();
    format!(
        "<nav aria-label=\"Tables\" class=\"owner-tables-nav\"><ul>\
         <li><a href=\"/config/\">Overview</a></li>{links}</ul></nav>"
    )
}

/// The address of a table's page with this search.
pub(super) fn address(table: OwnerTable, search: Option<&str>, page: u32) -> String {
    let mut query = url::form_urlencoded::Serializer::new(String::new());
    if let Some(search) = search {
        query.append_pair("q", search);
    }
    if page > 1 {
        query.append_pair("page", &page.to_string());
    }
    let query = query.finish();
    if query.is_empty() {
        format!("/config/{}", table.slug())
    } else {
        format!("/config/{}?{query}", table.slug())
    }
}

/// The address of the export of every row matching the search.
fn export_address(table: OwnerTable, search: Option<&str>) -> String {
    let base = format!("/config/{}.csv", table.slug());
    match search {
        Some(search) => format!(
            "{base}?{}",
            url::form_urlencoded::Serializer::new(String::new())
                .append_pair("q", search)
                .finish()
        ),
        None => base,
    }
}

/// A hidden field that brings an action back to the page it was taken on.
pub(super) fn back_field(table: OwnerTable, query: &TableQuery) -> String {
    format!(
        "<input type=\"hidden\" name=\"back\" value=\"{}\">",
        escape(&address(table, query.search(), query.page_number()))
    )
}

/// One table page.
pub(super) struct TableScreen<'a, T> {
    pub table: OwnerTable,
    pub viewer: &'a OwnerViewer,
    pub query: &'a TableQuery,
    pub page: &'a TablePage<T>,
    /// The column headers.
    pub columns: &'a [&'a str],
    /// The rows' `<tr>` elements, escaped.
    pub rows: String,
    /// What one row is called, singular and plural: ("submission", "submissions").
    pub noun: (&'a str, &'a str),
}

pub(super) fn table_page<T>(screen: &TableScreen<'_, T>) -> Response {
    let table = screen.table;
    let search = screen.query.search();
    let number = screen.query.page_number();
    let pages = screen.page.page_count();
    let count = match (screen.page.total, search) {
        (1, None) => format!("1 {}.", screen.noun.0),
        (total, None) => format!("{total} {}.", screen.noun.1),
        (1, Some(text)) => format!("1 {} matches “{}”.", screen.noun.0, escape(text)),
        (total, Some(text)) => format!("{total} {} match “{}”.", screen.noun.1, escape(text)),
    };
    let head: String = screen
        .columns
        .iter()
        .map(|column| format!("<th scope=\"col\">{}</th>", escape(column)))
        .collect();
    let body = if screen.rows.is_empty() {
        format!(
            "<tr><td colspan=\"{}\">No {} to show.</td></tr>",
            screen.columns.len(),
            screen.noun.1
        )
    } else {
        screen.rows.clone()
    };
    let previous = if number > 1 {
        format!(
            "<a rel=\"prev\" href=\"{}\">Previous page</a> ",
            escape(&address(table, search, number - 1))
        )
    } else {
        String::new()
    };
    let next = if number < pages {
        format!(
            " <a rel=\"next\" href=\"{}\">Next page</a>",
            escape(&address(table, search, number + 1))
        )
    } else {
        String::new()
    };
    let viewer = screen.viewer;
    let html = format!(
        "<header class=\"owner-bar\" aria-label=\"Owner area\"><p>Signed in as {email} ({role})</p>\
         </header>{nav}\
         <main aria-labelledby=\"owner-table-title\"><h1 id=\"owner-table-title\">{title}</h1>\
         <form role=\"search\" method=\"get\" action=\"/config/{slug}\">\
         <label for=\"owner-table-search\">Search {lower}</label> \
         <input id=\"owner-table-search\" type=\"search\" name=\"q\" maxlength=\"100\" value=\"{search}\"> \
         <button type=\"submit\">Search</button></form>\
         <p><a href=\"{export}\" download>Export CSV</a></p>\
         <p role=\"status\" class=\"owner-table-count\">{count}</p>\
         <table class=\"owner-table\"><caption>{title}, page {number} of {pages}</caption>\
         <thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>\
         <nav aria-label=\"Pages of {lower}\" class=\"owner-table-pages\">{previous}\
         <span>Page {number} of {pages}</span>{next}</nav></main>",
        email = escape(viewer.owner.email.as_str()),
        role = escape(viewer.owner.role.spec_name()),
        nav = navigation(Some(table)),
        title = table.title(),
        lower = table.title().to_lowercase(),
        slug = table.slug(),
        search = escape(search.unwrap_or_default()),
        export = escape(&export_address(table, search)),
    );
    owner_markup::page(StatusCode::OK, table.title(), &html)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_carry_the_search_and_pages_after_the_first() {
        assert_eq!(address(OwnerTable::Reviews, None, 1), "/config/reviews");
        assert_eq!(
            address(OwnerTable::Submissions, Some("ada & co"), 2),
            "/config/submissions?q=ada+%26+co&page=2"
        );
        assert_eq!(
            export_address(OwnerTable::Orders, Some("x")),
            "/config/orders.csv?q=x"
        );
    }
}
