package datechange_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/datechange"
	"github.com/staykit/staykit/host"
	"github.com/staykit/staykit/ledger"
	"github.com/staykit/staykit/money"
	"github.com/staykit/staykit/payment"
	"github.com/staykit/staykit/payment/paymenttest"
)

// hostActor is the host of the tests' approvals.
var hostActor = host.Actor{Kind: "user", ID: 1, Name: "Host"}

// accept accepts r for b and fails on error.
func (e *env) accept(t *testing.T, slug string, b *booking.Booking, r datechange.Request) *datechange.View {
	t.Helper()
	v, err := e.changes.Accept(context.Background(), slug, b.Token, r)
	if err != nil {
		t.Fatalf("accept %+v: %v", r, err)
	}
	return v
}

func (e *env) current(t *testing.T, slug string, b *booking.Booking) *datechange.View {
	t.Helper()
	v, err := e.changes.Current(context.Background(), slug, b.Token)
	if err != nil {
		t.Fatal(err)
	}
	if v == nil {
		t.Fatal("no change")
	}
	return v
}

func entriesOf(entries []ledger.Entry, kind ledger.Kind) []ledger.Entry {
	var out []ledger.Entry
	for _, e := range entries {
		if e.Kind == kind {
			out = append(out, e)
		}
	}
	return out
}

func wantStay(t *testing.T, b *booking.Booking, in, out string, guests int) {
	t.Helper()
	if b.CheckIn != day(in) || b.CheckOut != day(out) || b.Guests != guests {
		t.Fatalf("booking stays %s→%s for %d, want %s→%s for %d", b.CheckIn, b.CheckOut, b.Guests, in, out, guests)
	}
}

// A full-mode booking without a saved card: the difference is paid on the
// page, then the change applies in the write that records the charge.
func TestCostsMoreChargedOnThePageThenApplied(t *testing.T) {
	e := newEnv(t)
	b := e.book(t, "demo", "2026-06-08", "2026-06-11", "")
	o, err := e.changes.Quote(context.Background(), "demo", b.Token, req("2026-06-08", "2026-06-12", 2))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := o.Charge.String(), "103"; got != want {
		t.Fatalf("offer charges %s, want %s (462 − 359)", got, want)
	}
	if !o.Refund.IsZero() || o.Paid.String() != "359" || o.Total.String() != "462" {
		t.Fatalf("offer = %+v", o)
	}
	v := e.accept(t, "demo", b, req("2026-06-08", "2026-06-12", 2))
	if v.Change.Status != datechange.StatusPaying || v.ClientSecret == "" {
		t.Fatalf("accepted change is %s with secret %q, want paying with a secret", v.Change.Status, v.ClientSecret)
	}
	// Not applied before it is paid: the old dates stay the booking's.
	wantStay(t, e.booking(t, b.ID), "2026-06-08", "2026-06-11", 2)
	ins := e.changeIntents()
	if len(ins) != 1 || ins[0].Amount != 10300 {
		t.Fatalf("change intents = %+v, want one of 103.00", ins)
	}
	if _, err := e.pay.Pay(ins[0].ID, paymenttest.CardSucceeds); err != nil {
		t.Fatal(err)
	}
	v = e.current(t, "demo", b)
	if v.Change.Status != datechange.StatusApplied {
		t.Fatalf("change is %s after paying, want applied", v.Change.Status)
	}
	got := e.booking(t, b.ID)
	wantStay(t, got, "2026-06-08", "2026-06-12", 2)
	if got.TotalAmount.String() != "462" || got.PaidAmount.String() != "462" || !got.BalanceAmount.IsZero() {
		t.Fatalf("booking total %s paid %s balance %s, want 462, 462, 0", got.TotalAmount, got.PaidAmount, got.BalanceAmount)
	}
	charges := entriesOf(e.ledger(t, b.ID), ledger.KindChangeCharge)
	if len(charges) != 1 || charges[0].Status != ledger.StatusSucceeded || charges[0].ProviderID != ins[0].ID {
		t.Fatalf("change charges = %+v", charges)
	}
	if held := e.balanced(t, got); held != 46200 {
		t.Fatalf("held %d, want 46200", held)
	}
}

