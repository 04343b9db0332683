package stripe

import "strings"

// minimumAmounts are Stripe's minimum charge amounts in minor units, from
// the table "Minimum and maximum charge amounts" of Stripe's "Supported
// currencies" page (https://docs.stripe.com/currencies#minimum-and-maximum-charge-amounts).
// JPY is zero-decimal, so its minimum ¥50 is 50; HUF is two-decimal in the
// API, so 175.00 Ft is 17500.
//
// Stripe applies the minimum of the settlement currency after conversion,
// so a charge that passes this table can still be refused when the account
// settles in another currency; Stripe then answers amount_too_small, which
// becomes payment.ErrInvalid all the same. The table only saves a round trip
// and a confusing message in the common case of charging in one's own
// currency.
var minimumAmounts = map[string]int64{
	"USD": 50,    // $0.50
	"AED": 200,   // 2.00 د.إ
	"AUD": 50,    // $0.50
	"BGN": 100,   // лв1.00
	"BRL": 50,    // R$0.50
	"CAD": 50,    // $0.50
	"CHF": 50,    // 0.50 Fr
	"CZK": 1500,  // 15.00 Kč
	"DKK": 250,   // 2.50 kr.
	"EUR": 50,    // €0.50
	"GBP": 30,    // £0.30
	"HKD": 400,   // $4.00
	"HUF": 17500, // 175.00 Ft
	"INR": 50,    // ₹0.50
	"JPY": 50,    // ¥50
	"MXN": 1000,  // $10
	"MYR": 200,   // RM 2
	"NOK": 300,   // 3.00 kr.
	"NZD": 50,    // $0.50
	"PLN": 200,   // 2.00 zł
	"RON": 200,   // lei2.00
	"SEK": 300,   // 3.00 kr.
	"SGD": 50,    // $0.50
	"THB": 1000,  // ฿10
}

// MinimumAmount returns Stripe's published minimum charge for the currency
// (any case) in minor units. For a currency Stripe publishes no minimum for
// (KWD, ISK and most others: Stripe's rule there is "the equivalent of
// $0.50 in the settlement currency", which depends on the exchange rate), ok
// is false: CreateIntent then only requires a positive amount and leaves the
// check to Stripe rather than refuse a charge Stripe would accept.
func MinimumAmount(currency string) (minimum int64, ok bool) {
	minimum, ok = minimumAmounts[strings.ToUpper(currency)]
	return minimum, ok
}
