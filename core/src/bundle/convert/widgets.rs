//! The block types with rules of their own: forms (spec 001 s3 field properties), maps
//! (coordinates and zoom) and videos (their provider).

use crate::bundle::BundleError;
use crate::bundle::convert::non_empty;
use crate::bundle::dto::{FormDto, FormFieldDto, FormFieldTypeDto, MapDto, MapStyleDto};
use crate::bundle::error::At;
use crate::bundle::text::{markdown, slugify};
use crate::site::{
    BlockContent, BlockId, FormBlock, FormField, FormFieldType, MapLocation, MapLocationInput,
    MapStyle, MapUiOptions,
};

pub(crate) fn form(at: &At, dto: FormDto, id: &BlockId) -> Result<BlockContent, BundleError> {
    // Spec 001 s3: only a text area has a maximum length.
    let fields = form_fields(at, dto.fields, &[FormFieldTypeDto::Textarea])?;
    let success_url = match dto.success_url.as_deref() {
        None => None,
        Some(url) => Some(
            crate::forms::success_url::success_url(url)
                .ok_or_else(|| {
                    at.field("success_url").error(format!(
                        "expected a site path starting with / or an http(s) URL, found {url:?}"
                    ))
                })?
                .to_owned(),
        ),
    };
    Ok(BlockContent::Form(FormBlock {
        success_url,
        form_id: dto.form_id.unwrap_or_else(|| id.to_string()),
        title: dto.title,
        fields,
        submit_label: dto.submit_label,
        post_submit_message: markdown(
            dto.post_submit_message
                .as_deref()
                .unwrap_or("Thank you! We have received your message."),
        ),
    }))
}

/// The fields of a form at `at` (a form block or a product's form): titled, with unique ids,
/// options where the type has them, and a maximum length only on the `max_length_on` types.
pub(crate) fn form_fields(
    at: &At,
    dtos: Vec<FormFieldDto>,
    max_length_on: &[FormFieldTypeDto],
) -> Result<Vec<FormField>, BundleError> {
    if dtos.is_empty() {
        return Err(at.field("fields").error("expected at least one field"));
    }
    let mut fields: Vec<FormField> = Vec::with_capacity(dtos.len());
    for (index, field) in dtos.into_iter().enumerate() {
        let field_at = at.field("fields").index(index);
        non_empty(&field_at.field("title"), &field.title)?;
        let field_id = field.id.unwrap_or_else(|| slugify(&field.title));
        if field_id.is_empty() {
            return Err(field_at
                .field("id")
                .error("missing; this title makes no id"));
        }
        if fields.iter().any(|earlier| earlier.id == field_id) {
            return Err(field_at.field("id").error(format!(
                "the field id '{field_id}' is already used in this form"
            )));
        }
        let with_options = matches!(
            field.field_type,
            FormFieldTypeDto::Radio
                | FormFieldTypeDto::Checkbox
                | FormFieldTypeDto::Select
                | FormFieldTypeDto::Likert
        );
        if with_options && field.options.is_empty() {
            return Err(field_at
                .field("options")
                .error("expected at least one option for this field type"));
        }
        if !with_options && !field.options.is_empty() {
            return Err(field_at.field("options").error(
                "expected no options; only radio, checkbox, select and likert fields have them",
            ));
        }
        if let Some(max) = field.max_length
            && (!max_length_on.contains(&field.field_type) || max == 0)
        {
            let types: Vec<String> = max_length_on
                .iter()
                .map(|kind| format!("a {} field", format!("{kind:?}").to_lowercase()))
                .collect();
            return Err(field_at.field("max_length").error(format!(
                "expected a maximum length above 0 on {} only, found {max}",
                types.join(" or ")
            )));
        }
        fields.push(FormField {
            id: field_id,
            field_type: field_type(field.field_type),
            title: field.title,
            description: field.description,
            placeholder: field.placeholder,
            required: field.required,
            options: field.options,
            max_length: field.max_length,
        });
    }
    Ok(fields)
}

