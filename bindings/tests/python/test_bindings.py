"""Every function the bindings export, called from Python on the real compiled library: the
answers the core gives, and each error path with its message.

Run by `cargo xtask bindings --test`, which builds the library, generates its Python module and
points VITRINE_BINDINGS_PYTHON at it."""

import json
import os
import sys
import unittest

sys.path.insert(0, os.environ["VITRINE_BINDINGS_PYTHON"])

import vitrine_bindings as vb  # noqa: E402

NBSP = "\u00a0"


class MoneyTests(unittest.TestCase):
    def test_formats_per_currency_and_locale(self):
        self.assertEqual(vb.format_money(123450, "USD", "en-US", False), "$1,234.50")
        self.assertEqual(vb.format_money(123450, "EUR", "de-DE", False), f"1.234,50{NBSP}€")
        self.assertEqual(vb.format_money(1200, "USD", "en-US", True), "$12")
        self.assertEqual(vb.format_money(-5, "USD", "en-US", False), "-$0.05")
        self.assertEqual(vb.format_money(1234, "JPY", "ja-JP", False), "￥1,234")

    def test_an_unknown_currency_is_an_error(self):
        with self.assertRaises(vb.MoneyError.UnknownCurrency) as raised:
            vb.format_money(1, "XXX", "en-US", False)
        self.assertEqual(str(raised.exception), '"XXX" is not a supported currency code')

    def test_an_unsupported_locale_is_an_error(self):
        with self.assertRaises(vb.MoneyError.UnsupportedLocale) as raised:
            vb.format_money(1, "USD", "tlh", False)
        self.assertIn('"tlh" is not a supported display locale', str(raised.exception))

    def test_lists_what_it_supports(self):
        currencies = vb.supported_currencies()
        self.assertEqual(len(currencies), 27)
        self.assertEqual(currencies[0], vb.CurrencyInfo(code="EUR", english_name="Euro", fraction_digits=2))
        yen = next(currency for currency in currencies if currency.code == "JPY")
        self.assertEqual(yen.fraction_digits, 0)
        self.assertEqual(vb.supported_locales(), ["en-US", "en-GB", "de-DE", "fr-FR", "es-ES", "ja-JP"])


class CartTests(unittest.TestCase):
    def test_the_label_follows_the_cap(self):
        cases = [
            (0, "0", "0 items in cart", True),
            (1, "1", "one item", False),
            (100, "100", "100 items in cart", False),
            (101, "100+", "more than 100 items", False),
        ]
        for items, shown, spoken, empty in cases:
            with self.subTest(items=items):
                label = vb.cart_indicator_label(items)
                self.assertEqual((label.display_count, label.spoken_label, label.empty), (shown, spoken, empty))
        self.assertEqual(vb.cart_display_cap(), 100)


class FixedClock(vb.Clock):
    def __init__(self, now_ms):
        self.now = now_ms

    def now_ms(self):
        return self.now


class MemoryStorage(vb.PopupRecordStorage):
    def __init__(self, stored=None):
        self.stored = stored

    def load(self):
        return self.stored

    def save(self, record):
        self.stored = record


DAY_MS = 24 * 60 * 60 * 1000
OPEN_PAGE = vb.PopupPage(not_found=False, lock_screen=False, screenshot=False, mobile=False, banner_pending=False)


def popup_settings(**changes):
    settings = dict(style="full", version=2, show_until_signup=True, display_frequency=7, enable_mobile=False)
    settings.update(changes)
    return vb.PopupSettings(**settings)


