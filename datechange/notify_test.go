package datechange_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/datechange"
	"github.com/staykit/staykit/notify"
	"github.com/staykit/staykit/payment/paymenttest"
)

// changeEvents are the change events of booking b in the organisation's
// event feed (what webhooks and e-mails are made from), oldest first.
func (e *env) changeEvents(t *testing.T, slug string, b *booking.Booking) []string {
	t.Helper()
	ctx := context.Background()
	org, err := e.svc.Organization(ctx, slug)
	if err != nil {
		t.Fatal(err)
	}
	list, err := e.store.FeedEvents(ctx, org.ID, 0, 500, false)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for i := range list {
		ev := &list[i].Event
		if ev.BookingID != b.ID || !notify.ChangeKind(ev.Kind) {
			continue
		}
		c := notify.ChangeOf(ev)
		if c == nil {
			t.Fatalf("event %s carries no change (data %s)", ev.Key, ev.Data)
		}
		if want := notify.ChangeEventKey(ev.Kind, c.ID); ev.Key != want || c.ID == 0 {
			t.Fatalf("event key %q, want %q", ev.Key, want)
		}
		out = append(out, describe(ev.Kind, c))
	}
	return out
}

// describe is an event of a change as the tests compare it.
func describe(kind string, c *notify.ChangeData) string {
	s := fmt.Sprintf("%s %s %s→%s/%d to %s→%s/%d total %s charge %s refund %s balance %s", kind, c.Status,
		c.OldCheckIn, c.OldCheckOut, c.OldGuests, c.CheckIn, c.CheckOut, c.Guests, c.Total, c.Charge, c.Refund, c.Balance)
	if c.BalanceDueDate != "" {
		s += " due " + c.BalanceDueDate
	}
	if c.Cause != "" {
		s += " cause " + c.Cause
	}
	if c.HostReason != "" {
		s += " reason " + c.HostReason
	}
	return s
}

func wantEvents(t *testing.T, got []string, want ...string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("change events:\n%q\nwant:\n%q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("change event %d:\n%s\nwant:\n%s", i, got[i], want[i])
		}
	}
}

