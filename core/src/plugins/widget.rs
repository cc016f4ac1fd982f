//! `GetWidgetRendering` (000 s7): the browser asks for a block's HTML again, for example the
//! event summary island refreshing its list; plugin-rendered blocks answer through the port.

use serde::Deserialize;
use thiserror::Error;

use crate::enums::BlockType;
use crate::plugins::{
    BlockRenderError, BlockRenderRequest, BlockRenderer, PluginBlockType, PluginRendering,
};

/// The `type` of `widgetJSON`: the specification's code, or the name of a custom type (which
/// has no code), such as `"event summary"`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(untagged)]
pub enum WidgetType {
    Code(u16),
    Name(String),
}

/// The `widgetJSON` form field: the block type's code, the block id without its prefix, the
/// block's JSON and, for event summary blocks, the collection to read.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WidgetRequest {
    #[serde(rename = "type")]
    pub block_type: WidgetType,
    pub id: String,
    pub value: serde_json::Value,
    #[serde(default)]
    pub collection_id: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum WidgetError {
    #[error("widgetJSON is not valid: {0}")]
    Invalid(String),
    #[error("unknown block type {0}")]
    UnknownType(String),
    #[error(transparent)]
    Render(#[from] BlockRenderError),
}

impl WidgetRequest {
    pub fn parse(widget_json: &str) -> Result<Self, WidgetError> {
        serde_json::from_str(widget_json).map_err(|error| WidgetError::Invalid(error.to_string()))
    }

    /// The block type the request names: the specification's code or a custom type's name.
    pub fn block_type(&self) -> Result<PluginBlockType, WidgetError> {
        match &self.block_type {
            WidgetType::Code(code) => BlockType::from_code(*code)
                .map(PluginBlockType::Spec)
                .map_err(|_| WidgetError::UnknownType(code.to_string())),
            WidgetType::Name(name) => {
                PluginBlockType::from_name(name).map_err(|_| WidgetError::UnknownType(name.clone()))
            }
        }
    }

    /// The data the plugin receives: the block's JSON, with `collectionId` added to an object
    /// value when the request names a collection, so summary-style plugins know what to read.
    pub fn data(&self) -> String {
        let mut value = self.value.clone();
        if let (Some(collection), Some(object)) = (&self.collection_id, value.as_object_mut()) {
            object.insert("collectionId".to_owned(), collection.clone().into());
        }
        value.to_string()
    }
}

/// Renders one widget with the plugin that claims its type, in the site's locale (a BCP 47
/// tag) and currency (an ISO 4217 code).
pub fn render_widget(
    renderer: &dyn BlockRenderer,
    (locale, currency): (&str, &str),
    request: &WidgetRequest,
    page_url: &str,
) -> Result<PluginRendering, WidgetError> {
    let block_type = request.block_type()?;
    let data = request.data();
    let render = BlockRenderRequest {
        locale,
        currency,
        block_id: &request.id,
        block_type,
        signed_in: false,
        page_url,
        data: &data,
    };
    Ok(renderer.render(&render)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plugins::InMemoryBlockRenderer;

    #[test]
    fn a_widget_renders_with_its_collection_in_the_data() {
        let request = WidgetRequest::parse(
            r#"{"type":62,"id":"abc","value":{"points":[]},"collectionId":"events"}"#,
        )
        .unwrap();
        let renderer = InMemoryBlockRenderer::new().with_html(BlockType::Chart, "<p>{data}</p>");
        let rendering = render_widget(&renderer, ("en-GB", "EUR"), &request, "/").unwrap();
        assert_eq!(
            rendering.html.as_str(),
            r#"<p>{"collectionId":"events","points":[]}</p>"#
        );
        assert_eq!(renderer.rendered(), ["abc"]);
    }

    #[test]
    fn bad_json_unknown_types_and_unclaimed_types_are_errors() {
        assert!(matches!(
            WidgetRequest::parse("{"),
            Err(WidgetError::Invalid(_))
        ));
        let renderer = InMemoryBlockRenderer::new();
        let settings = ("en-US", "USD");
        let unknown = WidgetRequest::parse(r#"{"type":999,"id":"a","value":{}}"#).unwrap();
        assert_eq!(
            render_widget(&renderer, settings, &unknown, "/"),
            Err(WidgetError::UnknownType("999".to_owned()))
        );
        let custom =
            WidgetRequest::parse(r#"{"type":"event summary","id":"a","value":{}}"#).unwrap();
        assert_eq!(
            render_widget(&renderer, settings, &custom, "/"),
            Err(WidgetError::Render(BlockRenderError::Unclaimed(
                PluginBlockType::Custom("event summary".to_owned())
            )))
        );
        let unclaimed = WidgetRequest::parse(r#"{"type":26,"id":"a","value":{}}"#).unwrap();
        assert_eq!(
            render_widget(&renderer, settings, &unclaimed, "/"),
            Err(WidgetError::Render(BlockRenderError::Unclaimed(
                BlockType::Calendar.into()
            )))
        );
    }
}

#[cfg(test)]
mod wire {
    use super::WidgetRequest;

    /// The wire names of `widgetJSON` (000 s7); a rename here breaks the browser's requests.
    #[test]
    fn widget_json_fields_keep_their_wire_names() {
        let request = WidgetRequest::parse(
            r#"{"type":59,"id":"tour","value":{"dates":[]},"collectionId":"events"}"#,
        )
        .unwrap();
        insta::assert_debug_snapshot!(request, @r#"
        WidgetRequest {
            block_type: Code(
                59,
            ),
            id: "tour",
            value: Object {
                "dates": Array [],
            },
            collection_id: Some(
                "events",
            ),
        }
        "#);
    }
}
