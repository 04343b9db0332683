package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserEventsAndReplay: a confirmed booking's events wait on the
// dashboard's Events page, with their booking, until the host
// acknowledges them; the webhook endpoint's deliveries page replays the
// last day, and the receiver gets the confirmation again with the same
// webhook-id.
func TestBrowserEventsAndReplay(t *testing.T) {
	sink := &hookSink{accepted: map[string]int{}, types: map[string]string{}}
	rs := httptest.NewServer(sink)
	t.Cleanup(rs.Close)
	ts := startServer(t, nil, "-webhooks-allow-private")
	newHostUser(t, ts, "demo", "host@example.com", "a long enough password")
	r := call(t, http.MethodPost, ts.URL+"/api/v1/host/demo/webhooks", map[string]any{"url": rs.URL + "/hook"}, hostKey(t, ts, "demo"))
	if r.Status != http.StatusCreated {
		t.Fatalf("create the endpoint: %d %s", r.Status, r.Raw)
	}
	sink.mu.Lock()
	sink.secret = r.data(t)["secret"].(string)
	sink.mu.Unlock()
	paidBooking(t, ts, "demo", 30)
	// confirmed is how many times the receiver accepted the confirmation.
	confirmed := func() int {
		sink.mu.Lock()
		defer sink.mu.Unlock()
		for id, n := range sink.accepted {
			if sink.types[id] == "booking.confirmed" {
				return n
			}
		}
		return 0
	}
	waitUntil := func(what string, ok func() bool) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		for !ok() {
			if ctx.Err() != nil {
				t.Fatalf("%s: not within 20 s", what)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	waitUntil("the confirmation delivered", func() bool { return confirmed() == 1 })

	b := newBrowser(t)
	b.signIn(ts.URL+"/host/login?lang=en", "host@example.com", "a long enough password", "#nav-events")
	b.do("open Events", chromedp.Click(chromedp.CSS("#nav-events")), chromedp.WaitVisible(chromedp.CSS("#events-ack-all")))
	types := b.eval(`[...document.querySelectorAll('tr[data-id] td:first-child')].map((td) => td.textContent).join(' ')`)
	if !strings.Contains(types, "booking.confirmed") {
		t.Errorf("unacknowledged events %q, want the confirmation", types)
	}
	if got := b.attr(`tr[data-id] a[href^="#bookings/"]`, "href"); got == "" {
		t.Error("an event does not link its booking")
	}
	b.do("acknowledge all", chromedp.Click(chromedp.CSS("#events-ack-all")), chromedp.WaitVisible(chromedp.CSS("#events-none")))
	feed := call(t, http.MethodGet, ts.URL+"/api/v1/host/demo/events?unacknowledged=true", nil, hostKey(t, ts, "demo"))
	if items := feed.data(t)["items"].([]any); len(items) != 0 {
		t.Errorf("%d events unacknowledged after acknowledging all", len(items))
	}

	b.do("the deliveries page", chromedp.Click(chromedp.CSS("#nav-webhooks")),
		chromedp.WaitVisible(chromedp.CSS("tr[data-id] button.deliveries")),
		chromedp.Click(chromedp.CSS("tr[data-id] button.deliveries")),
		chromedp.WaitVisible(chromedp.CSS("#replay-submit")),
		chromedp.Evaluate[chromedp.Void](`document.querySelector("#flash").textContent = ""`),
		chromedp.Click(chromedp.CSS("#replay-submit")),
		chromedp.Poll[chromedp.Void](`document.querySelector("#flash").textContent.startsWith("Deliveries due now: ")`))
	if flash := b.text("#flash"); flash == "Deliveries due now: 0" {
		t.Errorf("flash %q: nothing replayed", flash)
	}
	waitUntil("the confirmation delivered again", func() bool { return confirmed() == 2 })
	b.checkNoProblems()
}
