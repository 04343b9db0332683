package hostapi_test

import (
	"encoding/csv"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/hostapi"
	"github.com/staykit/staykit/pricing"
)

// monthly is the data of GET /reports/monthly, the fields the tests read.
type monthly struct {
	Currency string         `json:"currency"`
	From     string         `json:"from"`
	To       string         `json:"to"`
	Months   []monthFigures `json:"months"`
	Total    monthFigures   `json:"total"`
	Props    []struct {
		PropertyID int64          `json:"property_id"`
		Months     []monthFigures `json:"months"`
	} `json:"properties"`
}

type monthFigures struct {
	Month           string  `json:"month"`
	NightsBooked    int     `json:"nights_booked"`
	NightsAvailable int     `json:"nights_available"`
	Occupancy       *string `json:"occupancy_percent"`
	RoomRevenue     string  `json:"room_revenue"`
	Cancelled       string  `json:"cancellation_revenue"`
	Booked          string  `json:"revenue_booked"`
	Collected       string  `json:"revenue_collected"`
	ADR             *string `json:"adr"`
	RevPAR          *string `json:"revpar"`
}

func decodeData(t *testing.T, r response, v any) {
	t.Helper()
	var env struct {
		Data json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(r.body, &env); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(env.Data, v); err != nil {
		t.Fatal(err)
	}
}

func str(p *string) string {
	if p == nil {
		return "null"
	}
	return *p
}

// TestReportsMonthly: a stay across the end of May is split at the month
// boundary; the money received counts in the month it arrived; a
// cancelled stay counts what it kept; a night closed by the host is not
// available.
func TestReportsMonthly(t *testing.T) {
	for name, open := range backends(t) {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t, open(t, 1))
			// 3 nights at 100, paid in May (the clock's month).
			e.paidBooking("villa", "soleil", "2026-05-30", "2026-06-02")
			// 2 nights in June, cancelled keeping 150 of 200.
			cancelled := e.paidBooking("villa", "soleil", "2026-06-10", "2026-06-12")
			want(t, e.do("villa", req{method: "POST", path: hostPath("villa", "/bookings/"+strconv.FormatInt(cancelled, 10)+"/cancel"),
				body: map[string]any{"amount": "50"}}), http.StatusOK)
			want(t, e.do("villa", req{method: "POST", path: hostPath("villa", "/properties/"+strconv.FormatInt(e.props["soleil"], 10)+"/calendar"),
				body: map[string]any{"from": "2026-06-20", "to": "2026-06-25", "closed": true}}), http.StatusOK)

			r := e.do("villa", req{method: "GET", path: hostPath("villa", "/reports/monthly?from=2026-05&to=2026-06")})
			want(t, r, http.StatusOK)
			var m monthly
			decodeData(t, r, &m)
			type row struct {
				month                                      string
				booked, available                          int
				occupancy, room, cancelled, total, collect string
				adr, revpar                                string
			}
			got := func(f monthFigures) row {
				return row{f.Month, f.NightsBooked, f.NightsAvailable, str(f.Occupancy), f.RoomRevenue, f.Cancelled, f.Booked,
					f.Collected, str(f.ADR), str(f.RevPAR)}
			}
			wants := []row{
				// May: 2 of 31 nights; 300 + 200 received, 50 refunded
				// (the fake provider refunds at once).
				{"2026-05", 2, 31, "6.5", "200.00", "0.00", "200.00", "450.00", "100.00", "6.45"},
				// June: 1 night of 25 (5 closed); 150 kept.
				{"2026-06", 1, 25, "4.0", "100.00", "150.00", "250.00", "0.00", "100.00", "4.00"},
			}
			if m.Currency != "EUR" || len(m.Months) != 2 {
				t.Fatalf("report = %+v, want EUR over 2 months", m)
			}
			for i, w := range wants {
				if g := got(m.Months[i]); g != w {
					t.Errorf("month %d = %+v, want %+v", i, g, w)
				}
			}
			if g := got(m.Total); g.booked != 3 || g.available != 56 || g.total != "450.00" || g.occupancy != "5.4" {
				t.Errorf("total = %+v, want 3 of 56 nights, 450.00 booked, 5.4 %%", g)
			}
			if len(m.Props) != 1 || m.Props[0].PropertyID != e.props["soleil"] || m.Props[0].Months[0].RoomRevenue != "200.00" {
				t.Errorf("properties = %+v, want soleil alone with May's 200.00", m.Props)
			}
		})
	}
}

