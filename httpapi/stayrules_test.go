package httpapi_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/pricing"
	"github.com/staykit/staykit/rules"
)

// withStayRules gives "soleil" Saturday-to-Saturday summers (7 nights at
// least), an optional breakfast (12 per guest per night), tourist tax
// exempting children, and no pets.
func withStayRules(t *testing.T, e *testEnv) {
	t.Helper()
	ctx := context.Background()
	org, err := e.Service.Organization(ctx, "villa")
	if err != nil {
		t.Fatal(err)
	}
	p, err := e.Store.Property(ctx, org.ID, e.Props["soleil"])
	if err != nil {
		t.Fatal(err)
	}
	p.Rates.Rules = rules.Set{Seasons: []rules.Season{{Name: "Summer", Start: rules.MonthDay{Month: 7, Day: 1}, End: rules.MonthDay{Month: 8, Day: 31},
		MinStayNights: 7, ArrivalDays: rules.Weekdays{time.Saturday}, DepartureDays: rules.Weekdays{time.Saturday}}}}
	p.Fees.Items = []pricing.Fee{{Code: "breakfast", Labels: pricing.Labels{FR: "Petit-déjeuner", EN: "Breakfast"},
		Per: pricing.PerGuestNight, Amount: dec("12"), Optional: true}}
	p.Tax.Exempt = []string{pricing.CategoryChildren}
	if err := e.Store.UpdateProperty(ctx, p); err != nil {
		t.Fatal(err)
	}
}

// TestStayRuleRefusals: a broken rule is a 422 with its code and a message
// in the guest's language saying what would work.
func TestStayRuleRefusals(t *testing.T) {
	e := newTestEnv(t)
	withStayRules(t, e)
	base := "/api/v1/book/villa/properties/" + itoa(e.Props["soleil"]) + "/price?"
	for _, tt := range []struct {
		name, query, code, message string
	}{
		// 2026-07-06 is a Monday.
		{"arrival day fr", "check_in=2026-07-06&check_out=2026-07-13&guests_count=2", "arrival_day", "Arrivées possibles uniquement le samedi."},
		{"arrival day en", "check_in=2026-07-06&check_out=2026-07-13&guests_count=2&locale=en", "arrival_day", "Arrivals on Saturday only."},
		{"departure day", "check_in=2026-07-04&check_out=2026-07-12&guests_count=2&locale=en", "departure_day", "Departures on Saturday only."},
		{"season minimum", "check_in=2026-07-04&check_out=2026-07-06&guests_count=2&locale=en", "min_stay", "This stay is shorter than the minimum of 7 nights."},
		{"pets", "check_in=2026-06-08&check_out=2026-06-11&adults=2&pets=1&locale=en", "max_pets", "Pets are not allowed in this property."},
		{"unknown extra", "check_in=2026-06-08&check_out=2026-06-11&guests_count=2&extras=spa", "invalid", ""},
		{"party disagrees with guests_count", "check_in=2026-06-08&check_out=2026-06-11&guests_count=3&adults=1&children=1", "invalid", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := e.do(call{method: "GET", path: base + tt.query})
			if r.Status != 422 || r.Env.Code != tt.code {
				t.Fatalf("status %d code %q, want 422 %q: %s", r.Status, r.Env.Code, tt.code, r.Body)
			}
			if tt.message != "" && r.Env.Message != tt.message {
				t.Fatalf("message %q, want %q", r.Env.Message, tt.message)
			}
		})
	}
}

