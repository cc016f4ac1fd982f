//! `site.toml` into the website, its settings and its navigation.

use crate::bundle::BundleError;
use crate::bundle::convert::{Converter, chosen_id, non_empty};
use crate::bundle::dto::{
    InformationBarDto, MeasurementDto, NavLinkDto, SiteFile, WebsiteDto, WebsiteStatusDto,
    WebsiteTypeDto,
};
use crate::bundle::error::At;
use crate::bundle::files::SITE_FILE;
use crate::bundle::text::markdown;
use crate::enums::{WebsiteStatus, WebsiteType};
use crate::money::Currency;
use crate::site::{
    CookieBannerLook, CookieSettings, HIDDEN_NAVIGATION, InformationBar, NavLink, Navigation,
    PopupContent, PopupOverlaySettings, Slug, StoreSettings, TemplateInfo, Website,
    WebsiteSettings,
};

/// The locale of a site that names none (spec 000 s1).
const DEFAULT_LOCALE: &str = "en-US";

impl Converter {
    pub(crate) fn site_profile(
        &self,
        file: SiteFile,
    ) -> Result<(Website, WebsiteSettings, Navigation), BundleError> {
        let root = At::root(SITE_FILE);
        let website = website(&root.field("website"), file.website)?;
        let at = root.field("settings");
        let dto = file.settings;
        non_empty(&at.field("title"), &dto.title)?;
        let locale = dto.locale.unwrap_or_else(|| DEFAULT_LOCALE.to_owned());
        check_locale(&at.field("locale"), &locale)?;
        let home = self.home(&at.field("home"), &dto.home)?;
        let store_rules = super::store_rules::store_rules(&at.field("store"), &dto.store)?;
        let currency = match dto.store.currency {
            None => Currency::default(),
            Some(code) => Currency::from_code(&code).map_err(|_| {
                at.field("store.currency").error(format!(
                    "expected a supported currency code such as USD, EUR or GBP, found '{code}'"
                ))
            })?,
        };
        let defaults = PopupOverlaySettings::default();
        let popup = dto.popup_overlay;
        let template = match dto.template {
            Some(template) => TemplateInfo {
                id: template.id,
                version: template.version,
                website_id: template
                    .website_id
                    .unwrap_or_else(|| website.id.to_string()),
                website_identifier: template
                    .website_identifier
                    .unwrap_or_else(|| website.identifier.clone()),
            },
            // A bundle is its own template unless it says otherwise.
            None => TemplateInfo {
                id: website.id.to_string(),
                version: "1".to_owned(),
                website_id: website.id.to_string(),
                website_identifier: website.identifier.clone(),
            },
        };
        let settings = WebsiteSettings {
            site_title: dto.title,
            site_description: dto.description,
            locale,
            home_collection: home,
            logo: self.optional_image(&dto.logo, &at.field("logo"))?,
            social_image: self.optional_image(&dto.social_image, &at.field("social_image"))?,
            footer_text: dto.footer_text,
            comments_enabled: dto.comments_enabled,
            disqus_shortname: dto.disqus_shortname,
            use_escape_key_to_login: dto.use_escape_key_to_login,
            store: StoreSettings {
                express_checkout: dto.store.express_checkout,
                measurement_standard: match dto.store.measurement_standard {
                    MeasurementDto::Imperial => crate::enums::Unit::Imperial,
                    MeasurementDto::Metric => crate::enums::Unit::Metric,
                },
                selected_currency: currency,
            },
            store_rules,
            cookies: CookieSettings {
                is_cookie_banner_enabled: dto.cookies.banner_enabled,
                is_restrictive_cookie_policy_enabled: dto.cookies.restrictive_policy_enabled,
                is_restrictive_cookie_policy_absolute: dto.cookies.restrictive_policy_absolute,
            },
            cookie_banner: CookieBannerLook {
                text: dto.cookies.banner_text.as_deref().map(markdown),
                cta_text: dto.cookies.cta_text,
                opt_out_cta_text: dto.cookies.opt_out_cta_text,
                variant: dto.cookies.variant,
                position: dto.cookies.position,
                theme: dto.cookies.theme,
                cta_variant: dto.cookies.cta_variant,
                accept_type: dto.cookies.accept_type,
            },
            popup_overlay: PopupOverlaySettings {
                style: popup.style.unwrap_or(defaults.style),
                version: popup.version.unwrap_or(defaults.version),
                show_until_signup: popup
                    .show_until_signup
                    .unwrap_or(defaults.show_until_signup),
                display_frequency: popup
                    .display_frequency
                    .unwrap_or(defaults.display_frequency),
                enable_mobile: popup.enable_mobile.unwrap_or(defaults.enable_mobile),
                content: PopupContent {
                    title: popup.title,
                    body: markdown(&popup.body),
                    newsletter: popup.newsletter,
                    button_label: popup.button_label,
                    placeholder: popup.placeholder,
                },
            },
            template,
            google_fonts: dto.google_fonts,
            // Filled from translations/ once the collections are known.
            languages: Default::default(),
            member_areas: Vec::new(),
            page_passwords: Vec::new(),
            // Read after the collections, whose blocks the variants change.
            experiments: Default::default(),
            information_bar: information_bar(&at.field("information_bar"), dto.information_bar)?,
        };
        let navigation = Navigation {
            main: nav_links(
                &root.field("navigation").field("main"),
                file.navigation.main,
            )?,
            footer: nav_links(
                &root.field("navigation").field("footer"),
                file.navigation.footer,
            )?,
            hidden: nav_links(
                &root.field("navigation").field(HIDDEN_NAVIGATION),
                file.navigation.hidden,
            )?,
            // Resolved once the member areas are known (`member_areas.rs`).
            member_areas: Vec::new(),
        };
        Ok((website, settings, navigation))
    }