func TestReportsRequests(t *testing.T) {
	e := newEnv(t, backends(t)["sqlite"](t, 1))
	soleil, bastide := strconv.FormatInt(e.props["soleil"], 10), strconv.FormatInt(e.props["bastide"], 10)
	tests := []struct {
		name, path, key string
		status          int
		code, field     string
	}{
		{name: "DefaultSpanIsTwelveMonths", path: "/reports/monthly", status: 200},
		{name: "OneMonth", path: "/reports/monthly?from=2026-02", status: 200},
		{name: "OneProperty", path: "/reports/monthly?from=2026-01&to=2026-12&property_id=" + soleil, status: 200},
		{name: "PropertyOfAnotherOrg", path: "/reports/monthly?property_id=" + bastide, status: 404, code: "not_found"},
		{name: "BadMonth", path: "/reports/monthly?from=2026-13", status: 422, code: "invalid", field: "from"},
		{name: "ToBeforeFrom", path: "/reports/monthly?from=2026-05&to=2026-04", status: 422, code: "invalid", field: "to"},
		{name: "TooLong", path: "/reports/monthly?from=2024-01&to=2026-01", status: 422, code: "invalid", field: "to"},
		{name: "BadProperty", path: "/reports/monthly?property_id=x", status: 422, code: "invalid", field: "property_id"},
		{name: "Taxes", path: "/reports/taxes?from=2026-05", status: 200},
		{name: "Movements", path: "/reports/movements", status: 200},
		{name: "MovementsTooFar", path: "/reports/movements?days=93", status: 422, code: "invalid", field: "days"},
		{name: "MovementsNotANumber", path: "/reports/movements?days=x", status: 422, code: "invalid", field: "days"},
		{name: "NoKey", path: "/reports/monthly", key: "-", status: 401, code: "unauthorized"},
		{name: "KeyOfAnotherOrg", path: "/reports/monthly", key: "other", status: 403, code: "forbidden"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			key := tt.key
			if key == "other" {
				key = e.keys["other"]
			}
			r := e.do("villa", req{method: "GET", path: hostPath("villa", tt.path), key: key})
			want(t, r, tt.status)
			if tt.code != "" && r.code(t) != tt.code {
				t.Errorf("code %q, want %q", r.code(t), tt.code)
			}
			if tt.field != "" && !strings.Contains(string(r.body), `"`+tt.field+`":`) {
				t.Errorf("errors do not name %s: %s", tt.field, r.body)
			}
		})
	}
	t.Run("DefaultSpanEndsThisMonth", func(t *testing.T) {
		var m monthly
		decodeData(t, e.do("villa", req{method: "GET", path: hostPath("villa", "/reports/monthly")}), &m)
		if len(m.Months) != 12 || m.Months[0].Month != "2025-06" || m.Months[11].Month != "2026-05" {
			t.Errorf("default months = %d from %v, want 2025-06 … 2026-05", len(m.Months), m.Months)
		}
	})
	t.Run("MethodNotAllowed", func(t *testing.T) {
		r := e.do("villa", req{method: "POST", path: hostPath("villa", "/reports/monthly"), body: map[string]any{}})
		want(t, r, http.StatusMethodNotAllowed)
		if r.header.Get("Allow") != "GET, HEAD" {
			t.Errorf("Allow = %q, want GET, HEAD", r.header.Get("Allow"))
		}
	})
}

