package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/staykit/staykit/outbox"
)

// TestBrowserChannelsPage: on the Channels page a host sees the export URL
// to paste into the channels and adds a feed, which is fetched at once and
// listed with its status. The server allows the test's feed server
// (-outbound-allow), as an operator allows a channel manager on the LAN:
// a feed there imports; one that is not a calendar is added with its
// error said in words; a URL the server refuses (plain http elsewhere) is
// not added, and the host reads why rather than "Saved.".
func TestBrowserChannelsPage(t *testing.T) {
	feed := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/maintenance.html" {
			w.Write([]byte("<html><body>Maintenance</body></html>"))
			return
		}
		w.Write([]byte("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:a@airbnb.com\r\nDTSTART;VALUE=DATE:20300110\r\n" +
			"DTEND;VALUE=DATE:20300112\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"))
	}))
	t.Cleanup(feed.Close)
	ts := startServer(t, nil, "-outbound-allow", strings.TrimPrefix(feed.URL, "http://"))
	newHostUser(t, ts, "demo", "host@example.com", "a long enough password")
	b := newBrowser(t)
	b.signIn(ts.URL+"/host/login?lang=en", "host@example.com", "a long enough password", "#nav-channels")
	b.do("open the Channels page", chromedp.Click(chromedp.CSS("#nav-channels")),
		chromedp.WaitVisible(chromedp.CSS("#export-url")))
	exportURL := b.eval(`document.querySelector("#export-url").value`)
	if !strings.HasPrefix(exportURL, ts.URL+"/ical/") || !strings.HasSuffix(exportURL, ".ics") {
		t.Errorf("export URL %q", exportURL)
	}
	if r, err := http.Get(exportURL); err != nil || r.StatusCode != 200 {
		t.Errorf("GET the export URL: %v %v", r, err)
	}
	// Each added feed redraws the page, with an empty form.
	add := func(step, name, url string) {
		b.do(step,
			chromedp.SendKeys(chromedp.CSS("#feed-name"), name),
			chromedp.SendKeys(chromedp.CSS("#feed-url"), url),
			chromedp.Evaluate[chromedp.Void](`document.querySelector("#flash").textContent = ""`),
			chromedp.Click(chromedp.CSS("#feed-add")),
			chromedp.Poll[chromedp.Void](`document.querySelector("#flash").textContent !== ""`))
	}
	add("add a feed on the allowed host", "Airbnb", feed.URL+"/cal.ics")
	b.shot("channels")
	if flash := b.text("#flash"); flash != "1 imported" {
		t.Errorf("flash after adding a good feed: %q, want the events imported", flash)
	}
	row := b.text("tr[data-id]")
	if !strings.Contains(row, "Airbnb") || !strings.Contains(row, feed.URL) || b.text("tr[data-id] .feed-status") != "OK" {
		t.Errorf("feed row %q", row)
	}
	// Its exposure window: 15 minutes of polling and 1.5 of jitter, the
	// hour of export delay of a channel not recognised, the seconds
	// since its sync.
	exposure := regexp.MustCompile(`^1 h 1[78] min$`)
	if got := b.text("tr[data-id] .feed-exposure"); !exposure.MatchString(got) {
		t.Errorf("feed exposure %q, want about 1 h 17 min", got)
	}
	if got := b.text("#property-exposure"); !strings.HasPrefix(got, "The property's exposure window: 1 h 1") {
		t.Errorf("property exposure %q", got)
	}
	if got := b.text("tr[data-id] .feed-last-change"); got != "+1 / −0" {
		t.Errorf("last sync's changes %q, want +1 / −0", got)
	}

	add("add a web page instead of a calendar", "Vrbo", feed.URL+"/maintenance.html")
	if flash := b.text("#flash"); !strings.HasPrefix(flash, "Calendar added, but reading it failed:") ||
		!strings.Contains(flash, "does not serve a calendar") || b.attr("#flash", "class") != "error" {
		t.Errorf("flash after adding a page that is not a calendar: %q", flash)
	}

	add("add a refused feed", "Booking.com", "http://127.0.0.1:9/cal.ics")
	if flash := b.text("#flash"); !strings.Contains(flash, "Enter the https:// address") || strings.Contains(flash, "Saved") {
		t.Errorf("flash after adding a refused feed: %q, want why", flash)
	}
	if n := b.eval(`String(document.querySelectorAll("tr[data-id]").length)`); n != "2" {
		t.Errorf("%s feeds listed, want the 2 added", n)
	}
	// The feed that never read: its window, and so the property's, is
	// unknown.
	if got := b.text("#property-exposure"); got != "The property's exposure window: unknown (never synced)" {
		t.Errorf("property exposure with a feed never synced %q", got)
	}
	// The host sets the Airbnb feed's export delay: 30 minutes.
	// One script finds the field, sets it and tells the page: the list
	// may be redrawn between two steps of the browser.
	b.do("set an export delay",
		chromedp.Poll[chromedp.Void](`(() => {
			const input = document.querySelector("tr[data-id] .feed-delay");
			if (!input) return false;
			document.querySelector("#flash").textContent = "";
			input.value = "30";
			input.dispatchEvent(new Event("change"));
			return true;
		})()`),
		chromedp.Poll[chromedp.Void](`document.querySelector("#flash").textContent !== ""`))
	if got := b.text("tr[data-id] .feed-exposure"); !regexp.MustCompile(`^4[78] min$`).MatchString(got) {
		t.Errorf("feed exposure with 30 minutes of export delay %q, want about 47 min", got)
	}

	// The same-day close-out: the Vrbo feed never read, so the property's
	// window is unknown and, under a threshold, arrivals today close.
	property := propertyIDs(t, ts, "demo")[0]
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	today := time.Now().In(paris)
	price := fmt.Sprintf("%s/api/v1/book/demo/properties/%d/price?check_in=%s&check_out=%s", ts.URL, property,
		today.Format(time.DateOnly), today.AddDate(0, 0, 2).Format(time.DateOnly))
	if r := call(t, "GET", price, nil, nil); r.Status != http.StatusOK {
		t.Fatalf("today's quote before any close-out: %d %s", r.Status, r.Raw)
	}
	if b.visible("#closeout-state") {
		t.Error("the page says arrivals are closed before any threshold")
	}
	b.do("close arrivals today over an hour of exposure",
		chromedp.SetValue(chromedp.CSS("#closeout-minutes"), "60"),
		chromedp.Click(chromedp.CSS("#closeout-save")),
		chromedp.WaitVisible(chromedp.CSS("#closeout-state")))
	if r := call(t, "GET", price, nil, nil); r.Status != http.StatusUnprocessableEntity || r.Body["code"] != "unavailable" {
		t.Errorf("today's quote under the close-out: %d %s, want 422 unavailable", r.Status, r.Raw)
	}
	tomorrow := fmt.Sprintf("%s/api/v1/book/demo/properties/%d/price?check_in=%s&check_out=%s", ts.URL, property,
		today.AddDate(0, 0, 1).Format(time.DateOnly), today.AddDate(0, 0, 3).Format(time.DateOnly))
	if r := call(t, "GET", tomorrow, nil, nil); r.Status != http.StatusOK {
		t.Errorf("tomorrow's quote under the close-out: %d %s", r.Status, r.Raw)
	}
	b.do("remove the close-out",
		chromedp.SetValue(chromedp.CSS("#closeout-minutes"), ""),
		chromedp.Click(chromedp.CSS("#closeout-save")),
		chromedp.Poll[chromedp.Void](`!document.querySelector("#closeout-state") && document.querySelector("#closeout-minutes") && document.querySelector("#closeout-minutes").value === ""`))
	if r := call(t, "GET", price, nil, nil); r.Status != http.StatusOK {
		t.Errorf("today's quote after the close-out was removed: %d %s", r.Status, r.Raw)
	}
	b.checkNoProblems()
}

