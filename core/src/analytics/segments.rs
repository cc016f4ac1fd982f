//! What a page view is counted under besides its page and referrer: the campaign that brought
//! the visitor (the landing address's `utm_source`, `utm_medium` and `utm_campaign`) and the
//! class of device it was seen on. Both are decided once, when the row is stored, from what the
//! page view already sends, and both are coarse on purpose: a campaign is what the owner wrote
//! into their own links, and a device class is one of three words, so neither can single out
//! a visitor (no fingerprinting: no screen size, model or browser version is kept apart from
//! the row's data, and the class says nothing the data did not).

use serde_json::Value;

use super::store::PAGE_VIEW;

/// The campaign parameters the report reads, in the order the key shows them.
pub const CAMPAIGN_PARAMETERS: [&str; 3] = ["utm_source", "utm_medium", "utm_campaign"];

/// What a campaign key shows where its link left a parameter out.
pub const NO_CAMPAIGN_PART: &str = "(none)";

/// The longest campaign parameter kept, in characters: a key stays within the report's
/// subject length (three parts and two separators).
pub const MAX_CAMPAIGN_PART_CHARS: usize = 64;

/// The widest viewport counted as a phone, in CSS pixels, and the widest counted as a tablet.
/// These are the usual breakpoints of responsive layouts (Bootstrap's `md` and `lg`).
pub const PHONE_MAX_WIDTH: u64 = 767;
pub const TABLET_MAX_WIDTH: u64 = 1023;

/// A device class: how the report groups page views by device.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeviceClass {
    Mobile,
    Tablet,
    Desktop,
}

impl DeviceClass {
    pub const fn wire(self) -> &'static str {
        match self {
            Self::Mobile => "mobile",
            Self::Tablet => "tablet",
            Self::Desktop => "desktop",
        }
    }

    /// The class of a viewport `width` wide, in CSS pixels.
    pub const fn of_width(width: u64) -> Self {
        if width <= PHONE_MAX_WIDTH {
            Self::Mobile
        } else if width <= TABLET_MAX_WIDTH {
            Self::Tablet
        } else {
            Self::Desktop
        }
    }

    /// The class a user agent announces: phones say `Mobi` (Mozilla's advice for detecting
    /// mobile browsers), tablets say `iPad` or `Tablet`, or are Android without `Mobi`.
    pub fn of_user_agent(agent: &str) -> Option<Self> {
        let agent = agent.trim();
        if agent.is_empty() {
            return None;
        }
        Some(if agent.contains("Mobi") {
            Self::Mobile
        } else if agent.contains("iPad") || agent.contains("Tablet") || agent.contains("Android") {
            Self::Tablet
        } else {
            Self::Desktop
        })
    }
}

/// The device class of a page view: by the width of the viewport the page was shown in when
/// the page view says it (what the visitor actually saw), else by the user agent it sends;
/// none for other rows or a page view that says neither.
pub fn device_of(kind: &str, data: &Value) -> Option<String> {
    if kind != PAGE_VIEW {
        return None;
    }
    let by_width = data
        .get("viewportInnerWidth")
        .and_then(Value::as_u64)
        .filter(|width| *width > 0)
        .map(DeviceClass::of_width);
    by_width
        .or_else(|| {
            data.get("userAgent")
                .and_then(Value::as_str)
                .and_then(DeviceClass::of_user_agent)
        })
        .map(|class| class.wire().to_owned())
}

