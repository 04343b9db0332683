package main

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/staykit/staykit/civil"
)

// TestBrowserRatesEditor: a host sets up a property's prices in the
// dashboard — weekend nights, a season, a weekly discount, a minimum
// stay — sees the nightly prices and a sample quote change before saving,
// saves, and the host API and the guest's quote then say the same.
func TestBrowserRatesEditor(t *testing.T) {
	ts := startServer(t, nil)
	newHostUser(t, ts, "demo", "host@example.com", "a long enough password")
	key := hostKey(t, ts, "demo")
	// A property of its own: the base rate and nothing else.
	created := call(t, http.MethodPost, ts.URL+"/api/v1/host/demo/properties", map[string]any{
		"name": "Gîte des tests", "max_guests": 4, "rates": map[string]any{"base_rate": "100"}}, key)
	if created.Status != http.StatusCreated {
		t.Fatalf("create property: %d %s", created.Status, created.Raw)
	}
	id := num(created.data(t), "id")

	b := newBrowser(t)
	b.do("sign in on the property's page", chromedp.Navigate(ts.URL+"/host/#properties/"+id),
		chromedp.WaitVisible(chromedp.CSS("#email")),
		chromedp.SendKeys(chromedp.CSS("#email"), "host@example.com"),
		chromedp.SendKeys(chromedp.CSS("#password"), "a long enough password"),
		chromedp.Click(chromedp.CSS("#login")),
		chromedp.WaitVisible(chromedp.CSS("#preview-nights .night")))

	// nightPrices is the preview's date → price once it shows want for
	// the first night (the preview follows the form a moment later).
	nightPrices := func(step, first string) map[string]string {
		t.Helper()
		b.do(step, chromedp.WaitVisible(chromedp.CSS(fmt.Sprintf(`#preview-nights .night[data-amount=%q]`, first))))
		pairs := b.eval(`[...document.querySelectorAll('#preview-nights .night')].map((n) => n.dataset.date + '=' + n.dataset.amount).join(' ')`)
		out := map[string]string{}
		for _, p := range strings.Fields(pairs) {
			d, a, _ := strings.Cut(p, "=")
			out[d] = a
		}
		if len(out) != 28 {
			t.Fatalf("%s: %d nights in the preview, want 28", step, len(out))
		}
		return out
	}
	paris, _ := time.LoadLocation("Europe/Paris")
	today := civil.Today(time.Now(), paris)
	first := nightPrices("the base rate", "100")
	for d, price := range first {
		if price != "100" {
			t.Errorf("night %s at %s before any change, want the base rate 100", d, price)
		}
	}

	// Weekend nights at 150, a season at 200 over the 15th to 17th night
	// from today, 10 % off a week, at least 2 nights.
	seasonStart, seasonEnd := today.AddDays(14), today.AddDays(16)
	b.do("weekend, season, discount, minimum stay",
		clearInput("#rate-weekend"), chromedp.SendKeys(chromedp.CSS("#rate-weekend"), "150"),
		clearInput("#rate-weekly"), chromedp.SendKeys(chromedp.CSS("#rate-weekly"), "10"),
		clearInput("#prop-min-stay"), chromedp.SendKeys(chromedp.CSS("#prop-min-stay"), "2"),
		chromedp.Click(chromedp.CSS("#season-add")),
		chromedp.SendKeys(chromedp.CSS("tr.season:last-child .season-name"), "Test season"),
		setDate("tr.season:last-child .season-start", seasonStart.String()),
		setDate("tr.season:last-child .season-end", seasonEnd.String()),
		chromedp.SendKeys(chromedp.CSS("tr.season:last-child .season-rate"), "200"),
	)
	want := func(d civil.Date) string {
		switch {
		case !d.Before(seasonStart) && !d.After(seasonEnd):
			return "200"
		case d.Weekday() == time.Friday || d.Weekday() == time.Saturday:
			return "150"
		}
		return "100"
	}
	// Wait for the season's price to show, then check every night.
	b.do("the preview follows", chromedp.WaitVisible(chromedp.CSS(fmt.Sprintf(`#preview-nights .night[data-date=%q][data-amount="200"]`, seasonStart))))
	after := nightPrices("the new prices", want(today))
	for i := 0; i < 28; i++ {
		d := today.AddDays(i)
		if got := after[d.String()]; got != want(d) {
			t.Errorf("preview night %s (%s) = %s, want %s", d, d.Weekday(), got, want(d))
		}
	}
	// The sample quote: a week from the season's first night (3 nights of
	// season, 4 others), 10 % off.
	b.do("a week's sample stay",
		setDate("#sample-check-in", seasonStart.String()),
		setDate("#sample-check-out", seasonStart.AddDays(7).String()),
		chromedp.WaitVisible(chromedp.CSS("#preview-quote tr.q-discount")))
	var accommodation int
	for i := 0; i < 7; i++ {
		var n int
		fmt.Sscan(want(seasonStart.AddDays(i)), &n)
		accommodation += n
	}
	if got := b.attr("#preview-quote tr.q-accommodation td", "data-amount"); got != fmt.Sprint(accommodation) {
		t.Errorf("sample accommodation = %s, want %d", got, accommodation)
	}
	if got := b.attr("#preview-quote tr.q-discount td", "data-amount"); got != fmt.Sprintf("-%d", accommodation/10) && got != fmt.Sprintf("-%d.%d", accommodation/10, accommodation%10) {
		t.Errorf("sample weekly discount = %s, want 10 %% of %d", got, accommodation)
	}
	b.shot("preview")

	// Nothing is saved until the host saves.
	if p := call(t, http.MethodGet, ts.URL+"/api/v1/host/demo/properties/"+id, nil, key).data(t); p["rates"].(map[string]any)["weekend_rate"] != nil {
		t.Errorf("the weekend rate was saved before saving: %v", p["rates"])
	}
	// A French registration number (Regulation (EU) 2024/1028), stored in
	// its canonical form since the property is in France.
	b.do("country and registration number",
		chromedp.SendKeys(chromedp.CSS("#prop-country"), "fr"),
		chromedp.SendKeys(chromedp.CSS("#prop-registration-number"), "75056 123456 ab"))
	b.do("save", chromedp.Click(chromedp.CSS("#property-save")), chromedp.WaitVisible(chromedp.CSS("#flash.ok")))
	p := call(t, http.MethodGet, ts.URL+"/api/v1/host/demo/properties/"+id, nil, key).data(t)
	rates := p["rates"].(map[string]any)
	seasons, _ := rates["seasons"].([]any)
	if rates["weekend_rate"] != "150" || rates["weekly_discount_percent"] != "10" || num(p, "min_stay_nights") != "2" || len(seasons) != 1 ||
		seasons[0].(map[string]any)["start"] != seasonStart.String() || seasons[0].(map[string]any)["rate"] != "200" {
		t.Errorf("saved property = min stay %v, rates %v", p["min_stay_nights"], rates)
	}
	if p["country"] != "FR" || p["registration_number"] != "75056123456AB" {
		t.Errorf("saved country %v, registration number %v; want FR and 75056123456AB", p["country"], p["registration_number"])
	}
	// The guest's quote of the sample week says what the preview said.
	q := call(t, http.MethodGet, fmt.Sprintf("%s/api/v1/book/demo/properties/%s/price?check_in=%s&check_out=%s&guests_count=2",
		ts.URL, id, seasonStart, seasonStart.AddDays(7)), nil, nil)
	if q.Status != http.StatusOK || !dec(t, num(q.data(t), "accommodation")).Equal(dec(t, fmt.Sprint(accommodation))) {
		t.Errorf("the guest's quote: %d %s, want accommodation %d", q.Status, q.Raw, accommodation)
	}

	// The guest sees the number on the booking page.
	b.do("the booking page", chromedp.Navigate(ts.URL+"/?org=demo&lang=en&property="+id),
		chromedp.WaitVisible(chromedp.CSS("#property-registration")))
	if got := b.text("#property-registration"); !strings.Contains(got, "75056123456AB") {
		t.Errorf("booking page registration = %q", got)
	}
	b.do("back to the property's page", chromedp.Navigate(ts.URL+"/host/#properties/"+id), chromedp.WaitVisible(chromedp.CSS("#preview-nights .night")))
	// A wrong French number is refused with a reason, and nothing saved.
	b.do("a wrong number", clearInput("#prop-registration-number"), chromedp.SendKeys(chromedp.CSS("#prop-registration-number"), "123"),
		chromedp.Click(chromedp.CSS("#property-save")), chromedp.WaitVisible(chromedp.CSS("#flash.error")))
	if got := b.text("#flash"); !strings.Contains(got, "registration_number") {
		t.Errorf("refusal = %q, want it to name the registration number", got)
	}
	if p := call(t, http.MethodGet, ts.URL+"/api/v1/host/demo/properties/"+id, nil, key).data(t); p["registration_number"] != "75056123456AB" {
		t.Errorf("after a refused save the number is %v", p["registration_number"])
	}

	// On a phone, the editor fits the screen.
	b.do("on a phone", chromedp.EmulateViewport(390, 844), chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("#preview-nights .night")))
	if got := b.eval(`String(document.documentElement.scrollWidth - window.innerWidth)`); got != "0" {
		t.Errorf("390 px: the property page is %s px wider than the screen", got)
	}
	b.shot("phone")
	b.checkNoProblems()
}

// setDate sets a date input's value as a picker would, and tells the page.
func setDate(sel, value string) chromedp.Action[chromedp.Void] {
	return chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => {
		const i = document.querySelector(%q);
		i.value = %q;
		i.dispatchEvent(new Event('input', { bubbles: true }));
		i.dispatchEvent(new Event('change', { bubbles: true }));
	})()`, sel, value))
}
