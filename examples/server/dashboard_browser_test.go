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
	"github.com/staykit/staykit/payment/paymenttest"
)

// requestedBooking makes a request-mode booking of demo-request through
// the public API, its card authorised: it waits for the host.
func requestedBooking(t *testing.T, ts *testServer, property, daysAhead, nights int) string {
	t.Helper()
	co := checkout(t, ts, "demo-request", property, daysAhead, nights, 2)
	if r := call(t, "POST", ts.URL+"/fakepay/intents/"+intentOf(str(co, "client_secret")), map[string]string{"card_number": paymenttest.CardSucceeds}, nil); r.Status != 200 {
		t.Fatalf("authorise: %d %s", r.Status, r.Raw)
	}
	token := str(co, "booking_token")
	r := call(t, "POST", ts.URL+"/api/v1/book/demo-request/booking/"+token+"/confirm", map[string]string{}, nil)
	if r.Status != 200 || str(r.data(t), "status") != "requested" {
		t.Fatalf("confirm: %d %s", r.Status, r.Raw)
	}
	return token
}

// TestBrowserHostDashboard is a host's session in the dashboard: a wrong
// password is refused; signed in, the host approves a request, blocks
// three days on the calendar and raises a price, and the guest page's
// quote changes; a forged cross-site POST changes nothing.
func TestBrowserHostDashboard(t *testing.T) {
	ts := startServer(t, nil)
	newHostUser(t, ts, "demo-request", "host@example.com", "a long enough password")
	property := propertyIDs(t, ts, "demo-request")[0]
	token := requestedBooking(t, ts, property, 30, 2)
	b := newBrowser(t)

	// The guest page's quote of a stay, before the price changes.
	b.do("open the guest page", chromedp.Navigate(ts.URL+"/?org=demo-request&lang=en"),
		chromedp.WaitVisible(chromedp.CSS(fmt.Sprintf(`[data-testid="property-%d"]`, property))))
	checkIn, checkOut := b.pickStay(property, 10, 2)
	before := b.amount("quote-total")

	b.do("a wrong password", chromedp.Navigate(ts.URL+"/host/login?lang=en"),
		chromedp.WaitVisible(chromedp.CSS("#email")),
		chromedp.SendKeys(chromedp.CSS("#email"), "host@example.com"),
		chromedp.SendKeys(chromedp.CSS("#password"), "not the password"),
		chromedp.Click(chromedp.CSS("#login")),
		chromedp.WaitVisible(chromedp.CSS("#login-error")))
	if got := b.text("#login-error"); got != "Wrong e-mail address or password." {
		t.Errorf("login error = %q", got)
	}
	b.do("sign in",
		chromedp.SendKeys(chromedp.CSS("#password"), "a long enough password"),
		chromedp.Click(chromedp.CSS("#login")),
		chromedp.WaitVisible(chromedp.CSS("#nav-bookings")))
	b.shot("1-today")

	row := fmt.Sprintf(`tr[data-token=%q]`, token)
	b.do("approve the request", chromedp.Click(chromedp.CSS("#nav-bookings")),
		chromedp.WaitVisible(chromedp.CSS(row+" button.approve")),
		chromedp.Click(chromedp.CSS(row+" button.approve")),
		chromedp.WaitVisible(chromedp.CSS(row+" button.cancel-refund")))
	if got := b.text(row + " .status"); got != "confirmed" {
		t.Errorf("status after approving = %q", got)
	}
	r := call(t, "GET", ts.URL+"/api/v1/book/demo-request/booking/"+token, nil, nil)
	if str(r.data(t), "status") != "confirmed" {
		t.Errorf("public status after approving: %s", r.Raw)
	}
	b.shot("2-approved")

	// Block three days six weeks ahead.
	paris, _ := time.LoadLocation("Europe/Paris")
	first := civil.Today(time.Now(), paris).AddDays(45)
	days := []string{first.String(), first.AddDays(1).String(), first.AddDays(2).String()}
	b.do("open the calendar", chromedp.Click(chromedp.CSS("#nav-calendar")), chromedp.WaitVisible(chromedp.CSS("#cal-grid .day")))
	b.showDay(days[2])
	b.showDay(days[0])
	for _, d := range days {
		b.showDay(d)
		b.do("select "+d, chromedp.Click(chromedp.CSS(`.day[data-date="`+d+`"]`)))
	}
	b.showDay(days[0])
	b.do("block", chromedp.Click(chromedp.CSS("#cal-block")), chromedp.WaitVisible(chromedp.CSS(`.day.closed[data-date="`+days[0]+`"]`)))
	b.showDay(days[2])
	if b.eval(`String(document.querySelector('.day[data-date="`+days[2]+`"]').classList.contains('closed'))`) != "true" {
		t.Errorf("%s not closed after blocking", days[2])
	}
	b.shot("3-blocked")
	pub := call(t, "GET", fmt.Sprintf("%s/api/v1/book/demo-request/properties/%d/availability?from=%s&months=1", ts.URL, property, days[1][:7]), nil, nil)
	if !strings.Contains(pub.Raw, `{"date":"`+days[1]+`","available":false`) {
		t.Errorf("public calendar shows %s available after the block", days[1])
	}

	// Raise the price of the guest's nights.
	b.do("back to this month", chromedp.Click(chromedp.CSS("#nav-calendar")), chromedp.WaitVisible(chromedp.CSS("#cal-grid .day")))
	for d := civil.MustParse(checkIn); d.Before(civil.MustParse(checkOut)); d = d.AddDays(1) {
		b.showDay(d.String())
		b.do("select "+d.String(), chromedp.Click(chromedp.CSS(`.day[data-date="`+d.String()+`"]`)))
	}
	b.do("set the price", chromedp.SendKeys(chromedp.CSS("#cal-price"), "999"), chromedp.Click(chromedp.CSS("#cal-set-price")),
		chromedp.WaitVisible(chromedp.CSS(`.day.override[data-date="`+checkIn+`"]`)))
	b.do("the guest page again", chromedp.Navigate(ts.URL+"/?org=demo-request&lang=en"),
		chromedp.WaitVisible(chromedp.CSS(fmt.Sprintf(`[data-testid="property-%d"]`, property))))
	in2, out2 := b.pickStay(property, 10, 2)
	if in2 != checkIn || out2 != checkOut {
		t.Fatalf("picked %s–%s, want %s–%s again", in2, out2, checkIn, checkOut)
	}
	after := b.amount("quote-total")
	if !after.GreaterThan(before) || !b.amount("quote-accommodation").Equal(dec(t, "1998")) {
		t.Errorf("quote total %s → %s, accommodation %s; want it raised to 2 × 999", before, after, b.amount("quote-accommodation"))
	}
	b.shot("4-guest-quote")

	// A forged POST from another origin: its form logs the host out
	// unless the server refuses it.
	evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<form id="f" method="post" action="%s/host/logout"></form><script>document.getElementById('f').submit()</script>`, ts.URL)
	}))
	defer evil.Close()
	b.do("visit the forging page", chromedp.Navigate(evil.URL), chromedp.Sleep(500*time.Millisecond),
		chromedp.WaitReady(chromedp.CSS("body")))
	if got := b.eval(`document.body.innerText`); !strings.Contains(strings.ToLower(got), "cross-origin") {
		t.Errorf("answer to the forged POST = %q, want the cross-origin refusal", got)
	}
	b.do("still signed in", chromedp.Navigate(ts.URL+"/host/?lang=en"), chromedp.WaitVisible(chromedp.CSS("#nav-bookings")))
	b.checkNoProblems()
}

// showDay moves the dashboard calendar to the month of date.
func (b *browser) showDay(date string) {
	b.t.Helper()
	for range 24 {
		if b.eval(`String(!!document.querySelector('.day[data-date="`+date+`"]'))`) == "true" {
			return
		}
		first := b.eval(`document.querySelector('#cal-grid .day').dataset.date`)
		btn := "#cal-next"
		if date < first {
			btn = "#cal-prev"
		}
		b.do("month toward "+date, chromedp.Click(chromedp.CSS(btn)),
			chromedp.Poll[chromedp.Void](`document.querySelector('#cal-grid .day') && document.querySelector('#cal-grid .day').dataset.date !== `+fmt.Sprintf("%q", first)))
	}
	b.t.Fatalf("no month of the calendar shows %s", date)
}
