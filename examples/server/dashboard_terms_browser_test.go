package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/shopspring/decimal"
)

// choose sets a select's value as a person would, change event included.
func choose(sel, value string) chromedp.Action[chromedp.Void] {
	return chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => {
		const s = document.querySelector(%q);
		s.value = %q;
		s.dispatchEvent(new Event('change', { bubbles: true }));
	})()`, sel, value))
}

// shownAmount is the exact amount the dashboard shows in sel: the API's
// value its .money element keeps, whatever the locale writes.
func (b *browser) shownAmount(sel string) decimal.Decimal {
	b.t.Helper()
	return dec(b.t, b.attr(sel+" .money", "data-amount"))
}

// TestBrowserHostPolicyAndCancelWithRefund: in the dashboard a host sets
// the moderate cancellation policy, and the guest's quote then states it;
// a booking made under it three days before arrival is cancelled from its
// page with the "policy" refund choice, and the page shows half of the
// stay going back.
func TestBrowserHostPolicyAndCancelWithRefund(t *testing.T) {
	ts := startServer(t, nil)
	newHostUser(t, ts, "demo", "host@example.com", "a long enough password")
	property := propertyIDs(t, ts, "demo")[0]
	b := newBrowser(t)

	b.do("the guest's quote", chromedp.Navigate(ts.URL+"/?org=demo&lang=en"),
		chromedp.WaitVisible(chromedp.CSS(fmt.Sprintf(`[data-testid="property-%d"]`, property))))
	b.pickStay(property, 20, 2)
	if got := b.attr(`[data-testid="quote-policy"]`, "data-policy"); got != "flexible" {
		t.Fatalf("quote's policy before the change = %q, want flexible", got)
	}

	b.signIn(ts.URL+"/host/login?lang=en", "host@example.com", "a long enough password", "#nav-settings")
	b.do("open the settings", chromedp.Click(chromedp.CSS("#nav-settings")), chromedp.WaitVisible(chromedp.CSS("#set-policy")))
	if got := b.text("#set-policy-tiers"); !strings.Contains(got, "at least 1 day(s) before arrival") {
		t.Errorf("flexible's tiers shown = %q", got)
	}
	b.do("choose moderate", choose("#set-policy", "moderate"))
	if got := b.text("#set-policy-tiers"); !strings.Contains(got, "100 % back if cancelled at least 5 day(s) before arrival") ||
		!strings.Contains(got, "50 % back if cancelled before the day of arrival") {
		t.Errorf("moderate's tiers shown = %q", got)
	}
	b.shot("1-settings")
	b.do("save", chromedp.Click(chromedp.CSS("#settings-save")),
		chromedp.Poll[chromedp.Void](`document.querySelector('#flash').textContent === 'Saved.' && !!document.querySelector('#set-policy')`))
	if got := b.eval(`document.querySelector('#set-policy').value`); got != "moderate" {
		t.Errorf("policy shown after saving = %q, want moderate", got)
	}

	b.do("the guest's quote again", chromedp.Navigate(ts.URL+"/?org=demo&lang=en"),
		chromedp.WaitVisible(chromedp.CSS(fmt.Sprintf(`[data-testid="property-%d"]`, property))))
	b.pickStay(property, 20, 2)
	if got := b.attr(`[data-testid="quote-policy"]`, "data-policy"); got != "moderate" {
		t.Errorf("quote's policy after the change = %q, want moderate", got)
	}
	if got := b.text(`[data-testid="quote-policy"]`); !strings.Contains(got, "at least 5 days before check-in") {
		t.Errorf("quote states %q, want the moderate policy's 5 days", got)
	}
	b.shot("2-guest-quote")

	// Booked three days ahead under moderate: half of the stay comes back.
	token := paidBooking(t, ts, "demo", 3)
	b.do("the booking's page", chromedp.Navigate(ts.URL+"/host/?lang=en"),
		chromedp.WaitVisible(chromedp.CSS("#nav-bookings")),
		chromedp.Click(chromedp.CSS("#nav-bookings")),
		chromedp.WaitVisible(chromedp.CSS(fmt.Sprintf(`tr[data-token=%q] button.cancel-refund`, token))),
		chromedp.Click(chromedp.CSS(fmt.Sprintf(`tr[data-token=%q] button.cancel-refund`, token))),
		chromedp.WaitVisible(chromedp.CSS("#cancel-refund-choice")))
	if got := b.text("#bk-policy"); !strings.Contains(got, "Moderate") {
		t.Errorf("booking's policy shown = %q, want Moderate", got)
	}
	total := b.shownAmount("#bk-total")
	b.do("cancel by the policy", choose("#cancel-refund-choice", "policy"),
		chromedp.Click(chromedp.CSS("#cancel-start")),
		chromedp.WaitVisible(chromedp.CSS("#cancel-confirm")),
		chromedp.Click(chromedp.CSS("#cancel-confirm")),
		chromedp.WaitVisible(chromedp.CSS(`#bk-status[data-status="cancelled"]`)),
		chromedp.WaitVisible(chromedp.CSS(`tr.payment[data-kind="refund"]`)))
	b.shot("3-cancelled")
	back := b.shownAmount("#bk-refunded").Add(b.shownAmount("#bk-refund-pending"))
	if want := total.Div(decimal.NewFromInt(2)).Round(2); !back.Equal(want) {
		t.Errorf("page shows %s refunded or pending, want half of %s", back, total)
	}
	pub := call(t, "GET", ts.URL+"/api/v1/book/demo/booking/"+token, nil, nil).data(t)
	if got := dec(t, num(pub, "refunded_amount")).Add(dec(t, num(pub, "refund_pending_amount"))); !got.Equal(back) {
		t.Errorf("public booking: %s back, the dashboard said %s", got, back)
	}
	if b.visible("#cancel-form") {
		t.Error("a cancelled booking still offers to cancel")
	}
	b.checkNoProblems()
}
