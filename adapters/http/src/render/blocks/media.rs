//! Media blocks: image and map (galleries and videos have modules of their own), each as static HTML that works
//! without JavaScript (spec 001 s2 describes the widgets they stand for).

use askama::Template;
use serde::Serialize;
use vitrine_core::map_tiles::{STATIC_MAP_HEIGHT, STATIC_MAP_WIDTH, StaticMapRequest, TileServer};
use vitrine_core::site::{MapLocation, MapStyle, MapUiOptions, MediaRef};

use crate::render::image::ImageView;
use crate::render::scope::RenderScope;
use crate::render::urls;

/// Where static map images are served; the maps capability answers it.
const STATIC_MAP_PATH: &str = "/api/maps/static";

#[derive(Debug, Template)]
#[template(path = "blocks/image.html", whitespace = "minimize")]
pub(crate) struct ImageBlock<'a> {
    pub(crate) image: Option<ImageView<'a>>,
    pub(crate) caption: Option<&'a str>,
    pub(crate) link: Option<&'a str>,
    /// What a linked image without alt text is announced as.
    pub(crate) link_label: &'a str,
}

impl<'a> ImageBlock<'a> {
    pub(crate) fn new(
        scope: &RenderScope<'a>,
        image: &'a MediaRef,
        caption: Option<&'a str>,
        link: Option<&'a str>,
    ) -> Self {
        let link = link.map(urls::safe_href);
        // A link needs a name: an image that has no alt text borrows its caption.
        let link_label = match (image.alt.trim().is_empty(), caption) {
            (true, Some(caption)) if !caption.trim().is_empty() => caption,
            (true, _) => "Open the linked page",
            (false, _) => "",
        };
        Self {
            image: scope.image(image),
            caption: caption.filter(|caption| !caption.trim().is_empty()),
            link,
            link_label,
        }
    }
}

/// A map block: the address as text, a link to the location on OpenStreetMap (new window),
/// and, when the site has a tile server, a static map image composed on this server
/// (`/api/maps/static`) that the map island may turn into an interactive map once the
/// visitor agrees to load tiles from the tile server. No script or other origin is needed to
/// see it.
#[derive(Debug, Template)]
#[template(path = "blocks/map.html", whitespace = "minimize")]
pub(crate) struct MapBlock<'a> {
    pub(crate) style: &'static str,
    pub(crate) title: &'a str,
    pub(crate) lines: Vec<&'a str>,
    pub(crate) maps_url: Option<String>,
    /// The static map, on sites with a tile server.
    pub(crate) image: Option<StaticMapImage>,
    /// The credit the tile server asks for, shown under its tiles.
    pub(crate) attribution: Option<&'a str>,
}

/// The server-composed map image of a map block.
#[derive(Debug)]
pub(crate) struct StaticMapImage {
    pub(crate) src: String,
    pub(crate) alt: String,
    pub(crate) width: u32,
    pub(crate) height: u32,
}

/// What the map island needs: the location, the style and the UI options a raster tile map
/// can honour (labels and terrain are drawn into the tiles, so they are the tile server's),
/// and the tile server.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct MapIslandProps<'a> {
    lat: f64,
    lng: f64,
    marker_lat: f64,
    marker_lng: f64,
    zoom: u8,
    style: &'static str,
    tile_url: &'a str,
    tile_host: &'a str,
    attribution: &'a str,
    maps_url: Option<&'a str>,
    /// What the marker is announced as.
    marker_label: String,
    draggable: bool,
    scrollwheel: bool,
    show_controls: bool,
    marker_draggable: bool,
    link_on_click: bool,
}

impl<'a> MapBlock<'a> {
    pub(crate) fn new(
        location: &'a MapLocation,
        style: MapStyle,
        tiles: Option<&'a TileServer>,
    ) -> Self {
        let lines: Vec<&str> = [
            &location.address_line1,
            &location.address_line2,
            &location.address_country,
        ]
        .into_iter()
        .map(|line| line.trim())
        .filter(|line| !line.is_empty())
        .collect();
        let title = location.address_title.trim();
        let image = tiles.map(|server| StaticMapImage {
            src: format!(
                "{STATIC_MAP_PATH}?{}&v={}",
                StaticMapRequest::of(location).query(),
                server.fingerprint()
            ),
            alt: format!("Map of {}", place_name(title, &lines)),
            width: STATIC_MAP_WIDTH,
            height: STATIC_MAP_HEIGHT,
        });
        Self {
            style: style_class(style),
            title,
            lines,
            maps_url: urls::openstreetmap_url(
                location.marker(),
                (location.map_lat, location.map_lng),
                location.map_zoom,
            ),
            image,
            attribution: tiles.map(TileServer::attribution),
        }
    }

    /// The island's props, on sites with a tile server (without one there is nothing to load).
    pub(crate) fn island_props(
        &self,
        location: &MapLocation,
        style: MapStyle,
        options: &MapUiOptions,
        tiles: &'a TileServer,
    ) -> MapIslandProps<'_> {
        let (marker_lat, marker_lng) = location.marker();
        MapIslandProps {
            lat: location.map_lat,
            lng: location.map_lng,
            marker_lat,
            marker_lng,
            zoom: location.map_zoom,
            style: style_class(style),
            tile_url: tiles.template().as_str(),
            tile_host: tiles.template().host(),
            attribution: tiles.attribution(),
            maps_url: self.maps_url.as_deref(),
            marker_label: place_name(self.title, &self.lines),
            draggable: options.draggable,
            scrollwheel: options.scrollwheel,
            show_controls: options.controls_shown(),
            marker_draggable: options.marker_draggable,
            link_on_click: options.link_on_click,
        }
    }
}

/// How the place is named in texts: its title, else its first address line.
fn place_name(title: &str, lines: &[&str]) -> String {
    match (title, lines.first()) {
        ("", Some(line)) => (*line).to_owned(),
        ("", None) => "the location".to_owned(),
        (title, _) => title.to_owned(),
    }
}

fn style_class(style: MapStyle) -> &'static str {
    match style {
        MapStyle::Original => "original",
        MapStyle::Grayscale => "grayscale",
        MapStyle::Satellite => "satellite",
        MapStyle::MinimalDark => "minimal-dark",
        MapStyle::MinimalLight => "minimal-light",
        MapStyle::MinimalBlue => "minimal-blue",
    }
}
