// Money formatting per currency and locale, and the lists of what is supported.

package app.vitrine.bindings.tests

import app.vitrine.bindings.CurrencyInfo
import app.vitrine.bindings.MoneyException
import app.vitrine.bindings.formatMoney
import app.vitrine.bindings.supportedCurrencies
import app.vitrine.bindings.supportedLocales
import kotlin.test.assertContains
import kotlin.test.assertEquals
import kotlin.test.assertFailsWith

const val NBSP = "\u00a0"

val moneyTests = Suite("money") {
    test("formats per currency and locale") {
        assertEquals("$1,234.50", formatMoney(123450, "USD", "en-US", false))
        assertEquals("1.234,50$NBSP€", formatMoney(123450, "EUR", "de-DE", false))
        assertEquals("$12", formatMoney(1200, "USD", "en-US", true))
        assertEquals("-$0.05", formatMoney(-5, "USD", "en-US", false))
        assertEquals("￥1,234", formatMoney(1234, "JPY", "ja-JP", false))
    }

    test("an unknown currency is an error") {
        val error = assertFailsWith<MoneyException.UnknownCurrency> {
            formatMoney(1, "XXX", "en-US", false)
        }
        assertEquals("\"XXX\" is not a supported currency code", error.message)
    }

    test("an unsupported locale is an error") {
        val error = assertFailsWith<MoneyException.UnsupportedLocale> {
            formatMoney(1, "USD", "tlh", false)
        }
        assertContains(error.message.orEmpty(), "\"tlh\" is not a supported display locale")
    }

    test("lists what it supports") {
        val currencies = supportedCurrencies()
        assertEquals(27, currencies.size)
        assertEquals(CurrencyInfo(code = "EUR", englishName = "Euro", fractionDigits = 2u), currencies[0])
        assertEquals(0u, currencies.single { it.code == "JPY" }.fractionDigits)
        assertEquals(listOf("en-US", "en-GB", "de-DE", "fr-FR", "es-ES", "ja-JP"), supportedLocales())
    }
}
