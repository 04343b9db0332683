package closeout_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/booking/bookingtest"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/closeout"
	"github.com/staykit/staykit/feed"
	"github.com/staykit/staykit/payment/paymenttest"
	"github.com/staykit/staykit/seed"
	"github.com/staykit/staykit/store/sqlite/sqlitetest"
)

const pollEvery = 16*time.Minute + 30*time.Second

var now = time.Date(2026, 6, 10, 10, 0, 0, 0, time.UTC)

func synced(id, property int64, ago time.Duration) feed.Feed {
	return feed.Feed{ID: id, PropertyID: property, Active: true, URL: "https://www.airbnb.com/calendar/ical/1.ics",
		LastSuccessAt: now.Add(-ago), ChangedAt: now.Add(-ago)}
}

func TestClosed(t *testing.T) {
	never := feed.Feed{ID: 9, PropertyID: 1, Active: true, URL: "https://example.com/x.ics"}
	inactive := synced(8, 1, 48*time.Hour)
	inactive.Active = false
	// An Airbnb feed synced 10 minutes ago: 16.5 + 10 min + 3 h of export delay.
	fresh := synced(1, 1, 10*time.Minute)
	cases := []struct {
		name  string
		feeds []feed.Feed
		max   time.Duration
		want  bool
	}{
		{"no threshold", []feed.Feed{synced(1, 1, 48*time.Hour)}, 0, false},
		{"no feed", nil, time.Hour, false},
		{"another property's feed", []feed.Feed{synced(1, 2, 48*time.Hour)}, time.Hour, false},
		{"inactive feed", []feed.Feed{inactive}, time.Hour, false},
		{"under the threshold", []feed.Feed{fresh}, 4 * time.Hour, false},
		{"over the threshold", []feed.Feed{fresh}, 3 * time.Hour, true},
		{"one feed never synced", []feed.Feed{fresh, never}, 24 * time.Hour, true},
		{"worst feed counts", []feed.Feed{fresh, synced(2, 1, 5*time.Hour)}, 6 * time.Hour, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := closeout.Closed(closeout.Exposure(1, c.feeds, now, pollEvery), c.max); got != c.want {
				t.Errorf("Closed = %v, want %v", got, c.want)
			}
		})
	}
}

// thresholds is a closeout.Store in memory.
type thresholds map[int64]time.Duration

func (m thresholds) SyncCloseout(_ context.Context, orgID int64) (time.Duration, error) {
	return m[orgID], nil
}

func (m thresholds) SetSyncCloseout(_ context.Context, orgID int64, max time.Duration) error {
	m[orgID] = max
	return nil
}

// feedList is the organisation's feeds, or an error.
type feedList struct {
	feeds []feed.Feed
	err   error
}

func (f *feedList) Feeds(context.Context, int64) ([]feed.Feed, error) { return f.feeds, f.err }

const catalogue = `{"organizations": [{
  "slug": "lac", "name": "Lac", "payment_mode": "full", "currency": "EUR", "timezone": "Europe/Paris",
  "public_engine_enabled": true,
  "properties": [{"name": "Gîte", "max_guests": 4, "rates": {"base_rate": 100}}]
}]}`

// TestGuardAtQuoteAndCheckout: with a threshold and a stale feed, a stay
// arriving today (in Paris) is refused at quote and checkout, and one
// arriving tomorrow is not; once the feed is fresh again, or the threshold
// removed, today sells again; a failing feed store fails the checkout
// rather than letting it through.
func TestGuardAtQuoteAndCheckout(t *testing.T) {
	ctx := context.Background()
	db := sqlitetest.Open(t)
	if err := seed.Load(ctx, db, strings.NewReader(catalogue), now); err != nil {
		t.Fatal(err)
	}
	org, err := db.OrganizationBySlug(ctx, "lac")
	if err != nil {
		t.Fatal(err)
	}
	props, err := db.Properties(ctx, org.ID)
	if err != nil || len(props) != 1 {
		t.Fatalf("properties %v, %v", props, err)
	}
	prop := props[0].ID
	store := thresholds{org.ID: 2 * time.Hour}
	feeds := &feedList{feeds: []feed.Feed{synced(1, prop, 20*time.Hour)}}
	svc := booking.NewService(booking.Options{Stores: db.Stores(), Payments: paymenttest.New(),
		Clock: bookingtest.NewClock(now), SameDay: &closeout.Guard{Store: store, Feeds: feeds, PollEvery: pollEvery}})

	today := civil.Today(now, org.Location())
	stay := func(in civil.Date) booking.Stay { return booking.Stay{CheckIn: in, CheckOut: in.AddDays(2), Guests: 2} }
	checkout := func(in civil.Date, guest string) error {
		_, err := svc.Checkout(ctx, "lac", booking.CheckoutRequest{PropertyID: prop, Stay: stay(in),
			GuestName: guest, GuestEmail: "guest@example.com", GuestPhone: "+33612345678"})
		return err
	}
	quote := func(in civil.Date) error {
		_, err := svc.Quote(ctx, "lac", prop, booking.QuoteRequest{Stay: stay(in)})
		return err
	}
	refused := func(what string, err error) {
		t.Helper()
		var e *booking.Error
		if !errors.As(err, &e) || e.Code != booking.CodeUnavailable || e.Params[booking.ParamReason] != closeout.ReasonSyncExposure {
			t.Errorf("%s: err = %v, want unavailable (%s)", what, err, closeout.ReasonSyncExposure)
		}
	}
	refused("quote today", quote(today))
	refused("checkout today", checkout(today, "Today Guest"))
	if err := quote(today.AddDays(1)); err != nil {
		t.Errorf("quote tomorrow: %v", err)
	}
	if err := checkout(today.AddDays(3), "Later Guest"); err != nil {
		t.Errorf("checkout in three days: %v", err)
	}
	if bs, err := db.Bookings(ctx, org.ID); err != nil || len(bs) != 1 {
		t.Errorf("bookings after a refused and an accepted checkout: %d, %v; want 1", len(bs), err)
	}

	feeds.err = errors.New("database down")
	if err := checkout(today, "Today Guest"); err == nil || booking.ErrorCode(err) == booking.CodeUnavailable {
		t.Errorf("checkout today with the feeds unreadable: %v, want an internal error", err)
	}
	feeds.err = nil
	feeds.feeds = []feed.Feed{synced(1, prop, 0)}
	store[org.ID] = 4 * time.Hour
	if err := quote(today); err != nil {
		t.Errorf("quote today with a fresh feed under the threshold: %v", err)
	}
	feeds.feeds = []feed.Feed{synced(1, prop, 20*time.Hour)}
	store[org.ID] = 0
	if err := checkout(today, "Today Guest"); err != nil {
		t.Errorf("checkout today without a threshold: %v", err)
	}
}
