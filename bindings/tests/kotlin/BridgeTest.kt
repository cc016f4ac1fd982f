// The native bridge's envelope: reading the page's messages, each refusal with its text and
// reply, building replies, the platform check and the published limits.

package app.vitrine.bindings.tests

import app.vitrine.bindings.BridgeLimits
import app.vitrine.bindings.BridgeMessageException
import app.vitrine.bindings.BridgeName
import app.vitrine.bindings.BridgeRequest
import app.vitrine.bindings.InfoResult
import app.vitrine.bindings.MobilePlatform
import app.vitrine.bindings.bridgeLimits
import app.vitrine.bindings.buildDismissReply
import app.vitrine.bindings.buildErrorReply
import app.vitrine.bindings.buildInfoReply
import app.vitrine.bindings.identifyMobilePlatform
import app.vitrine.bindings.parseBridgeRequest
import kotlin.test.assertContains
import kotlin.test.assertEquals
import kotlin.test.assertFailsWith
import kotlin.test.assertNull

const val REPORT = """{"pageType":"Page","cartCount":3,"signedIn":false,"locale":"en-US","experiments":{}}"""

/** A message from the page; `payload` and `v` are JSON text, the id and name plain strings. */
fun envelope(id: String = "req-1", name: String = "info", payload: String = REPORT, v: String = "1") =
    """{"v":$v,"id":"$id","name":"$name","payload":$payload}"""

/** The error text and reply of a refusal, whichever variant it is. */
val BridgeMessageException.textAndReply: Pair<String, String?>
    get() = when (this) {
        is BridgeMessageException.UnknownName -> errorText to reply
        is BridgeMessageException.PlatformNotIdentified -> errorText to reply
        is BridgeMessageException.TooLarge -> errorText to reply
        is BridgeMessageException.Malformed -> errorText to reply
        is BridgeMessageException.InvalidId -> errorText to reply
        is BridgeMessageException.UnsupportedVersion -> errorText to reply
        is BridgeMessageException.InvalidPayload -> errorText to reply
    }

val bridgeTests = Suite("bridge") {
    test("reads info and dismiss") {
        val report = InfoResult(pageType = "Page", cartCount = 3u, signedIn = false, locale = "en-US", experiments = emptyMap())
        assertEquals(
            BridgeRequest(id = "req-1", name = BridgeName.INFO, info = report, backUrl = null),
            parseBridgeRequest(envelope()),
        )
        assertEquals(
            BridgeRequest(id = "req-1", name = BridgeName.DISMISS, info = null, backUrl = "/shop"),
            parseBridgeRequest(envelope(name = "dismiss", payload = """{"backUrl":"/shop"}""")),
        )
    }

    test("the info report comes validated and cut to its five fields") {
        val payload = """{"pageType":"Page","cartCount":7,"signedIn":true,"locale":"en-US","experiments":{"hero":"b"},"extra":"ignored"}"""
        assertEquals(
            InfoResult(pageType = "Page", cartCount = 7u, signedIn = true, locale = "en-US", experiments = mapOf("hero" to "b")),
            parseBridgeRequest(envelope(payload = payload)).info,
        )
        assertFailsWith<BridgeMessageException.InvalidPayload> {
            parseBridgeRequest(envelope(payload = REPORT.replace("\"cartCount\":3", "\"cartCount\":-1")))
        }
    }

    test("an unknown name is refused with the spec text and answered") {
        val error = assertFailsWith<BridgeMessageException.UnknownName> {
            parseBridgeRequest(envelope(name = "openCamera"))
        }
        assertEquals("[JS -> Native Bridge] openCamera not found", error.errorText)
        assertEquals(
            """{"v":1,"id":"req-1","ok":false,"error":"[JS -> Native Bridge] openCamera not found"}""",
            error.reply,
        )
    }

    test("refusals without a readable id are dropped") {
        val cases = listOf(
            BridgeMessageException.TooLarge::class to envelope(payload = """{"pad":"${"x".repeat(16_384)}"}"""),
            BridgeMessageException.Malformed::class to "not json",
            BridgeMessageException.InvalidId::class to envelope(id = "forged id with spaces"),
            BridgeMessageException.InvalidId::class to envelope(id = "a".repeat(65)),
        )
        for ((variant, message) in cases) {
            val error = assertFailsWith<BridgeMessageException> { parseBridgeRequest(message) }
            assertEquals(variant, error::class, message.take(60))
            assertNull(error.textAndReply.second, "${variant.simpleName} has no reply")
        }
    }

    test("refusals with an id are answered") {
        val cases = listOf(
            Triple(BridgeMessageException.UnsupportedVersion::class, envelope(v = "2"), "version 2 is not supported"),
            Triple(BridgeMessageException.InvalidPayload::class, envelope(payload = "[]"), "the info payload is invalid"),
            Triple(
                BridgeMessageException.InvalidPayload::class,
                envelope(payload = REPORT.replace("\"cartCount\":3", "\"cartCount\":-1")),
                "the info payload is invalid: cartCount must be a whole number from 0",
            ),
            Triple(
                BridgeMessageException.InvalidPayload::class,
                envelope(name = "dismiss", payload = """{"backUrl":3}"""),
                "backUrl must be a string",
            ),
        )
        for ((variant, message, text) in cases) {
            val error = assertFailsWith<BridgeMessageException> { parseBridgeRequest(message) }
            assertEquals(variant, error::class, text)
            val (errorText, reply) = error.textAndReply
            assertContains(errorText, text)
            assertEquals("""{"v":1,"id":"req-1","ok":false,"error":"$errorText"}""", reply)
        }
    }

    test("builds replies with the same id") {
        val info = InfoResult(
            pageType = "product", cartCount = 3u, signedIn = true, locale = "en-US", experiments = mapOf("checkout" to "b"),
        )
        assertEquals(
            """{"v":1,"id":"req-1","ok":true,"result":{"pageType":"product","cartCount":3,"signedIn":true,""" +
                """"locale":"en-US","experiments":{"checkout":"b"}}}""",
            buildInfoReply("req-1", info),
        )
        assertEquals("""{"v":1,"id":"d-2","ok":true,"result":{}}""", buildDismissReply("d-2"))
        assertEquals(
            """{"v":1,"id":"e-3","ok":false,"error":"mobile platform not correctly identified"}""",
            buildErrorReply("e-3", "mobile platform not correctly identified"),
        )
    }

    test("a reply to a forged id is refused") {
        val empty = InfoResult(pageType = "", cartCount = 0u, signedIn = false, locale = "", experiments = emptyMap())
        val builds = listOf(
            { buildDismissReply("</script>") },
            { buildErrorReply("", "x") },
            { buildInfoReply("a b", empty) },
        )
        for (build in builds) {
            assertFailsWith<BridgeMessageException.InvalidId> { build() }
        }
    }

    test("identifies the platform or refuses with the spec text") {
        assertEquals(MobilePlatform.IOS, identifyMobilePlatform("ios"))
        assertEquals(MobilePlatform.ANDROID, identifyMobilePlatform("android"))
        val error = assertFailsWith<BridgeMessageException.PlatformNotIdentified> { identifyMobilePlatform("web") }
        assertEquals("mobile platform not correctly identified", error.errorText)
        assertNull(error.reply)
    }

    test("publishes the limits") {
        assertEquals(BridgeLimits(protocolVersion = 1u, maxMessageBytes = 16_384u, maxIdChars = 64u), bridgeLimits())
    }
}