class PopupTests(unittest.TestCase):
    def test_shows_then_stays_closed_for_the_frequency(self):
        clock, storage = FixedClock(1_000), MemoryStorage()
        popup = vb.PopupOverlay(popup_settings(), clock, storage)
        self.assertEqual(popup.decide(OPEN_PAGE), vb.PopupDecision.SHOW())
        popup.record_closed()
        self.assertEqual(json.loads(storage.stored), {"date-closed": 1_000, "version": 2, "submitted": False})
        clock.now = 1_000 + 7 * DAY_MS - 1
        self.assertEqual(popup.decide(OPEN_PAGE), vb.PopupDecision.HIDE(vb.PopupHideReason.RECENTLY_CLOSED))
        clock.now = 1_000 + 7 * DAY_MS
        self.assertEqual(popup.decide(OPEN_PAGE), vb.PopupDecision.SHOW())

    def test_a_submission_hides_it_until_a_new_version(self):
        clock, storage = FixedClock(5), MemoryStorage()
        vb.PopupOverlay(popup_settings(), clock, storage).record_submitted()
        self.assertEqual(json.loads(storage.stored), {"date-closed": 5, "version": 2, "submitted": True})
        hidden = vb.PopupOverlay(popup_settings(), clock, storage).decide(OPEN_PAGE)
        self.assertEqual(hidden, vb.PopupDecision.HIDE(vb.PopupHideReason.SUBMITTED))
        newer = vb.PopupOverlay(popup_settings(version=3), clock, storage)
        self.assertEqual(newer.decide(OPEN_PAGE), vb.PopupDecision.SHOW())

    def test_page_rules_come_first(self):
        popup = vb.PopupOverlay(popup_settings(), FixedClock(0), MemoryStorage())
        mobile = vb.PopupPage(not_found=False, lock_screen=False, screenshot=False, mobile=True, banner_pending=False)
        self.assertEqual(popup.decide(mobile), vb.PopupDecision.HIDE(vb.PopupHideReason.MOBILE_DISABLED))
        off = vb.PopupOverlay(popup_settings(style="none"), FixedClock(0), MemoryStorage())
        self.assertEqual(off.decide(OPEN_PAGE), vb.PopupDecision.HIDE(vb.PopupHideReason.STYLE_NONE))

    def test_an_unreadable_record_counts_as_none(self):
        popup = vb.PopupOverlay(popup_settings(), FixedClock(0), MemoryStorage("{not json"))
        self.assertEqual(popup.decide(OPEN_PAGE), vb.PopupDecision.SHOW())

    def test_the_record_key_is_the_web_one(self):
        self.assertEqual(vb.popup_record_key(), "squarespace-popup-overlay")


def server_settings(**fields):
    names = [
        "cookie_banner_text", "cookie_banner_cta_text", "cookie_banner_opt_out_cta_text",
        "cookie_banner_variant", "cookie_banner_position", "cookie_banner_theme",
        "cookie_banner_cta_variant", "cookie_banner_accept_type", "is_cookie_banner_enabled",
        "is_restrictive_cookie_policy_absolute", "is_analytics_cookies_disabled", "is_activity_log_enabled",
    ]
    return vb.ServerCookieBannerSettings(**{name: fields.get(name) for name in names})


