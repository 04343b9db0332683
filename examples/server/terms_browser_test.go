package main

import (
	"context"
	"database/sql"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/staykit/staykit/payment/paymenttest"
)

// paidBooking checks out, pays with the test card and confirms over the
// API, and returns the booking's token.
func paidBooking(t *testing.T, ts *testServer, org string, daysAhead int) string {
	t.Helper()
	co := checkout(t, ts, org, propertyIDs(t, ts, org)[0], daysAhead, 3, 2)
	if r := call(t, "POST", ts.URL+"/fakepay/intents/"+intentOf(str(co, "client_secret")), map[string]string{"card_number": paymenttest.CardSucceeds}, nil); r.Status != 200 {
		t.Fatalf("pay: %d %s", r.Status, r.Raw)
	}
	token := str(co, "booking_token")
	if r := call(t, "POST", ts.URL+"/api/v1/book/"+org+"/booking/"+token+"/confirm", map[string]string{}, nil); r.Status != 200 {
		t.Fatalf("confirm: %d %s", r.Status, r.Raw)
	}
	return token
}

// TestBrowserGuestCancelsAndSeesTheRefund cancels a confirmed booking from
// its page: the page previews the refund under the booking's policy
// (flexible by default: everything back), and after the cancellation shows
// the booking cancelled with that amount refunded.
func TestBrowserGuestCancelsAndSeesTheRefund(t *testing.T) {
	ts := startServer(t, nil)
	token := paidBooking(t, ts, "demo", 30)
	b := newBrowser(t)
	b.do("open the confirmed booking",
		chromedp.Navigate(ts.URL+"/?org=demo&lang=en&booking="+token),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="cancel-preview"]`)),
	)
	b.shot("cancel-preview")
	preview := b.attr(`[data-testid="cancel-preview"]`, "data-amount")
	if total := b.attr(`[data-testid="status-total"]`, "data-amount"); !dec(t, preview).Equal(dec(t, total)) {
		t.Fatalf("preview refunds %s, want all of the %s paid back (flexible policy, 30 days ahead)", preview, total)
	}
	b.do("cancel",
		chromedp.Click(chromedp.CSS(`[data-testid="cancel-start"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="cancel-confirm"]`)),
		chromedp.Click(chromedp.CSS(`[data-testid="cancel-confirm"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="booking-status"][data-status="cancelled"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="status-refunded"]`)),
	)
	b.shot("cancelled")
	if got, paid := b.text(`[data-testid="status-refunded"]`), b.text(`[data-testid="status-paid"]`); got == "" || got != paid {
		t.Errorf("page shows %q refunded, want the preview's amount, all that was paid (%q)", got, paid)
	}
	if b.visible(`[data-testid="cancel-start"]`) {
		t.Error("a cancelled booking still offers to cancel")
	}
	b.checkNoProblems()
}

// TestBrowserGuestCompletesTheBalance: the balance charge on the due date
// needs the guest's authentication; the page offers it, the guest confirms
// with the test card, and the booking is paid in full.
func TestBrowserGuestCompletesTheBalance(t *testing.T) {
	ts := startServer(t, nil)
	ctx := context.Background()
	token := paidBooking(t, ts, "demo-deposit", 60)
	// The due date comes: the bank asks for authentication.
	ts.srv.fake.NextOffSession(paymenttest.OffSessionAuthenticates)
	db, err := sql.Open("sqlite", rawDSN(ts.dbPath))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, `UPDATE ledger_entries SET next_attempt_at = 0 WHERE kind = 'balance'`); err != nil {
		t.Fatal(err)
	}
	if _, err := ts.srv.money.ProcessPayments(ctx); err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t)
	b.do("open the booking with a balance to confirm",
		chromedp.Navigate(ts.URL+"/?org=demo-deposit&lang=en&booking="+token),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="balance-action"]`)),
	)
	b.shot("balance-action")
	if paid, total := b.text(`[data-testid="status-paid"]`), b.text(`[data-testid="status-total"]`); paid == total {
		t.Fatalf("paid %s before the balance, want less than %s", paid, total)
	}
	b.do("confirm the balance with the test card",
		chromedp.SendKeys(chromedp.CSS(`[data-testid="balance-card"]`), paymenttest.CardSucceeds),
		chromedp.Click(chromedp.CSS(`[data-testid="balance-pay"]`)),
		chromedp.WaitNotPresent(chromedp.CSS(`[data-testid="balance-action"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="status-paid"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="cancel-preview"]`)), // the page was rendered again
	)
	b.shot("balance-paid")
	if paid, total := b.text(`[data-testid="status-paid"]`), b.text(`[data-testid="status-total"]`); paid == "" || paid != total {
		t.Errorf("page shows %q paid, want the total %q", paid, total)
	}
	b.checkNoProblems()
}