func TestCostsLessRefundedUnderThePolicy(t *testing.T) {
	e := newEnv(t)
	e.setPolicy(t, "demo", "moderate") // everything back until 5 days before, half after
	b := e.book(t, "demo", "2026-06-03", "2026-06-06", "")
	if b.TotalAmount.String() != "379" {
		t.Fatalf("total %s, want 379", b.TotalAmount)
	}
	// What cancelling now would refund: half of 379.
	direct, err := e.svc.CancellationPreview(context.Background(), "demo", b.Token)
	if err != nil {
		t.Fatal(err)
	}
	v := e.accept(t, "demo", b, req("2026-06-03", "2026-06-05", 2))
	o := v.Change.Offer
	if v.Change.Status != datechange.StatusApplied || o.Refund.String() != "61.5" || o.Retained.String() != "61.5" || o.Total.String() != "317.5" {
		t.Fatalf("change %s, offer refund %s retained %s total %s; want applied, 61.50, 61.50, 317.50",
			v.Change.Status, o.Refund, o.Retained, o.Total)
	}
	got := e.booking(t, b.ID)
	wantStay(t, got, "2026-06-03", "2026-06-05", 2)
	refunds := entriesOf(e.ledger(t, b.ID), ledger.KindRefund)
	if len(refunds) != 1 || refunds[0].Amount != 6150 || refunds[0].Status != ledger.StatusSucceeded || refunds[0].Reason != ledger.ReasonDateChange {
		t.Fatalf("refunds = %+v, want one of 61.50 sent", refunds)
	}
	e.balanced(t, got)
	// Changing then cancelling gives back what cancelling would have.
	after, err := e.svc.CancellationPreview(context.Background(), "demo", b.Token)
	if err != nil {
		t.Fatal(err)
	}
	if total := after.Refund.Add(o.Refund); !total.Equal(direct.Refund) {
		t.Fatalf("change then cancel refunds %s + %s = %s; cancelling directly refunds %s", o.Refund, after.Refund, total, direct.Refund)
	}
}

// Moving a stay later does not move it into a more generous tier: the
// policy counts from the earliest check-in.
func TestMovingLaterKeepsThePolicyAnchor(t *testing.T) {
	e := newEnv(t)
	e.setPolicy(t, "demo", "moderate")
	b := e.book(t, "demo", "2026-06-03", "2026-06-06", "")
	direct, err := e.svc.CancellationPreview(context.Background(), "demo", b.Token)
	if err != nil {
		t.Fatal(err)
	}
	v := e.accept(t, "demo", b, req("2026-07-06", "2026-07-09", 2))
	if v.Change.Status != datechange.StatusApplied {
		t.Fatalf("change is %s", v.Change.Status)
	}
	after, err := e.svc.CancellationPreview(context.Background(), "demo", b.Token)
	if err != nil {
		t.Fatal(err)
	}
	if !after.Percent.Equal(dec("50")) {
		t.Fatalf("a stay moved from 3 June to 6 July is refunded at %s %%, want the 50 %% of its first dates", after.Percent)
	}
	if total := after.Refund.Add(v.Change.Offer.Refund); !total.Equal(direct.Refund) {
		t.Fatalf("change then cancel refunds %s, cancelling directly %s", total, direct.Refund)
	}
}

// A deposit booking: the balance is recomputed and its scheduled entry
// replaced; at the due date only the new amount is charged.
func TestDepositBalanceRescheduled(t *testing.T) {
	e := newEnv(t)
	b := e.book(t, "demo-deposit", "2026-06-08", "2026-06-11", "")
	if b.BalanceAmount.String() != "251.3" {
		t.Fatalf("balance %s, want 251.30 (70 %% of 359)", b.BalanceAmount)
	}
	v := e.accept(t, "demo-deposit", b, req("2026-06-15", "2026-06-19", 2))
	if v.Change.Status != datechange.StatusApplied || !v.Change.Offer.Charge.IsZero() {
		t.Fatalf("change %s charge %s, want applied with nothing charged now", v.Change.Status, v.Change.Offer.Charge)
	}
	got := e.booking(t, b.ID)
	// 15–19 June, Mon–Fri: 400 + 50 + 12 = 462; 107.70 paid.
	if got.BalanceAmount.String() != "354.3" || got.BalanceDueDate != day("2026-06-12") {
		t.Fatalf("balance %s due %s, want 354.30 due 2026-06-12", got.BalanceAmount, got.BalanceDueDate)
	}
	var pending, skipped []ledger.Entry
	for _, x := range entriesOf(e.ledger(t, b.ID), ledger.KindBalance) {
		switch x.Status {
		case ledger.StatusPending:
			pending = append(pending, x)
		case ledger.StatusSkipped:
			skipped = append(skipped, x)
		}
	}
	if len(pending) != 1 || pending[0].Amount != 35430 || len(skipped) != 1 || skipped[0].Amount != 25130 {
		t.Fatalf("balance entries pending %+v skipped %+v", pending, skipped)
	}
	e.clock.Set(time.Date(2026, 6, 12, 1, 0, 0, 0, time.UTC))
	e.process(t)
	var charged int64
	for _, in := range e.pay.Intents() {
		if in.Metadata["purpose"] == "balance" {
			charged += in.AmountReceived
		}
	}
	if charged != 35430 {
		t.Fatalf("balances charged %d, want the new 35430 only", charged)
	}
	if held := e.balanced(t, e.booking(t, b.ID)); held != 46200 {
		t.Fatalf("held %d, want 46200", held)
	}
}