class ConsentTests(unittest.TestCase):
    def test_normalises_missing_and_invalid_fields(self):
        settings = vb.normalise_cookie_banner(
            server_settings(cookie_banner_variant="POPUP", cookie_banner_position="TOP", cookie_banner_cta_text="  ")
        )
        self.assertEqual(settings.cookie_banner_variant, vb.BannerVariant.POPUP)
        self.assertEqual(settings.cookie_banner_position, vb.BannerPosition.TOP_LEFT)
        self.assertEqual(settings.cookie_banner_cta_text, "Accept")
        self.assertEqual(settings.cookie_banner_opt_out_cta_text, "Decline")
        self.assertEqual(settings.cookie_banner_theme, vb.BannerTheme.DARK)
        self.assertEqual(settings.cookie_banner_cta_variant, vb.CtaVariant.ICON)
        self.assertEqual(settings.cookie_banner_accept_type, vb.AcceptType.OPT_IN)
        self.assertFalse(settings.is_cookie_banner_enabled)
        self.assertFalse(settings.is_visitor_data_restricted)

    def test_reads_the_page_context_json(self):
        settings = vb.normalise_cookie_banner_json(
            '{"isCookieBannerEnabled": true, "cookieBannerAcceptType": "OPT_IN_AND_OUT", "isActivityLogEnabled": false}'
        )
        self.assertTrue(settings.is_cookie_banner_enabled)
        self.assertEqual(settings.cookie_banner_accept_type, vb.AcceptType.OPT_IN_AND_OUT)
        self.assertTrue(settings.is_visitor_data_restricted)

    def test_invalid_json_is_an_error(self):
        with self.assertRaises(vb.ConsentError.InvalidSettingsJson) as raised:
            vb.normalise_cookie_banner_json('{"isCookieBannerEnabled": "yes"}')
        self.assertIn("not valid JSON of the server's shape", str(raised.exception))

    def test_the_decision_follows_cookie_and_gpc(self):
        enabled = server_settings(is_cookie_banner_enabled=True, cookie_banner_accept_type="OPT_IN_AND_OUT")
        undecided = vb.consent_decision(enabled, None, False, False)
        self.assertEqual(undecided.consent, vb.ConsentState.UNDECIDED())
        self.assertTrue(undecided.tracking_cookies_allowed)
        self.assertEqual(undecided.banner, vb.BannerDisplay.SHOWN(gpc_notice=False))
        self.assertIsNone(undecided.gpc_notice_text)

        gpc = vb.consent_decision(enabled, None, True, False)
        self.assertEqual(gpc.consent, vb.ConsentState.GPC_DECLINED())
        self.assertFalse(gpc.tracking_cookies_allowed)
        self.assertEqual(gpc.banner, vb.BannerDisplay.SHOWN(gpc_notice=True))
        self.assertIn("Global Privacy Control", gpc.gpc_notice_text)

        accepted = vb.consent_decision(enabled, "true", True, False)
        self.assertEqual(accepted.consent, vb.ConsentState.DECIDED(vb.ConsentChoice.ACCEPTED))
        self.assertTrue(accepted.tracking_cookies_allowed)
        self.assertEqual(accepted.banner, vb.BannerDisplay.HIDDEN())

        forced = vb.consent_decision(enabled, "false", False, True)
        self.assertEqual(forced.banner, vb.BannerDisplay.FORCED())
        self.assertFalse(forced.tracking_cookies_allowed)

    def test_the_cookie_remembers_a_choice_for_thirty_days(self):
        self.assertEqual(
            vb.consent_cookie(vb.ConsentChoice.DECLINED),
            vb.ConsentCookie(name="ss_cookieAllowed", value="false", max_age_seconds=30 * 24 * 60 * 60),
        )
        self.assertEqual(vb.consent_cookie(vb.ConsentChoice.ACCEPTED).value, "true")


REPORT = {"pageType": "Page", "cartCount": 3, "signedIn": False, "locale": "en-US", "experiments": {}}


def envelope(**fields):
    message = {"v": 1, "id": "req-1", "name": "info", "payload": REPORT}
    message.update(fields)
    return json.dumps(message)