    fn home(&self, at: &At, slug: &str) -> Result<crate::site::CollectionId, BundleError> {
        Slug::parse(slug)
            .ok()
            .and_then(|slug| self.known.collections.get(&slug))
            .map(|(id, _)| id.clone())
            .ok_or_else(|| {
                at.error(format!(
                    "expected the slug of a collection in collections/, found '{slug}'"
                ))
            })
    }
}

fn website(at: &At, dto: WebsiteDto) -> Result<Website, BundleError> {
    non_empty(&at.field("identifier"), &dto.identifier)?;
    let id = chosen_id(at.field("id"), dto.id.as_deref(), &dto.identifier)?;
    let base_url = dto.base_url;
    let origin = base_url
        .strip_prefix("https://")
        .or_else(|| base_url.strip_prefix("http://"));
    let well_formed = origin.is_some_and(|host| {
        !host.is_empty() && !host.contains('/') && !host.chars().any(char::is_whitespace)
    });
    if !well_formed {
        return Err(at.field("base_url").error(format!(
            "expected an http or https origin without a path or trailing slash, such as \
             https://shop.example, found '{base_url}'"
        )));
    }
    Ok(Website {
        id,
        identifier: dto.identifier,
        base_url,
        website_type: match dto.website_type {
            WebsiteTypeDto::Classic => WebsiteType::Classic,
            WebsiteTypeDto::CoverPage => WebsiteType::CoverPage,
            WebsiteTypeDto::ParkingPage => WebsiteType::ParkingPage,
            WebsiteTypeDto::Commerce => WebsiteType::Commerce,
            WebsiteTypeDto::Enterprise => WebsiteType::Enterprise,
        },
        site_status: match dto.status {
            WebsiteStatusDto::Expired => WebsiteStatus::Expired,
            WebsiteStatusDto::Pastdue => WebsiteStatus::PastDue,
            WebsiteStatusDto::Trial => WebsiteStatus::Trial,
            WebsiteStatusDto::Beta => WebsiteStatus::Beta,
            WebsiteStatusDto::Removed => WebsiteStatus::Removed,
            WebsiteStatusDto::Internal => WebsiteStatus::Internal,
            WebsiteStatusDto::Comped => WebsiteStatus::Comped,
            WebsiteStatusDto::Paid => WebsiteStatus::Paid,
            WebsiteStatusDto::Linked => WebsiteStatus::Linked,
            WebsiteStatusDto::ActiveParkingPage => WebsiteStatus::ActiveParkingPage,
            WebsiteStatusDto::Resold => WebsiteStatus::Resold,
            WebsiteStatusDto::ResoldGracePeriod => WebsiteStatus::ResoldGracePeriod,
            WebsiteStatusDto::Enterprise => WebsiteStatus::Enterprise,
        },
        developer_mode: dto.developer_mode,
        cloneable: dto.cloneable,
        typekit_id: dto.typekit_id,
    })
}

/// A BCP 47 tag, loosely: letters and digits in hyphen-separated parts of 1 to 8 characters,
/// starting with a 2 or 3 letter language.
fn check_locale(at: &At, locale: &str) -> Result<(), BundleError> {
    let mut parts = locale.split('-');
    let language = parts.next().unwrap_or_default();
    let valid = (2..=3).contains(&language.len())
        && language.chars().all(|c| c.is_ascii_alphabetic())
        && parts.all(|part| {
            (1..=8).contains(&part.len()) && part.chars().all(|c| c.is_ascii_alphanumeric())
        });
    if valid {
        Ok(())
    } else {
        Err(at.error(format!(
            "expected a language tag such as en-US or pt-PT, found '{locale}'"
        )))
    }
}

fn nav_links(at: &At, links: Vec<NavLinkDto>) -> Result<Vec<NavLink>, BundleError> {
    links
        .into_iter()
        .enumerate()
        .map(|(index, link)| {
            non_empty(&at.index(index).field("title"), &link.title)?;
            Ok(NavLink {
                title: link.title,
                href: link.href,
            })
        })
        .collect()
}

/// The mobile information bar, checked by its own rules.
fn information_bar(
    at: &At,
    dto: Option<InformationBarDto>,
) -> Result<Option<InformationBar>, BundleError> {
    let Some(dto) = dto else {
        return Ok(None);
    };
    let bar = InformationBar {
        phone: dto.phone,
        email: dto.email,
        address: dto.address,
        hours: dto.hours,
    };
    bar.check().map_err(|error| at.error(error.to_string()))?;
    Ok(Some(bar))
}
