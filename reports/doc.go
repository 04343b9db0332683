// Package reports computes a host's figures from its bookings, its
// payments ledger and its properties: revenue booked and collected,
// occupancy, ADR and RevPAR per property and month, tourist tax and
// VAT-like taxes per month, and the arrivals and departures ahead. It is
// pure computation (Compute, Movements) over the few reads of Store, run
// by a Service with an injected clock; the host API (package hostapi)
// serves it under /reports/ and the dashboard draws it.
//
// # Definitions
//
// Periods are calendar months (Month) in the organisation's time zone;
// a stay's nights are civil dates there, and a night belongs to the month
// of the date it starts on, so a stay from 30 April to 3 May counts one
// night in April and two in May. Amounts are exact decimals in the
// organisation's currency (booking.Organization.Currency), rounded to its
// minor units; a booking or ledger entry in another currency makes the
// report fail (CodeConflict) rather than add two currencies together.
//
// Which bookings count: confirmed ones, for their nights and money.
// Pending, requested, declined and expired bookings count for nothing. A
// cancelled booking counts no night and no room revenue; what it kept of
// its money (the amount of its ledger decision, ledger.KindDecision) is
// its cancellation revenue, counted in the month of its check-in.
//
// Room revenue of a night: its price (pricing.Quote.NightsDetail) less
// its share of the stay's discounts (length of stay, coupon, early bird,
// last minute), spread over the nights in proportion to their prices.
// Fees (cleaning, extra guests, other fees and chosen extras) are spread
// evenly over the stay's nights. Each share is rounded to minor units so
// that the shares of a line add up to the line exactly (largest
// remainder first, then the earliest night).
//
// Revenue booked = room revenue + fees + cancellation revenue of the
// period. Taxes added to the price (tourist tax, exclusive percentage
// taxes) are excluded: they are the guest's, collected for the state,
// and reported apart. Inclusive taxes stay inside the prices they are
// part of (the revenue is what the guest paid for the stay) and are
// also listed in the tax report.
//
// Revenue collected = money received less money refunded in the period,
// per the ledger (all of it: the taxes the guest paid included): a succeeded charge, capture or balance entry counts on
// the date of its last update (when it succeeded), a succeeded refund
// likewise, negatively. An intent received what its largest receipt says
// (ledger.Position), so a second entry recording the same money adds
// nothing. Security deposits the host claimed are the host's
// compensation, not revenue, and count for nothing; disputes are not
// subtracted (the money is only lost once the dispute is). Refunds on
// their way (pending, submitted) count once they succeed. Collected
// revenue belongs to the month it moved, whatever the stay's dates: a
// summer stay paid in March counts in March.
//
// Available nights: the nights of the month not closed by the host,
// that is neither covered by an owner block (booking.Block) nor closed
// in the per-day calendar (booking.CalendarDay.Closed). A night a
// confirmed booking holds is available and booked, whatever else says it
// is closed. Nights taken by other channels' calendars (iCal imports)
// are not known here: they count as available and not booked.
//
// Occupancy = booked nights / available nights, as a percent with one
// decimal (null without available nights). ADR (average daily rate) =
// room revenue / booked nights (null without booked nights). RevPAR
// (revenue per available room-night) = room revenue / available nights
// (null without available nights). Both are rounded to minor units.
// Totals over several months or properties are computed from the summed
// nights and amounts, never by averaging percentages.
//
// Taxes: the tourist tax (pricing.LineTouristTax) and the percentage
// taxes (pricing.PercentTax: VAT and the like, exclusive or inclusive)
// of each confirmed booking's stored quote, spread evenly over its nights
// and counted per month like revenue. A cancelled booking owes no tax.
//
// # Declarations
//
// The same taxes, grouped as the authorities ask for them
// (Report.TouristTax, Report.VAT, and their CSV):
//
// Tourist tax per month and municipality: the properties of one
// municipality (booking.Property.MunicipalityCode, the INSEE code of a
// French commune, in its country; without one, its postal code and city)
// are declared together. Per month: the stays with a night in it and
// those nights; the stays arriving in it (check-in), their guests (adults
// and children: infants and pets are no guests) and how many of those
// the property exempts (pricing.TouristTax.Exempt, as it is when the
// report is made); the guest-nights ("nuitées": each night times its
// stay's guests) and the exempt ones (exempt guests' nights, and every
// guest-night past the property's pricing.TouristTax.MaxNights); and the
// tourist tax collected, spread over the nights as above, so that its
// sum is the tax report's.
//
// Percentage taxes per month and rate: each tax code at each rate (the
// property's pricing.PercentTax of the code, as it is when the report is
// made; none when the property no longer has it), inclusive or not, with
// its amount and the base it was charged on (amount × 100 / rate,
// rounded to minor units: the prices net of the tax).
package reports