// TestExtrasAndCategories: a quote with guest categories and an extra shows
// the new lines, and checkout charges the same total.
//
// Soleil 2026-07-04 (Sat) → 07-11 (Sat), 2 adults + 1 child: breakfast 12 ×
// 3 guests × 7 nights = 252; tourist tax 2 × 2 adults × 7 nights = 28.
func TestExtrasAndCategories(t *testing.T) {
	e := newTestEnv(t)
	withStayRules(t, e)
	r := e.do(call{method: "GET", path: "/api/v1/book/villa/properties/" + itoa(e.Props["soleil"]) +
		"/price?check_in=2026-07-04&check_out=2026-07-11&adults=2&children=1&extras=breakfast:1&locale=en"})
	if r.Status != 200 {
		t.Fatalf("status %d: %s", r.Status, r.Body)
	}
	var q struct {
		GuestsCount int `json:"guests_count"`
		Fees        []struct {
			Code     string  `json:"code"`
			Label    string  `json:"label"`
			Amount   float64 `json:"amount"`
			Quantity int     `json:"quantity"`
		} `json:"fees"`
		Taxes []struct {
			Code   string  `json:"code"`
			Amount float64 `json:"amount"`
		} `json:"taxes"`
		Guests     map[string]int               `json:"guests"`
		LineLabels map[string]map[string]string `json:"line_labels"`
		Total      float64                      `json:"total_amount"`
	}
	r.data(t, &q)
	var breakfast, tax float64
	for _, f := range q.Fees {
		if f.Code == "breakfast" {
			breakfast = f.Amount
			if f.Quantity != 1 || f.Label != "Breakfast" {
				t.Errorf("breakfast line %+v", f)
			}
		}
	}
	for _, x := range q.Taxes {
		if x.Code == "tourist_tax" {
			tax = x.Amount
		}
	}
	if breakfast != 252 || tax != 28 || q.GuestsCount != 3 || q.Guests["children"] != 1 {
		t.Fatalf("breakfast %v (want 252), tourist tax %v (want 28), guests %d %v", breakfast, tax, q.GuestsCount, q.Guests)
	}
	if q.LineLabels["breakfast"]["fr"] != "Petit-déjeuner" || q.LineLabels["tourist_tax"]["fr"] != "Taxe de séjour" {
		t.Fatalf("line labels %v", q.LineLabels)
	}
	body := `{"property_id":` + itoa(e.Props["soleil"]) + `,"guest_name":"Ada","guest_email":"ada@example.com",` +
		`"guest_phone":"+33612345678","check_in":"2026-07-04","check_out":"2026-07-11","guests_count":3,"adults":2,"children":1,` +
		`"extras":[{"code":"breakfast","quantity":1}]}`
	c := e.do(call{method: "POST", path: "/api/v1/book/villa/checkout", body: body})
	if c.Status != 201 {
		t.Fatalf("checkout %d: %s", c.Status, c.Body)
	}
	var res struct {
		Total float64 `json:"total_amount"`
	}
	c.data(t, &res)
	if res.Total != q.Total {
		t.Fatalf("checkout total %v, quote total %v", res.Total, q.Total)
	}
	// The same stay on a Monday is refused at checkout too.
	c = e.do(call{method: "POST", path: "/api/v1/book/villa/checkout", body: strings.ReplaceAll(body, "2026-07-04", "2026-07-06")})
	if c.Status != 422 || c.Env.Code != "arrival_day" {
		t.Fatalf("Monday checkout %d %s", c.Status, c.Env.Code)
	}
}