fn field_type(dto: FormFieldTypeDto) -> FormFieldType {
    match dto {
        FormFieldTypeDto::Text => FormFieldType::Text,
        FormFieldTypeDto::Textarea => FormFieldType::Textarea,
        FormFieldTypeDto::Email => FormFieldType::Email,
        FormFieldTypeDto::Number => FormFieldType::Number,
        FormFieldTypeDto::Website => FormFieldType::Website,
        FormFieldTypeDto::Currency => FormFieldType::Currency,
        FormFieldTypeDto::Password => FormFieldType::Password,
        FormFieldTypeDto::Twitter => FormFieldType::Twitter,
        FormFieldTypeDto::Date => FormFieldType::Date,
        FormFieldTypeDto::Time => FormFieldType::Time,
        FormFieldTypeDto::Name => FormFieldType::Name,
        FormFieldTypeDto::Address => FormFieldType::Address,
        FormFieldTypeDto::Phone => FormFieldType::Phone,
        FormFieldTypeDto::Section => FormFieldType::Section,
        FormFieldTypeDto::Radio => FormFieldType::Radio,
        FormFieldTypeDto::Checkbox => FormFieldType::Checkbox,
        FormFieldTypeDto::Select => FormFieldType::Select,
        FormFieldTypeDto::Likert => FormFieldType::Likert,
        FormFieldTypeDto::Hidden => FormFieldType::Hidden,
    }
}

pub(crate) fn map(at: &At, dto: MapDto) -> Result<BlockContent, BundleError> {
    let defaults = MapUiOptions::default();
    let options = MapUiOptions {
        show_labels: dto.show_labels.unwrap_or(defaults.show_labels),
        show_terrain: dto.show_terrain.unwrap_or(defaults.show_terrain),
        draggable: dto.draggable.unwrap_or(defaults.draggable),
        scrollwheel: dto.scrollwheel.unwrap_or(defaults.scrollwheel),
        show_controls: dto.show_controls.unwrap_or(defaults.show_controls),
        disable_default_ui: dto
            .disable_default_ui
            .unwrap_or(defaults.disable_default_ui),
        marker_draggable: dto.marker_draggable.unwrap_or(defaults.marker_draggable),
        link_on_click: dto.link_on_click.unwrap_or(defaults.link_on_click),
    };
    let location = MapLocation::normalise(MapLocationInput {
        map_lat: dto.lat,
        map_lng: dto.lng,
        marker_lat: dto.marker_lat,
        marker_lng: dto.marker_lng,
        map_zoom: dto.zoom,
        address_title: dto.address_title,
        address_line1: dto.address_line1,
        address_line2: dto.address_line2,
        address_country: dto.address_country,
    })
    .map_err(|error| {
        // The bundle spells the spec's fields in its own way.
        let field = match error.field() {
            "mapLat" => "lat",
            "mapLng" => "lng",
            "markerLat" => "marker_lat",
            "markerLng" => "marker_lng",
            _ => "zoom",
        };
        at.field(field).error(error.to_string())
    })?;
    Ok(BlockContent::Map {
        location,
        options,
        style: match dto.style {
            MapStyleDto::Original => MapStyle::Original,
            MapStyleDto::Grayscale => MapStyle::Grayscale,
            MapStyleDto::Satellite => MapStyle::Satellite,
            MapStyleDto::MinimalDark => MapStyle::MinimalDark,
            MapStyleDto::MinimalLight => MapStyle::MinimalLight,
            MapStyleDto::MinimalBlue => MapStyle::MinimalBlue,
        },
    })
}

/// The provider of a video URL on the common hosts.
pub(crate) fn video_provider(url: &str) -> Option<String> {
    let host = url
        .strip_prefix("https://")?
        .split(['/', '?', '#'])
        .next()?
        .trim_start_matches("www.")
        .trim_start_matches("m.");
    match host {
        "youtube.com" | "youtu.be" | "youtube-nocookie.com" => Some("YouTube".to_owned()),
        "vimeo.com" | "player.vimeo.com" => Some("Vimeo".to_owned()),
        _ => None,
    }
}
