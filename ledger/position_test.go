package ledger_test

import (
	"testing"
	"time"

	"github.com/staykit/staykit/ledger"
)

var now = time.Date(2026, 6, 1, 8, 0, 0, 0, time.UTC)

// Entries of booking 1, paid 30000 at checkout (pi_1) and a balance of
// 70000 (pi_2).
func charge(intent string, amount int64) ledger.Entry {
	return ledger.Entry{BookingID: 1, Kind: ledger.KindCharge, IntentID: intent, Amount: amount, Key: "charge:" + intent, Status: ledger.StatusSucceeded}
}

func balance(intent string, amount int64, st ledger.Status) ledger.Entry {
	return ledger.Entry{BookingID: 1, Kind: ledger.KindBalance, IntentID: "pi_1", ProviderID: intent, Amount: amount, Key: "balance:pi_1", Status: st}
}

func refund(intent string, amount int64, st ledger.Status, key string) ledger.Entry {
	return ledger.Entry{BookingID: 1, Kind: ledger.KindRefund, IntentID: intent, Amount: amount, Key: key, Status: st}
}

func decision(kept int64) ledger.Entry {
	return ledger.Entry{BookingID: 1, Kind: ledger.KindDecision, Amount: kept, Key: "decision:1", Status: ledger.StatusSucceeded}
}

func TestPosition(t *testing.T) {
	for _, tt := range []struct {
		name                   string
		entries                []ledger.Entry
		charged, returned, net int64
		owed, refundable       int64
	}{
		{"nothing", nil, 0, 0, 0, 0, 0},
		{"paid, no decision: all owed", []ledger.Entry{charge("pi_1", 30000)}, 30000, 0, 30000, 30000, 30000},
		{"balance pending is not received", []ledger.Entry{charge("pi_1", 30000), balance("", 70000, ledger.StatusPending)},
			30000, 0, 30000, 30000, 30000},
		{"balance received", []ledger.Entry{charge("pi_1", 30000), balance("pi_2", 70000, ledger.StatusSucceeded)},
			100000, 0, 100000, 100000, 100000},
		{"two receipts of one intent count once", []ledger.Entry{charge("pi_2", 70000), balance("pi_2", 70000, ledger.StatusSucceeded)},
			70000, 0, 70000, 70000, 70000},
		{"decision keeps part", []ledger.Entry{charge("pi_1", 30000), decision(10000), refund("pi_1", 20000, ledger.StatusSucceeded, "r1")},
			30000, 20000, 10000, 0, 10000},
		{"pending refund counts as going back", []ledger.Entry{charge("pi_1", 30000), decision(10000), refund("pi_1", 20000, ledger.StatusPending, "r1")},
			30000, 20000, 10000, 0, 10000},
		{"failed refund is owed again", []ledger.Entry{charge("pi_1", 30000), decision(10000), refund("pi_1", 20000, ledger.StatusFailed, "r1")},
			30000, 0, 30000, 20000, 30000},
		{"money after the decision is owed", []ledger.Entry{charge("pi_1", 30000), decision(30000), balance("pi_2", 70000, ledger.StatusSucceeded)},
			100000, 0, 100000, 70000, 100000},
		{"a dispute lowers what can be refunded", []ledger.Entry{charge("pi_1", 30000),
			{Kind: ledger.KindDispute, IntentID: "pi_1", Amount: 25000, Key: "dispute:dp", Status: ledger.StatusSucceeded}},
			30000, 0, 30000, 30000, 5000},
		{"a claimed deposit is the host's", []ledger.Entry{charge("pi_1", 30000),
			{Kind: ledger.KindDepositClaim, IntentID: "pi_3", Amount: 12000, Key: "deposit-claim:pi_3", Status: ledger.StatusSucceeded}},
			30000, 0, 42000, 30000, 30000},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := ledger.PositionOf(tt.entries)
			if got := p.Charged(); got != tt.charged {
				t.Errorf("Charged = %d, want %d", got, tt.charged)
			}
			if got := p.Returned(); got != tt.returned {
				t.Errorf("Returned = %d, want %d", got, tt.returned)
			}
			if got := p.Net(); got != tt.net {
				t.Errorf("Net = %d, want %d", got, tt.net)
			}
			if got := p.Owed(); got != tt.owed {
				t.Errorf("Owed = %d, want %d", got, tt.owed)
			}
			if got := p.RefundableTotal(); got != tt.refundable {
				t.Errorf("RefundableTotal = %d, want %d", got, tt.refundable)
			}
		})
	}
}

