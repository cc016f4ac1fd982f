// The cart badge's label and its count cap.

package app.vitrine.bindings.tests

import app.vitrine.bindings.CartIndicatorLabel
import app.vitrine.bindings.cartDisplayCap
import app.vitrine.bindings.cartIndicatorLabel
import kotlin.test.assertEquals

val cartTests = Suite("cart") {
    test("the label follows the cap") {
        val cases = mapOf(
            0u to CartIndicatorLabel(displayCount = "0", spokenLabel = "0 items in cart", empty = true),
            1u to CartIndicatorLabel(displayCount = "1", spokenLabel = "one item", empty = false),
            100u to CartIndicatorLabel(displayCount = "100", spokenLabel = "100 items in cart", empty = false),
            101u to CartIndicatorLabel(displayCount = "100+", spokenLabel = "more than 100 items", empty = false),
        )
        for ((items, label) in cases) {
            assertEquals(label, cartIndicatorLabel(items), "$items items")
        }
        assertEquals(100u, cartDisplayCap())
    }
}
