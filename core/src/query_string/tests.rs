//! Data-driven checks of the query-string parser against `qs` behaviour.

use expect_test::{Expect, expect};

use super::*;

fn check(query: &str, expect: Expect) {
    expect.assert_eq(&parse(query).to_string());
}

#[test]
fn flat_and_encoded() {
    check(
        "?a=1&b=two+words&c=%C3%A9t%C3%A9&d",
        expect![[r#"{"a":"1","b":"two words","c":"été","d":""}"#]],
    );
    check(
        "bad=%E0%A4%A&ok=%41",
        expect![[r#"{"bad":"%E0%A4%A","ok":"A"}"#]],
    );
    check("=x&&a=1=2", expect![[r#"{"a":"1=2"}"#]]);
    check("", expect![[r#"{}"#]]);
}

#[test]
fn nested_objects_and_arrays() {
    check(
        "a[b][c]=1&a[b][d]=2",
        expect![[r#"{"a":{"b":{"c":"1","d":"2"}}}"#]],
    );
    check("a[]=1&a[]=2", expect![[r#"{"a":["1","2"]}"#]]);
    check("a=1&a=2&a=3", expect![[r#"{"a":["1","2","3"]}"#]]);
    check("a[0]=x&a[1]=y", expect![[r#"{"a":["x","y"]}"#]]);
    check("a[1]=b&a[0]=c", expect![[r#"{"a":["c","b"]}"#]]);
    check("a[5]=x", expect![[r#"{"a":["x"]}"#]]);
    check(
        "a[0][b]=1&a[0][c]=2&a[1][b]=3",
        expect![[r#"{"a":[{"b":"1","c":"2"},{"b":"3"}]}"#]],
    );
    check("a%5Bb%5D=c", expect![[r#"{"a":{"b":"c"}}"#]]);
    check("a[x=y]=1", expect![[r#"{"a":{"x=y":"1"}}"#]]);
}

#[test]
fn depth_limit_keeps_the_rest_as_one_key() {
    check(
        "a[b][c][d][e][f][g][h]=1",
        expect![[r#"{"a":{"b":{"c":{"d":{"e":{"f":{"[g][h]":"1"}}}}}}}"#]],
    );
    check(
        "a[b][c][d][e][f]=1",
        expect![[r#"{"a":{"b":{"c":{"d":{"e":{"f":"1"}}}}}}"#]],
    );
}

#[test]
fn array_limit_turns_large_indices_into_keys() {
    check("a[20]=x", expect![[r#"{"a":["x"]}"#]]);
    check("a[21]=x", expect![[r#"{"a":{"21":"x"}}"#]]);
    check(
        "a[01]=x&b[-1]=y",
        expect![[r#"{"a":{"01":"x"},"b":{"-1":"y"}}"#]],
    );
    check("a[0]=x&a[21]=y", expect![[r#"{"a":{"0":"x","21":"y"}}"#]]);
    check("0=x&[0]=y", expect![[r#"{"0":["x","y"]}"#]]);
}

#[test]
fn mixed_shapes_merge_like_qs() {
    check("a=1&a[b]=2", expect![[r#"{"a":["1",{"b":"2"}]}"#]]);
    check("a[b]=2&a=1", expect![[r#"{"a":{"1":true,"b":"2"}}"#]]);
    check("a[b]=2&a=", expect![[r#"{"a":{"b":"2"}}"#]]);
    check("a[]=1&a[x]=2", expect![[r#"{"a":{"0":"1","x":"2"}}"#]]);
}

#[test]
fn brackets_that_do_not_close_are_part_of_the_name() {
    check("a[b=1", expect![[r#"{"a[b":"1"}"#]]);
    check("a[b]c[d]=1", expect![[r#"{"a":{"b":{"d":"1"}}}"#]]);
    check("[a]=1&[]=2", expect![[r#"{"0":"2","a":"1"}"#]]);
}

#[test]
fn parameter_limit_ignores_the_rest() {
    let query: String = (0..1005)
        .map(|i| format!("k{i}=v"))
        .collect::<Vec<_>>()
        .join("&");
    let parsed = parse(&query);
    let object = parsed.as_object().unwrap();
    assert_eq!(object.len(), PARAMETER_LIMIT);
    assert!(object.contains_key("k999"));
    assert!(!object.contains_key("k1000"));
}
