package main

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/staykit/staykit/civil"
)

// TestBrowserWidgetKeyboard embeds the widget in a host page and checks
// that it leaves the page's focus alone on load, and that its calendar is
// an ARIA grid a guest walks with the keyboard: one tab stop, arrows by a
// day and a week, Home/End to the week's ends, PageUp/PageDown by a
// month, turning the shown months when the day is outside them.
func TestBrowserWidgetKeyboard(t *testing.T) {
	var api string
	port := serveHostPage(t, &api)
	page := fmt.Sprintf("http://localhost:%d", port)
	ts := startServer(t, nil, "-seed", seedAllowing(t, page))
	api = ts.URL
	b := newBrowser(t)

	b.do("open the host page", chromedp.Navigate(page+"/"), chromedp.WaitVisible(shadow(`[data-testid="property-2"]`)))
	if got := b.eval(`document.activeElement === document.body ? 'body' : document.activeElement.tagName`); got != "body" {
		t.Errorf("focus after the widget loaded is on %s, want the page's (body)", got)
	}

	b.do("open the property",
		chromedp.Click(shadow(`[data-testid="property-2"]`)),
		chromedp.WaitVisible(shadow(`#calendar .day[data-check-in="true"]:not([aria-disabled="true"])`)),
	)
	if got := b.eval(`String(` + shadowJS + `.querySelectorAll('#calendar [role="grid"]').length)`); got != "2" {
		t.Errorf("month grids = %s, want 2 at 1280 px", got)
	}
	if got := b.eval(`String(` + shadowJS + `.querySelector('#calendar [role="grid"] [role="row"] [role="gridcell"] .day[data-date]') !== null)`); got != "true" {
		t.Error("a day is not in a gridcell of a row of the grid")
	}
	if got := b.eval(`String(` + shadowJS + `.querySelectorAll('#calendar [tabindex="0"]').length)`); got != "1" {
		t.Fatalf("calendar tab stops = %s, want 1", got)
	}
	start := b.eval(shadowJS + `.querySelector('#calendar [tabindex="0"]').dataset.date`)
	first := b.eval(shadowJS + `.querySelector('#calendar .day[data-check-in="true"]:not([aria-disabled="true"])').dataset.date`)
	if start != first {
		t.Errorf("the calendar's tab stop is %s, want the first day a stay can start (%s)", start, first)
	}
	b.eval(`(` + shadowJS + `.querySelector('#calendar [tabindex="0"]').focus(), '')`)

	d := civil.MustParse(start)
	monday := d.AddDays(-((int(d.Weekday()) + 6) % 7))
	steps := []struct {
		key  string
		name string
		want civil.Date
	}{
		{kb.ArrowRight, "ArrowRight", d.AddDays(1)},
		{kb.ArrowDown, "ArrowDown", d.AddDays(8)},
		{kb.ArrowLeft, "ArrowLeft", d.AddDays(7)},
		{kb.ArrowUp, "ArrowUp", d},
		{kb.Home, "Home", monday},
		{kb.End, "End", monday.AddDays(6)},
		{kb.PageDown, "PageDown", sameDayMonthsLater(monday.AddDays(6), 1)},
		{kb.PageDown, "PageDown again, beyond the two shown months", sameDayMonthsLater(monday.AddDays(6), 2)},
		{kb.PageUp, "PageUp", sameDayMonthsLater(monday.AddDays(6), 1)},
	}
	for _, s := range steps {
		b.do(s.name, chromedp.KeyEvent(s.key))
		got := b.eval(shadowJS + `.activeElement ? ` + shadowJS + `.activeElement.dataset.date || '' : ''`)
		if got != s.want.String() {
			t.Fatalf("after %s focus is on %q, want %s", s.name, got, s.want)
		}
		if n := b.eval(`String(` + shadowJS + `.querySelectorAll('#calendar [tabindex="0"]').length)`); n != "1" {
			t.Errorf("after %s the calendar has %s tab stops, want 1", s.name, n)
		}
	}

	// Enter on a day a stay can start on picks it; on one it cannot, nothing.
	pick := b.eval(shadowJS + `.querySelector('#calendar .day[data-check-in="true"]:not([aria-disabled="true"])').dataset.date`)
	b.eval(`(` + shadowJS + `.querySelector('[data-date="` + pick + `"]').focus(), '')`)
	b.do("press Enter on a check-in day",
		chromedp.KeyEvent(kb.Enter),
		chromedp.WaitVisible(shadow(`[data-date="`+pick+`"][aria-pressed="true"]`)),
	)
	if got := b.eval(`document.activeElement.tagName + ' ' + (` + shadowJS + `.activeElement || {dataset: {}}).dataset.date`); got != "STAYKIT-BOOKING "+pick {
		t.Errorf("focus after picking = %q, want the picked day %s", got, pick)
	}
	b.checkNoProblems()
}

// sameDayMonthsLater is d's day n months later, or that month's last day:
// where PageDown lands.
func sameDayMonthsLater(d civil.Date, n int) civil.Date {
	first := civil.Date{Year: d.Year, Month: d.Month, Day: 1}.AddMonths(n)
	last := first.AddMonths(1).AddDays(-1)
	if d.Day > last.Day {
		return last
	}
	return civil.Date{Year: first.Year, Month: first.Month, Day: d.Day}
}