// A booking whose card was saved (a deposit paid in full meanwhile): the
// difference is charged off session; the bank asks for 3-D Secure, the
// guest completes it on the page.
func TestOffSessionChargeNeedsThreeDSecure(t *testing.T) {
	e := newEnv(t)
	b := e.book(t, "demo-deposit", "2026-06-08", "2026-06-11", "")
	e.payBalanceNow(t, "demo-deposit", b)
	e.pay.NextOffSession(paymenttest.OffSessionAuthenticates)
	v := e.accept(t, "demo-deposit", b, req("2026-06-08", "2026-06-12", 2))
	if v.Change.Status != datechange.StatusPaying || v.ClientSecret == "" {
		t.Fatalf("change %s secret %q, want paying with a secret", v.Change.Status, v.ClientSecret)
	}
	ins := e.changeIntents()
	if len(ins) != 1 || ins[0].Status != payment.StatusRequiresAction || ins[0].Customer == "" {
		t.Fatalf("change intents = %+v, want one off session asking for 3-D Secure", ins)
	}
	if _, err := e.pay.SimulatePaid(ins[0].ID); err != nil {
		t.Fatal(err)
	}
	if v = e.current(t, "demo-deposit", b); v.Change.Status != datechange.StatusApplied {
		t.Fatalf("change is %s after 3-D Secure, want applied", v.Change.Status)
	}
	wantStay(t, e.booking(t, b.ID), "2026-06-08", "2026-06-12", 2)
	if held := e.balanced(t, e.booking(t, b.ID)); held != 46200 {
		t.Fatalf("held %d, want 46200", held)
	}
}

// payBalanceNow pays a deposit booking's balance early (off session).
func (e *env) payBalanceNow(t *testing.T, slug string, b *booking.Booking) {
	t.Helper()
	for _, x := range entriesOf(e.ledger(t, b.ID), ledger.KindBalance) {
		if x.Status != ledger.StatusPending {
			continue
		}
		x.NextAttemptAt = e.clock.Now()
		if err := e.store.UpdateLedgerEntry(context.Background(), &x); err != nil {
			t.Fatal(err)
		}
	}
	e.process(t)
	if got := e.booking(t, b.ID); !got.PaidAmount.Equal(got.TotalAmount) {
		t.Fatalf("paid %s of %s after the balance", got.PaidAmount, got.TotalAmount)
	}
}

// 3-D Secure abandoned: the new dates were never held; after the hold
// minutes the intent is voided, the change expires, the booking keeps its
// stay and nothing was taken.
func TestThreeDSecureAbandonedExpires(t *testing.T) {
	e := newEnv(t)
	b := e.book(t, "demo", "2026-06-08", "2026-06-11", "")
	v := e.accept(t, "demo", b, req("2026-06-08", "2026-06-12", 2))
	if v.Change.Status != datechange.StatusPaying {
		t.Fatalf("change is %s", v.Change.Status)
	}
	// Meanwhile another guest may book the night the change wanted.
	e.clock.Advance(31 * time.Minute)
	e.process(t)
	v = e.current(t, "demo", b)
	if v.Change.Status != datechange.StatusExpired || v.ClientSecret != "" {
		t.Fatalf("change is %s (secret %q), want expired", v.Change.Status, v.ClientSecret)
	}
	ins := e.changeIntents()
	if len(ins) != 1 || ins[0].Status != payment.StatusCanceled {
		t.Fatalf("change intents = %+v, want one voided", ins)
	}
	wantStay(t, e.booking(t, b.ID), "2026-06-08", "2026-06-11", 2)
	for _, x := range e.ledger(t, b.ID) {
		if x.Status == ledger.StatusPending {
			t.Fatalf("entry %+v left pending", x)
		}
	}
	e.balanced(t, e.booking(t, b.ID))
	// The guest can ask again.
	if v = e.accept(t, "demo", b, req("2026-06-08", "2026-06-12", 2)); v.Change.Status != datechange.StatusPaying {
		t.Fatalf("a new change is %s, want paying", v.Change.Status)
	}
}

