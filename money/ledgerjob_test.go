package money_test

import (
	"context"
	"testing"
	"time"

	"github.com/staykit/staykit/ledger"
	"github.com/staykit/staykit/payment/paymenttest"
)

// SendLedgerEntry, the job engine's step for one entry, sends a due entry
// once with its key, records each failure on the row with the ledger's
// backoff, and returns when the row is due again: zero once settled.
func TestSendLedgerEntryFollowsTheRow(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	b := e.confirmed(t, e.order("demo"))
	e.pay.SetDown(true)
	if _, err := e.svc.Cancel(ctx, "demo", b.Token, true); err != nil {
		t.Fatal(err)
	}
	entry := e.ledger(t, b)[0]
	if entry.Kind != ledger.KindRefund || entry.Status != ledger.StatusPending {
		t.Fatalf("entry %+v, want a pending refund", entry)
	}
	// Not due yet (the failed send at cancellation set its backoff).
	next, err := e.money.SendLedgerEntry(ctx, b.ID, entry.ID)
	if err != nil || !next.Equal(entry.NextAttemptAt) {
		t.Fatalf("SendLedgerEntry before the row is due = %v, %v; want %v", next, err, entry.NextAttemptAt)
	}
	if got := e.ledger(t, b)[0]; got.Attempts != entry.Attempts {
		t.Errorf("attempts %d after a step before the row is due, want %d", got.Attempts, entry.Attempts)
	}
	// Due, the provider still down: one more attempt, and the backoff.
	e.clock.Set(next)
	next, err = e.money.SendLedgerEntry(ctx, b.ID, entry.ID)
	got := e.ledger(t, b)[0]
	if err != nil || got.Attempts != entry.Attempts+1 || got.LastError == "" ||
		!next.Equal(e.clock.Now().Add(ledger.Backoff(got.Attempts))) || !next.Equal(got.NextAttemptAt) {
		t.Fatalf("SendLedgerEntry with the provider down = %v, %v, row %+v; want the row's backoff, one more attempt", next, err, got)
	}
	// Back up; the answer of the refund is lost: the key keeps it single.
	e.pay.SetDown(false)
	e.pay.LoseNextResponse(paymenttest.OpRefund)
	e.clock.Set(next)
	for range 5 {
		if next, err = e.money.SendLedgerEntry(ctx, b.ID, entry.ID); err != nil {
			t.Fatal(err)
		}
		if next.IsZero() {
			break
		}
		e.clock.Set(next.Add(time.Second))
	}
	if !next.IsZero() {
		t.Fatalf("entry still due at %v after the provider came back", next)
	}
	if got := e.ledger(t, b)[0]; got.Status != ledger.StatusSucceeded {
		t.Errorf("entry %s, want succeeded", got.Status)
	}
	if n := len(e.pay.Refunds(b.PaymentIntentID)); n != 1 {
		t.Errorf("%d refunds at the provider, want 1", n)
	}
	// Gone or settled: nothing to do.
	if next, err := e.money.SendLedgerEntry(ctx, b.ID, entry.ID+1000); err != nil || !next.IsZero() {
		t.Errorf("SendLedgerEntry of no entry = %v, %v; want zero", next, err)
	}
}