/// The campaign of a page view that landed from a tagged link: `source / medium / campaign`
/// from the query of the page's address, a missing part shown as [`NO_CAMPAIGN_PART`]. A link
/// without `utm_source` names no campaign (as in every analytics tool that reads these tags).
/// Each part is trimmed, lowercased (`Newsletter` and `newsletter` are one source) and cut to
/// [`MAX_CAMPAIGN_PART_CHARS`].
pub fn campaign_of(kind: &str, data: &Value) -> Option<String> {
    if kind != PAGE_VIEW {
        return None;
    }
    let address = url::Url::parse(data.get("url")?.as_str()?).ok()?;
    let mut parts: [Option<String>; 3] = Default::default();
    for (name, value) in address.query_pairs() {
        let Some(at) = CAMPAIGN_PARAMETERS.iter().position(|p| *p == name) else {
            continue;
        };
        let value = value.trim();
        if parts[at].is_none() && !value.is_empty() {
            let cut: String = value.chars().take(MAX_CAMPAIGN_PART_CHARS).collect();
            parts[at] = Some(cut.to_lowercase());
        }
    }
    parts[0].as_ref()?;
    Some(
        parts
            .iter()
            .map(|part| part.as_deref().unwrap_or(NO_CAMPAIGN_PART))
            .collect::<Vec<_>>()
            .join(" / "),
    )
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn view(url: &str) -> Value {
        json!({ "pagePath": "/", "url": url })
    }

    #[test]
    fn campaigns_come_from_the_landing_address_tags() {
        assert_eq!(
            campaign_of(
                PAGE_VIEW,
                &view(
                    "https://shop.example/?utm_source=Newsletter&utm_medium=email&utm_campaign=spring%20sale"
                )
            ),
            Some("newsletter / email / spring sale".into())
        );
        assert_eq!(
            campaign_of(PAGE_VIEW, &view("https://shop.example/a?utm_source=ads")),
            Some("ads / (none) / (none)".into())
        );
        assert_eq!(
            campaign_of(
                PAGE_VIEW,
                &view("https://shop.example/?utm_medium=email&utm_campaign=x")
            ),
            None,
            "no source, no campaign"
        );
        assert_eq!(
            campaign_of(PAGE_VIEW, &view("https://shop.example/?utm_source=+")),
            None
        );
        assert_eq!(campaign_of(PAGE_VIEW, &view("not an address")), None);
        assert_eq!(
            campaign_of("button-click", &view("https://shop.example/?utm_source=a")),
            None
        );
        let long = "x".repeat(500);
        let key = campaign_of(
            PAGE_VIEW,
            &view(&format!(
                "https://shop.example/?utm_source={long}&utm_medium={long}&utm_campaign={long}"
            )),
        )
        .unwrap();
        assert!(key.chars().count() <= super::super::MAX_SUBJECT_CHARS);
    }

    #[test]
    fn devices_are_classed_by_viewport_then_user_agent() {
        let phone = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148";
        let tablet = "Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X)";
        let android_tablet = "Mozilla/5.0 (Linux; Android 14; SM-X710) Safari/537.36";
        let desktop = "Mozilla/5.0 (X11; Linux x86_64) Gecko/20100101 Firefox/130.0";
        let by_agent = |agent: &str| device_of(PAGE_VIEW, &json!({ "userAgent": agent }));
        assert_eq!(by_agent(phone).as_deref(), Some("mobile"));
        assert_eq!(by_agent(tablet).as_deref(), Some("tablet"));
        assert_eq!(by_agent(android_tablet).as_deref(), Some("tablet"));
        assert_eq!(by_agent(desktop).as_deref(), Some("desktop"));
        assert_eq!(by_agent(" "), None);
        let by_width = |width: u64| {
            device_of(
                PAGE_VIEW,
                &json!({ "viewportInnerWidth": width, "userAgent": desktop }),
            )
        };
        assert_eq!(by_width(390).as_deref(), Some("mobile"));
        assert_eq!(by_width(767).as_deref(), Some("mobile"));
        assert_eq!(by_width(768).as_deref(), Some("tablet"));
        assert_eq!(by_width(1023).as_deref(), Some("tablet"));
        assert_eq!(by_width(1024).as_deref(), Some("desktop"));
        assert_eq!(
            by_width(0).as_deref(),
            Some("desktop"),
            "0 falls back to the agent"
        );
        assert_eq!(device_of(PAGE_VIEW, &json!({})), None);
        assert_eq!(
            device_of("button-click", &json!({ "viewportInnerWidth": 390 })),
            None
        );
    }
}