// The charge's answer is lost after the provider created it: the change
// stays paying, and the next attempt finds the intent by its key rather
// than charging again.
func TestChargeAnswerLost(t *testing.T) {
	e := newEnv(t)
	b := e.book(t, "demo", "2026-06-08", "2026-06-11", "")
	e.pay.LoseNextResponse(paymenttest.OpCreate)
	v := e.accept(t, "demo", b, req("2026-06-08", "2026-06-12", 2))
	if v.Change.Status != datechange.StatusPaying || v.ClientSecret != "" {
		t.Fatalf("change %s secret %q, want paying without a secret yet", v.Change.Status, v.ClientSecret)
	}
	ins := e.changeIntents()
	if len(ins) != 1 {
		t.Fatalf("change intents = %d, want the one created", len(ins))
	}
	e.process(t) // found by key, waits for the guest
	if n := len(e.changeIntents()); n != 1 {
		t.Fatalf("%d change intents after a retry, want 1", n)
	}
	v = e.current(t, "demo", b)
	if v.ClientSecret == "" {
		t.Fatal("no client secret once the intent is found")
	}
	if _, err := e.pay.Pay(ins[0].ID, paymenttest.CardSucceeds); err != nil {
		t.Fatal(err)
	}
	if v = e.current(t, "demo", b); v.Change.Status != datechange.StatusApplied {
		t.Fatalf("change is %s, want applied", v.Change.Status)
	}
	e.balanced(t, e.booking(t, b.ID))
}

// The provider is down for a day while an off-session charge is owed:
// the change stays paying and is retried by the jobs; once the provider is
// back, the charge goes through and the change applies.
func TestProviderDownForADay(t *testing.T) {
	e := newEnv(t)
	b := e.book(t, "demo-deposit", "2026-06-08", "2026-06-11", "")
	e.payBalanceNow(t, "demo-deposit", b)
	e.pay.SetDown(true)
	v := e.accept(t, "demo-deposit", b, req("2026-06-08", "2026-06-12", 2))
	if v.Change.Status != datechange.StatusPaying {
		t.Fatalf("change is %s, want paying", v.Change.Status)
	}
	for range 24 {
		e.clock.Advance(time.Hour)
		e.process(t)
	}
	wantStay(t, e.booking(t, b.ID), "2026-06-08", "2026-06-11", 2)
	e.pay.SetDown(false)
	e.clock.Advance(time.Hour)
	e.process(t)
	if v = e.current(t, "demo-deposit", b); v.Change.Status != datechange.StatusApplied {
		t.Fatalf("change is %s after the outage, want applied", v.Change.Status)
	}
	wantStay(t, e.booking(t, b.ID), "2026-06-08", "2026-06-12", 2)
	e.balanced(t, e.booking(t, b.ID))
}

// Webhooks of the change's intent, duplicated and out of order, apply it
// once.
func TestDuplicateAndReorderedWebhooks(t *testing.T) {
	e := newEnv(t)
	b := e.book(t, "demo", "2026-06-08", "2026-06-11", "")
	e.accept(t, "demo", b, req("2026-06-08", "2026-06-12", 2))
	in := e.changeIntents()[0]
	if _, err := e.pay.Pay(in.ID, paymenttest.CardSucceeds); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for i, typ := range []payment.EventType{payment.EventSucceeded, payment.EventFailed, payment.EventSucceeded} {
		ev, err := e.pay.Event(typ, in.ID)
		if err != nil {
			t.Fatal(err)
		}
		for range 2 {
			if err := e.money.HandlePaymentEvent(ctx, *ev); err != nil {
				t.Fatalf("event %d: %v", i, err)
			}
		}
	}
	if v := e.current(t, "demo", b); v.Change.Status != datechange.StatusApplied {
		t.Fatalf("change is %s, want applied", v.Change.Status)
	}
	charges := entriesOf(e.ledger(t, b.ID), ledger.KindChangeCharge)
	if len(charges) != 1 || charges[0].Status != ledger.StatusSucceeded {
		t.Fatalf("change charges = %+v", charges)
	}
	if held := e.balanced(t, e.booking(t, b.ID)); held != 46200 {
		t.Fatalf("held %d, want 46200", held)
	}
}

