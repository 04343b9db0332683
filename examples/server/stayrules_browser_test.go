package main

import (
	"fmt"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/staykit/staykit/civil"
)

// TestBrowserArrivalDayAndExtra: on demo-request's Villa des Pins, summer
// arrivals are on Saturdays only, so the calendar offers no other check-in
// day in July, and departures too, so once a July Saturday is picked only
// Saturdays are offered as its check-out; a guest books Saturday to Saturday, ticks the breakfast
// extra, and the page shows its line and the API's total for that stay.
func TestBrowserArrivalDayAndExtra(t *testing.T) {
	ts := startServer(t, nil)
	b := newBrowser(t)
	var property int64
	list, _ := call(t, http.MethodGet, ts.URL+"/api/v1/book/demo-request/properties", nil, nil).Body["data"].([]any)
	for _, item := range list {
		if p, _ := item.(map[string]any); str(p, "name") == "Villa des Pins" {
			n, _ := strconv.ParseInt(num(p, "id"), 10, 64)
			property = n
		}
	}
	if property == 0 {
		t.Fatal("demo-request has no Villa des Pins")
	}
	paris, _ := time.LoadLocation("Europe/Paris")
	today := civil.Today(time.Now(), paris)
	july := civil.Date{Year: today.Year + 1, Month: time.July, Day: 1}
	if today.Month < time.June {
		july.Year = today.Year
	}

	b.do("open the property",
		chromedp.Navigate(ts.URL+"/?org=demo-request"),
		chromedp.Click(chromedp.CSS(fmt.Sprintf(`[data-testid="property-%d"]`, property))),
		chromedp.WaitVisible(chromedp.CSS(`#calendar .day[data-check-in="true"]:not([aria-disabled="true"])`)),
	)
	mid := civil.Date{Year: july.Year, Month: time.July, Day: 15}.String()
	for i := 0; i < 14 && b.eval(`String(!!document.querySelector('[data-testid="day-`+mid+`"]'))`) != "true"; i++ {
		b.do("next month", chromedp.Click(chromedp.CSS("#cal-next")))
	}
	// Every July day the calendar offers as a check-in is a Saturday.
	offered := b.eval(fmt.Sprintf(`[...document.querySelectorAll('#calendar .day[data-check-in="true"]')]
		.map((d) => d.dataset.date).filter((d) => d.startsWith(%q)).join(',')`, fmt.Sprintf("%d-07", july.Year)))
	if offered == "" {
		b.shot("no-july-arrival")
		t.Fatal("no check-in day offered in July")
	}
	var saturday string
	for _, s := range splitComma(offered) {
		d := civil.MustParse(s)
		if d.Weekday() != time.Saturday {
			t.Errorf("%s (%s) offered as a check-in; summer arrivals are on Saturdays only", s, d.Weekday())
		}
		if saturday == "" && d.Day >= 4 {
			saturday = s
		}
	}
	monday := civil.MustParse(saturday).AddDays(2).String()
	if got := b.attr(`[data-testid="day-`+monday+`"]`, "aria-disabled"); got != "true" && b.attr(`[data-testid="day-`+monday+`"]`, "data-check-in") != "false" {
		t.Errorf("Monday %s is offered as a check-in", monday)
	}
	checkOut := civil.MustParse(saturday).AddDays(7).String()
	b.do("pick Saturday to Saturday",
		chromedp.Click(chromedp.CSS(`[data-testid="day-`+saturday+`"]`)),
	)
	if b.eval(`String(!!document.querySelector('[data-testid="day-`+checkOut+`"]'))`) != "true" {
		b.do("show the check-out month", chromedp.Click(chromedp.CSS("#cal-next")))
	}
	b.do("wait for the check-outs", chromedp.WaitVisible(chromedp.CSS(`[data-testid="day-`+checkOut+`"][data-check-out-ok="true"]`)))
	// A stay from that Saturday ends on a Saturday: no other day is offered
	// as its check-out, although stays from June may end on them.
	departures := splitComma(b.eval(`[...document.querySelectorAll('#calendar .day[data-check-out-ok="true"]')].map((d) => d.dataset.date).join(',')`))
	for _, s := range departures {
		if d := civil.MustParse(s); d.Weekday() != time.Saturday {
			t.Errorf("%s (%s) offered as the check-out of a stay from %s; summer departures are on Saturdays only", s, d.Weekday(), saturday)
		}
	}
	if len(departures) == 0 {
		t.Error("no check-out offered")
	}
	b.do("pick the check-out and breakfast",
		chromedp.Click(chromedp.CSS(`[data-testid="day-`+checkOut+`"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="quote-total"]`)),
		chromedp.Click(chromedp.CSS(`[data-testid="extra-breakfast"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="quote-fee-breakfast"]`)),
	)
	b.shot("extra-breakfast")
	q := call(t, http.MethodGet, fmt.Sprintf("%s/api/v1/book/demo-request/properties/%d/price?check_in=%s&check_out=%s&guests_count=2&extras=breakfast:1",
		ts.URL, property, saturday, checkOut), nil, nil).data(t)
	if got, want := b.amount("quote-total"), dec(t, num(q, "total_amount")); !got.Equal(want) {
		t.Errorf("total on the page = %s, API quote with breakfast = %s", got, want)
	}
	// Breakfast: 12 × 2 guests × 7 nights = 168.
	if got := b.text(`[data-testid="quote-fee-breakfast"] td`); got != "Petit-déjeuner" {
		t.Errorf("breakfast line label = %q, want Petit-déjeuner", got)
	}
	if got := b.amount("quote-fee-breakfast"); !got.Equal(dec(t, "168")) {
		t.Errorf("breakfast line = %s, want 168", got)
	}
	b.checkNoProblems()
}

func splitComma(s string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ',' {
			if i > start {
				out = append(out, s[start:i])
			}
			start = i + 1
		}
	}
	return out
}
