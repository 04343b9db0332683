package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserHostSeesTheBalance: the page of a deposit booking in the
// dashboard shows its balance — the amount, the due date and that it will
// be charged to the card — as the guest's status page does.
func TestBrowserHostSeesTheBalance(t *testing.T) {
	ts := startServer(t, nil)
	newHostUser(t, ts, "demo-deposit", "host@example.com", "a long enough password")
	token := paidBooking(t, ts, "demo-deposit", 60)
	pub := call(t, "GET", ts.URL+"/api/v1/book/demo-deposit/booking/"+token, nil, nil).data(t)
	balance, _ := pub["balance"].(map[string]any)
	if str(balance, "status") != "scheduled" {
		t.Fatalf("the guest's balance = %v, want one scheduled", balance)
	}
	b := newBrowser(t)
	row := fmt.Sprintf(`tr[data-token=%q]`, token)
	b.signIn(ts.URL+"/host/login?lang=en", "host@example.com", "a long enough password", "#nav-bookings")
	b.do("open the booking", chromedp.Click(chromedp.CSS("#nav-bookings")),
		chromedp.WaitVisible(chromedp.CSS(row+" button.details")),
		chromedp.Click(chromedp.CSS(row+" button.details")),
		chromedp.WaitVisible(chromedp.CSS("#bk-balance")))
	b.shot("balance")
	if got := b.attr("#bk-balance", "data-status"); got != "scheduled" {
		t.Errorf("balance status = %q, want scheduled", got)
	}
	got := b.text("#bk-balance")
	if amount := b.shownAmount("#bk-balance"); !amount.Equal(dec(t, num(balance, "amount"))) {
		t.Errorf("balance shown %q (%s), the guest's is %s", got, amount, num(balance, "amount"))
	}
	if due := b.attr("#bk-balance time", "datetime"); due != str(balance, "due_date") {
		t.Errorf("balance due %q, want %s", due, str(balance, "due_date"))
	}
	if want := "— charged to the card on that day"; !strings.Contains(got, "due ") || !strings.Contains(got, want) {
		t.Errorf("balance shown %q, want it to say due … %q", got, want)
	}
	b.checkNoProblems()
}