class BridgeTests(unittest.TestCase):
    def test_reads_info_and_dismiss(self):
        report = vb.InfoResult(page_type="Page", cart_count=3, signed_in=False, locale="en-US", experiments={})
        self.assertEqual(
            vb.parse_bridge_request(envelope()),
            vb.BridgeRequest(id="req-1", name=vb.BridgeName.INFO, info=report, back_url=None),
        )
        dismiss = vb.parse_bridge_request(envelope(name="dismiss", payload={"backUrl": "/shop"}))
        self.assertEqual(
            dismiss, vb.BridgeRequest(id="req-1", name=vb.BridgeName.DISMISS, info=None, back_url="/shop")
        )

    def test_the_info_report_comes_validated_and_cut_to_its_five_fields(self):
        payload = dict(REPORT, cartCount=7, signedIn=True, experiments={"hero": "b"}, extra="ignored")
        request = vb.parse_bridge_request(envelope(payload=payload))
        self.assertEqual(
            request.info,
            vb.InfoResult(page_type="Page", cart_count=7, signed_in=True, locale="en-US", experiments={"hero": "b"}),
        )
        with self.assertRaises(vb.BridgeMessageError.InvalidPayload):
            vb.parse_bridge_request(envelope(payload=dict(REPORT, cartCount=-1)))

    def test_an_unknown_name_is_refused_with_the_spec_text_and_answered(self):
        with self.assertRaises(vb.BridgeMessageError.UnknownName) as raised:
            vb.parse_bridge_request(envelope(name="openCamera"))
        error = raised.exception
        self.assertEqual(error.error_text, "[JS -> Native Bridge] openCamera not found")
        self.assertEqual(
            json.loads(error.reply),
            {"v": 1, "id": "req-1", "ok": False, "error": "[JS -> Native Bridge] openCamera not found"},
        )

    def test_refusals_without_a_readable_id_are_dropped(self):
        cases = [
            (vb.BridgeMessageError.TooLarge, envelope(payload={"pad": "x" * 16_384})),
            (vb.BridgeMessageError.Malformed, "not json"),
            (vb.BridgeMessageError.InvalidId, envelope(id="forged id with spaces")),
            (vb.BridgeMessageError.InvalidId, envelope(id="a" * 65)),
        ]
        for error_type, message in cases:
            with self.subTest(error=error_type.__name__):
                with self.assertRaises(error_type) as raised:
                    vb.parse_bridge_request(message)
                self.assertIsNone(raised.exception.reply)

    def test_refusals_with_an_id_are_answered(self):
        cases = [
            (vb.BridgeMessageError.UnsupportedVersion, envelope(v=2), "version 2 is not supported"),
            (vb.BridgeMessageError.InvalidPayload, envelope(payload=[]), "the info payload is invalid"),
            (
                vb.BridgeMessageError.InvalidPayload,
                envelope(payload={**REPORT, "cartCount": -1}),
                "the info payload is invalid: cartCount must be a whole number from 0",
            ),
            (
                vb.BridgeMessageError.InvalidPayload,
                envelope(name="dismiss", payload={"backUrl": 3}),
                "backUrl must be a string",
            ),
        ]
        for error_type, message, text in cases:
            with self.subTest(text=text):
                with self.assertRaises(error_type) as raised:
                    vb.parse_bridge_request(message)
                self.assertIn(text, raised.exception.error_text)
                reply = json.loads(raised.exception.reply)
                self.assertEqual((reply["id"], reply["ok"]), ("req-1", False))
                self.assertEqual(reply["error"], raised.exception.error_text)

    def test_builds_replies_with_the_same_id(self):
        info = vb.InfoResult(
            page_type="product", cart_count=3, signed_in=True, locale="en-US", experiments={"checkout": "b"}
        )
        self.assertEqual(
            json.loads(vb.build_info_reply("req-1", info)),
            {
                "v": 1,
                "id": "req-1",
                "ok": True,
                "result": {
                    "pageType": "product",
                    "cartCount": 3,
                    "signedIn": True,
                    "locale": "en-US",
                    "experiments": {"checkout": "b"},
                },
            },
        )
        self.assertEqual(json.loads(vb.build_dismiss_reply("d-2")), {"v": 1, "id": "d-2", "ok": True, "result": {}})
        self.assertEqual(
            json.loads(vb.build_error_reply("e-3", "mobile platform not correctly identified")),
            {"v": 1, "id": "e-3", "ok": False, "error": "mobile platform not correctly identified"},
        )

    def test_a_reply_to_a_forged_id_is_refused(self):
        for build in [
            lambda: vb.build_dismiss_reply("</script>"),
            lambda: vb.build_error_reply("", "x"),
            lambda: vb.build_info_reply(
                "a b", vb.InfoResult(page_type="", cart_count=0, signed_in=False, locale="", experiments={})
            ),
        ]:
            with self.assertRaises(vb.BridgeMessageError.InvalidId):
                build()

    def test_identifies_the_platform_or_refuses_with_the_spec_text(self):
        self.assertEqual(vb.identify_mobile_platform("ios"), vb.MobilePlatform.IOS)
        self.assertEqual(vb.identify_mobile_platform("android"), vb.MobilePlatform.ANDROID)
        with self.assertRaises(vb.BridgeMessageError.PlatformNotIdentified) as raised:
            vb.identify_mobile_platform("web")
        self.assertEqual(raised.exception.error_text, "mobile platform not correctly identified")
        self.assertIsNone(raised.exception.reply)

    def test_publishes_the_limits(self):
        self.assertEqual(
            vb.bridge_limits(), vb.BridgeLimits(protocol_version=1, max_message_bytes=16_384, max_id_chars=64)
        )


