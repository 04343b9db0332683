package httpapi

// A quote is computed and encoded once per change of what it is computed
// from, not per request (issue #31), the way of a calendar (calendars.go):
// its bytes are kept per organisation, property and request — the raw
// query (dates, party by category, extras, ?locale=) and Accept-Language,
// which with the organisation's default locale (in the version) decide the
// labels' and the policy's language; everything the handler reads of a
// request, so that a quote kept is found before the query is parsed —
// for the version booking.OrgService.QuoteVersion names:
// AvailabilityVersion's (the property's rates, fees, taxes and rules, its
// per-day calendar and holds, the next lapse of a pending hold, today,
// the same-day cutoff's state, the organisation's fields) with the
// organisation's and property's settings (the cancellation policy) and
// the organisation's fields a price depends on. A quote with a coupon is
// never kept (its redemptions change with other guests' checkouts), nor
// one arriving today when a SameDayGuard decides
// (booking.OrgService.QuoteKeepable), nor one the read model cannot name,
// nor a failure. The least recently asked quotes are forgotten past
// maxQuoteBytes. Quotes carry no ETag (the route has no Cache-Control,
// cacheControl).

// maxQuoteBytes bounds the quotes kept (about 8,000 quotes of a week).
const maxQuoteBytes = 16 << 20

// maxQuoteQuery bounds the query of a quote kept: a longer one (many
// extras) is computed every time. An Accept-Language header is bounded by
// the server's limit on headers.
const maxQuoteQuery = 1024

// quoteKey is a quote asked of a property: the request's raw query and
// Accept-Language header.
type quoteKey struct {
	org, property         int64
	query, acceptLanguage string
}

// keyBytes is what the key's strings hold (sizedKey).
func (k quoteKey) keyBytes() int { return len(k.query) + len(k.acceptLanguage) }

// quotes keeps encoded quotes; New bounds them to maxQuoteBytes.
type quotes = bodies[quoteKey]
