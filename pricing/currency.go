package pricing

import "strings"

// currencyMinorUnits returns the ISO 4217 minor units of an upper-case
// currency code, and whether the code is known. A switch rather than a map
// keeps the table immutable and lookups allocation-free.
func currencyMinorUnits(code string) (int32, bool) {
	switch code {
	case "BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG",
		"RWF", "UGX", "VND", "VUV", "XAF", "XOF", "XPF":
		return 0, true
	case "BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND":
		return 3, true
	case "AED", "AFN", "ALL", "AMD", "AOA", "ARS", "AUD", "AWG", "AZN",
		"BAM", "BBD", "BDT", "BGN", "BMD", "BND", "BOB", "BRL", "BSD", "BTN",
		"BWP", "BYN", "BZD", "CAD", "CDF", "CHF", "CNY", "COP", "CRC", "CUP",
		"CVE", "CZK", "DKK", "DOP", "DZD", "EGP", "ERN", "ETB", "EUR", "FJD",
		"FKP", "GBP", "GEL", "GHS", "GIP", "GMD", "GTQ", "GYD", "HKD", "HNL",
		"HTG", "HUF", "IDR", "ILS", "INR", "IRR", "JMD", "KES", "KGS", "KHR",
		"KPW", "KYD", "KZT", "LAK", "LBP", "LKR", "LRD", "LSL", "MAD", "MDL",
		"MGA", "MKD", "MMK", "MNT", "MOP", "MRU", "MUR", "MVR", "MWK", "MXN",
		"MYR", "MZN", "NAD", "NGN", "NIO", "NOK", "NPR", "NZD", "PAB", "PEN",
		"PGK", "PHP", "PKR", "PLN", "QAR", "RON", "RSD", "RUB", "SAR", "SBD",
		"SCR", "SDG", "SEK", "SGD", "SHP", "SLE", "SOS", "SRD", "SSP", "STN",
		"SVC", "SYP", "SZL", "THB", "TJS", "TMT", "TOP", "TRY", "TTD", "TWD",
		"TZS", "UAH", "USD", "UYU", "UZS", "VES", "WST", "XCD", "XCG", "YER",
		"ZAR", "ZMW", "ZWG":
		return 2, true
	}
	return 2, false
}

// ValidCurrency reports whether code is an ISO 4217 code this package knows.
// Codes are compared upper-case, so "eur" is valid.
func ValidCurrency(code string) bool {
	_, ok := currencyMinorUnits(strings.ToUpper(code))
	return ok
}

// MinorUnits returns the number of decimal places of a currency (2 for EUR,
// 0 for JPY, 3 for KWD); 2 for unknown codes.
func MinorUnits(currency string) int32 {
	n, _ := currencyMinorUnits(strings.ToUpper(currency))
	return n
}
