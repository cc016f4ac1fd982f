// Experiment bucketing and decisions, and the gating rules for mouse tracking and session replay.

package app.vitrine.bindings.tests

import app.vitrine.bindings.DeviceClass
import app.vitrine.bindings.ExperimentType
import app.vitrine.bindings.ExperimentVisitor
import app.vitrine.bindings.ExperimentsException
import app.vitrine.bindings.VisitorKind
import app.vitrine.bindings.decideExperiment
import app.vitrine.bindings.experimentBucket
import app.vitrine.bindings.isFeatureEnabled
import app.vitrine.bindings.mousePositionTrackingEnabled
import app.vitrine.bindings.samplePicks
import app.vitrine.bindings.sessionReplayEnabled
import kotlin.test.assertEquals
import kotlin.test.assertFailsWith
import kotlin.test.assertFalse
import kotlin.test.assertNull
import kotlin.test.assertTrue

const val DEFINITIONS = """[
    {"name": "home-headline", "experiment_type": "AB_TEST",
     "variants": [{"name": "control", "weight": 50}, {"name": "warm", "weight": 50}], "pages": ["/"]},
    {"name": "free-shipping-note", "experiment_type": "FEATURE_TOGGLE",
     "variants": [{"name": "true", "weight": 100}, {"name": "false", "weight": 0}]}
]"""

val visitor = ExperimentVisitor(
    visitorId = "ada",
    cookieless = false,
    kind = VisitorKind.NEW,
    member = false,
    device = DeviceClass.MOBILE,
    locale = "pt-PT",
)

val experimentTests = Suite("experiments") {
    test("the bucket is the server's and the browser's") {
        // The same pinned buckets as the core's unit test, the web's vectors and the Python tests.
        assertEquals(6630.toUShort(), experimentBucket("home-headline", "ada"))
        assertEquals(5014.toUShort(), experimentBucket("free-shipping-note", "ada"))
    }

    test("a toggle is on when its variant is true") {
        val decision = decideExperiment(DEFINITIONS, "free-shipping-note", ExperimentType.FEATURE_TOGGLE, visitor)
        assertEquals("true", decision.variant)
        assertFalse(decision.containsError)
        assertNull(decision.error)
        assertTrue(decision.exposed)
        assertTrue(isFeatureEnabled(decision))
    }

    test("an A/B test picks by the bucket") {
        val decision = decideExperiment(DEFINITIONS, "home-headline", ExperimentType.AB_TEST, visitor)
        assertEquals("warm", decision.variant) // bucket 6630 of 10,000 falls in the second half
        assertFalse(isFeatureEnabled(decision))
    }

    test("defaults come with the spec texts") {
        data class Case(val definitions: String?, val name: String, val expected: ExperimentType, val error: String, val variant: String)
        val cases = listOf(
            Case(null, "home-headline", ExperimentType.AB_TEST, "The underlying Praetor configuration is not loaded", "control"),
            Case(DEFINITIONS, "nope", ExperimentType.FEATURE_TOGGLE, "The specified feature does not exist", "false"),
            Case(DEFINITIONS, "home-headline", ExperimentType.FEATURE_TOGGLE, "The specified feature is not a FEATURE_TOGGLE", "false"),
        )
        for (case in cases) {
            val decision = decideExperiment(case.definitions, case.name, case.expected, visitor)
            assertEquals(case.error to case.variant, decision.error to decision.variant, case.name)
            assertTrue(decision.containsError)
        }
        val broken = """[{"name": "broken", "experiment_type": "AB_TEST", "variants": [{"name": "a", "weight": 0}]}]"""
        assertEquals(
            "The specified feature has an invalid server-side definition",
            decideExperiment(broken, "broken", ExperimentType.AB_TEST, visitor).error,
        )
    }

    test("invalid JSON is an error") {
        assertFailsWith<ExperimentsException.InvalidDefinitionsJson> {
            decideExperiment("{", "home-headline", ExperimentType.AB_TEST, visitor)
        }
    }

    test("the gating rules") {
        assertTrue(mousePositionTrackingEnabled(true))
        assertFalse(mousePositionTrackingEnabled(false))
        assertTrue(sessionReplayEnabled(true, samplePicks(99u, 100u), 4u))
        assertFalse(sessionReplayEnabled(true, samplePicks(100u, 100u), 4u))
        assertFalse(sessionReplayEnabled(true, true, 2u))
        assertFalse(sessionReplayEnabled(true, true, null))
    }
}
