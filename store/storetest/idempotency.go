package storetest

import (
	"errors"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
)

// window is the checkout idempotency window stores apply (24 h).
const window = 24 * time.Hour

// wantKeyConflict fails the test unless err is a CodeConflict carrying an
// *IdempotencyConflict, and returns the record it holds.
func wantKeyConflict(t *testing.T, err error) booking.IdempotencyRecord {
	t.Helper()
	wantCode(t, err, booking.CodeConflict)
	var c *booking.IdempotencyConflict
	if !errors.As(err, &c) {
		t.Fatalf("conflict %v carries no *IdempotencyConflict", err)
	}
	return c.Existing
}

var idempotencyScenarios = []scenario{
	{"CreateBooking/KeyRecorded", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		b := pendingFixture(w.prop, "2026-05-10", "2026-05-15")
		key := booking.IdempotencyRecord{Scope: "checkout", Key: "k1", RequestHash: "h1", CreatedAt: t0}
		must(t, s.CreateBooking(t.Context(), b, booking.CreateOptions{Now: t0, Idempotency: key}))
		got, err := s.IdempotencyRecord(t.Context(), w.org.ID, "checkout", "k1", t0.Add(-window))
		must(t, err)
		want := booking.IdempotencyRecord{OrgID: w.org.ID, Scope: "checkout", Key: "k1", RequestHash: "h1",
			BookingID: b.ID, CreatedAt: t0}
		sameJSON(t, "record", got, want)
	}},
	{"CreateBooking/KeyReusedConflict", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		first := pendingFixture(w.prop, "2026-05-10", "2026-05-15")
		key := booking.IdempotencyRecord{Scope: "checkout", Key: "k1", RequestHash: "h1", CreatedAt: t0}
		must(t, s.CreateBooking(t.Context(), first, booking.CreateOptions{Now: t0, Idempotency: key}))
		for _, tt := range []struct{ name, in, out string }{
			// A retry of the same request: its own booking holds the dates,
			// yet the answer is the key, not the dates.
			{"sameStay", "2026-05-10", "2026-05-15"},
			{"otherStay", "2026-06-10", "2026-06-15"},
		} {
			b := pendingFixture(w.prop, tt.in, tt.out)
			retry := key
			retry.RequestHash, retry.CreatedAt = "h2", t0.Add(time.Hour)
			err := s.CreateBooking(t.Context(), b, booking.CreateOptions{Now: t0.Add(time.Hour), Idempotency: retry})
			existing := wantKeyConflict(t, err)
			want := booking.IdempotencyRecord{OrgID: w.org.ID, Scope: "checkout", Key: "k1", RequestHash: "h1",
				BookingID: first.ID, CreatedAt: t0}
			sameJSON(t, tt.name+": existing record", existing, want)
		}
		if n := countBookings(t, s, w.org.ID); n != 1 {
			t.Errorf("%d bookings stored, want 1", n)
		}
	}},
	{"CreateBooking/KeyOtherScopeOrOrganizationAllowed", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		otherOrg := newOrg(t, s, "other")
		otherProp := newProperty(t, s, otherOrg.ID)
		key := booking.IdempotencyRecord{Scope: "checkout", Key: "k1", CreatedAt: t0}
		must(t, s.CreateBooking(t.Context(), pendingFixture(w.prop, "2026-05-10", "2026-05-15"),
			booking.CreateOptions{Now: t0, Idempotency: key}))
		must(t, s.CreateBooking(t.Context(), pendingFixture(otherProp, "2026-05-10", "2026-05-15"),
			booking.CreateOptions{Now: t0, Idempotency: key}))
		scoped := key
		scoped.Scope = "checkout:v2"
		must(t, s.CreateBooking(t.Context(), pendingFixture(w.prop, "2026-06-10", "2026-06-15"),
			booking.CreateOptions{Now: t0, Idempotency: scoped}))
	}},
	{"CreateBooking/StaleKeyIsNewRequest", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		key := booking.IdempotencyRecord{Scope: "checkout", Key: "k1", RequestHash: "h1", CreatedAt: t0}
		first := pendingFixture(w.prop, "2026-05-10", "2026-05-15")
		must(t, s.CreateBooking(t.Context(), first, booking.CreateOptions{Now: t0, Idempotency: key}))
		later := t0.Add(window + time.Millisecond)
		retry := key
		retry.RequestHash, retry.CreatedAt = "h2", later
		second := pendingFixture(w.prop, "2026-06-10", "2026-06-15")
		must(t, s.CreateBooking(t.Context(), second, booking.CreateOptions{Now: later, Idempotency: retry}))
		got, err := s.IdempotencyRecord(t.Context(), w.org.ID, "checkout", "k1", later.Add(-window))
		must(t, err)
		if got.BookingID != second.ID || got.RequestHash != "h2" {
			t.Errorf("record = %+v, want booking %d hash h2", got, second.ID)
		}
	}},
	{"CreateBooking/RefusedWritesNoKey", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		newPending(t, s, w.prop, "2026-05-10", "2026-05-15", t0.Add(time.Hour))
		key := booking.IdempotencyRecord{Scope: "checkout", Key: "k1", CreatedAt: t0}
		err := s.CreateBooking(t.Context(), pendingFixture(w.prop, "2026-05-12", "2026-05-13"),
			booking.CreateOptions{Now: t0, Idempotency: key})
		wantCode(t, err, booking.CodeUnavailable)
		_, err = s.IdempotencyRecord(t.Context(), w.org.ID, "checkout", "k1", t0.Add(-window))
		wantCode(t, err, booking.CodeNotFound)
	}},
	{"IdempotencyRecord/SavedAndFound", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		b := newPending(t, s, w.prop, "2026-05-10", "2026-05-15", t0.Add(time.Hour))
		r := &booking.IdempotencyRecord{OrgID: w.org.ID, Scope: "confirm:" + b.Token, Key: "c1",
			RequestHash: "h1", BookingID: b.ID, CreatedAt: t0}
		saved, err := s.SaveIdempotencyRecord(t.Context(), r, t0.Add(-window))
		must(t, err)
		sameJSON(t, "saved", saved, r)
		got, err := s.IdempotencyRecord(t.Context(), w.org.ID, r.Scope, "c1", t0.Add(-window))
		must(t, err)
		sameJSON(t, "found", got, r)
		// Records created before notBefore are ignored.
		_, err = s.IdempotencyRecord(t.Context(), w.org.ID, r.Scope, "c1", t0.Add(time.Millisecond))
		wantCode(t, err, booking.CodeNotFound)
		_, err = s.IdempotencyRecord(t.Context(), w.org.ID, r.Scope, "other", t0.Add(-window))
		wantCode(t, err, booking.CodeNotFound)
	}},
	{"IdempotencyRecord/WithoutBookingSaved", func(t *testing.T, s Stores) {
		o := newOrg(t, s, "villa")
		r := &booking.IdempotencyRecord{OrgID: o.ID, Scope: "refund", Key: "r1", RequestHash: "h", CreatedAt: t0}
		_, err := s.SaveIdempotencyRecord(t.Context(), r, t0.Add(-window))
		must(t, err)
		got, err := s.IdempotencyRecord(t.Context(), o.ID, "refund", "r1", t0.Add(-window))
		must(t, err)
		sameJSON(t, "record", got, r)
	}},
	{"IdempotencyRecord/SaveTwiceConflict", func(t *testing.T, s Stores) {
		o := newOrg(t, s, "villa")
		first := &booking.IdempotencyRecord{OrgID: o.ID, Scope: "refund", Key: "r1", RequestHash: "h1", CreatedAt: t0}
		_, err := s.SaveIdempotencyRecord(t.Context(), first, t0.Add(-window))
		must(t, err)
		second := *first
		second.RequestHash, second.CreatedAt = "h2", t0.Add(time.Hour)
		existing, err := s.SaveIdempotencyRecord(t.Context(), &second, t0.Add(time.Hour-window))
		wantCode(t, err, booking.CodeConflict)
		if existing == nil {
			t.Fatal("no existing record returned with the conflict")
		}
		sameJSON(t, "existing", existing, first)
	}},
	{"IdempotencyRecord/StaleReplaced", func(t *testing.T, s Stores) {
		o := newOrg(t, s, "villa")
		first := &booking.IdempotencyRecord{OrgID: o.ID, Scope: "refund", Key: "r1", RequestHash: "h1", CreatedAt: t0}
		_, err := s.SaveIdempotencyRecord(t.Context(), first, t0.Add(-window))
		must(t, err)
		later := t0.Add(window + time.Hour)
		second := &booking.IdempotencyRecord{OrgID: o.ID, Scope: "refund", Key: "r1", RequestHash: "h2", CreatedAt: later}
		_, err = s.SaveIdempotencyRecord(t.Context(), second, later.Add(-window))
		must(t, err)
		got, err := s.IdempotencyRecord(t.Context(), o.ID, "refund", "r1", t0.Add(-window))
		must(t, err)
		sameJSON(t, "record", got, second)
	}},
	{"Events/ProcessedOnce", func(t *testing.T, s Stores) {
		seen, err := s.EventProcessed(t.Context(), "evt_1")
		must(t, err)
		if seen {
			t.Fatal("evt_1 processed before it was marked")
		}
		for i, want := range []bool{true, false, false} {
			got, err := s.MarkEventProcessed(t.Context(), "evt_1", t0.Add(time.Duration(i)*time.Minute))
			must(t, err)
			if got != want {
				t.Errorf("mark #%d = %v, want %v", i+1, got, want)
			}
		}
		seen, err = s.EventProcessed(t.Context(), "evt_1")
		must(t, err)
		if !seen {
			t.Error("evt_1 not processed after it was marked")
		}
		if seen, _ := s.EventProcessed(t.Context(), "evt_2"); seen {
			t.Error("evt_2 processed though never marked")
		}
	}},
}