// Another guest books the new night between the change's acceptance and
// its payment: the change is refused and its charge given back in full.
func TestDatesTakenWhileThePaymentWasUnderWay(t *testing.T) {
	e := newEnv(t)
	b := e.book(t, "demo", "2026-06-08", "2026-06-11", "")
	e.accept(t, "demo", b, req("2026-06-08", "2026-06-13", 2))
	other := e.book(t, "demo", "2026-06-12", "2026-06-15", "")
	in := e.changeIntents()[0]
	if _, err := e.pay.Pay(in.ID, paymenttest.CardSucceeds); err != nil {
		t.Fatal(err)
	}
	v := e.current(t, "demo", b)
	if v.Change.Status != datechange.StatusRefused {
		t.Fatalf("change is %s, want refused", v.Change.Status)
	}
	wantStay(t, e.booking(t, b.ID), "2026-06-08", "2026-06-11", 2)
	wantStay(t, e.booking(t, other.ID), "2026-06-12", "2026-06-15", 2)
	got, _ := e.pay.Intent(in.ID)
	if got.AmountRefunded != got.AmountReceived || got.AmountReceived == 0 {
		t.Fatalf("change intent received %d refunded %d, want all of it back", got.AmountReceived, got.AmountRefunded)
	}
	if held := e.balanced(t, e.booking(t, b.ID)); held != 35900 {
		t.Fatalf("held %d, want the 35900 paid at checkout", held)
	}
}

func TestRefusals(t *testing.T) {
	e := newEnv(t)
	b := e.book(t, "demo", "2026-06-08", "2026-06-11", "")
	_ = e.book(t, "demo", "2026-06-13", "2026-06-16", "")
	ctx := context.Background()
	tests := []struct {
		name         string
		r            datechange.Request
		code, reason string
	}{
		{"RuleMinStay", req("2026-06-08", "2026-06-09", 2), booking.CodeMinStay, ""},
		{"TooManyGuests", req("2026-06-08", "2026-06-11", 5), booking.CodeMaxGuests, ""},
		{"TakenByAnotherGuest", req("2026-06-10", "2026-06-14", 2), booking.CodeUnavailable, ""},
		{"OwnerBlock", req("2026-06-19", "2026-06-21", 2), booking.CodeUnavailable, ""},
		{"InThePast", req("2026-05-30", "2026-06-02", 2), booking.CodeCheckInPast, ""},
		{"Unchanged", req("2026-06-08", "2026-06-11", 2), booking.CodeInvalid, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := e.changes.Accept(ctx, "demo", b.Token, tt.r)
			wantCode(t, err, tt.code, tt.reason)
			wantStay(t, e.booking(t, b.ID), "2026-06-08", "2026-06-11", 2)
		})
	}
	if cs, err := e.store.DateChanges(ctx, b.ID); err != nil || len(cs) != 0 {
		t.Fatalf("refused changes stored: %+v, %v", cs, err)
	}
	t.Run("StayStarted", func(t *testing.T) {
		e.clock.Set(time.Date(2026, 6, 8, 12, 0, 0, 0, time.UTC))
		_, err := e.changes.Quote(ctx, "demo", b.Token, req("2026-06-08", "2026-06-10", 2))
		wantCode(t, err, booking.CodeBookingClosed, datechange.ReasonStayStarted)
	})
}

