package main

import (
	"net/http"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserHostApprovesAChange: with approval on, a guest's change of
// dates waits; the booking's page in the dashboard lists it with what it
// refunds, and the host approves it there: the booking has its new dates.
func TestBrowserHostApprovesAChange(t *testing.T) {
	ts := startServer(t, nil)
	newHostUser(t, ts, "demo", "host@example.com", "a long enough password")
	token := paidBooking(t, ts, "demo", 40)
	in, out := bookingStay(t, ts, "demo", token)
	b := newBrowser(t)
	b.signIn(ts.URL+"/host/login?lang=en", "host@example.com", "a long enough password", "#nav-bookings")
	got, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`fetch('/api/v1/host/demo/change-settings', {method: 'PATCH', credentials: 'same-origin',
		headers: {'Content-Type': 'application/json'}, body: JSON.stringify({approval: true})}).then((r) => String(r.status))`, chromedp.EvalAwaitPromise))
	if err != nil || got != "200" {
		t.Fatalf("turn approval on: %q, %v", got, err)
	}
	shorter := map[string]any{"check_in": in, "check_out": dayAfter(t, in, 2), "guests_count": 2}
	if r := call(t, http.MethodPost, ts.URL+"/api/v1/book/demo/booking/"+token+"/change", shorter, nil); r.Status != http.StatusOK || str(r.data(t), "status") != "requested" {
		t.Fatalf("the guest's change: %d %s", r.Status, r.Raw)
	}
	row := `tr[data-token="` + token + `"]`
	b.do("the booking's page lists the change", chromedp.Click(chromedp.CSS("#nav-bookings")),
		chromedp.WaitVisible(chromedp.CSS(row+" button.details")),
		chromedp.Click(chromedp.CSS(row+" button.details")),
		chromedp.WaitVisible(chromedp.CSS(`#changes-list li[data-status="requested"] .approve-change`)))
	b.shot("change-to-approve")
	b.do("approve", chromedp.Click(chromedp.CSS(`#changes-list li[data-status="requested"] .approve-change`)),
		chromedp.WaitVisible(chromedp.CSS(`#changes-list li[data-status="applied"]`)))
	if _, got := bookingStay(t, ts, "demo", token); got != dayAfter(t, in, 2) || got == out {
		t.Fatalf("booking check-out %s after the approval, want %s", got, dayAfter(t, in, 2))
	}
	b.checkNoProblems()
}
