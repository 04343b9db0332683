package cache_test

import (
	"reflect"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/policy"
	"github.com/staykit/staykit/store/cache"
)

// quoteTotal prices two nights from 10 June through the Service.
func (e *env) quoteTotal(t *testing.T) string {
	t.Helper()
	q, err := e.svc.Quote(t.Context(), "villa", e.prop.ID, booking.QuoteRequest{
		Stay: booking.Stay{CheckIn: day("2026-06-10"), CheckOut: day("2026-06-12"), Guests: 2}})
	if err != nil {
		t.Fatal(err)
	}
	// The search index's rates of those nights are the quote's.
	p, err := e.cache.Property(t.Context(), e.org.ID, e.prop.ID)
	if err != nil {
		t.Fatal(err)
	}
	got, ok, err := e.cache.StayRate(t.Context(), p, civil.Range{Start: day("2026-06-10"), End: day("2026-06-12")})
	if err != nil || !ok {
		t.Fatalf("StayRate: %v %v", ok, err)
	}
	want := decimal.Zero
	for _, n := range q.NightsDetail {
		want = want.Add(n.Price)
	}
	if !decimal.New(got, -booking.MaxDecimalPlaces).Equal(want) {
		t.Errorf("index rates %d millionths, quote's nights %s", got, want)
	}
	return q.Total.String()
}

func (e *env) policyName(t *testing.T) string {
	t.Helper()
	p, err := e.svc.CancellationPolicy(t.Context(), "villa", e.prop.ID)
	if err != nil {
		t.Fatal(err)
	}
	return p.Name
}

// TestCalendarAndSettingsAreCached: per-day calendars and settings are
// served from memory (a write behind the cache's back does not show
// within MaxAge), and each write through the cache that changes them —
// SetCalendarDays, ApplyCalendar, SaveSettings — shows at once.
func TestCalendarAndSettingsAreCached(t *testing.T) {
	ctx := t.Context()
	e := newEnv(t, cache.Options{})
	price := func(s string) *decimal.Decimal { d := decimal.RequireFromString(s); return &d }
	if got := e.quoteTotal(t); got != "200" {
		t.Fatalf("fixture: two nights at 100, got %s", got)
	}
	if got := e.policyName(t); got != booking.DefaultPolicy {
		t.Fatalf("fixture: policy %s, want %s", got, booking.DefaultPolicy)
	}

	// Behind the cache's back: the cached answers stay (else the cache
	// caches nothing and the rest proves nothing).
	if err := e.db.SetCalendarDays(ctx, e.prop.ID, []booking.CalendarDay{{Date: day("2026-06-10"), Price: price("500")}}); err != nil {
		t.Fatal(err)
	}
	strict, err := policy.Preset(policy.Strict)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.db.SaveSettings(ctx, booking.Settings{OrgID: e.org.ID, Policy: &strict}); err != nil {
		t.Fatal(err)
	}
	if got := e.quoteTotal(t); got != "200" {
		t.Fatalf("calendar written behind the cache: %s, want the cached 200", got)
	}
	if got := e.policyName(t); got != booking.DefaultPolicy {
		t.Fatalf("settings written behind the cache: %s, want the cached %s", got, booking.DefaultPolicy)
	}

	// Through the cache: forgotten at once.
	if err := e.cache.SetCalendarDays(ctx, e.prop.ID, []booking.CalendarDay{{Date: day("2026-06-11"), Price: price("150")}}); err != nil {
		t.Fatal(err)
	}
	if got := e.quoteTotal(t); got != "650" {
		t.Errorf("after SetCalendarDays: %s, want 500 + 150", got)
	}
	// A property's write forgets that property's entries only: the
	// organisation's settings stay cached until a write of the
	// organisation's (issue #31).
	if got := e.policyName(t); got != booking.DefaultPolicy {
		t.Errorf("after a property's write: policy %s, want the cached %s", got, booking.DefaultPolicy)
	}
	if err := e.cache.UpdateOrganization(ctx, e.org); err != nil {
		t.Fatal(err)
	}
	if got := e.policyName(t); got != policy.Strict {
		t.Errorf("after the organisation's write: policy %s, want %s", got, policy.Strict)
	}
	if err := e.cache.Stores().ApplyCalendar(ctx, e.org.ID, e.prop.ID, booking.CalendarChange{
		From: day("2026-06-10"), To: day("2026-06-12"), Price: price("120")}, e.clock.Now()); err != nil {
		t.Fatal(err)
	}
	if got := e.quoteTotal(t); got != "240" {
		t.Errorf("after ApplyCalendar: %s, want 2 × 120", got)
	}
	moderate, err := policy.Preset(policy.Moderate)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.cache.SaveSettings(ctx, booking.Settings{OrgID: e.org.ID, PropertyID: e.prop.ID, Policy: &moderate}); err != nil {
		t.Fatal(err)
	}
	if got := e.policyName(t); got != policy.Moderate {
		t.Errorf("after SaveSettings: policy %s, want %s", got, policy.Moderate)
	}
}

// TestCalendarDaysRanges: whatever ranges are asked, in whatever order
// (each a hit or a miss that widens or replaces the entry), the cache
// answers what the database does.
func TestCalendarDaysRanges(t *testing.T) {
	ctx := t.Context()
	e := newEnv(t, cache.Options{})
	var days []booking.CalendarDay
	for d := day("2026-01-01"); d.Before(day("2030-01-01")); d = d.AddDays(9) {
		p := decimal.NewFromInt(int64(100 + d.Day))
		days = append(days, booking.CalendarDay{Date: d, Price: &p})
	}
	if err := e.cache.SetCalendarDays(ctx, e.prop.ID, days); err != nil {
		t.Fatal(err)
	}
	for _, r := range []struct{ from, to string }{
		{"2026-06-10", "2026-06-17"},
		{"2026-06-01", "2027-07-01"},
		{"2026-06-10", "2026-06-10"},
		{"2026-06-11", "2026-06-12"},
		{"2025-12-01", "2026-01-02"},
		{"2027-06-01", "2027-08-01"},
		{"2029-11-01", "2030-02-01"},
		{"2026-03-01", "2026-03-05"},
		{"2026-01-01", "2026-01-02"},
		{"2026-06-10", "2026-06-17"},
	} {
		want, err := e.db.CalendarDays(ctx, e.prop.ID, day(r.from), day(r.to))
		if err != nil {
			t.Fatal(err)
		}
		got, err := e.cache.CalendarDays(ctx, e.prop.ID, day(r.from), day(r.to))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("[%s, %s): cache %d days, database %d: %v, want %v", r.from, r.to, len(got), len(want), got, want)
		}
		if len(got) > 0 {
			// A caller appending to the answer must not write into the cache.
			_ = append(got, booking.CalendarDay{Date: day("2031-01-01")})
		}
	}
}