// Growing the party is a change too, and a change that keeps nights of
// the booking's own stay does not collide with itself.
func TestPartyChangeOverItsOwnNights(t *testing.T) {
	e := newEnv(t)
	b := e.book(t, "demo", "2026-06-08", "2026-06-11", "")
	o, err := e.changes.Quote(context.Background(), "demo", b.Token, req("2026-06-08", "2026-06-11", 4))
	if err != nil {
		t.Fatal(err)
	}
	// Two more guests: 10 each a night (60) and 1.50 of tax each a night (9).
	if o.Charge.String() != "69" {
		t.Fatalf("charge %s, want 69", o.Charge)
	}
}

func TestCouponKeptOrDropped(t *testing.T) {
	e := newEnv(t)
	b := e.book(t, "demo", "2026-06-08", "2026-06-12", "LONG10")
	ctx := context.Background()
	o, err := e.changes.Quote(ctx, "demo", b.Token, req("2026-06-15", "2026-06-19", 2))
	if err != nil {
		t.Fatal(err)
	}
	if o.CouponDropped || o.Quote.CouponCode != "LONG10" {
		t.Fatalf("a 4-night move keeps LONG10: dropped %v, quote coupon %q", o.CouponDropped, o.Quote.CouponCode)
	}
	v := e.accept(t, "demo", b, req("2026-06-08", "2026-06-11", 2))
	if !v.Change.Offer.CouponDropped || v.Change.Offer.Quote.CouponCode != "" {
		t.Fatalf("a 3-night stay drops LONG10: %+v", v.Change.Offer)
	}
	if got := e.booking(t, b.ID); got.CouponCode != "" || got.CouponID != 0 {
		t.Fatalf("booking keeps coupon %q (%d)", got.CouponCode, got.CouponID)
	}
}