// TestBrowserWebhooksPausedEndpoint: an endpoint staykit paused shows as
// such on the Webhooks page, with a notice, and the host resumes it with
// a replay from there.
func TestBrowserWebhooksPausedEndpoint(t *testing.T) {
	ts := startServer(t, nil, "-webhooks-allow-private")
	newHostUser(t, ts, "demo", "host@example.com", "a long enough password")
	r := call(t, http.MethodPost, ts.URL+"/api/v1/host/demo/webhooks", map[string]any{"url": "http://127.0.0.1:9/hook"}, hostKey(t, ts, "demo"))
	if r.Status != http.StatusCreated {
		t.Fatalf("create the endpoint: %d %s", r.Status, r.Raw)
	}
	id, _ := r.data(t)["id"].(json.Number).Int64()
	// Its attempts fail for an hour: the outbox pauses it.
	first := time.Now().Add(-2 * time.Hour)
	for i := range outbox.PauseFailures {
		at := first.Add(time.Duration(i) * outbox.PauseSpan / (outbox.PauseFailures - 1))
		if _, _, err := ts.srv.back.Store.RecordWebhookAttempt(t.Context(), id, false, at); err != nil {
			t.Fatal(err)
		}
	}
	b := newBrowser(t)
	b.signIn(ts.URL+"/host/login?lang=en", "host@example.com", "a long enough password", "#nav-webhooks")
	b.do("open the Webhooks page", chromedp.Click(chromedp.CSS("#nav-webhooks")),
		chromedp.WaitVisible(chromedp.CSS("tr[data-id] .webhook-state")))
	b.shot("webhooks-paused")
	if state := b.text("tr[data-id] .webhook-state"); !strings.HasPrefix(state, "Paused since") || !strings.Contains(state, "10 failures in a row") {
		t.Errorf("state of the paused endpoint %q", state)
	}
	if notice := b.text("#paused-notice"); !strings.Contains(notice, "paused") {
		t.Errorf("notice %q", notice)
	}
	b.do("resume and replay", chromedp.Click(chromedp.CSS("tr[data-id] .resume-replay")),
		chromedp.Poll[chromedp.Void](`document.querySelector("#flash").textContent.startsWith("Resumed")`),
		chromedp.WaitVisible(chromedp.CSS("tr[data-id] .webhook-state")))
	if state := b.text("tr[data-id] .webhook-state"); state != "Running" {
		t.Errorf("state after the resume %q, want Running", state)
	}
	if n := b.eval(`String(document.querySelectorAll("#paused-notice, tr[data-id] .resume").length)`); n != "0" {
		t.Errorf("the notice or resume buttons stay after the resume (%s)", n)
	}
	b.checkNoProblems()
}
