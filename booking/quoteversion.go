package booking

import (
	"context"
	"strconv"
)

// QuoteVersioner is what a read model (package store/cache) may offer
// beside CalendarVersioner so that a quote is computed and encoded once
// per change of what it is computed from rather than per request
// (OrgService.QuoteVersion, package httpapi).
type QuoteVersioner interface {
	CalendarVersioner
	// SettingsVersion returns a number that differs whenever
	// Settings(orgID, propertyID) may answer differently since; ok is
	// false when it cannot tell.
	SettingsVersion(orgID, propertyID int64) (v uint64, ok bool)
}

// QuoteVersion returns a key of what Quote(propertyID, r) and
// CancellationPolicy(propertyID) answer now for the same r: while the key
// is the same, so are the answers. It is AvailabilityVersion's key (the
// property's rates, fees, taxes and rules, its per-day calendar and
// holds, the next lapse of a pending hold, today, the same-day cutoff's
// state and the organisation's fields) with the versions of the
// organisation's and the property's settings (the cancellation policy)
// and the organisation's fields a price depends on. The request itself is
// not in the key: the caller keys on it. ok is false when the store
// cannot tell, when r has a coupon (its redemptions change with other
// guests' checkouts, which no version here names) and when r arrives
// today and a SameDayGuard decides.
func (o *OrgService) QuoteVersion(ctx context.Context, propertyID int64, r QuoteRequest) (string, bool) {
	if r.CouponCode != "" {
		return "", false
	}
	vs, ok := o.s.store.CatalogStore.(QuoteVersioner)
	if !ok {
		return "", false
	}
	if ts, _ := o.s.store.TermsStore.(QuoteVersioner); ts != vs {
		return "", false
	}
	// The settings' versions are read first: settings read again since
	// have another number, so the key never names older ones.
	orgSettings, ok := vs.SettingsVersion(o.org.ID, 0)
	if !ok {
		return "", false
	}
	propSettings, ok := vs.SettingsVersion(o.org.ID, propertyID)
	if !ok {
		return "", false
	}
	b, today, ok := o.calendarVersion(ctx, propertyID, make([]byte, 0, 192))
	if !ok || (o.s.sameDay != nil && r.CheckIn == today) {
		return "", false
	}
	b = append(b, '/')
	b = strconv.AppendUint(b, orgSettings, 10)
	b = append(b, '/')
	b = strconv.AppendUint(b, propSettings, 10)
	b = append(b, '/')
	b = append(b, o.org.PaymentMode...)
	b = append(b, '/')
	b = append(b, o.org.DepositPercent.String()...)
	b = append(b, '/')
	b = strconv.AppendInt(b, int64(o.org.BalanceDueDays), 10)
	b = append(b, '/')
	b = append(b, o.org.DefaultLocale...)
	return string(b), true
}