func TestHostApproval(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	org, err := e.svc.Organization(ctx, "demo")
	if err != nil {
		t.Fatal(err)
	}
	if err := e.changes.SetApproval(ctx, org, true, hostActor); err != nil {
		t.Fatal(err)
	}
	b := e.book(t, "demo", "2026-06-08", "2026-06-11", "")
	v := e.accept(t, "demo", b, req("2026-06-08", "2026-06-10", 2))
	if v.Change.Status != datechange.StatusRequested || !v.Change.Offer.ApprovalRequired {
		t.Fatalf("change is %s, want requested", v.Change.Status)
	}
	if _, err := e.changes.Accept(ctx, "demo", b.Token, req("2026-06-08", "2026-06-12", 2)); err == nil {
		t.Fatal("a second open change was accepted")
	} else {
		wantCode(t, err, booking.CodeConflict, datechange.ReasonChangeOpen)
	}
	wantStay(t, e.booking(t, b.ID), "2026-06-08", "2026-06-11", 2)
	approved, err := e.changes.Approve(ctx, org, v.Change.ID, hostActor)
	if err != nil {
		t.Fatal(err)
	}
	if approved.Change.Status != datechange.StatusApplied {
		t.Fatalf("approved change is %s", approved.Change.Status)
	}
	wantStay(t, e.booking(t, b.ID), "2026-06-08", "2026-06-10", 2)
	if _, err := e.changes.Approve(ctx, org, v.Change.ID, hostActor); err == nil {
		t.Fatal("approved twice")
	}
	e.balanced(t, e.booking(t, b.ID))

	// A request the host lets lapse stands in the way of no new change.
	lapsed := e.accept(t, "demo", b, req("2026-06-08", "2026-06-13", 2))
	e.clock.Advance(49 * time.Hour)
	v = e.accept(t, "demo", b, req("2026-06-08", "2026-06-12", 2))
	if got, err := e.store.DateChange(ctx, org.ID, lapsed.Change.ID); err != nil || got.Status != datechange.StatusExpired {
		t.Fatalf("the lapsed request: %+v, %v", got, err)
	}
	if _, err := e.changes.Approve(ctx, org, lapsed.Change.ID, hostActor); err == nil {
		t.Fatal("a lapsed request was approved")
	}
	d, err := e.changes.Decline(ctx, org, v.Change.ID, "", hostActor)
	if err != nil || d.Status != datechange.StatusDeclined {
		t.Fatalf("decline = %+v, %v", d, err)
	}
	wantStay(t, e.booking(t, b.ID), "2026-06-08", "2026-06-10", 2)
	log, err := e.store.AuditLog(ctx, org.ID, 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	var actions []string
	for _, a := range log {
		actions = append(actions, a.Action+" "+a.Actor)
	}
	if want := []string{"date_change.decline user:1", "date_change.approve user:1", "date_change.settings user:1"}; strings.Join(actions, ",") != strings.Join(want, ",") {
		t.Fatalf("audit log %v, want %v", actions, want)
	}
}

// Every payment mode: a request-mode booking, once approved and captured,
// changes like a paid one.
func TestRequestModeBooking(t *testing.T) {
	e := newEnv(t)
	b := e.book(t, "demo-request", "2026-06-08", "2026-06-11", "")
	v := e.accept(t, "demo-request", b, req("2026-06-08", "2026-06-10", 2))
	if v.Change.Status != datechange.StatusApplied || v.Change.Offer.Refund.String() != "103" {
		t.Fatalf("change %s refund %s, want applied with 103 back", v.Change.Status, v.Change.Offer.Refund)
	}
	e.balanced(t, e.booking(t, b.ID))
}

// A booking cancelled while its change's charge waits for the guest: the
// charge, paid late, goes back beyond the cancellation's decision.
func TestCancelledWhileTheChargeWaited(t *testing.T) {
	e := newEnv(t)
	b := e.book(t, "demo", "2026-06-08", "2026-06-11", "")
	e.accept(t, "demo", b, req("2026-06-08", "2026-06-12", 2))
	ctx := context.Background()
	if _, err := e.svc.CancelByGuest(ctx, "demo", b.Token); err != nil {
		t.Fatal(err)
	}
	in := e.changeIntents()[0]
	if _, err := e.pay.Pay(in.ID, paymenttest.CardSucceeds); err != nil {
		t.Fatal(err)
	}
	ev, err := e.pay.Event(payment.EventSucceeded, in.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.money.HandlePaymentEvent(ctx, *ev); err != nil {
		t.Fatal(err)
	}
	e.process(t)
	got, _ := e.pay.Intent(in.ID)
	if got.AmountRefunded != got.AmountReceived {
		t.Fatalf("a cancelled booking's change charge keeps %d", got.AmountReceived-got.AmountRefunded)
	}
	if pos := ledger.PositionOf(e.ledger(t, b.ID)); pos.Owed() != 0 {
		t.Fatalf("the cancelled booking still owes %d", pos.Owed())
	}
}

// Paying the balance early uses the scheduled entry's key: the job that
// runs on the due date finds it settled, and the card is charged once.
func TestBalancePaidEarlyChargedOnce(t *testing.T) {
	e := newEnv(t)
	b := e.book(t, "demo-deposit", "2026-06-08", "2026-06-11", "")
	ctx := context.Background()
	if err := e.money.PayBalanceNow(ctx, e.booking(t, b.ID)); err != nil {
		t.Fatal(err)
	}
	if got := e.booking(t, b.ID); !got.PaidAmount.Equal(got.TotalAmount) {
		t.Fatalf("paid %s of %s after paying early", got.PaidAmount, got.TotalAmount)
	}
	e.clock.Set(time.Date(2026, 6, 5, 1, 0, 0, 0, time.UTC)) // past the due date
	e.process(t)
	for _, x := range entriesOf(e.ledger(t, b.ID), ledger.KindBalance) {
		if _, err := e.money.SendLedgerEntry(ctx, b.ID, x.ID); err != nil {
			t.Fatal(err)
		}
	}
	var charged int64
	n := 0
	for _, in := range e.pay.Intents() {
		if in.Metadata["purpose"] == "balance" {
			charged += in.AmountReceived
			n++
		}
	}
	if n != 1 || charged != 25130 {
		t.Fatalf("%d balance intents charged %d, want one of 25130", n, charged)
	}
	if held := e.balanced(t, e.booking(t, b.ID)); held != 35900 {
		t.Fatalf("held %d, want 35900", held)
	}
	if err := e.money.PayBalanceNow(ctx, e.booking(t, b.ID)); err != nil {
		t.Fatalf("paying a paid balance again: %v", err)
	}
	full := e.book(t, "demo", "2026-06-15", "2026-06-18", "")
	wantCode(t, e.money.PayBalanceNow(ctx, full), booking.CodeBookingClosed, money.ReasonBalanceNotScheduled)
	terms, err := e.store.Terms(ctx, b.ID)
	if err != nil {
		t.Fatal(err)
	}
	sched := money.Schedule(e.booking(t, b.ID), terms, e.ledger(t, b.ID), time.UTC)
	if len(sched) != 2 || sched[0].Kind != "charge" || sched[1].Kind != "balance" || sched[1].Status != "paid" {
		t.Fatalf("schedule = %+v", sched)
	}
}

// The early payment and the job at once: one charge.
func TestBalancePaidEarlyRacingItsJob(t *testing.T) {
	e := newEnv(t)
	b := e.book(t, "demo-deposit", "2026-06-08", "2026-06-11", "")
	ctx := context.Background()
	e.clock.Set(time.Date(2026, 6, 4, 22, 0, 0, 0, time.UTC)) // the due instant
	var x ledger.Entry
	for _, y := range entriesOf(e.ledger(t, b.ID), ledger.KindBalance) {
		x = y
	}
	done := make(chan error, 1)
	go func() { _, err := e.money.SendLedgerEntry(ctx, b.ID, x.ID); done <- err }()
	if err := e.money.PayBalanceNow(ctx, e.booking(t, b.ID)); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	var charged int64
	for _, in := range e.pay.Intents() {
		if in.Metadata["purpose"] == "balance" {
			charged += in.AmountReceived
		}
	}
	if charged != 25130 {
		t.Fatalf("balances charged %d, want 25130 once", charged)
	}
	e.balanced(t, e.booking(t, b.ID))
}

// TestCheapUnitTakenWhileThePaymentWasUnderWay: a change offered at the
// price of a unit priced on its own (issue #27) applies on that unit or
// one priced alike, never on a dearer unit free when the payment
// arrives: the cheap unit taken meanwhile, the change is refused and its
// charge refunded, as when its dates are taken.
func TestCheapUnitTakenWhileThePaymentWasUnderWay(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	org, err := e.svc.Organization(ctx, "demo")
	if err != nil {
		t.Fatal(err)
	}
	cheap := &booking.Unit{Name: "2"}
	if err := e.store.AddUnit(ctx, org.ID, e.property["demo"], cheap, start); err != nil {
		t.Fatal(err)
	}
	// The weekend of 12–14 June costs 80 a night on the second unit, 120
	// on the first.
	if _, err := e.store.SetUnitPrices(ctx, org.ID, cheap.ID, []booking.UnitPriceDay{
		{Date: day("2026-06-12"), Price: ptr(dec("80"))}, {Date: day("2026-06-13"), Price: ptr(dec("80"))}}); err != nil {
		t.Fatal(err)
	}
	b := e.book(t, "demo", "2026-06-08", "2026-06-11", "")
	if b.UnitID == cheap.ID {
		t.Fatalf("the first stay holds the second unit; the test needs it on the first")
	}
	o, err := e.changes.Quote(ctx, "demo", b.Token, req("2026-06-08", "2026-06-14", 2))
	if err != nil {
		t.Fatal(err)
	}
	// 4 × 100 + 2 × 80 on the second unit (the first would cost 640),
	// cleaning 50, tax 18.
	if o.Total.String() != "628" {
		t.Fatalf("offer total %s, want 628: the stay on the cheap unit", o.Total)
	}
	e.accept(t, "demo", b, req("2026-06-08", "2026-06-14", 2))
	other := e.book(t, "demo", "2026-06-12", "2026-06-14", "")
	if other.UnitID != cheap.ID {
		t.Fatalf("the other guest holds unit %d, want the cheap unit %d", other.UnitID, cheap.ID)
	}
	in := e.changeIntents()[0]
	if _, err := e.pay.Pay(in.ID, paymenttest.CardSucceeds); err != nil {
		t.Fatal(err)
	}
	if v := e.current(t, "demo", b); v.Change.Status != datechange.StatusRefused {
		t.Fatalf("change is %s, want refused: only the dear unit is free", v.Change.Status)
	}
	got := e.booking(t, b.ID)
	wantStay(t, got, "2026-06-08", "2026-06-11", 2)
	if got.UnitID != b.UnitID || got.TotalAmount.String() != "359" {
		t.Fatalf("booking on unit %d at %s, want unit %d at 359 as before", got.UnitID, got.TotalAmount, b.UnitID)
	}
	paid, _ := e.pay.Intent(in.ID)
	if paid.AmountReceived == 0 || paid.AmountRefunded != paid.AmountReceived {
		t.Fatalf("change intent received %d refunded %d, want all of it back", paid.AmountReceived, paid.AmountRefunded)
	}
}
