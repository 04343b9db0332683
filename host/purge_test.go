package host_test

import (
	"context"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/booking/bookingtest"
	"github.com/staykit/staykit/host"
	"github.com/staykit/staykit/payment/paymenttest"
	"github.com/staykit/staykit/store/sqlite/sqlitetest"
)

// TestPurgeRequestsKeepsTheWindow: PurgeRequests deletes the records of
// host requests older than RequestWindow and keeps the newer ones, whose
// answers a retry still gets.
func TestPurgeRequestsKeepsTheWindow(t *testing.T) {
	ctx := context.Background()
	db := sqlitetest.Open(t)
	org := booking.Organization{Slug: "villa", Name: "Villa"}.WithDefaults()
	if err := db.CreateOrganization(ctx, &org); err != nil {
		t.Fatal(err)
	}
	clock := bookingtest.NewClock(time.Date(2026, 6, 1, 8, 0, 0, 0, time.UTC))
	hs := host.New(host.Options{Stores: db.HostStores(), Clock: clock,
		Bookings: booking.NewService(booking.Options{Stores: db.Stores(), Payments: paymenttest.New(), Clock: clock})})
	reserve := func(key string) {
		t.Helper()
		now := clock.Now()
		if _, err := hs.ReserveRequest(ctx, &host.Request{OrgID: org.ID, Key: key, RequestHash: "h", CreatedAt: now},
			now.Add(-host.RequestWindow)); err != nil {
			t.Fatal(err)
		}
	}
	reserve("old")
	clock.Advance(host.RequestWindow)
	reserve("new")
	clock.Advance(time.Minute)

	n, err := hs.PurgeRequests(ctx)
	if err != nil || n != 1 {
		t.Fatalf("PurgeRequests = %d, %v; want 1 (the old record)", n, err)
	}
	now := clock.Now()
	for key, kept := range map[string]bool{"old": false, "new": true} {
		prev, err := hs.ReserveRequest(ctx, &host.Request{OrgID: org.ID, Key: key, RequestHash: "other", CreatedAt: now},
			time.Time{})
		if got := booking.ErrorCode(err) == booking.CodeConflict && prev != nil; got != kept {
			t.Errorf("record of %q kept = %v, want %v (err %v)", key, got, kept, err)
		}
	}
}
