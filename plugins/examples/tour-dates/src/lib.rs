//! Tour dates (block type 59): a list of dates, venues and ticket links.

use vitrine_plugin_sdk::{
    BlockPlugin, RenderContext, RenderError, escape, plugin, serde::Deserialize,
};

#[derive(Deserialize)]
#[serde(crate = "vitrine_plugin_sdk::serde")]
struct TourDates {
    dates: Vec<Show>,
}

#[derive(Deserialize)]
#[serde(crate = "vitrine_plugin_sdk::serde")]
struct Show {
    date: String,
    venue: String,
    city: String,
    tickets: Option<String>,
}

struct Plugin;

impl BlockPlugin for Plugin {
    type Data = TourDates;

    fn render(_context: &RenderContext, data: TourDates) -> Result<String, RenderError> {
        let mut html = String::from(r#"<ul class="tour-dates">"#);
        for show in &data.dates {
            let tickets = match &show.tickets {
                Some(url) => format!(r#" <a href="{}">Tickets</a>"#, escape(url)),
                None => String::from(" Sold out"),
            };
            let (date, venue, city) = (escape(&show.date), escape(&show.venue), escape(&show.city));
            html.push_str(&format!(
                r#"<li><time datetime="{date}">{date}</time> {venue}, {city}{tickets}</li>"#
            ));
        }
        html.push_str("</ul>");
        Ok(html)
    }
}

plugin!(Plugin);
