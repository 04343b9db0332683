package storetest

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/datechange"
	"github.com/staykit/staykit/eventfeed"
	"github.com/staykit/staykit/ledger"
	"github.com/staykit/staykit/outbox"
)

// changeOf is a change of b to [in, out), open in status.
func changeOf(b *booking.Booking, status datechange.Status, in, out string) *datechange.Change {
	return &datechange.Change{BookingID: b.ID, OrgID: b.OrgID, Status: status, OldCheckIn: b.CheckIn, OldCheckOut: b.CheckOut,
		OldGuests: b.Guests, Offer: datechange.Offer{CheckIn: day(in), CheckOut: day(out), Guests: b.Guests, Total: dec("500")},
		CreatedAt: t0, UpdatedAt: t0}
}

// applyOf is the write that moves b to [in, out) with change c.
func applyOf(b *booking.Booking, c *datechange.Change, from []datechange.Status, in, out string, at time.Time) datechange.Apply {
	return datechange.Apply{Change: c, From: from, Was: b.Range(), Stay: booking.Stay{CheckIn: day(in), CheckOut: day(out), Guests: b.Guests},
		TotalAmount: dec("500"), PaidAmount: b.PaidAmount, BalanceAmount: dec("0"), Quote: b.Quote, At: at, NotDueBefore: at}
}

func reasonOf(err error) string {
	var e *booking.Error
	if errors.As(err, &e) && e.Params != nil {
		return e.Params[booking.ParamReason]
	}
	return ""
}