// TestReportsTaxes: the tourist tax and an inclusive VAT of the stored
// quotes, per month, as JSON and as CSV (by ?format= or Accept).
func TestReportsTaxes(t *testing.T) {
	e := newEnv(t, backends(t)["sqlite"](t, 1))
	st := e.replicas[0].store
	p, err := st.Property(t.Context(), e.orgs["villa"].ID, e.props["soleil"])
	if err != nil {
		t.Fatal(err)
	}
	p.Name = "=Soleil" // a name a spreadsheet would run
	p.Tax = pricing.TouristTax{PerGuestPerNight: decimal.RequireFromString("1.50")}
	p.Fees.Taxes = []pricing.PercentTax{{Code: "vat", Labels: pricing.Labels{FR: "TVA", EN: "VAT"}, Percent: decimal.NewFromInt(10),
		Inclusive: true, On: []string{pricing.LineAccommodation}}}
	if err := st.UpdateProperty(t.Context(), p); err != nil {
		t.Fatal(err)
	}
	// 2 guests × 3 nights × 1.50 = 9 of tourist tax; VAT 300 × 10 / 110 = 27.27.
	e.paidBooking("villa", "soleil", "2026-05-30", "2026-06-02")

	r := e.do("villa", req{method: "GET", path: hostPath("villa", "/reports/taxes?from=2026-05&to=2026-06"), header: map[string]string{"Accept-Language": "fr"}})
	want(t, r, http.StatusOK)
	var tx struct {
		Rows []struct {
			Month, Code, Label, Amount string
			Inclusive                  bool
		} `json:"rows"`
		Totals []struct{ Code, Label, Amount string } `json:"totals"`
	}
	decodeData(t, r, &tx)
	var rows []string
	for _, row := range tx.Rows {
		rows = append(rows, row.Month+" "+row.Code+" "+row.Label+" "+row.Amount+" "+strconv.FormatBool(row.Inclusive))
	}
	wantRows := []string{"2026-05 tourist_tax Taxe de séjour 6.00 false", "2026-05 vat TVA 18.18 true",
		"2026-06 tourist_tax Taxe de séjour 3.00 false", "2026-06 vat TVA 9.09 true"}
	if strings.Join(rows, "|") != strings.Join(wantRows, "|") {
		t.Errorf("rows =\n%v\nwant\n%v", rows, wantRows)
	}
	if len(tx.Totals) != 2 || tx.Totals[0].Amount != "9.00" || tx.Totals[1].Amount != "27.27" {
		t.Errorf("totals = %+v, want tourist tax 9.00 and VAT 27.27", tx.Totals)
	}

	for _, how := range []req{
		{method: "GET", path: hostPath("villa", "/reports/taxes?from=2026-05&to=2026-06&format=csv")},
		{method: "GET", path: hostPath("villa", "/reports/taxes?from=2026-05&to=2026-06"), header: map[string]string{"Accept": "text/csv", "Accept-Language": "en"}},
	} {
		r := e.do("villa", how)
		want(t, r, http.StatusOK)
		if ct := r.header.Get("Content-Type"); ct != "text/csv; charset=utf-8" {
			t.Errorf("Content-Type = %q, want text/csv", ct)
		}
		if cd := r.header.Get("Content-Disposition"); cd != `attachment; filename="taxes-villa-2026-05-2026-06.csv"` {
			t.Errorf("Content-Disposition = %q", cd)
		}
		recs, err := csv.NewReader(strings.NewReader(string(r.body))).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		soleil := strconv.FormatInt(e.props["soleil"], 10)
		wantCSV := [][]string{
			{"month", "property_id", "property", "tax", "label", "inclusive", "amount", "currency"},
			{"2026-05", soleil, "'=Soleil", "tourist_tax", "Tourist tax", "false", "6.00", "EUR"},
			{"2026-05", soleil, "'=Soleil", "vat", "VAT", "true", "18.18", "EUR"},
			{"2026-06", soleil, "'=Soleil", "tourist_tax", "Tourist tax", "false", "3.00", "EUR"},
			{"2026-06", soleil, "'=Soleil", "vat", "VAT", "true", "9.09", "EUR"},
		}
		if how.header == nil {
			// ?format=csv without Accept-Language: the organisation's
			// locale (fr).
			for _, l := range wantCSV[1:] {
				l[4] = map[string]string{"tourist_tax": "Taxe de séjour", "vat": "TVA"}[l[3]]
			}
		}
		if len(recs) != len(wantCSV) {
			t.Fatalf("CSV = %q, want %q", recs, wantCSV)
		}
		for i := range wantCSV {
			if strings.Join(recs[i], ",") != strings.Join(wantCSV[i], ",") {
				t.Errorf("CSV line %d = %q, want %q", i, recs[i], wantCSV[i])
			}
		}
	}
}

