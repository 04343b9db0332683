package cache_test

import (
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/store/cache"
)

// TestCalendarVersion: the version of a property's calendar entries is
// known once a calendar read them, stays while nothing changes, changes
// with a write of the property (and not of another one), names the lapse
// of a pending hold, and is unknown once the entries aged.
func TestCalendarVersion(t *testing.T) {
	ctx := t.Context()
	now := start
	e := newEnv(t, cache.Options{MaxAge: time.Minute, Now: func() time.Time { return now }})
	other := &booking.Property{OrgID: e.org.ID, Name: "Cabane", MaxGuests: 2, Active: true, Rates: e.prop.Rates}
	if err := e.cache.CreateProperty(ctx, other); err != nil {
		t.Fatal(err)
	}
	version := func() (uint64, time.Time, bool) {
		return e.cache.CalendarVersion(e.org.ID, e.prop.ID, e.clock.Now())
	}
	if _, _, ok := version(); ok {
		t.Fatal("a version before any calendar was read")
	}
	e.free(t, "2026-06-10")
	v1, lapse, ok := version()
	if !ok || !lapse.IsZero() {
		t.Fatalf("after a calendar: %d %v %v, want a version without a lapse", v1, lapse, ok)
	}
	e.free(t, "2026-06-10")
	if v, _, _ := version(); v != v1 {
		t.Errorf("without a change: version %d, want %d", v, v1)
	}
	if err := e.cache.AddBlock(ctx, other.ID, &booking.Block{Start: day("2026-06-01"), End: day("2026-06-03")}, e.clock.Now()); err != nil {
		t.Fatal(err)
	}
	if v, _, ok := version(); !ok || v != v1 {
		t.Errorf("after another property's block: %d %v, want %d", v, ok, v1)
	}

	res, err := e.checkout(ctx, "2026-06-10", "2026-06-12")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, ok := version(); ok {
		t.Error("the checkout did not forget the property's holds")
	}
	e.free(t, "2026-06-10")
	v2, lapse, ok := version()
	if !ok || v2 <= v1 || !lapse.Equal(res.Booking.ExpiresAt) {
		t.Errorf("after the checkout: %d %v %v, want a version above %d, lapsing at %v", v2, lapse, ok, v1, res.Booking.ExpiresAt)
	}
	e.clock.Advance(31 * time.Minute) // past the hold
	if v, lapse, ok := version(); !ok || v != v2 || !lapse.IsZero() {
		t.Errorf("after the lapse: %d %v %v, want %d without a lapse", v, lapse, ok, v2)
	}

	now = now.Add(time.Minute)
	if _, _, ok := version(); ok {
		t.Error("a version of aged entries")
	}
}