// TestSearch: with dates, /properties lists only the properties that take
// the stay, each with its total; a closed night takes soleil out.
func TestSearch(t *testing.T) {
	e := newTestEnv(t)
	ctx := context.Background()
	if err := e.Store.SetCalendarDays(ctx, e.Props["soleil"], []booking.CalendarDay{{Date: day("2026-06-09"), Closed: true}}); err != nil {
		t.Fatal(err)
	}
	search := func(q string) []map[string]any {
		t.Helper()
		r := e.do(call{method: "GET", path: "/api/v1/book/villa/properties?" + q})
		if r.Status != 200 {
			t.Fatalf("search %s: %d %s", q, r.Status, r.Body)
		}
		var list []map[string]any
		r.data(t, &list)
		return list
	}
	names := func(list []map[string]any) string {
		var n []string
		for _, p := range list {
			n = append(n, p["name"].(string))
			if _, ok := p["quote_total"]; !ok {
				t.Errorf("%s has no quote_total", p["name"])
			}
		}
		return strings.Join(n, ",")
	}
	all := e.do(call{method: "GET", path: "/api/v1/book/villa/properties"})
	var every []map[string]any
	all.data(t, &every)
	if len(every) < 2 {
		t.Fatalf("fixture has %d properties", len(every))
	}
	for _, p := range every {
		if _, ok := p["quote_total"]; ok {
			t.Fatalf("plain listing carries quote_total: %v", p)
		}
	}
	// 06-08..06-11 crosses soleil's closed 06-09: only the others.
	got := search("check_in=2026-06-08&check_out=2026-06-11&guests_count=2")
	if n := names(got); strings.Contains(n, "Soleil") || len(got) == 0 {
		t.Fatalf("search over the closed night: %s", n)
	}
	// 06-15..06-18: soleil takes it (3 × 100 + cleaning 50 + tax 2 × 2 × 3 = 362).
	got = search("check_in=2026-06-15&check_out=2026-06-18&guests_count=2")
	found := false
	for _, p := range got {
		if p["id"].(float64) == float64(e.Props["soleil"]) {
			found = true
			if p["quote_total"].(float64) != 362 {
				t.Errorf("soleil total %v, want 362", p["quote_total"])
			}
		}
	}
	if !found {
		t.Fatalf("soleil missing from %s", names(got))
	}
	// Dates are checked like a quote's.
	r := e.do(call{method: "GET", path: "/api/v1/book/villa/properties?check_in=2026-06-15"})
	if r.Status != 422 || r.Env.Code != "invalid" {
		t.Fatalf("half a search: %d %s", r.Status, r.Env.Code)
	}
}

// TestCalendarTellsWhichStaysCanBeBooked: in a season of Saturday-to-
// Saturday weeks, a Saturday check-in carries departure_days and max_stay,
// so that a page offers it only the departures the quote accepts, although
// other days are check_out days for stays starting before the season.
func TestCalendarTellsWhichStaysCanBeBooked(t *testing.T) {
	e := newTestEnv(t)
	withStayRules(t, e)
	soleil := "/api/v1/book/villa/properties/" + itoa(e.Props["soleil"])
	r := e.do(call{method: "GET", path: soleil + "/availability?from=2026-06&months=2"})
	if r.Status != 200 {
		t.Fatalf("availability: %d %s", r.Status, r.Body)
	}
	wantRaw(t, r,
		// Before the season: any departure.
		`{"date":"2026-06-27","available":true,"units_available":1,"check_in":true,"check_out":true,"price":120.00,"min_stay":2,"max_stay":14}`,
		// In it: Saturdays only, 7 to 14 nights.
		`{"date":"2026-07-04","available":true,"units_available":1,"check_in":true,"check_out":true,"price":120.00,"min_stay":7,"max_stay":14,"departure_days":["saturday"]}`,
		// A Sunday ends stays that started in June, never one of July.
		`{"date":"2026-07-12","available":true,"units_available":1,"check_in":false,"check_out":true,"price":100.00,"min_stay":7,"max_stay":14}`)
	price := func(in, out string) response {
		return e.do(call{method: "GET", path: soleil + "/price?guests_count=2&check_in=" + in + "&check_out=" + out})
	}
	for _, out := range []string{"2026-07-11", "2026-07-18"} {
		if q := price("2026-07-04", out); q.Status != 200 {
			t.Errorf("2026-07-04 → %s, a departure the calendar offers: %d %s", out, q.Status, q.Body)
		}
	}
	if q := price("2026-07-04", "2026-07-12"); q.Status != 422 || q.Env.Code != "departure_day" {
		t.Errorf("2026-07-04 → 2026-07-12: %d %s, want 422 departure_day", q.Status, q.Body)
	}
	if q := price("2026-06-28", "2026-07-12"); q.Status != 200 {
		t.Errorf("2026-06-28 → 2026-07-12, a stay from before the season: %d %s", q.Status, q.Body)
	}
}