var dateChangeScenarios = []scenario{
	{"DateChange/OneOpenThenAppliedAndClosed", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		ctx := t.Context()
		dc := capabilityOf[datechange.Store](t, s)
		b := moveTo(t, s, newPending(t, s, w.prop, "2026-06-01", "2026-06-04", t0.Add(time.Hour)), booking.StatusConfirmed)
		c := changeOf(b, datechange.StatusRequested, "2026-06-10", "2026-06-14")
		c.ExpiresAt = t0.Add(48 * time.Hour)
		must(t, dc.SaveDateChange(ctx, c, nil, nil, nil, t0))
		if c.ID == 0 {
			t.Fatal("SaveDateChange left the ID 0")
		}
		err := dc.SaveDateChange(ctx, changeOf(b, datechange.StatusPaying, "2026-06-10", "2026-06-12"), nil, nil, nil, t0)
		wantCode(t, err, booking.CodeConflict)
		if r := reasonOf(err); r != datechange.ReasonChangeOpen {
			t.Fatalf("second open change: reason %q, want %q", r, datechange.ReasonChangeOpen)
		}
		got, err := dc.DateChange(ctx, w.org.ID, c.ID)
		must(t, err)
		if got.Status != datechange.StatusRequested || got.Offer.CheckIn != day("2026-06-10") || got.OldCheckOut != day("2026-06-04") ||
			!got.ExpiresAt.Equal(c.ExpiresAt) || !got.CreatedAt.Equal(t0) || got.BookingID != b.ID {
			t.Fatalf("read back %+v", got)
		}
		_, err = dc.DateChange(ctx, w.org.ID+1000, c.ID)
		wantCode(t, err, booking.CodeNotFound)

		// Requested → paying, with its charge's entry, in one write.
		c.Status, c.EntryKey, c.ExpiresAt = datechange.StatusPaying, fmt.Sprintf("change-charge:%d:1", b.ID), time.Time{}
		charge := ledger.Entry{Kind: ledger.KindChangeCharge, IntentID: "pi_first", Amount: 14100, Currency: "EUR", Key: c.EntryKey,
			Reason: ledger.ReasonDateChange, Status: ledger.StatusPending}
		must(t, dc.SaveDateChange(ctx, c, []datechange.Status{datechange.StatusRequested}, []ledger.Entry{charge}, nil, t0.Add(time.Minute)))
		wantCode(t, dc.SaveDateChange(ctx, c, []datechange.Status{datechange.StatusRequested}, nil, nil, t0), booking.CodeConflict)
		byKey, err := dc.DateChangeByEntry(ctx, c.EntryKey)
		must(t, err)
		if byKey.ID != c.ID || byKey.Status != datechange.StatusPaying {
			t.Fatalf("by entry: %+v", byKey)
		}
		// A balance scheduled for the old dates is replaced; one due
		// soon is not.
		scheduled, err := s.RecordLedger(ctx, []ledger.Entry{
			{BookingID: b.ID, Kind: ledger.KindBalance, IntentID: "pi_first", Amount: 9000, Currency: "EUR", Key: "balance:pi_first",
				Reason: ledger.ReasonBalanceDue, Status: ledger.StatusPending, NextAttemptAt: t0.Add(72 * time.Hour)},
			{BookingID: b.ID, Kind: ledger.KindDepositHold, IntentID: "pi_first", Amount: 3000, Currency: "EUR", Key: "deposit-hold:pi_first",
				Reason: ledger.ReasonSecurity, Status: ledger.StatusPending, NextAttemptAt: t0.Add(time.Minute)},
		}, t0)
		must(t, err)
		at := t0.Add(2 * time.Minute)
		soon := applyOf(b, c, []datechange.Status{datechange.StatusPaying}, "2026-06-10", "2026-06-14", at)
		soon.Supersede = []int64{scheduled[0].ID, scheduled[1].ID}
		wantCode(t, func() error { _, err := dc.ApplyDateChange(ctx, soon); return err }(), booking.CodeConflict)
		if cur, err := s.BookingByID(ctx, b.ID); err != nil || cur.CheckIn != b.CheckIn {
			t.Fatalf("a refused change moved the booking: %+v, %v", cur, err)
		}

		a := applyOf(b, c, []datechange.Status{datechange.StatusPaying}, "2026-06-10", "2026-06-14", at)
		a.Supersede = []int64{scheduled[0].ID}
		settled := charge
		settled.Status, settled.ProviderID = ledger.StatusSucceeded, "pi_change"
		a.Settle = &settled
		a.PaidAmount = b.PaidAmount.Add(dec("141"))
		a.Record = []ledger.Entry{{Kind: ledger.KindBalance, IntentID: "pi_first", Amount: 12000, Currency: "EUR",
			Key: "balance:pi_first:change:1", Reason: ledger.ReasonBalanceDue, Status: ledger.StatusPending, NextAttemptAt: t0.Add(96 * time.Hour)}}
		moved, err := dc.ApplyDateChange(ctx, a)
		must(t, err)
		if moved.CheckIn != day("2026-06-10") || moved.CheckOut != day("2026-06-14") || !moved.TotalAmount.Equal(dec("500")) ||
			!moved.PaidAmount.Equal(a.PaidAmount) || moved.Status != booking.StatusConfirmed {
			t.Fatalf("moved booking %+v", moved)
		}
		if c.Status != datechange.StatusApplied {
			t.Fatalf("change is %s after applying", c.Status)
		}
		entries, err := s.LedgerEntries(ctx, b.ID)
		must(t, err)
		byKeyEntry := map[string]ledger.Entry{}
		for _, e := range entries {
			byKeyEntry[e.Key] = e
		}
		if e := byKeyEntry[charge.Key]; e.Status != ledger.StatusSucceeded || e.ProviderID != "pi_change" {
			t.Errorf("charge entry %+v, want succeeded on pi_change", e)
		}
		if e := byKeyEntry["balance:pi_first"]; e.Status != ledger.StatusSkipped {
			t.Errorf("old balance %+v, want skipped", e)
		}
		if e := byKeyEntry["balance:pi_first:change:1"]; e.Status != ledger.StatusPending || e.Amount != 12000 {
			t.Errorf("new balance %+v", e)
		}
		// Applied once: the same write again finds the booking moved.
		_, err = dc.ApplyDateChange(ctx, a)
		wantCode(t, err, booking.CodeConflict)

		// A change applied at once (no charge) is inserted applied, and
		// refused while another is open.
		open := changeOf(moved, datechange.StatusRequested, "2026-06-20", "2026-06-22")
		open.ExpiresAt = t0.Add(time.Hour)
		must(t, dc.SaveDateChange(ctx, open, nil, nil, nil, t0))
		direct := changeOf(moved, datechange.StatusApplied, "2026-06-11", "2026-06-14")
		_, err = dc.ApplyDateChange(ctx, applyOf(moved, direct, nil, "2026-06-11", "2026-06-14", at))
		wantCode(t, err, booking.CodeConflict)
		closed, err := dc.CloseDateChange(ctx, datechange.Close{ID: open.ID, From: []datechange.Status{datechange.StatusRequested},
			To: datechange.StatusDeclined, Reason: "no", At: at})
		must(t, err)
		if closed.Status != datechange.StatusDeclined || closed.Reason != "no" {
			t.Fatalf("closed %+v", closed)
		}
		_, err = dc.CloseDateChange(ctx, datechange.Close{ID: open.ID, From: []datechange.Status{datechange.StatusRequested},
			To: datechange.StatusExpired, At: at})
		wantCode(t, err, booking.CodeConflict)
		moved2, err := dc.ApplyDateChange(ctx, applyOf(moved, direct, nil, "2026-06-11", "2026-06-14", at))
		must(t, err)
		if moved2.CheckIn != day("2026-06-11") || direct.ID == 0 {
			t.Fatalf("direct change: booking %s, change id %d", moved2.CheckIn, direct.ID)
		}
		list, err := dc.DateChanges(ctx, b.ID)
		must(t, err)
		if len(list) != 3 || list[0].ID != direct.ID || list[2].ID != c.ID {
			t.Fatalf("changes newest first: %+v", list)
		}
	}},
	{"DateChange/EventsWrittenWithTheirChange", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		ctx := t.Context()
		dc := capabilityOf[datechange.Store](t, s)
		feed := capabilityOf[eventfeed.Store](t, s)
		b := moveTo(t, s, newPending(t, s, w.prop, "2026-06-01", "2026-06-04", t0.Add(time.Hour)), booking.StatusConfirmed)
		other := moveTo(t, s, newPending(t, s, w.prop, "2026-06-20", "2026-06-23", t0.Add(time.Hour)), booking.StatusConfirmed)
		// An event as package datechange makes it: unkeyed for a change
		// not stored yet, keyed by the store with the change's id.
		event := func(kind string, c *datechange.Change) outbox.Event {
			ev := outbox.Event{Kind: kind, OrgID: w.org.ID, BookingID: b.ID, Data: []byte(`{"status":"` + kind + `"}`)}
			if c != nil && c.ID != 0 {
				ev.Key = fmt.Sprintf("%s:%d", kind, c.ID)
			}
			return ev
		}
		events := func() map[string]outbox.Event {
			t.Helper()
			list, _ := readFeed(t, feed, w.org.ID, 0, 100, false)
			out := map[string]outbox.Event{}
			for _, e := range list {
				if e.BookingID == b.ID {
					out[e.Key] = e.Event
				}
			}
			return out
		}
		wantKeys := func(want ...string) {
			t.Helper()
			got := events()
			if len(got) != len(want) {
				t.Fatalf("events %v, want %v", slices.Sorted(maps.Keys(got)), want)
			}
			for _, k := range want {
				if _, ok := got[k]; !ok {
					t.Fatalf("events %v, want %v", slices.Sorted(maps.Keys(got)), want)
				}
			}
		}

		// A request, with its event keyed by its new id, in one write.
		req := changeOf(b, datechange.StatusRequested, "2026-06-10", "2026-06-14")
		req.ExpiresAt = t0.Add(48 * time.Hour)
		must(t, dc.SaveDateChange(ctx, req, nil, nil, []outbox.Event{event(booking.NotifyChangeRequested, nil)}, t0))
		requested := fmt.Sprintf("%s:%d", booking.NotifyChangeRequested, req.ID)
		wantKeys(requested)
		if ev := events()[requested]; string(ev.Data) != `{"status":"booking.change_requested"}` || ev.Kind != booking.NotifyChangeRequested {
			t.Fatalf("request's event %+v (data %s)", ev, ev.Data)
		}
		// A second open change is refused, and so is its event.
		err := dc.SaveDateChange(ctx, changeOf(b, datechange.StatusRequested, "2026-06-10", "2026-06-12"), nil, nil,
			[]outbox.Event{event(booking.NotifyChangeRequested, nil)}, t0)
		wantCode(t, err, booking.CodeConflict)
		wantKeys(requested)

		// Declined with its event; a second closing of it writes none.
		declined := event(booking.NotifyChangeDeclined, req)
		_, err = dc.CloseDateChange(ctx, datechange.Close{ID: req.ID, From: []datechange.Status{datechange.StatusRequested},
			To: datechange.StatusDeclined, Outbox: []outbox.Event{declined}, At: t0.Add(time.Minute)})
		must(t, err)
		_, err = dc.CloseDateChange(ctx, datechange.Close{ID: req.ID, From: []datechange.Status{datechange.StatusRequested},
			To: datechange.StatusExpired, Outbox: []outbox.Event{event(booking.NotifyChangeExpired, req)}, At: t0.Add(time.Hour)})
		wantCode(t, err, booking.CodeConflict)
		wantKeys(requested, declined.Key)

		// A change onto nights another booking holds is refused by the
		// store, with its booking.changed.
		taken := changeOf(b, datechange.StatusApplied, "2026-06-19", "2026-06-22")
		a := applyOf(b, taken, nil, "2026-06-19", "2026-06-22", t0)
		a.Outbox = []outbox.Event{event(booking.NotifyChanged, nil)}
		_, err = dc.ApplyDateChange(ctx, a)
		wantCode(t, err, booking.CodeUnavailable)
		wantKeys(requested, declined.Key)
		if cur, err := s.BookingByID(ctx, other.ID); err != nil || cur.CheckIn != day("2026-06-20") {
			t.Fatalf("the other booking: %+v, %v", cur, err)
		}
		// Applied, with its event keyed by the change inserted.
		free := changeOf(b, datechange.StatusApplied, "2026-06-10", "2026-06-14")
		a = applyOf(b, free, nil, "2026-06-10", "2026-06-14", t0)
		a.Outbox = []outbox.Event{event(booking.NotifyChanged, nil)}
		_, err = dc.ApplyDateChange(ctx, a)
		must(t, err)
		wantKeys(requested, declined.Key, fmt.Sprintf("%s:%d", booking.NotifyChanged, free.ID))
	}},
	{"DateChange/NewStayCheckedAsACheckout", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		ctx := t.Context()
		dc := capabilityOf[datechange.Store](t, s)
		b := moveTo(t, s, newPending(t, s, w.prop, "2026-06-10", "2026-06-13", t0.Add(time.Hour)), booking.StatusConfirmed)
		moveTo(t, s, newPending(t, s, w.prop, "2026-06-20", "2026-06-23", t0.Add(time.Hour)), booking.StatusConfirmed)
		// A lapsed hold does not count.
		newPending(t, s, w.prop, "2026-06-05", "2026-06-08", t0.Add(-time.Hour))
		try := func(in, out string, g booking.DateGuard) error {
			c := changeOf(b, datechange.StatusApplied, in, out)
			a := applyOf(b, c, nil, in, out, t0)
			a.Guard = g
			_, err := dc.ApplyDateChange(ctx, a)
			return err
		}
		wantCode(t, try("2026-06-18", "2026-06-21", booking.DateGuard{}), booking.CodeUnavailable)
		// Preparation days kept free after the other stay.
		wantCode(t, try("2026-06-24", "2026-06-26", booking.DateGuard{PreparationDaysBefore: 2}), booking.CodeUnavailable)
		wantCode(t, try("2026-06-14", "2026-06-16", booking.DateGuard{RuleClosed: []civil.Date{day("2026-06-15")}}), booking.CodeUnavailable)
		must(t, s.SetCalendarDays(ctx, w.prop.ID, []booking.CalendarDay{{Date: day("2026-06-16"), Closed: true}}))
		wantCode(t, try("2026-06-15", "2026-06-17", booking.DateGuard{}), booking.CodeUnavailable)
		if cur, err := s.BookingByID(ctx, b.ID); err != nil || cur.CheckIn != day("2026-06-10") {
			t.Fatalf("refused changes moved the booking: %+v, %v", cur, err)
		}
		// Over its own nights, and over a lapsed hold's.
		must(t, try("2026-06-06", "2026-06-12", booking.DateGuard{PreparationDaysBefore: 1}))
		cur, err := s.BookingByID(ctx, b.ID)
		must(t, err)
		if cur.CheckIn != day("2026-06-06") || cur.CheckOut != day("2026-06-12") {
			t.Fatalf("booking %s→%s, want 2026-06-06→2026-06-12", cur.CheckIn, cur.CheckOut)
		}
		// The nights it left are free for a checkout.
		must(t, s.CreateBooking(ctx, pendingFixture(w.prop, "2026-06-12", "2026-06-15"), booking.CreateOptions{Now: t0}))
	}},
	{"DateChange/KeepsItsUnitOrMovesToAFreeOne", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		ctx := t.Context()
		dc := capabilityOf[datechange.Store](t, s)
		p := newUnitsProperty(t, s, w.org.ID, 2)
		u1, u2 := p.Units[0].ID, p.Units[1].ID
		confirmedOn := func(unit int64, in, out string) *booking.Booking {
			t.Helper()
			b := pendingFixture(p, in, out)
			b.UnitID, b.ExpiresAt = unit, t0.Add(time.Hour)
			create(t, s, b, t0)
			return moveTo(t, s, b, booking.StatusConfirmed)
		}
		b := confirmedOn(u1, "2026-05-01", "2026-05-04")
		confirmedOn(u1, "2026-05-10", "2026-05-13")
		confirmedOn(u2, "2026-05-20", "2026-05-23")
		confirmedOn(u1, "2026-05-20", "2026-05-23")
		apply := func(b *booking.Booking, in, out string) (*booking.Booking, error) {
			t.Helper()
			return dc.ApplyDateChange(ctx, applyOf(b, changeOf(b, datechange.StatusApplied, in, out), nil, in, out, t0))
		}
		// Its own unit free: it stays there.
		got, err := apply(b, "2026-05-05", "2026-05-08")
		must(t, err)
		if got.UnitID != u1 || got.CheckIn != day("2026-05-05") {
			t.Fatalf("changed within its unit's free nights: unit %d from %s, want unit %d from 2026-05-05", got.UnitID, got.CheckIn, u1)
		}
		// Its own unit taken, the other free: it moves there.
		if got, err = apply(got, "2026-05-10", "2026-05-13"); err != nil {
			t.Fatal(err)
		}
		if got.UnitID != u2 || got.CheckIn != day("2026-05-10") {
			t.Fatalf("changed onto nights its unit sold: unit %d from %s, want unit %d from 2026-05-10", got.UnitID, got.CheckIn, u2)
		}
		// Every unit taken: refused, nothing moved.
		_, err = apply(got, "2026-05-21", "2026-05-22")
		wantCode(t, err, booking.CodeUnavailable)
		cur, err := s.BookingByID(ctx, b.ID)
		must(t, err)
		if cur.UnitID != u2 || cur.CheckIn != day("2026-05-10") {
			t.Fatalf("after a refused change: unit %d from %s", cur.UnitID, cur.CheckIn)
		}
		holds, err := s.Occupied(ctx, p.ID, day("2026-05-01"), day("2026-06-01"), t0)
		must(t, err)
		for i := range holds {
			for j := i + 1; j < len(holds); j++ {
				if holds[i].Unit == holds[j].Unit && holds[i].Overlaps(holds[j].Range) {
					t.Fatalf("%v and %v overlap on one unit", holds[i], holds[j])
				}
			}
		}
	}},
	{"DateChange/LinkedListingsTakeEachOthersNights", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		ctx := t.Context()
		dc := capabilityOf[datechange.Store](t, s)
		v := newVilla(t, s, w.org.ID)
		confirmed := func(p *booking.Property, in, out string) *booking.Booking {
			t.Helper()
			return moveTo(t, s, newPending(t, s, p, in, out, t0.Add(time.Hour)), booking.StatusConfirmed)
		}
		room := confirmed(v.rooms[0], "2026-05-01", "2026-05-03")
		whole := confirmed(v.whole, "2026-05-10", "2026-05-12")
		confirmed(v.rooms[1], "2026-05-20", "2026-05-22")
		apply := func(b *booking.Booking, in, out string) error {
			_, err := dc.ApplyDateChange(ctx, applyOf(b, changeOf(b, datechange.StatusApplied, in, out), nil, in, out, t0))
			return err
		}
		// A room onto nights the whole sold, the whole onto nights a room
		// sold: refused.
		wantCode(t, apply(room, "2026-05-11", "2026-05-13"), booking.CodeUnavailable)
		wantCode(t, apply(whole, "2026-05-21", "2026-05-23"), booking.CodeUnavailable)
		// Onto nights nothing of the villa sold: applied.
		must(t, apply(room, "2026-05-05", "2026-05-07"))
		must(t, apply(whole, "2026-05-14", "2026-05-16"))
		// The nights the whole left are the rooms' again.
		must(t, s.CreateBooking(ctx, pendingFixture(v.rooms[0], "2026-05-10", "2026-05-12"), booking.CreateOptions{Now: t0}))
	}},
}

