package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/staykit/staykit/payment/paymenttest"
)

// paidStay books a stay of demo through the public API and pays it with
// the test card: a confirmed booking, its money received now.
func paidStay(t *testing.T, ts *testServer, property, daysAhead, nights int) {
	t.Helper()
	co := checkout(t, ts, "demo", property, daysAhead, nights, 2)
	if r := call(t, "POST", ts.URL+"/fakepay/intents/"+intentOf(str(co, "client_secret")), map[string]string{"card_number": paymenttest.CardSucceeds}, nil); r.Status != 200 {
		t.Fatalf("pay: %d %s", r.Status, r.Raw)
	}
	r := call(t, "POST", ts.URL+"/api/v1/book/demo/booking/"+str(co, "booking_token")+"/confirm", map[string]string{}, nil)
	if r.Status != 200 || str(r.data(t), "status") != "confirmed" {
		t.Fatalf("confirm: %d %s", r.Status, r.Raw)
	}
}

// TestBrowserDashboardReports: a host opens Reports at 390 and 1280 px
// and sees this month's revenue and occupancy as charts whose bars are
// the host API's figures, the totals, a table per property and the
// taxes' CSV, with nothing running off the screen sideways.
func TestBrowserDashboardReports(t *testing.T) {
	ts := startServer(t, nil)
	newHostUser(t, ts, "demo", "host@example.com", "a long enough password")
	props := propertyIDs(t, ts, "demo")
	paidStay(t, ts, props[0], 1, 2)
	paidStay(t, ts, props[len(props)-1], 3, 3)

	// The figures, as a script reads them with an API key.
	r := call(t, http.MethodGet, ts.URL+"/api/v1/host/demo/reports/monthly", nil, hostKey(t, ts, "demo"))
	if r.Status != http.StatusOK {
		t.Fatalf("monthly report: %d %s", r.Status, r.Raw)
	}
	var rep struct {
		Months []struct {
			Month     string  `json:"month"`
			Booked    string  `json:"revenue_booked"`
			Collected string  `json:"revenue_collected"`
			Occupancy *string `json:"occupancy_percent"`
		} `json:"months"`
		Total struct {
			Booked    string `json:"revenue_booked"`
			Collected string `json:"revenue_collected"`
		} `json:"total"`
	}
	raw, _ := json.Marshal(r.data(t))
	if err := json.Unmarshal(raw, &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Months) != 12 || dec(t, rep.Total.Collected).Sign() <= 0 {
		t.Fatalf("report = %+v, want 12 months with money collected", rep)
	}

	b := newBrowser(t)
	b.signIn(ts.URL+"/host/login?lang=en", "host@example.com", "a long enough password", "#nav-reports")

	for _, width := range []int64{390, 1280} {
		b.do(fmt.Sprint("viewport ", width), chromedp.EmulateViewport(width, 844))
		b.do("open reports", chromedp.Click(chromedp.CSS("#nav-bookings")), chromedp.WaitVisible(chromedp.CSS("#nav-bookings.current")),
			chromedp.Click(chromedp.CSS("#nav-reports")), chromedp.WaitVisible(chromedp.CSS("#revenue-chart")),
			chromedp.WaitVisible(chromedp.CSS("#taxes-csv")))
		if got := b.eval(`String(document.documentElement.scrollWidth - window.innerWidth)`); got != "0" {
			t.Errorf("%d px: the page is %s px wider than the screen", width, got)
		}
		if got := b.eval(`String(document.querySelector('#revenue-chart').getBoundingClientRect().right <= window.innerWidth)`); got != "true" {
			t.Errorf("%d px: the revenue chart runs off the screen", width)
		}
		b.shot(fmt.Sprintf("%d-reports", width))

		// Each bar is the API's figure of its month and series.
		for _, m := range rep.Months {
			for series, want := range map[string]string{"booked": m.Booked, "collected": m.Collected} {
				sel := fmt.Sprintf(`#revenue-chart rect[data-month=%q][data-series=%q]`, m.Month, series)
				if got := b.attr(sel, "data-amount"); got != want {
					t.Errorf("%d px: %s bar of %s = %q, want %s", width, series, m.Month, got, want)
				}
			}
			occ := ""
			if m.Occupancy != nil {
				occ = *m.Occupancy
			}
			if got := b.attr(fmt.Sprintf(`#occupancy-chart rect[data-month=%q]`, m.Month), "data-amount"); got != occ {
				t.Errorf("%d px: occupancy bar of %s = %q, want %q", width, m.Month, got, occ)
			}
		}
		// The bars are drawn to one scale: height / amount is the same
		// for every bar above zero, a bar of zero has no height, and the
		// tallest fits in the chart.
		check := b.eval(`(() => {
			for (const id of ["revenue-chart", "occupancy-chart"]) {
				const svg = document.getElementById(id);
				const bars = [...svg.querySelectorAll("rect")];
				const scales = bars.filter((r) => Number(r.dataset.amount) > 0).map((r) => Number(r.getAttribute("height")) / Number(r.dataset.amount));
				if (!scales.length) return id + ": no bar above zero";
				const s0 = scales[0];
				if (scales.some((s) => Math.abs(s - s0) > s0 * 0.02 + 0.02)) return id + ": bars of different scales " + scales.join(",");
				const flat = bars.filter((r) => Number(r.dataset.amount || 0) === 0 && Number(r.getAttribute("height")) !== 0);
				if (flat.length) return id + ": a bar of zero has a height";
				if (bars.some((r) => Number(r.getAttribute("y")) < 0 || Number(r.getAttribute("y")) + Number(r.getAttribute("height")) > Number(svg.getAttribute("height")))) return id + ": a bar leaves the chart";
			}
			return "ok";
		})()`)
		if check != "ok" {
			t.Errorf("%d px: %s", width, check)
		}
		// This month's bar is the tallest collected bar, the money paid now.
		this := rep.Months[len(rep.Months)-1]
		if h := b.attr(fmt.Sprintf(`#revenue-chart rect[data-month=%q][data-series="collected"]`, this.Month), "height"); dec(t, h).Sign() <= 0 {
			t.Errorf("%d px: this month's collected bar has height %s", width, h)
		}
	}

	// The totals, written for people from the exact amounts.
	if got := b.attr("#kpi-booked .money", "data-amount"); got != rep.Total.Booked {
		t.Errorf("revenue booked card = %s, want %s", got, rep.Total.Booked)
	}
	if shown := b.text("#kpi-collected .money"); !strings.HasPrefix(shown, "€") ||
		!dec(t, strings.NewReplacer("€", "", ",", "").Replace(shown)).Equal(dec(t, rep.Total.Collected)) {
		t.Errorf("collected card shows %q, want %s in euros", shown, rep.Total.Collected)
	}
	// A table per property, with the months and a total.
	if got := b.eval(`String(document.querySelectorAll('.report-property').length)`); got != fmt.Sprint(len(props)) {
		t.Errorf("%s property tables, want %d", got, len(props))
	}
	// The CSV link downloads the taxes with the session.
	csv, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`fetch(document.getElementById("taxes-csv").href).then((r) => r.text())`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(csv, "month,property_id,property,tax,label,inclusive,amount,currency") {
		t.Errorf("CSV = %q, want the taxes' header first", csv)
	}
	// And the declarations: tourist tax per municipality, VAT per rate.
	for id, header := range map[string]string{
		"tourist-tax-csv": "month,country,municipality_code,postal_code,city,stays,nights,arrivals,guests,exempt_guests,guest_nights,exempt_guest_nights,amount,currency",
		"vat-csv":         "month,tax,label,rate,inclusive,base,amount,currency",
	} {
		got, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](fmt.Sprintf(`fetch(document.getElementById(%q).href).then((r) => r.text())`, id), chromedp.EvalAwaitPromise))
		if err != nil || !strings.HasPrefix(got, header+"\n") {
			t.Errorf("%s downloads %q (%v), want its header first", id, got, err)
		}
	}
	// The address names the view: a reload stays on Reports.
	b.do("reload", chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("#revenue-chart")))

	// In French: the words, and the amounts as French write them.
	b.do("french", chromedp.EmulateViewport(390, 844), chromedp.Navigate(ts.URL+"/host/?lang=fr#reports"),
		chromedp.WaitVisible(chromedp.CSS("#revenue-chart")))
	b.shot("390-reports-fr")
	if main := b.text("#main"); !strings.Contains(main, "Chiffre d'affaires par mois") || !strings.Contains(main, "Taux d'occupation par mois") {
		t.Errorf("French page lacks its charts' titles: %q", main)
	}
	if shown := b.text("#kpi-booked .money"); !strings.HasSuffix(shown, "€") ||
		!dec(t, strings.NewReplacer("€", "", "\u202f", "", "\u00a0", "", " ", "", ",", ".").Replace(shown)).Equal(dec(t, rep.Total.Booked)) {
		t.Errorf("French revenue booked card shows %q, want %s in euros", shown, rep.Total.Booked)
	}
	b.checkNoProblems()
}
