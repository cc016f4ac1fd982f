// A test runner small enough to need no build tool: each suite lists named cases, `main` runs
// every one and exits non-zero when any failed. Assertions come from kotlin.test, which ships
// with the compiler.

package app.vitrine.bindings.tests

import kotlin.system.exitProcess

/** One area's cases, each a name and a body that throws when the case fails. */
class Suite(val name: String, build: Suite.() -> Unit) {
    val cases = mutableListOf<Pair<String, () -> Unit>>()

    init {
        build()
    }

    fun test(name: String, body: () -> Unit) {
        cases += name to body
    }
}

val suites = listOf(moneyTests, cartTests, popupTests, consentTests, bridgeTests, experimentTests)

fun main() {
    var failed = 0
    var passed = 0
    for (suite in suites) {
        for ((name, body) in suite.cases) {
            try {
                body()
                passed++
                println("ok     ${suite.name}: $name")
            } catch (failure: Throwable) {
                failed++
                println("FAILED ${suite.name}: $name")
                failure.printStackTrace(System.out)
            }
        }
    }
    println("\n$passed passed, $failed failed")
    if (failed > 0 || passed == 0) {
        exitProcess(1)
    }
}