// TestReportsMovements: arrivals and departures of the coming days, from
// today in the organisation's zone.
func TestReportsMovements(t *testing.T) {
	e := newEnv(t, backends(t)["sqlite"](t, 1))
	e.paidBooking("villa", "soleil", "2026-05-03", "2026-05-06") // arrives in 2 days, leaves in 5
	e.paidBooking("villa", "soleil", "2026-05-10", "2026-05-12") // beyond 7 days
	e.paidBooking("other", "bastide", "2026-05-02", "2026-05-04")
	r := e.do("villa", req{method: "GET", path: hostPath("villa", "/reports/movements?days=7")})
	want(t, r, http.StatusOK)
	var mv struct {
		From, To string
		Arrivals []struct {
			Date         string `json:"date"`
			PropertyName string `json:"property_name"`
			GuestName    string `json:"guest_name"`
			Status       string `json:"status"`
		} `json:"arrivals"`
		Departures []struct{ Date string } `json:"departures"`
	}
	decodeData(t, r, &mv)
	if mv.From != "2026-05-01" || mv.To != "2026-05-08" {
		t.Errorf("window = %s … %s, want 2026-05-01 … 2026-05-08", mv.From, mv.To)
	}
	if len(mv.Arrivals) != 1 || mv.Arrivals[0].Date != "2026-05-03" || mv.Arrivals[0].PropertyName != "soleil" ||
		mv.Arrivals[0].GuestName != "Ana Guest" || mv.Arrivals[0].Status != "confirmed" {
		t.Errorf("arrivals = %+v, want Ana Guest at soleil on 2026-05-03", mv.Arrivals)
	}
	if len(mv.Departures) != 1 || mv.Departures[0].Date != "2026-05-06" {
		t.Errorf("departures = %+v, want one on 2026-05-06", mv.Departures)
	}
}

// TestReportsNotConfigured: a handler without Options.Reports answers
// the report routes 503 not_configured, as documented.
func TestReportsNotConfigured(t *testing.T) {
	e := newEnv(t, backends(t)["sqlite"](t, 1))
	h := hostapi.New(hostapi.Options{Host: e.replicas[0].host, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Clock: e.clock})
	for _, path := range []string{"/reports/monthly", "/reports/taxes", "/reports/movements"} {
		hr := httptest.NewRequest("GET", hostPath("villa", path), nil)
		hr.Header.Set("Authorization", "Bearer "+e.keys["villa"])
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, hr)
		resp := response{status: rec.Code, header: rec.Header(), body: rec.Body.Bytes()}
		want(t, resp, http.StatusServiceUnavailable, "not_configured")
		if err := loadContract(t).check("GET", hostPath("villa", path), hr.Header, nil, resp); err != nil {
			t.Errorf("OpenAPI contract: %v", err)
		}
		if !strings.Contains(string(resp.body), "Reports are not set up") && !strings.Contains(string(resp.body), "rapports") {
			t.Errorf("message does not say reports are not set up: %s", resp.body)
		}
	}
}