// Each event of a change is written with the state it tells about, once,
// and no other.
func TestChangeEvents(t *testing.T) {
	ctx := context.Background()
	t.Run("AppliedAtOnceWithItsRefund", func(t *testing.T) {
		e := newEnv(t)
		e.setPolicy(t, "demo", "moderate")
		b := e.book(t, "demo", "2026-06-03", "2026-06-06", "")
		e.accept(t, "demo", b, req("2026-06-03", "2026-06-05", 2))
		wantEvents(t, e.changeEvents(t, "demo", b),
			"booking.changed applied 2026-06-03→2026-06-06/2 to 2026-06-03→2026-06-05/2 total 317.50 charge 0.00 refund 61.50 balance 0.00")
	})
	t.Run("PayingTellsNothingThenApplied", func(t *testing.T) {
		e := newEnv(t)
		b := e.book(t, "demo", "2026-06-08", "2026-06-11", "")
		e.accept(t, "demo", b, req("2026-06-08", "2026-06-12", 2))
		wantEvents(t, e.changeEvents(t, "demo", b))
		in := e.changeIntents()[0]
		if _, err := e.pay.Pay(in.ID, paymenttest.CardSucceeds); err != nil {
			t.Fatal(err)
		}
		e.current(t, "demo", b)
		// The webhook of the same payment, and the worker, come after.
		e.process(t)
		e.current(t, "demo", b)
		wantEvents(t, e.changeEvents(t, "demo", b),
			"booking.changed applied 2026-06-08→2026-06-11/2 to 2026-06-08→2026-06-12/2 total 462.00 charge 103.00 refund 0.00 balance 0.00")
	})
	t.Run("DepositBalanceAndItsDueDate", func(t *testing.T) {
		e := newEnv(t)
		b := e.book(t, "demo-deposit", "2026-07-06", "2026-07-09", "")
		e.accept(t, "demo-deposit", b, req("2026-07-06", "2026-07-10", 2))
		got := e.booking(t, b.ID)
		wantEvents(t, e.changeEvents(t, "demo-deposit", b),
			fmt.Sprintf("booking.changed applied 2026-07-06→2026-07-09/2 to 2026-07-06→2026-07-10/2 total 462.00 charge 0.00 refund 0.00 balance %s due 2026-07-03",
				got.BalanceAmount.StringFixed(2)))
	})
	t.Run("PaymentAbandoned", func(t *testing.T) {
		e := newEnv(t)
		b := e.book(t, "demo", "2026-06-08", "2026-06-11", "")
		e.accept(t, "demo", b, req("2026-06-08", "2026-06-12", 2))
		e.clock.Advance(31 * time.Minute)
		e.process(t)
		e.current(t, "demo", b)
		e.process(t)
		wantEvents(t, e.changeEvents(t, "demo", b),
			"booking.change_expired expired 2026-06-08→2026-06-11/2 to 2026-06-08→2026-06-12/2 total 462.00 charge 103.00 refund 0.00 balance 0.00 cause payment_abandoned")
	})
	t.Run("DatesTakenChargeGivenBack", func(t *testing.T) {
		e := newEnv(t)
		b := e.book(t, "demo", "2026-06-08", "2026-06-11", "")
		e.accept(t, "demo", b, req("2026-06-08", "2026-06-13", 2))
		e.book(t, "demo", "2026-06-12", "2026-06-15", "")
		in := e.changeIntents()[0]
		if _, err := e.pay.Pay(in.ID, paymenttest.CardSucceeds); err != nil {
			t.Fatal(err)
		}
		if v := e.current(t, "demo", b); v.Change.Status != datechange.StatusRefused {
			t.Fatalf("change is %s", v.Change.Status)
		}
		e.process(t)
		// No booking.changed: the store refused the new stay.
		wantEvents(t, e.changeEvents(t, "demo", b),
			"booking.change_declined refused 2026-06-08→2026-06-11/2 to 2026-06-08→2026-06-13/2 total 585.00 charge 226.00 refund 226.00 balance 0.00 cause dates_taken")
	})
	t.Run("RequestedDeclinedLapsedApproved", func(t *testing.T) {
		e := newEnv(t)
		org, err := e.svc.Organization(ctx, "demo")
		if err != nil {
			t.Fatal(err)
		}
		if err := e.changes.SetApproval(ctx, org, true, hostActor); err != nil {
			t.Fatal(err)
		}
		b := e.book(t, "demo", "2026-06-08", "2026-06-11", "")
		const requested = "booking.change_requested requested 2026-06-08→2026-06-11/2 to 2026-06-08→2026-06-10/2 total 256.00 charge 0.00 refund 103.00 balance 0.00"
		declined := e.accept(t, "demo", b, req("2026-06-08", "2026-06-10", 2))
		// A refused second change writes nothing.
		if _, err := e.changes.Accept(ctx, "demo", b.Token, req("2026-06-08", "2026-06-12", 2)); err == nil {
			t.Fatal("a second open change was accepted")
		}
		wantEvents(t, e.changeEvents(t, "demo", b), requested)
		if _, err := e.changes.Decline(ctx, org, declined.Change.ID, "Les travaux ne sont pas finis", hostActor); err != nil {
			t.Fatal(err)
		}
		if _, err := e.changes.Decline(ctx, org, declined.Change.ID, "encore", hostActor); err == nil {
			t.Fatal("declined twice")
		}
		wantEvents(t, e.changeEvents(t, "demo", b), requested,
			"booking.change_declined declined 2026-06-08→2026-06-11/2 to 2026-06-08→2026-06-10/2 total 256.00 charge 0.00 refund 103.00 balance 0.00 cause host_declined reason Les travaux ne sont pas finis")

		lapsed := e.accept(t, "demo", b, req("2026-06-08", "2026-06-10", 2))
		e.clock.Advance(49 * time.Hour)
		// Read twice (the page, then a new change): it lapses once.
		e.current(t, "demo", b)
		approved := e.accept(t, "demo", b, req("2026-06-08", "2026-06-10", 2))
		if _, err := e.changes.Approve(ctx, org, lapsed.Change.ID, hostActor); err == nil {
			t.Fatal("a lapsed request was approved")
		}
		if _, err := e.changes.Approve(ctx, org, approved.Change.ID, hostActor); err != nil {
			t.Fatal(err)
		}
		if _, err := e.changes.Approve(ctx, org, approved.Change.ID, hostActor); err == nil {
			t.Fatal("approved twice")
		}
		got := e.changeEvents(t, "demo", b)
		if len(got) != 6 {
			t.Fatalf("change events %q, want 6", got)
		}
		wantEvents(t, got[2:], requested,
			"booking.change_expired expired 2026-06-08→2026-06-11/2 to 2026-06-08→2026-06-10/2 total 256.00 charge 0.00 refund 103.00 balance 0.00 cause request_lapsed",
			requested,
			"booking.changed applied 2026-06-08→2026-06-11/2 to 2026-06-08→2026-06-10/2 total 256.00 charge 0.00 refund 103.00 balance 0.00")
	})
	t.Run("ApprovedWhenNoLongerFree", func(t *testing.T) {
		e := newEnv(t)
		org, err := e.svc.Organization(ctx, "demo")
		if err != nil {
			t.Fatal(err)
		}
		if err := e.changes.SetApproval(ctx, org, true, hostActor); err != nil {
			t.Fatal(err)
		}
		b := e.book(t, "demo", "2026-06-08", "2026-06-11", "")
		v := e.accept(t, "demo", b, req("2026-06-08", "2026-06-13", 2))
		e.book(t, "demo", "2026-06-12", "2026-06-15", "")
		if _, err := e.changes.Approve(ctx, org, v.Change.ID, hostActor); err == nil {
			t.Fatal("approved onto nights another guest holds")
		}
		got := e.changeEvents(t, "demo", b)
		if len(got) != 2 || got[1] != "booking.change_declined declined 2026-06-08→2026-06-11/2 to 2026-06-08→2026-06-13/2 total 585.00 charge 226.00 refund 0.00 balance 0.00 cause unavailable" {
			t.Fatalf("change events %q", got)
		}
	})
}
