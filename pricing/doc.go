// Package pricing computes what a stay costs: nightly rates, length-of-stay
// and coupon discounts, fees, tourist tax and the amount to charge now.
//
// Everything here is a pure function of its arguments: no I/O and no clock.
// Money is shopspring/decimal, rounded half away from zero to the currency's
// minor units at each line, so that the lines of a Quote add up exactly to
// its total.
package pricing
