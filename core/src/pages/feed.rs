//! A blog's feed: its newest published posts with their title, address, date and summary,
//! which an HTTP adapter writes as RSS 2.0 at the blog's address with `?format=rss` (the
//! address the spec's platform gives a blog's feed; the spec names no other).
//!
//! A feed reader signs in as nobody, so a feed is the same for everyone: only a blog the
//! gating check opens to an anonymous visitor has one. A members-only or password-protected
//! blog has none, even for a member (their reader would not carry the session), and its posts
//! appear in no other blog's feed.

use super::Viewer;
use super::access::{Lock, gate};
use crate::enums::CollectionType;
use crate::site::{Collection, Item, MemberArea};

/// The query that asks a blog's address for its feed.
pub const FEED_QUERY: &str = "format=rss";
/// How many posts a feed lists, newest first.
pub const FEED_ENTRIES: usize = 20;

/// A blog's feed, in the site's default language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Feed {
    /// "Blog title — Site title", as the blog's own page is titled.
    pub title: String,
    /// The blog's description, else the site's.
    pub description: String,
    /// The blog page's path (`/journal`).
    pub path: String,
    /// The site's language tag (`en-US`).
    pub language: String,
    pub entries: Vec<FeedEntry>,
}

/// One post of a feed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FeedEntry {
    pub title: String,
    /// The post's own page (`/journal/first-firing`), also its permanent id.
    pub path: String,
    /// Milliseconds since the Unix epoch.
    pub published_on: i64,
    /// The post's excerpt as plain text; empty when it has none.
    pub summary: String,
    pub author: Option<String>,
}

/// The feed address of `collection` (`/journal?format=rss`); none when it is not a blog, or
/// when the gating check keeps it from an anonymous visitor. Blog pages link to it from their
/// head, and the feed route answers only at it, so both ask the same question.
pub fn feed_path(collection: &Collection, areas: &[MemberArea]) -> Option<String> {
    let is_blog = collection.collection_type == CollectionType::Generic;
    let everyone = gate(&Lock::of(collection, areas), &Viewer::default()).is_allowed();
    (is_blog && collection.enabled && everyone)
        .then(|| format!("{}?{FEED_QUERY}", collection.path()))
}

impl Feed {
    /// The feed of `collection` on a site titled `site_title`, from its published `items`
    /// (in any order): the newest [`FEED_ENTRIES`] of them. None when the collection has no
    /// feed ([`feed_path`]).
    pub fn of(
        collection: &Collection,
        areas: &[MemberArea],
        (site_title, site_description, language): (&str, &str, &str),
        mut items: Vec<Item>,
    ) -> Option<Self> {
        feed_path(collection, areas)?;
        items.sort_by(|a, b| (b.published_on, &b.id).cmp(&(a.published_on, &a.id)));
        items.truncate(FEED_ENTRIES);
        let description = if collection.description.trim().is_empty() {
            site_description
        } else {
            collection.description.trim()
        };
        Some(Self {
            title: format!("{} — {site_title}", collection.title),
            description: description.to_owned(),
            path: collection.path(),
            language: language.to_owned(),
            entries: items
                .into_iter()
                .filter(|item| item.collection_id == collection.id)
                .map(|item| FeedEntry {
                    path: format!("{}/{}", collection.path(), item.slug),
                    summary: item.excerpt.plain_text(),
                    title: item.title,
                    published_on: item.published_on,
                    author: item.author,
                })
                .collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ports::conformance::fixture_site;
    use crate::site::{MemberAreaAccess, PermissionType, SafeHtml, Slug};

    fn journal() -> (Collection, Vec<Item>) {
        let site = fixture_site("Fixture");
        let journal = site
            .collections
            .iter()
            .find(|collection| collection.id.as_str() == "journal")
            .cloned()
            .expect("the fixture has a journal");
        let items = site
            .items
            .into_iter()
            .filter(|item| item.collection_id == journal.id)
            .collect();
        (journal, items)
    }

    const SITE: (&str, &str, &str) = ("Fixture", "A fixture site", "en-US");

    #[test]
    fn a_public_blog_lists_its_newest_posts_first_with_their_addresses() {
        let (journal, mut items) = journal();
        items[0].excerpt = SafeHtml::sanitize("<p>Glazes &amp; <em>kilns</em></p>");
        let first = items[0].id.clone();
        let feed = Feed::of(&journal, &[], SITE, items.clone()).expect("a public blog");
        assert_eq!(feed.path, "/journal");
        assert_eq!(feed.language, "en-US");
        assert!(feed.title.starts_with(&journal.title), "{}", feed.title);
        let dates: Vec<i64> = feed.entries.iter().map(|e| e.published_on).collect();
        let mut newest_first = dates.clone();
        newest_first.sort_by(|a, b| b.cmp(a));
        assert_eq!(dates, newest_first);
        assert_eq!(feed.entries.len(), items.len().min(FEED_ENTRIES));
        let entry = feed
            .entries
            .iter()
            .find(|entry| {
                let item = items.iter().find(|item| item.id == first).unwrap();
                entry.path == format!("/journal/{}", item.slug)
            })
            .expect("the post is listed at its own page");
        assert_eq!(entry.summary, "Glazes & kilns");
    }

    #[test]
    fn a_feed_lists_at_most_its_newest_posts() {
        let (journal, items) = journal();
        let template = items[0].clone();
        let many: Vec<Item> = (0..FEED_ENTRIES as i64 + 5)
            .map(|n| {
                let mut item = template.clone();
                item.id = format!("post-{n}").try_into().unwrap();
                item.slug = Slug::parse(format!("post-{n}")).unwrap();
                item.published_on = n * 1000;
                item
            })
            .collect();
        let feed = Feed::of(&journal, &[], SITE, many).unwrap();
        assert_eq!(feed.entries.len(), FEED_ENTRIES);
        assert_eq!(
            feed.entries[0].path,
            format!("/journal/post-{}", FEED_ENTRIES + 4)
        );
    }

    #[test]
    fn only_a_blog_the_gate_opens_to_everyone_has_a_feed() {
        let (mut journal, items) = journal();
        assert_eq!(
            feed_path(&journal, &[]).as_deref(),
            Some("/journal?format=rss")
        );
        let area = MemberArea {
            id: Slug::parse("readers").unwrap(),
            title: "Readers".into(),
            description: String::new(),
            access: MemberAreaAccess::Free,
            pages: vec![journal.id.clone()],
        };
        for permission in [
            PermissionType::PasswordProtected,
            PermissionType::MembersOnly,
        ] {
            journal.permission_type = permission;
            assert_eq!(feed_path(&journal, std::slice::from_ref(&area)), None);
            assert_eq!(
                Feed::of(&journal, std::slice::from_ref(&area), SITE, items.clone()),
                None
            );
        }
        journal.permission_type = PermissionType::Public;
        journal.collection_type = CollectionType::Products;
        assert_eq!(feed_path(&journal, &[]), None, "a shop is not a blog");
    }
}
