use super::*;

fn document(path: &str, title: &str, description: &str, body: &str) -> SearchDocument {
    SearchDocument {
        path: path.to_owned(),
        title: title.to_owned(),
        description: description.to_owned(),
        labels: Vec::new(),
        body: body.to_owned(),
    }
}

fn query(text: &str) -> SearchQuery {
    SearchQuery::parse(text).unwrap()
}

fn paths(results: &[SearchResult]) -> Vec<&str> {
    results.iter().map(|result| result.path.as_str()).collect()
}

fn site() -> Vec<SearchDocument> {
    vec![
        document(
            "/journal/glazes",
            "Notes on glazes",
            "How we fire a celadon mug.",
            "",
        ),
        document("/shop/mug", "Celadon mug", "A mug for your morning.", ""),
        document(
            "/about",
            "About",
            "",
            "A small studio making crème brûlée dishes.",
        ),
        SearchDocument {
            labels: vec!["Kitchen".to_owned(), "Gifts".to_owned()],
            ..document("/shop/bowl", "Serving bowl", "", "")
        },
    ]
}

#[test]
fn every_word_must_start_a_word_of_the_page() {
    assert_eq!(
        paths(&search(&site(), &query("celadon mug"))),
        ["/shop/mug", "/journal/glazes"]
    );
    assert_eq!(
        paths(&search(&site(), &query("celadon bowl"))),
        Vec::<&str>::new()
    );
    // "mugs" starts no word, "mu" starts "mug".
    assert!(search(&site(), &query("mugs")).is_empty());
    assert_eq!(
        paths(&search(&site(), &query("mu"))),
        ["/shop/mug", "/journal/glazes"]
    );
}

#[test]
fn case_and_accents_do_not_matter_either_way() {
    assert_eq!(paths(&search(&site(), &query("CREME brulee"))), ["/about"]);
    assert_eq!(paths(&search(&site(), &query("Crème Brûlée"))), ["/about"]);
    assert_eq!(paths(&search(&site(), &query("célâdon"))).len(), 2);
}

#[test]
fn tags_categories_and_body_text_are_searched() {
    assert_eq!(paths(&search(&site(), &query("gifts"))), ["/shop/bowl"]);
    assert_eq!(paths(&search(&site(), &query("studio"))), ["/about"]);
}

#[test]
fn pages_with_more_query_words_in_their_title_rank_first_then_site_order() {
    let documents = vec![
        document("/a", "Morning notes", "celadon mug inside", ""),
        document("/b", "Mug", "celadon", ""),
        document("/c", "Celadon mug", "", ""),
        document("/d", "Other", "celadon mug", ""),
    ];
    assert_eq!(
        paths(&search(&documents, &query("celadon mug"))),
        ["/c", "/b", "/a", "/d"]
    );
}

#[test]
fn at_most_fifty_results_are_answered() {
    let documents: Vec<SearchDocument> = (0..60)
        .map(|n| document(&format!("/p{n}"), "Vase", "", ""))
        .collect();
    let results = search(&documents, &query("vase"));
    assert_eq!(results.len(), MAX_RESULTS);
    assert_eq!(results[0].path, "/p0");
}

#[test]
fn an_empty_query_or_one_without_words_finds_nothing() {
    for text in ["", "   ", "?!"] {
        let query = query(text);
        assert!(query.is_empty());
        assert!(search(&site(), &query).is_empty());
    }
    assert_eq!(query("  mug ").text(), "mug");
}

#[test]
fn a_query_longer_than_200_characters_is_refused() {
    assert!(SearchQuery::parse(&"é".repeat(MAX_QUERY_CHARS)).is_ok());
    assert_eq!(
        SearchQuery::parse(&"é".repeat(MAX_QUERY_CHARS + 1)),
        Err(SearchQueryError::TooLong)
    );
}

#[test]
fn the_excerpt_is_the_description_or_the_start_of_the_body_cut_at_a_word() {
    let results = search(&site(), &query("studio"));
    assert_eq!(
        results[0].excerpt,
        "A small studio making crème brûlée dishes."
    );
    let long = format!("{} end", "word ".repeat(60));
    let results = search(&[document("/long", "Long", "", &long)], &query("long"));
    let excerpt = &results[0].excerpt;
    assert!(excerpt.ends_with("word…"), "{excerpt}");
    assert!(excerpt.chars().count() <= EXCERPT_CHARS + 1);
}
