//! The fields of the embed, audio, shape, menu, calendar, table-reservation and follow-button
//! blocks as a bundle writes them.

use serde::Deserialize;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct EmbedDto {
    pub url: String,
    pub title: String,
    pub height: Option<u16>,
    #[serde(default)]
    pub essential: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct AudioDto {
    pub title: String,
    pub artist: Option<String>,
    pub tracks: Vec<AudioTrackDto>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct AudioTrackDto {
    pub title: String,
    /// `/media/<file>` of an .mp3, .ogg or .wav file in the bundle.
    pub file: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ShapeDto {
    pub shape: String,
    pub color: Option<String>,
    pub label: Option<String>,
    #[serde(rename = "drop-shadow")]
    pub drop_shadow: Option<DropShadowDto>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct DropShadowDto {
    pub angle: f64,
    pub distance: ShadowLengthDto,
    pub blur: ShadowLengthDto,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ShadowLengthDto {
    pub value: f64,
    #[serde(default = "pixels")]
    pub unit: String,
}

fn pixels() -> String {
    "px".to_owned()
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct MenuDto {
    pub tabs: Vec<MenuTabDto>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct MenuTabDto {
    pub title: String,
    #[serde(default)]
    pub sections: Vec<MenuSectionDto>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct MenuSectionDto {
    pub title: String,
    #[serde(default)]
    pub items: Vec<MenuItemDto>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct MenuItemDto {
    pub name: String,
    pub description: Option<String>,
    pub price: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CalendarDto {
    /// The slug of a collection that lists items.
    pub collection: String,
    pub title: Option<String>,
    /// The month the calendar opens on, such as "2027-05".
    pub month: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct FollowButtonDto {
    /// The account's username on the platform, without the @.
    pub username: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct TableReservationDto {
    #[serde(rename = "restaurant-id")]
    pub restaurant_id: u32,
    #[serde(rename = "restaurant-name")]
    pub restaurant_name: String,
}
