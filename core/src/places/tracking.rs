//! The tracking context a places call carries (001 s7): `productPage` and `productSection`
//! are expected; a call without them still answers, and the caller logs the problem.

use serde::Deserialize;
use thiserror::Error;

/// Where in the product the call was made, for the logs.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TrackingContext {
    pub product_page: String,
    pub product_section: String,
}

/// What is wrong with a call's tracking context.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TrackingContextProblem {
    #[error("the places call carries no trackingContext")]
    Missing,
    #[error("the places call's trackingContext is not a JSON object")]
    NotAnObject,
    #[error("the places call's trackingContext has no {0}")]
    MissingField(&'static str),
}

impl TrackingContext {
    /// The context from the call's `trackingContext` parameter, a JSON object whose
    /// `productPage` and `productSection` are non-empty strings.
    pub fn check(raw: Option<&str>) -> Result<Self, TrackingContextProblem> {
        let raw = raw.ok_or(TrackingContextProblem::Missing)?;
        let object: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(raw).map_err(|_| TrackingContextProblem::NotAnObject)?;
        let text = |field: &'static str| {
            object
                .get(field)
                .and_then(serde_json::Value::as_str)
                .filter(|value| !value.trim().is_empty())
                .map(str::to_owned)
                .ok_or(TrackingContextProblem::MissingField(field))
        };
        Ok(Self {
            product_page: text("productPage")?,
            product_section: text("productSection")?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_fields_are_expected() {
        let context =
            TrackingContext::check(Some(r#"{"productPage":"editor","productSection":"map"}"#))
                .unwrap();
        assert_eq!(
            (
                context.product_page.as_str(),
                context.product_section.as_str()
            ),
            ("editor", "map")
        );
        let cases = [
            (None, TrackingContextProblem::Missing),
            (Some("editor"), TrackingContextProblem::NotAnObject),
            (Some("[1]"), TrackingContextProblem::NotAnObject),
            (
                Some(r#"{"productSection":"map"}"#),
                TrackingContextProblem::MissingField("productPage"),
            ),
            (
                Some(r#"{"productPage":"editor","productSection":" "}"#),
                TrackingContextProblem::MissingField("productSection"),
            ),
            (
                Some(r#"{"productPage":"editor","productSection":3}"#),
                TrackingContextProblem::MissingField("productSection"),
            ),
        ];
        for (raw, problem) in cases {
            assert_eq!(TrackingContext::check(raw).unwrap_err(), problem, "{raw:?}");
        }
    }
}
