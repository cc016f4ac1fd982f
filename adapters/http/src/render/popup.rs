//! The popup overlay's markup (000 s3, s4): a closed modal `<dialog>` at the end of every page
//! of a site whose overlay is on. Pages are cached and shared, so the server never decides
//! whether a visitor sees it; the popup script opens it when the core's display rules allow.
//! Its newsletter form is an overlay form (`data-overlay-form`) that mounts the newsletter
//! island only when the dialog opens, so a page without interactive blocks loads no React
//! until the visitor actually sees the popup.

use askama::Template;
use vitrine_core::enums::BlockType;
use vitrine_core::popup::{POPUP_FORM_ID, popup_enabled};
use vitrine_core::site::PopupOverlaySettings;

use super::forms::{CaptchaWidget, NewsletterIslandProps, NewsletterView};
use super::markup::Markup;

/// The popup overlay of one site.
#[derive(Template)]
#[template(path = "partials/popup_overlay.html", whitespace = "minimize")]
pub(crate) struct PopupOverlay<'a> {
    style_class: String,
    title: &'a str,
    /// Names the dialog when the owner gave it no heading.
    site_title: &'a str,
    body: Markup,
    pub(crate) newsletter: Option<NewsletterView<'a>>,
    form_id: &'static str,
    newsletter_code: u16,
    island_props: String,
}

impl askama::filters::HtmlSafe for PopupOverlay<'_> {}
// The newsletter form is an askama template of its own, so already escaped.
impl askama::filters::HtmlSafe for NewsletterView<'_> {}

impl<'a> PopupOverlay<'a> {
    /// The overlay of a site, or `None` when its style is `none`.
    pub(crate) fn for_site(
        settings: &'a PopupOverlaySettings,
        site_title: &'a str,
        captcha: Option<CaptchaWidget<'a>>,
    ) -> Option<Self> {
        if !popup_enabled(settings) {
            return None;
        }
        let content = &settings.content;
        Some(Self {
            style_class: style_class(&settings.style),
            title: content.title.trim(),
            site_title,
            body: Markup::sanitized(&content.body),
            newsletter: content.newsletter.then(|| NewsletterView {
                id: POPUP_FORM_ID,
                // The dialog's heading already names the form.
                title: "",
                description: "",
                button_label: &content.button_label,
                placeholder: &content.placeholder,
                captcha,
            }),
            form_id: POPUP_FORM_ID,
            newsletter_code: BlockType::Newsletter.code(),
            island_props: serde_json::to_string(&NewsletterIslandProps {
                form_id: POPUP_FORM_ID,
            })
            .unwrap_or_else(|_| "{}".to_owned()),
        })
    }
}

/// The owner's style name as a class suffix: lowercase letters, digits and dashes only.
fn style_class(style: &str) -> String {
    style
        .trim()
        .to_ascii_lowercase()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use vitrine_core::site::{PopupContent, SafeHtml};

    fn settings(style: &str, newsletter: bool) -> PopupOverlaySettings {
        PopupOverlaySettings {
            style: style.to_owned(),
            content: PopupContent {
                title: "Studio letters".to_owned(),
                body: SafeHtml::sanitize("<p>Monthly <script>x()</script>news</p>"),
                newsletter,
                button_label: "Subscribe".to_owned(),
                placeholder: String::new(),
            },
            ..PopupOverlaySettings::default()
        }
    }

    #[test]
    fn style_none_renders_nothing() {
        assert!(PopupOverlay::for_site(&settings("none", true), "Site", None).is_none());
        assert!(PopupOverlay::for_site(&settings(" ", true), "Site", None).is_none());
    }

    #[test]
    fn it_is_a_closed_labelled_dialog_with_an_overlay_newsletter_form() {
        let s = settings("Full Width", true);
        let html = PopupOverlay::for_site(&s, "Site", None)
            .unwrap()
            .to_string();
        expect_test::expect![[r#"
            <dialog class="popup-overlay popup-overlay--full-width" data-vitrine-popup-overlay data-overlay-form aria-labelledby="popup-overlay-title">
            <div class="popup-overlay__panel">
            <button type="button" class="popup-overlay__close" data-popup-close aria-label="Close"><span aria-hidden="true">&#10005;</span></button>
            <h2 class="popup-overlay__title" id="popup-overlay-title">Studio letters</h2>
            <div class="popup-overlay__body"><p>Monthly news</p></div>
            <div class="sqs-block newsletter-block" id="block-popup-overlay" data-block-type="51" data-popup-island="newsletter" data-island-props="{&#34;formId&#34;:&#34;popup-overlay&#34;}">
            <form class="newsletter" method="post" action="/form-submission">
            <input type="hidden" name="objectName" value="popup-overlay">
            <div class="visually-hidden" aria-hidden="true">
            <label for="block-popup-overlay-honeypot">Leave this field empty</label>
            <input id="block-popup-overlay-honeypot" type="text" name="honeypot" value="" tabindex="-1" autocomplete="off">
            </div>
            <div class="newsletter__row">
            <label class="visually-hidden" for="block-popup-overlay-email">Email address</label>
            <input class="field__control" id="block-popup-overlay-email" name="email" type="email" autocomplete="email" required>
            <button class="button button--primary" type="submit">Subscribe</button>
            </div>
            </form>
            </div>
            </div>
            </dialog>"#]]
        .assert_eq(&html);
    }

    #[test]
    fn without_a_title_the_site_names_it_and_without_a_newsletter_there_is_no_form() {
        let mut s = settings("full", false);
        s.content.title = String::new();
        let html = PopupOverlay::for_site(&s, "Terraluz", None)
            .unwrap()
            .to_string();
        assert!(html.contains(r#"aria-label="Terraluz""#));
        assert!(!html.contains("<form"));
        assert!(!html.contains("<h2"));
    }
}
