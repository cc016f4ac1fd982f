// The popup overlay's display rules, with the clock and the record storage implemented here in
// Kotlin: the foreign traits cross the library in the direction an app uses them.

package app.vitrine.bindings.tests

import app.vitrine.bindings.Clock
import app.vitrine.bindings.PopupDecision
import app.vitrine.bindings.PopupHideReason
import app.vitrine.bindings.PopupOverlay
import app.vitrine.bindings.PopupPage
import app.vitrine.bindings.PopupRecordStorage
import app.vitrine.bindings.PopupSettings
import app.vitrine.bindings.popupRecordKey
import kotlin.test.assertEquals

class FixedClock(var now: Long) : Clock {
    override fun nowMs(): Long = now
}

class MemoryStorage(var stored: String? = null) : PopupRecordStorage {
    override fun load(): String? = stored

    override fun save(record: String) {
        stored = record
    }
}

const val DAY_MS = 24L * 60 * 60 * 1000

val openPage = PopupPage(notFound = false, lockScreen = false, screenshot = false, mobile = false, bannerPending = false)

fun popupSettings(style: String = "full", version: UInt = 2u) =
    PopupSettings(style = style, version = version, showUntilSignup = true, displayFrequency = 7, enableMobile = false)

val popupTests = Suite("popup") {
    test("shows, then stays closed for the frequency") {
        val clock = FixedClock(1_000)
        val storage = MemoryStorage()
        PopupOverlay(popupSettings(), clock, storage).use { popup ->
            assertEquals(PopupDecision.Show, popup.decide(openPage))
            popup.recordClosed()
            assertEquals("""{"date-closed":1000,"version":2,"submitted":false}""", storage.stored)
            clock.now = 1_000 + 7 * DAY_MS - 1
            assertEquals(PopupDecision.Hide(PopupHideReason.RECENTLY_CLOSED), popup.decide(openPage))
            clock.now = 1_000 + 7 * DAY_MS
            assertEquals(PopupDecision.Show, popup.decide(openPage))
        }
    }

    test("a submission hides it until a new version") {
        val clock = FixedClock(5)
        val storage = MemoryStorage()
        PopupOverlay(popupSettings(), clock, storage).use { it.recordSubmitted() }
        assertEquals("""{"date-closed":5,"version":2,"submitted":true}""", storage.stored)
        PopupOverlay(popupSettings(), clock, storage).use {
            assertEquals(PopupDecision.Hide(PopupHideReason.SUBMITTED), it.decide(openPage))
        }
        PopupOverlay(popupSettings(version = 3u), clock, storage).use {
            assertEquals(PopupDecision.Show, it.decide(openPage))
        }
    }

    test("page rules come first") {
        val mobile = openPage.copy(mobile = true)
        PopupOverlay(popupSettings(), FixedClock(0), MemoryStorage()).use {
            assertEquals(PopupDecision.Hide(PopupHideReason.MOBILE_DISABLED), it.decide(mobile))
        }
        PopupOverlay(popupSettings(style = "none"), FixedClock(0), MemoryStorage()).use {
            assertEquals(PopupDecision.Hide(PopupHideReason.STYLE_NONE), it.decide(openPage))
        }
    }

    test("an unreadable record counts as none") {
        PopupOverlay(popupSettings(), FixedClock(0), MemoryStorage("{not json")).use {
            assertEquals(PopupDecision.Show, it.decide(openPage))
        }
    }

    test("the record key is the web one") {
        assertEquals("squarespace-popup-overlay", popupRecordKey())
    }
}
