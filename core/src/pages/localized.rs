//! A page in one of the site's translations: the same page as in the default language, its
//! visible texts translated, its links kept inside the language, its fixed texts and locale
//! those of the translation.

use crate::languages::SiteTranslation;
use crate::pages::{PageContent, PageView};

/// Turns `view`, a page of the default language, into its translation, served at `path`
/// (the page's path with the language's prefix).
pub(crate) fn localize(view: &mut PageView, translation: &SiteTranslation) {
    let t = translation;
    view.path = t.localized_path(&view.path);
    view.title = view
        .title
        .split(" — ")
        .map(|part| t.translate(part))
        .collect::<Vec<_>>()
        .join(" — ");
    view.description = t.translate(&view.description);
    match &mut view.content {
        PageContent::Layout { collection } | PageContent::Slide { collection, .. } => {
            *collection = t.translated(collection);
        }
        PageContent::ItemList { collection, items } => {
            *collection = t.translated(collection);
            *items = items.iter().map(|item| t.translated(item)).collect();
        }
        PageContent::Item { collection, item } => {
            *collection = t.translated(collection);
            *item = t.translated(item);
        }
        PageContent::NotFound
        | PageContent::Error
        | PageContent::Locked { .. }
        | PageContent::Commerce => {}
    }
    if let PageContent::Slide { page_path, .. } = &mut view.content {
        *page_path = t.localized_path(page_path);
    }
    for summary in view.resolved.summaries.values_mut() {
        summary.collection = t.translated(&summary.collection);
        summary.items = summary
            .items
            .iter()
            .map(|item| t.translated(item))
            .collect();
    }
    for product in view.resolved.products.values_mut() {
        product.item = t.translated(&product.item);
        product.path = t.localized_path(&product.path);
    }
    let profile = &mut view.profile;
    profile.navigation = t.translated(&profile.navigation);
    profile.settings.site_title = t.translate(&profile.settings.site_title);
    profile.settings.site_description = t.translate(&profile.settings.site_description);
    profile.header_footer = t.translated(&profile.header_footer);
    profile.settings.locale = t.locale.to_string();
    profile.languages.current = t.locale.clone();
    profile.languages.messages = t.messages.clone();
    view.context.website_locale = t.locale.to_string();
}
