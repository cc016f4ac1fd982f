// Cookie-banner normalisation and the consent decision.

package app.vitrine.bindings.tests

import app.vitrine.bindings.AcceptType
import app.vitrine.bindings.BannerDisplay
import app.vitrine.bindings.BannerPosition
import app.vitrine.bindings.BannerTheme
import app.vitrine.bindings.BannerVariant
import app.vitrine.bindings.ConsentChoice
import app.vitrine.bindings.ConsentCookie
import app.vitrine.bindings.ConsentException
import app.vitrine.bindings.ConsentState
import app.vitrine.bindings.CtaVariant
import app.vitrine.bindings.ServerCookieBannerSettings
import app.vitrine.bindings.consentCookie
import app.vitrine.bindings.consentDecision
import app.vitrine.bindings.normaliseCookieBanner
import app.vitrine.bindings.normaliseCookieBannerJson
import kotlin.test.assertContains
import kotlin.test.assertEquals
import kotlin.test.assertFailsWith
import kotlin.test.assertFalse
import kotlin.test.assertNull
import kotlin.test.assertTrue

/** The server's settings with every field missing, as a starting point for each case. */
val noServerSettings = ServerCookieBannerSettings(
    cookieBannerText = null,
    cookieBannerCtaText = null,
    cookieBannerOptOutCtaText = null,
    cookieBannerVariant = null,
    cookieBannerPosition = null,
    cookieBannerTheme = null,
    cookieBannerCtaVariant = null,
    cookieBannerAcceptType = null,
    isCookieBannerEnabled = null,
    isRestrictiveCookiePolicyAbsolute = null,
    isAnalyticsCookiesDisabled = null,
    isActivityLogEnabled = null,
)

val consentTests = Suite("consent") {
    test("normalises missing and invalid fields") {
        val settings = normaliseCookieBanner(
            noServerSettings.copy(cookieBannerVariant = "POPUP", cookieBannerPosition = "TOP", cookieBannerCtaText = "  "),
        )
        assertEquals(BannerVariant.POPUP, settings.cookieBannerVariant)
        assertEquals(BannerPosition.TOP_LEFT, settings.cookieBannerPosition)
        assertEquals("Accept", settings.cookieBannerCtaText)
        assertEquals("Decline", settings.cookieBannerOptOutCtaText)
        assertEquals(BannerTheme.DARK, settings.cookieBannerTheme)
        assertEquals(CtaVariant.ICON, settings.cookieBannerCtaVariant)
        assertEquals(AcceptType.OPT_IN, settings.cookieBannerAcceptType)
        assertFalse(settings.isCookieBannerEnabled)
        assertFalse(settings.isVisitorDataRestricted)
    }

    test("reads the page context JSON") {
        val settings = normaliseCookieBannerJson(
            """{"isCookieBannerEnabled": true, "cookieBannerAcceptType": "OPT_IN_AND_OUT", "isActivityLogEnabled": false}""",
        )
        assertTrue(settings.isCookieBannerEnabled)
        assertEquals(AcceptType.OPT_IN_AND_OUT, settings.cookieBannerAcceptType)
        assertTrue(settings.isVisitorDataRestricted)
    }

    test("invalid JSON is an error") {
        val error = assertFailsWith<ConsentException.InvalidSettingsJson> {
            normaliseCookieBannerJson("""{"isCookieBannerEnabled": "yes"}""")
        }
        assertContains(error.message.orEmpty(), "not valid JSON of the server's shape")
    }

    test("the decision follows the cookie and GPC") {
        val enabled = noServerSettings.copy(isCookieBannerEnabled = true, cookieBannerAcceptType = "OPT_IN_AND_OUT")

        val undecided = consentDecision(enabled, null, false, false)
        assertEquals(ConsentState.Undecided, undecided.consent)
        assertTrue(undecided.trackingCookiesAllowed)
        assertEquals(BannerDisplay.Shown(gpcNotice = false), undecided.banner)
        assertNull(undecided.gpcNoticeText)

        val gpc = consentDecision(enabled, null, true, false)
        assertEquals(ConsentState.GpcDeclined, gpc.consent)
        assertFalse(gpc.trackingCookiesAllowed)
        assertEquals(BannerDisplay.Shown(gpcNotice = true), gpc.banner)
        assertContains(gpc.gpcNoticeText.orEmpty(), "Global Privacy Control")

        val accepted = consentDecision(enabled, "true", true, false)
        assertEquals(ConsentState.Decided(ConsentChoice.ACCEPTED), accepted.consent)
        assertTrue(accepted.trackingCookiesAllowed)
        assertEquals(BannerDisplay.Hidden, accepted.banner)

        val forced = consentDecision(enabled, "false", false, true)
        assertEquals(BannerDisplay.Forced, forced.banner)
        assertFalse(forced.trackingCookiesAllowed)
    }

    test("the cookie remembers a choice for thirty days") {
        assertEquals(
            ConsentCookie(name = "ss_cookieAllowed", value = "false", maxAgeSeconds = 30uL * 24u * 60u * 60u),
            consentCookie(ConsentChoice.DECLINED),
        )
        assertEquals("true", consentCookie(ConsentChoice.ACCEPTED).value)
    }
}
