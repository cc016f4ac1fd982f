//! Unit tests of the bridge envelope: what is accepted, what is refused and with which text,
//! and the exact JSON of each reply.

use expect_test::{Expect, expect};

use super::*;

fn id(text: &str) -> MessageId {
    MessageId::parse(text).unwrap()
}

/// Parses `message` and shows the request, or the refusal with the id it can be answered to.
fn check(message: &str, expected: Expect) {
    let shown = match BridgeRequest::parse(message) {
        Ok(request) => format!("{} {:?}", request.id.as_str(), request.call),
        Err(rejected) => match &rejected.id {
            Some(id) => format!("refused, answered to {}: {rejected}", id.as_str()),
            None => format!("refused, dropped: {rejected}"),
        },
    };
    expected.assert_eq(&shown);
}

#[test]
fn reads_info_and_dismiss() {
    check(
        r#"{"v":1,"id":"a1","name":"info","payload":{"pageType":"cart","cartCount":2,"signedIn":true,"locale":"de-DE","experiments":{"b":"x","a":"y"},"token":"t"}}"#,
        expect![[
            r#"a1 Info(InfoResult { page_type: "cart", cart_count: 2, signed_in: true, locale: "de-DE", experiments: {"a": "y", "b": "x"} })"#
        ]],
    );
    check(
        r#"{"v":1,"id":"b_2-x","name":"dismiss","payload":{"backUrl":"/shop"}}"#,
        expect![[r#"b_2-x Dismiss { back_url: Some("/shop") }"#]],
    );
    check(
        r#"{"v":1,"id":"c","name":"dismiss","payload":{"backUrl":null},"extra":true}"#,
        expect!["c Dismiss { back_url: None }"],
    );
}

/// An `info` message whose payload is `payload`.
fn info_with(payload: &str) -> String {
    format!(r#"{{"v":1,"id":"i1","name":"info","payload":{payload}}}"#)
}

#[test]
fn an_info_payload_is_checked_field_by_field_in_order() {
    check(
        &info_with("{}"),
        expect!["refused, answered to i1: the info payload is invalid: pageType must be a string"],
    );
    check(
        &info_with(r#"{"pageType":"p","cartCount":1.5,"signedIn":"yes"}"#),
        expect![
            "refused, answered to i1: the info payload is invalid: cartCount must be a whole number from 0"
        ],
    );
    check(
        &info_with(r#"{"pageType":"p","cartCount":4294967296}"#),
        expect![
            "refused, answered to i1: the info payload is invalid: cartCount must be a whole number from 0"
        ],
    );
    check(
        &info_with(r#"{"pageType":"p","cartCount":"3"}"#),
        expect![
            "refused, answered to i1: the info payload is invalid: cartCount must be a whole number from 0"
        ],
    );
    check(
        &info_with(r#"{"pageType":"p","cartCount":0,"signedIn":1,"locale":7}"#),
        expect![
            "refused, answered to i1: the info payload is invalid: signedIn must be true or false"
        ],
    );
    check(
        &info_with(r#"{"pageType":"p","cartCount":0,"signedIn":false,"locale":null}"#),
        expect!["refused, answered to i1: the info payload is invalid: locale must be a string"],
    );
    check(
        &info_with(
            r#"{"pageType":"p","cartCount":0,"signedIn":false,"locale":"en","experiments":[]}"#,
        ),
        expect![
            "refused, answered to i1: the info payload is invalid: experiments must map names to variant strings"
        ],
    );
    check(
        &info_with(
            r#"{"pageType":"p","cartCount":0,"signedIn":false,"locale":"en","experiments":{"a":1}}"#,
        ),
        expect![
            "refused, answered to i1: the info payload is invalid: experiments must map names to variant strings"
        ],
    );
}

#[test]
fn numbers_are_read_as_javascript_reads_them() {
    check(
        r#"{"v":1.0,"id":"i2","name":"info","payload":{"pageType":"p","cartCount":4294967295.0,"signedIn":false,"locale":"en","experiments":{}}}"#,
        expect![[
            r#"i2 Info(InfoResult { page_type: "p", cart_count: 4294967295, signed_in: false, locale: "en", experiments: {} })"#
        ]],
    );
    check(
        r#"{"v":2.0,"id":"i3","name":"info","payload":{}}"#,
        expect![
            "refused, answered to i3: the bridge message version 2 is not supported (expected 1)"
        ],
    );
    check(
        r#"{"v":[1e0,"1"],"id":"i4","name":"info","payload":{}}"#,
        expect![[
            r#"refused, answered to i4: the bridge message version [1,"1"] is not supported (expected 1)"#
        ]],
    );
}

#[test]
fn an_unknown_name_gets_the_spec_text() {
    check(
        r#"{"v":1,"id":"a1","name":"openCamera","payload":{}}"#,
        expect!["refused, answered to a1: [JS -> Native Bridge] openCamera not found"],
    );
    check(
        r#"{"v":1,"id":"a1","name":"Info","payload":{}}"#,
        expect!["refused, answered to a1: [JS -> Native Bridge] Info not found"],
    );
    assert_eq!(name_not_found("x"), "[JS -> Native Bridge] x not found");
}

#[test]
fn a_message_without_a_valid_id_is_dropped() {
    let forged = format!(
        r#"{{"v":1,"id":"{}","name":"info","payload":{{}}}}"#,
        "a".repeat(65)
    );
    check(
        &forged,
        expect![
            "refused, dropped: the bridge message id must be 1 to 64 characters of A-Z, a-z, 0-9, _ or -"
        ],
    );
    for bad in [r#""""#, r#""a b""#, r#""a\"};alert(1)//""#, "7", "null"] {
        let message = format!(r#"{{"v":1,"id":{bad},"name":"info","payload":{{}}}}"#);
        let rejected = BridgeRequest::parse(&message).unwrap_err();
        assert_eq!(
            (rejected.id, rejected.error),
            (None, BridgeError::InvalidId),
            "{bad}"
        );
    }
    let longest = format!(
        r#"{{"v":1,"id":"{}","name":"dismiss","payload":{{}}}}"#,
        "a".repeat(64)
    );
    assert!(BridgeRequest::parse(&longest).is_ok());
}

#[test]
fn size_and_shape_are_checked_before_anything_else() {
    let padding = "x".repeat(MAX_MESSAGE_BYTES);
    let oversized = format!(r#"{{"v":1,"id":"a","name":"info","payload":{{"p":"{padding}"}}}}"#);
    check(
        &oversized,
        expect!["refused, dropped: the bridge message is 16433 bytes, over the limit of 16384"],
    );
    check(
        "not json",
        expect![
            "refused, dropped: the bridge message is not a JSON envelope: expected ident at line 1 column 2"
        ],
    );
    check(
        "[1]",
        expect![
            "refused, dropped: the bridge message is not a JSON envelope: expected a JSON object"
        ],
    );
}

#[test]
fn the_limit_counts_utf8_bytes() {
    // "é" is two bytes: a message of exactly the limit in bytes passes, one more byte fails.
    let shell = r#"{"v":1,"id":"a","name":"dismiss","payload":{"p":""}}"#;
    let room = MAX_MESSAGE_BYTES - shell.len();
    let fits = format!(
        r#"{{"v":1,"id":"a","name":"dismiss","payload":{{"p":"{}"}}}}"#,
        "é".repeat(room / 2)
    );
    assert_eq!(fits.len(), MAX_MESSAGE_BYTES - room % 2);
    assert!(BridgeRequest::parse(&fits).is_ok());
    let over = format!(
        r#"{{"v":1,"id":"a","name":"dismiss","payload":{{"p":"{}x"}}}}"#,
        "é".repeat(room / 2 + 1)
    );
    assert!(over.chars().count() < MAX_MESSAGE_BYTES);
    assert!(matches!(
        BridgeRequest::parse(&over).unwrap_err().error,
        BridgeError::TooLarge { .. }
    ));
}

#[test]
fn version_name_and_payload_refusals_are_answered() {
    check(
        r#"{"v":2,"id":"a","name":"info","payload":{}}"#,
        expect![
            "refused, answered to a: the bridge message version 2 is not supported (expected 1)"
        ],
    );
    check(
        r#"{"id":"a","name":"info","payload":{}}"#,
        expect![
            "refused, answered to a: the bridge message version (missing) is not supported (expected 1)"
        ],
    );
    check(
        r#"{"v":"1","id":"a","name":"info","payload":{}}"#,
        expect![[
            r#"refused, answered to a: the bridge message version "1" is not supported (expected 1)"#
        ]],
    );
    check(
        r#"{"v":1,"id":"a","name":3,"payload":{}}"#,
        expect![
            "refused, answered to a: the bridge message is not a JSON envelope: the name must be a string"
        ],
    );
    check(
        r#"{"v":1,"id":"a","name":"info"}"#,
        expect![
            "refused, answered to a: the info payload is invalid: the payload must be an object"
        ],
    );
    check(
        r#"{"v":1,"id":"a","name":"dismiss","payload":{"backUrl":5}}"#,
        expect!["refused, answered to a: the dismiss payload is invalid: backUrl must be a string"],
    );
}

#[test]
fn a_refusal_with_an_id_builds_an_error_reply() {
    let rejected =
        BridgeRequest::parse(r#"{"v":1,"id":"q7","name":"share","payload":{}}"#).unwrap_err();
    expect![[r#"{"v":1,"id":"q7","ok":false,"error":"[JS -> Native Bridge] share not found"}"#]]
        .assert_eq(&rejected.reply().unwrap().to_json());
    let dropped = BridgeRequest::parse("{}").unwrap_err();
    assert_eq!(dropped.reply(), None);
}

#[test]
fn replies_have_the_agreed_shape() {
    let info = InfoResult {
        page_type: "product".to_owned(),
        cart_count: 3,
        signed_in: true,
        locale: "en-US".to_owned(),
        experiments: [("checkout-button".to_owned(), "b".to_owned())].into(),
    };
    expect![[r#"{"v":1,"id":"r1","ok":true,"result":{"pageType":"product","cartCount":3,"signedIn":true,"locale":"en-US","experiments":{"checkout-button":"b"}}}"#]]
        .assert_eq(&BridgeReply::info(id("r1"), info).to_json());
    expect![[r#"{"v":1,"id":"r2","ok":true,"result":{}}"#]]
        .assert_eq(&BridgeReply::dismissed(id("r2")).to_json());
    expect![[r#"{"v":1,"id":"r3","ok":false,"error":"mobile platform not correctly identified"}"#]]
        .assert_eq(&BridgeReply::error(id("r3"), PLATFORM_NOT_IDENTIFIED).to_json());
}

#[test]
fn experiments_are_written_in_the_order_javascript_sorts_them() {
    // U+FF61 sorts before U+1F600 by code point, after it by UTF-16 code unit; array indices
    // come first, by number (`4294967295` and `01` are not indices).
    let info = InfoResult {
        experiments: [
            ("\u{ff61}", "a"),
            ("\u{1f600}", "b"),
            ("z", "c"),
            ("10", "d"),
            ("9", "e"),
            ("01", "f"),
            ("4294967295", "g"),
            ("4294967294", "h"),
        ]
        .map(|(name, variant)| (name.to_owned(), variant.to_owned()))
        .into(),
        ..InfoResult::default()
    };
    expect![[r#"{"v":1,"id":"e1","ok":true,"result":{"pageType":"","cartCount":0,"signedIn":false,"locale":"","experiments":{"9":"e","10":"d","4294967294":"h","01":"f","4294967295":"g","z":"c","😀":"b","｡":"a"}}}"#]]
        .assert_eq(&BridgeReply::info(id("e1"), info).to_json());
}

#[test]
fn requests_serialise_to_what_parse_reads() {
    let request = BridgeRequest {
        id: id("z9"),
        call: BridgeCall::Dismiss {
            back_url: Some("/".to_owned()),
        },
    };
    expect![[r#"{"v":1,"id":"z9","name":"dismiss","payload":{"backUrl":"/"}}"#]]
        .assert_eq(&request.to_json());
    assert_eq!(BridgeRequest::parse(&request.to_json()), Ok(request));
}

#[test]
fn platforms_are_identified_or_refused_with_the_spec_text() {
    assert_eq!(MobilePlatform::identify("ios"), Ok(MobilePlatform::Ios));
    assert_eq!(
        MobilePlatform::identify("android"),
        Ok(MobilePlatform::Android)
    );
    // Exactly as `Platform.OS` spells them, as the shell's handler checks them.
    for unknown in ["web", "windows", "", "Android", " ios"] {
        let error = MobilePlatform::identify(unknown).unwrap_err();
        assert_eq!(error.to_string(), PLATFORM_NOT_IDENTIFIED);
    }
}