var dateChangeRaceScenarios = []scenario{
	{"DateChangeRace/ChangeAndCheckoutsOneWins", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		ctx := t.Context()
		dc := capabilityOf[datechange.Store](t, s)
		const n = 8
		for round := range rounds {
			p := newProperty(t, s, w.org.ID)
			b := moveTo(t, s, newPending(t, s, p, "2026-05-01", "2026-05-04", t0.Add(time.Hour)), booking.StatusConfirmed)
			// The change moves onto 10–13 May; every checkout holds 11 May.
			c := changeOf(b, datechange.StatusApplied, "2026-05-10", "2026-05-13")
			stays := make([]*booking.Booking, n)
			for i := range stays {
				stays[i] = pendingFixture(p, day("2026-05-11").AddDays(-(i % 3)).String(), day("2026-05-12").AddDays(i%4).String())
			}
			counts := race(n+1, func(i int) error {
				if i == n {
					_, err := dc.ApplyDateChange(ctx, applyOf(b, c, nil, "2026-05-10", "2026-05-13", t0))
					return err
				}
				return s.CreateBooking(ctx, stays[i], booking.CreateOptions{Now: t0})
			})
			wantCounts(t, counts, map[string]int{"": 1, booking.CodeUnavailable: n})
			cur, err := s.BookingByID(ctx, b.ID)
			must(t, err)
			live, err := s.Occupied(ctx, p.ID, day("2026-05-01"), day("2026-05-20"), t0)
			must(t, err)
			for i := range live {
				for j := i + 1; j < len(live); j++ {
					if live[i].Unit == live[j].Unit && live[i].Overlaps(live[j].Range) {
						t.Fatalf("round %d: %v and %v overlap", round, live[i], live[j])
					}
				}
			}
			moved := cur.CheckIn == day("2026-05-10")
			if moved != (c.ID != 0) {
				t.Fatalf("round %d: booking at %s, change id %d", round, cur.CheckIn, c.ID)
			}
		}
	}},
	{"DateChangeRace/SameChangeAppliedOnce", func(t *testing.T, s Stores) {
		w := newWorld(t, s)
		ctx := t.Context()
		dc := capabilityOf[datechange.Store](t, s)
		const n = 6
		for range rounds {
			p := newProperty(t, s, w.org.ID)
			b := moveTo(t, s, newPending(t, s, p, "2026-05-01", "2026-05-04", t0.Add(time.Hour)), booking.StatusConfirmed)
			c := changeOf(b, datechange.StatusPaying, "2026-05-10", "2026-05-13")
			must(t, dc.SaveDateChange(ctx, c, nil, nil, nil, t0))
			counts := race(n, func(int) error {
				cc := *c
				a := applyOf(b, &cc, []datechange.Status{datechange.StatusPaying}, "2026-05-10", "2026-05-13", t0)
				a.Record = []ledger.Entry{{Kind: ledger.KindRefund, IntentID: "pi_x", Amount: 100, Currency: "EUR",
					Key: fmt.Sprintf("refund:%d", b.ID), Reason: ledger.ReasonDateChange, Status: ledger.StatusPending}}
				_, err := dc.ApplyDateChange(ctx, a)
				return err
			})
			wantCounts(t, counts, map[string]int{"": 1, booking.CodeConflict: n - 1})
		}
	}},
}
