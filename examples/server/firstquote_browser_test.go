package main

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
)

// firstQuoteJS is a guest who clicks as soon as they can: from the page's
// start it waits for the property card, opens it, picks the first
// check-in day offered and the first check-out day offered after it, and
// waits for the quote. It returns, in milliseconds since the navigation
// started (performance.now()), when each was on screen, and when
// /widget.js had arrived (0 on the booking page). %s is the root the
// page's elements are in.
const firstQuoteJS = `(async () => {
	const root = () => %s;
	const until = (what, f) => new Promise((resolve, reject) => {
		const start = performance.now();
		const tick = () => {
			const v = root() && f();
			if (v) return resolve(v);
			if (performance.now() - start > 15000) return reject(new Error('no ' + what));
			setTimeout(tick, 2);
		};
		tick();
	});
	const marks = {};
	const card = await until('property', () => root().querySelector('[data-testid="property-2"]'));
	marks.properties_ms = performance.now();
	card.click();
	const free = () => [...root().querySelectorAll('#calendar .day[data-check-in="true"]:not([aria-disabled="true"])')][0];
	await until('calendar', () => root().querySelector('#calendar .day'));
	for (let months = 0; !free() && months < 12; months++) {
		root().querySelector('#cal-next').click();
		await until('next month', () => true);
	}
	const checkIn = await until('check-in day', free);
	marks.calendar_ms = performance.now();
	checkIn.click();
	const out = () => root().querySelector('#calendar .day[data-check-out-ok="true"]:not([aria-disabled="true"])');
	if (!out()) root().querySelector('#cal-next').click();
	const checkOut = await until('check-out day', out);
	marks.dates_picked_ms = performance.now();
	checkOut.click();
	await until('quote', () => root().querySelector('[data-testid="quote-total"] .amt'));
	marks.first_quote_ms = performance.now();
	const script = performance.getEntriesByType('resource').find((e) => e.name.endsWith('/widget.js'));
	marks.widget_js_ms = script ? script.responseEnd : 0;
	return JSON.stringify(marks);
})()`

// TestBrowserTimeToFirstQuote measures, on the reference server with the
// demo, the time from opening the booking page (and a page of another
// site embedding the widget) to the first quote on screen, a guest
// clicking as soon as each step allows. The figures are logged, never
// asserted (speed is measured, not asserted in tests: README "Speed");
// only their order is checked. go test -v -run TestBrowserTimeToFirstQuote
// ./examples/server prints them.
func TestBrowserTimeToFirstQuote(t *testing.T) {
	var api string
	port := serveHostPage(t, &api)
	allowed := fmt.Sprintf("http://localhost:%d", port)
	ts := startServer(t, nil, "-seed", seedAllowing(t, allowed))
	api = ts.URL
	for _, tc := range []struct {
		name, url, root string
	}{
		{"booking page", ts.URL + "/?org=demo&lang=en", "document"},
		{"widget", allowed + "/", shadowJS},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newBrowser(t)
			b.do("open the page", chromedp.Navigate(tc.url))
			ctx, cancel := context.WithTimeout(b.ctx, stepTimeout)
			defer cancel()
			raw, err := chromedp.Run(ctx, chromedp.Evaluate[string](fmt.Sprintf(firstQuoteJS, tc.root), chromedp.EvalAwaitPromise))
			if err != nil {
				b.shot("failed-first-quote")
				t.Fatalf("first quote: %v", err)
			}
			var m struct {
				Properties float64 `json:"properties_ms"`
				Calendar   float64 `json:"calendar_ms"`
				Picked     float64 `json:"dates_picked_ms"`
				Quote      float64 `json:"first_quote_ms"`
				Script     float64 `json:"widget_js_ms"`
			}
			if err := json.Unmarshal([]byte(raw), &m); err != nil {
				t.Fatalf("marks %q: %v", raw, err)
			}
			t.Logf("%s: first quote at %.0f ms (properties %.0f, calendar %.0f, quote %.0f after the check-out click; widget.js in at %.0f)",
				tc.name, m.Quote, m.Properties, m.Calendar, m.Quote-m.Picked, m.Script)
			if !(0 < m.Properties && m.Properties <= m.Calendar && m.Calendar <= m.Picked && m.Picked < m.Quote) {
				t.Errorf("marks out of order: %+v", m)
			}
			if (m.Script > 0) != (tc.name == "widget") {
				t.Errorf("widget.js loaded at %.0f ms on the %s", m.Script, tc.name)
			}
			b.checkNoProblems()
		})
	}
}
