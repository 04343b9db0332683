package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/staykit/staykit/civil"
)

// TestBrowserPlanning: the dashboard opens on the planning of every
// property. A booking is a bar with its guest's name that opens the
// booking; a channel's imported event is a bar named by its calendar; a
// host blocks a range of one property with two taps and the Block button,
// and prices a range of two properties at once; the host API's calendar
// then says the same.
func TestBrowserPlanning(t *testing.T) {
	paris, _ := time.LoadLocation("Europe/Paris")
	today := civil.Today(time.Now(), paris)
	// A channel's calendar with one stay, 10 to 13 days ahead.
	ev := func(d civil.Date) string { return fmt.Sprintf("%04d%02d%02d", d.Year, d.Month, d.Day) }
	ics := "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:airbnb-1@example.com\r\nDTSTART;VALUE=DATE:" + ev(today.AddDays(10)) +
		"\r\nDTEND;VALUE=DATE:" + ev(today.AddDays(13)) + "\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
	channel := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte(ics)) }))
	t.Cleanup(channel.Close)
	ts := startServer(t, nil, "-outbound-allow", strings.TrimPrefix(channel.URL, "http://"))
	newHostUser(t, ts, "demo-request", "host@example.com", "a long enough password")
	props := propertyIDs(t, ts, "demo-request")
	if len(props) < 2 {
		t.Fatalf("demo-request has %d properties; the test needs two", len(props))
	}
	requestedBooking(t, ts, props[0], 5, 2)
	key := hostKey(t, ts, "demo-request")
	if r := call(t, http.MethodPost, fmt.Sprintf("%s/api/v1/host/demo-request/properties/%d/feeds", ts.URL, props[1]),
		map[string]any{"name": "Airbnb", "url": channel.URL + "/cal.ics"}, key); r.Status != http.StatusCreated || num(r.data(t), "events_imported") != "1" {
		t.Fatalf("add the channel's calendar: %d %s", r.Status, r.Raw)
	}
	b := newBrowser(t)
	b.signIn(ts.URL+"/host/login?lang=en", "host@example.com", "a long enough password", "#planning .bar.booking")
	if got := b.eval(`location.hash + ' ' + document.querySelector('#nav button').id`); got != "#planning nav-planning" {
		t.Errorf("home = %q, want the planning, first in the menu", got)
	}
	// A head per day (28), each a date; no markup leaked as text.
	if got := b.eval(`String(document.querySelectorAll('#planning > .head').length)`); got != "28" {
		t.Errorf("%s day heads, want 28", got)
	}
	if got := b.text("#planning"); strings.Contains(got, "[object") {
		t.Errorf("the planning shows %q", got)
	}
	bar := `#planning .bar.booking.st-requested`
	if got := b.text(bar); got != "Ada Lovelace" {
		t.Errorf("the booking's bar says %q, want its guest", got)
	}
	if span := b.eval(`getComputedStyle(document.querySelector('` + bar + `')).gridColumnEnd`); span != "span 2" {
		t.Errorf("the bar spans %q, want the 2 nights", span)
	}
	channelBar := `#planning .bar.channel`
	if got := b.text(channelBar); got != "Airbnb" {
		t.Errorf("the channel's bar says %q, want the calendar's name", got)
	}
	if span := b.eval(`getComputedStyle(document.querySelector('` + channelBar + `')).gridColumnEnd`); span != "span 3" {
		t.Errorf("the channel's bar spans %q, want its 3 nights", span)
	}
	b.shot("1-planning")
	b.do("open the booking from its bar", chromedp.Click(chromedp.CSS(bar)), chromedp.WaitVisible(chromedp.CSS("#booking-title")))
	if got := b.eval(`location.hash`); !strings.HasPrefix(got, "#bookings/") {
		t.Errorf("the bar opened %q", got)
	}
	b.do("back to the planning", chromedp.NavigateBack(), chromedp.WaitVisible(chromedp.CSS("#planning .cell")))
	cell := func(p int, d civil.Date) string {
		return fmt.Sprintf(`#planning .cell[data-property="%d"][data-date="%s"]`, p, d)
	}
	// Block three nights of the first property: tap, tap, Block.
	start := today.AddDays(20)
	b.do("select three nights and block them",
		chromedp.Click(chromedp.CSS(cell(props[0], start))),
		chromedp.Click(chromedp.CSS(cell(props[0], start.AddDays(2)))),
		chromedp.WaitVisible(chromedp.CSS("#plan-actions")))
	if got := b.text("#plan-count"); got != "3 night(s) on 1 propert(y/ies)" {
		t.Errorf("selection = %q", got)
	}
	b.do("block", chromedp.Click(chromedp.CSS("#plan-block")), chromedp.WaitVisible(chromedp.CSS(cell(props[0], start)+".closed")))
	calendar := func(p int, from, to civil.Date) []map[string]any {
		r := call(t, http.MethodGet, fmt.Sprintf("%s/api/v1/host/demo-request/properties/%d/calendar?from=%s&to=%s", ts.URL, p, from, to), nil, key)
		var out []map[string]any
		for _, d := range r.data(t)["days"].([]any) {
			out = append(out, d.(map[string]any))
		}
		return out
	}
	for i, d := range calendar(props[0], start.AddDays(-1), start.AddDays(4)) {
		if want := i >= 1 && i <= 3; d["closed"] != want {
			t.Errorf("%s closed = %v, want %v", d["date"], d["closed"], want)
		}
	}

	// Price two nights on both properties: tap on the first, shift-click
	// on the second's next day.
	at := today.AddDays(24)
	b.do("select two nights on two properties", chromedp.Click(chromedp.CSS(cell(props[0], at))))
	b.eval(`(document.querySelector('` + cell(props[1], at.AddDays(1)) + `').dispatchEvent(new MouseEvent('click', { bubbles: true, shiftKey: true })), '')`)
	if got := b.text("#plan-count"); got != "4 night(s) on 2 propert(y/ies)" {
		t.Errorf("selection across properties = %q", got)
	}
	b.do("set the price", chromedp.SendKeys(chromedp.CSS("#plan-price"), "123"), chromedp.Click(chromedp.CSS("#plan-set-price")),
		chromedp.WaitVisible(chromedp.CSS(cell(props[1], at.AddDays(1))+`[data-amount="123"]`)))
	for _, p := range props[:2] {
		for _, d := range calendar(p, at, at.AddDays(2)) {
			if d["price"] != "123" || d["price_override"] != true {
				t.Errorf("property %d %s: price %v override %v, want 123 set", p, d["date"], d["price"], d["price_override"])
			}
		}
	}
	b.shot("2-after")
	b.checkNoProblems()
}