func TestDecide(t *testing.T) {
	paid := []ledger.Entry{charge("pi_1", 30000), balance("pi_2", 70000, ledger.StatusSucceeded)}
	for _, tt := range []struct {
		name    string
		entries []ledger.Entry
		refund  int64
		kept    int64
		refunds map[string]int64 // per intent
	}{
		{"nothing back", paid, 0, 100000, map[string]int64{}},
		{"balance refunded first", paid, 80000, 20000, map[string]int64{"pi_2": 70000, "pi_1": 10000}},
		{"capped at what is held", paid, 150000, 0, map[string]int64{"pi_2": 70000, "pi_1": 30000}},
		{"negative is nothing", paid, -5, 100000, map[string]int64{}},
		{"after a dashboard refund, kept is what is held less the refund",
			append(append([]ledger.Entry{}, paid...), refund("pi_1", 5000, ledger.StatusSucceeded, "dashboard:re_1")), 10000, 85000,
			map[string]int64{"pi_2": 10000}},
		{"refunds on their way beyond what is held: keeps nothing, not less",
			append(append([]ledger.Entry{}, paid...), refund("pi_2", 70000, ledger.StatusSucceeded, "dashboard:re_1"),
				refund("pi_1", 25000, ledger.StatusSucceeded, "dashboard:re_2"), refund("pi_1", 10000, ledger.StatusPending, "refund:pi_1:date_change")),
			0, 0, map[string]int64{}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out := ledger.Decide(tt.entries, 1, "EUR", ledger.ReasonCancelled, tt.refund)
			if out[0].Kind != ledger.KindDecision || out[0].Amount != tt.kept || out[0].Key != "decision:1" {
				t.Fatalf("decision %+v, want keep %d under decision:1", out[0], tt.kept)
			}
			got := map[string]int64{}
			for _, e := range out[1:] {
				if e.Kind != ledger.KindRefund || e.Status != ledger.StatusPending {
					t.Errorf("entry %+v, want a pending refund", e)
				}
				got[e.IntentID] += e.Amount
			}
			if len(got) != len(tt.refunds) {
				t.Fatalf("refunds %v, want %v", got, tt.refunds)
			}
			for in, want := range tt.refunds {
				if got[in] != want {
					t.Errorf("refund of %s = %d, want %d", in, got[in], want)
				}
			}
			// Once decided, nothing more is owed.
			all := append(append([]ledger.Entry{}, tt.entries...), out...)
			if owed := ledger.PositionOf(all).Owed(); owed != 0 {
				t.Errorf("owed after the decision = %d, want 0", owed)
			}
		})
	}
}

func TestCorrections(t *testing.T) {
	t.Run("same ledger, same keys", func(t *testing.T) {
		entries := []ledger.Entry{charge("pi_1", 30000)}
		a := ledger.Corrections(entries, 1, "EUR", ledger.ReasonClosed, now)
		b := ledger.Corrections(entries, 1, "EUR", ledger.ReasonClosed, now)
		if len(a) != 1 || a[0].Key != b[0].Key || a[0].Amount != 30000 {
			t.Fatalf("corrections %+v and %+v, want one refund of 30000 under one key", a, b)
		}
		if !a[0].NextAttemptAt.IsZero() {
			t.Errorf("first refund due at %v, want at once (zero)", a[0].NextAttemptAt)
		}
	})
	t.Run("a failed refund is owed again under a new key, later", func(t *testing.T) {
		entries := []ledger.Entry{charge("pi_1", 30000), refund("pi_1", 30000, ledger.StatusFailed, "refund:pi_1:booking_closed")}
		out := ledger.Corrections(entries, 1, "EUR", ledger.ReasonClosed, now)
		if len(out) != 1 || out[0].Amount != 30000 || out[0].Key == entries[1].Key {
			t.Fatalf("corrections %+v, want 30000 again under a new key", out)
		}
		if want := now.Add(ledger.RefundRetry(1)); !out[0].NextAttemptAt.Equal(want) {
			t.Errorf("due at %v, want %v", out[0].NextAttemptAt, want)
		}
	})
	t.Run("nothing beyond the decision", func(t *testing.T) {
		entries := []ledger.Entry{charge("pi_1", 30000), decision(30000)}
		if out := ledger.Corrections(entries, 1, "EUR", ledger.ReasonClosed, now); len(out) != 0 {
			t.Errorf("corrections %+v, want none: the decision kept everything", out)
		}
	})
}

func TestRefundRetry(t *testing.T) {
	for _, tt := range []struct {
		failures int
		want     time.Duration
	}{{1, time.Hour}, {2, 2 * time.Hour}, {5, 16 * time.Hour}, {6, 24 * time.Hour}, {40, 24 * time.Hour}} {
		if got := ledger.RefundRetry(tt.failures); got != tt.want {
			t.Errorf("RefundRetry(%d) = %v, want %v", tt.failures, got, tt.want)
		}
	}
}

// TestReissue: a live booking's refund the provider refused is owed again
// under a new key, no more than the caller says is still owed nor than
// its intents can still refund.
func TestReissue(t *testing.T) {
	failed := refund("pi_1", 14750, ledger.StatusFailed, "refund:pi_1:date_change")
	failed.Reason = ledger.ReasonDateChange
	entries := []ledger.Entry{charge("pi_1", 50200), refund("pi_1", 35993, ledger.StatusSucceeded, "dashboard:re_1"), failed}
	for _, tt := range []struct {
		name string
		owed int64
		want int64 // 0: nothing reissued
	}{
		{"nothing owed any more", 0, 0},
		{"part still owed", 5000, 5000},
		{"all of it owed, capped at what the intent can refund", 1 << 40, 50200 - 35993},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out := ledger.Reissue(entries, 1, "EUR", &failed, tt.owed, now)
			var got int64
			for _, e := range out {
				if e.Kind != ledger.KindRefund || e.Status != ledger.StatusPending || e.Key == failed.Key || !e.NextAttemptAt.After(now) {
					t.Errorf("reissued %+v, want a pending refund under a new key, due later", e)
				}
				got += e.Amount
			}
			if got != tt.want {
				t.Errorf("reissued %d, want %d", got, tt.want)
			}
		})
	}
}
