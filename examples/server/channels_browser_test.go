package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserChannelsPage: on the Channels page a host sees the export URL
// to paste into the channels and adds a feed, which is fetched at once and
// listed with its status. The server's fetcher refuses a loopback feed
// (https and public addresses only), so the status shown is that error.
func TestBrowserChannelsPage(t *testing.T) {
	ts := startServer(t, nil)
	newHostUser(t, ts, "demo", "host@example.com", "a long enough password")
	feed := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n"))
	}))
	t.Cleanup(feed.Close)
	b := newBrowser(t)
	b.do("sign in", chromedp.Navigate(ts.URL+"/host/login?lang=en"),
		chromedp.WaitVisible(chromedp.CSS("#email")),
		chromedp.SendKeys(chromedp.CSS("#email"), "host@example.com"),
		chromedp.SendKeys(chromedp.CSS("#password"), "a long enough password"),
		chromedp.Click(chromedp.CSS("#login")),
		chromedp.WaitVisible(chromedp.CSS("#nav-channels")))
	b.do("open the Channels page", chromedp.Click(chromedp.CSS("#nav-channels")),
		chromedp.WaitVisible(chromedp.CSS("#export-url")))
	exportURL := b.eval(`document.querySelector("#export-url").value`)
	if !strings.HasPrefix(exportURL, ts.URL+"/ical/") || !strings.HasSuffix(exportURL, ".ics") {
		t.Errorf("export URL %q", exportURL)
	}
	if r, err := http.Get(exportURL); err != nil || r.StatusCode != 200 {
		t.Errorf("GET the export URL: %v %v", r, err)
	}
	b.do("add a feed",
		chromedp.SendKeys(chromedp.CSS("#feed-name"), "Airbnb"),
		chromedp.SendKeys(chromedp.CSS("#feed-url"), feed.URL+"/cal.ics"),
		chromedp.Click(chromedp.CSS("#feed-add")),
		chromedp.WaitVisible(chromedp.CSS("tr[data-id] .feed-status")))
	b.shot("channels")
	row := b.text("tr[data-id]")
	status := b.text("tr[data-id] .feed-status")
	if !strings.Contains(row, "Airbnb") || !strings.Contains(row, feed.URL) {
		t.Errorf("feed row %q", row)
	}
	if !strings.Contains(status, "Sync failed") || !strings.Contains(status, "only https feeds are fetched") {
		t.Errorf("feed status %q, want the refused loopback fetch", status)
	}
}
