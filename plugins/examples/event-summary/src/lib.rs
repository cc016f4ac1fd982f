//! Event summary (a custom block type): the upcoming events of a collection, soonest first,
//! read through the `collections` capability.

use std::fmt::Write;

use vitrine_plugin_sdk::{
    BlockPlugin, RenderContext, RenderError, collections, escape, plugin, serde::Deserialize,
};

#[derive(Deserialize)]
#[serde(crate = "vitrine_plugin_sdk::serde", rename_all = "camelCase")]
struct Summary {
    /// The collection's id or URL slug, as the site bundle gives it.
    #[serde(default)]
    collection: Option<String>,
    /// Set by `GetWidgetRendering` when the page asks for the block again.
    #[serde(default)]
    collection_id: Option<String>,
    #[serde(default = "default_title")]
    title: String,
    #[serde(default = "default_limit")]
    limit: u32,
}

fn default_title() -> String {
    "Upcoming events".to_owned()
}

fn default_limit() -> u32 {
    5
}

struct Plugin;

impl BlockPlugin for Plugin {
    type Data = Summary;

    /// Events pass: the page is rendered again within an hour, so a past event drops off.
    const CACHE_SECONDS: Option<u32> = Some(3600);

    /// The host scopes these rules to the block, so they cannot style the rest of the page.
    const CSS: Option<&'static str> = Some(
        ".event-summary-list { list-style: none; padding: 0; margin: 0 }
         .event-summary-list li { padding: 0.5rem 0; border-bottom: 1px solid #ddd5c9 }
         .event-summary-list time { font-variant-numeric: tabular-nums; margin-right: 0.5rem }
         .event-summary-list p { margin: 0.25rem 0 0 }",
    );

    fn render(context: &RenderContext, summary: Summary) -> Result<String, RenderError> {
        let collection = summary
            .collection_id
            .or(summary.collection)
            .ok_or_else(|| RenderError::InvalidData("no collection to summarise".to_owned()))?;
        let events = collections::upcoming(&collection, summary.limit.clamp(1, 20));
        let heading_id = format!("event-summary-{}", escape(&context.block_id));
        let mut html = format!(
            r#"<section class="event-summary" aria-labelledby="{heading_id}"><h2 id="{heading_id}">{}</h2>"#,
            escape(&summary.title)
        );
        if events.is_empty() {
            html.push_str(r#"<p class="event-summary-empty">No upcoming events.</p>"#);
        } else {
            html.push_str(r#"<ul class="event-summary-list">"#);
            for event in &events {
                html.push_str("<li>");
                if let Some(date) = &event.date {
                    let day = escape(date.get(..10).unwrap_or(date));
                    let _ = write!(html, r#"<time datetime="{day}">{day}</time> "#);
                }
                let _ = write!(
                    html,
                    r#"<a href="{}">{}</a>"#,
                    escape(&event.url),
                    escape(&event.title)
                );
                if let Some(excerpt) = event.excerpt.as_deref().filter(|text| !text.is_empty()) {
                    let _ = write!(html, "<p>{}</p>", escape(excerpt));
                }
                html.push_str("</li>");
            }
            html.push_str("</ul>");
        }
        html.push_str("</section>");
        Ok(html)
    }
}

plugin!(Plugin);