DEFINITIONS = json.dumps([
    {
        "name": "home-headline",
        "experiment_type": "AB_TEST",
        "variants": [{"name": "control", "weight": 50}, {"name": "warm", "weight": 50}],
        "pages": ["/"],
    },
    {
        "name": "free-shipping-note",
        "experiment_type": "FEATURE_TOGGLE",
        "variants": [{"name": "true", "weight": 100}, {"name": "false", "weight": 0}],
    },
])


def visitor(visitor_id="ada", cookieless=False):
    return vb.ExperimentVisitor(
        visitor_id=visitor_id,
        cookieless=cookieless,
        kind=vb.VisitorKind.NEW,
        member=False,
        device=vb.DeviceClass.MOBILE,
        locale="pt-PT",
    )


class ExperimentTests(unittest.TestCase):
    def test_the_bucket_is_the_servers_and_the_browsers(self):
        # The same pinned buckets as the core's unit test and the web's vectors.
        self.assertEqual(vb.experiment_bucket("home-headline", "ada"), 6630)
        self.assertEqual(vb.experiment_bucket("free-shipping-note", "ada"), 5014)

    def test_a_toggle_is_on_when_its_variant_is_true(self):
        decision = vb.decide_experiment(DEFINITIONS, "free-shipping-note", vb.ExperimentType.FEATURE_TOGGLE, visitor())
        self.assertEqual(decision.variant, "true")
        self.assertFalse(decision.contains_error)
        self.assertIsNone(decision.error)
        self.assertTrue(decision.exposed)
        self.assertTrue(vb.is_feature_enabled(decision))

    def test_an_ab_test_picks_by_the_bucket(self):
        decision = vb.decide_experiment(DEFINITIONS, "home-headline", vb.ExperimentType.AB_TEST, visitor())
        self.assertEqual(decision.variant, "warm")  # bucket 6630 of 10,000 falls in the second half
        self.assertFalse(vb.is_feature_enabled(decision))

    def test_defaults_come_with_the_spec_texts(self):
        cases = [
            (None, "home-headline", vb.ExperimentType.AB_TEST, "The underlying Praetor configuration is not loaded", "control"),
            (DEFINITIONS, "nope", vb.ExperimentType.FEATURE_TOGGLE, "The specified feature does not exist", "false"),
            (DEFINITIONS, "home-headline", vb.ExperimentType.FEATURE_TOGGLE, "The specified feature is not a FEATURE_TOGGLE", "false"),
        ]
        for definitions, name, expected, error, variant in cases:
            with self.subTest(name=name, error=error):
                decision = vb.decide_experiment(definitions, name, expected, visitor())
                self.assertEqual((decision.error, decision.variant), (error, variant))
                self.assertTrue(decision.contains_error)
        broken = json.dumps([{"name": "broken", "experiment_type": "AB_TEST", "variants": [{"name": "a", "weight": 0}]}])
        decision = vb.decide_experiment(broken, "broken", vb.ExperimentType.AB_TEST, visitor())
        self.assertEqual(decision.error, "The specified feature has an invalid server-side definition")

    def test_invalid_json_is_an_error(self):
        with self.assertRaises(vb.ExperimentsError.InvalidDefinitionsJson):
            vb.decide_experiment("{", "home-headline", vb.ExperimentType.AB_TEST, visitor())

    def test_the_gating_rules(self):
        self.assertTrue(vb.mouse_position_tracking_enabled(True))
        self.assertFalse(vb.mouse_position_tracking_enabled(False))
        self.assertTrue(vb.session_replay_enabled(True, vb.sample_picks(99, 100), 4))
        self.assertFalse(vb.session_replay_enabled(True, vb.sample_picks(100, 100), 4))
        self.assertFalse(vb.session_replay_enabled(True, True, 2))
        self.assertFalse(vb.session_replay_enabled(True, True, None))


if __name__ == "__main__":
    unittest.main()
