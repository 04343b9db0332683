package booking

import (
	"context"
	"strconv"

	"github.com/staykit/staykit/civil"
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

// QuoteStamp names what a property's quotes are computed from at an
// instant (OrgService.QuoteVersion).
type QuoteStamp struct {
	// Version differs whenever a quote of the property may differ, the
	// request being the same.
	Version string
	// Today is the organisation's date the version names.
	Today civil.Date
}

// QuoteVersion returns a key of what Quote(propertyID, r) and
// CancellationPolicy(propertyID) answer now for a request r that
// QuoteKeepable accepts: while the key is the same, so are the answers
// to the same r. It is AvailabilityVersion's key (the property's rates,
// fees, taxes and rules, its per-day calendar and holds, the next lapse of
// a pending hold, today, the same-day cutoff's state and the
// organisation's fields) with the versions of the organisation's and the
// property's settings (the cancellation policy) and the organisation's
// fields a price depends on. The request is not in the key: the caller
// keys on it. ok is false when the store cannot tell.
func (o *OrgService) QuoteVersion(ctx context.Context, propertyID int64) (_ QuoteStamp, ok bool) {
	vs, ok := o.s.store.CatalogStore.(QuoteVersioner)
	if !ok {
		return QuoteStamp{}, false
	}
	if ts, _ := o.s.store.TermsStore.(QuoteVersioner); ts != vs {
		return QuoteStamp{}, false
	}
	orgSettings, ok := vs.SettingsVersion(o.org.ID, 0)
	if !ok {
		return QuoteStamp{}, false
	}
	propSettings, ok := vs.SettingsVersion(o.org.ID, propertyID)
	if !ok {
		return QuoteStamp{}, false
	}
	b, today, ok := o.calendarVersion(ctx, propertyID, make([]byte, 0, 192))
	if !ok {
		return QuoteStamp{}, false
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
	return QuoteStamp{Version: string(b), Today: today}, true
}

// QuoteKeepable reports whether the quote of r may be kept under v, a
// QuoteVersion taken before it was computed: not with a coupon (its
// redemptions change with other guests' checkouts, which no version
// names), nor for an arrival on v's today when a SameDayGuard decides.
func (o *OrgService) QuoteKeepable(v QuoteStamp, r QuoteRequest) bool {
	return r.CouponCode == "" && (o.s.sameDay == nil || r.CheckIn != v.Today)
}
