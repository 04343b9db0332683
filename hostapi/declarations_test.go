package hostapi_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/pricing"
)

// TestReportsDeclarations: the host sets the property's commune through
// the API (an INSEE code of the wrong shape is refused), and the tourist
// tax per commune and the VAT per rate come as JSON and CSV on both
// stores.
func TestReportsDeclarations(t *testing.T) {
	forEachStore(t, func(t *testing.T, e *env) {
		path := hostPath("villa", fmt.Sprintf("/properties/%d", e.props["soleil"]))
		for _, bad := range []map[string]any{{"country": "FR", "municipality_code": "6004"}, {"postal_code": "06600;DROP"}} {
			want(t, e.do("villa", req{method: "PATCH", path: path, body: bad}), http.StatusUnprocessableEntity, "invalid")
		}
		r := e.do("villa", req{method: "PATCH", path: path, body: map[string]any{"country": "FR", "city": "Antibes",
			"postal_code": "06600", "municipality_code": "06004"}})
		want(t, r, http.StatusOK)
		if d := r.data(t); d["municipality_code"] != "06004" || d["postal_code"] != "06600" {
			t.Fatalf("property after PATCH: %v %v", d["municipality_code"], d["postal_code"])
		}
		st := e.replicas[0].store
		p, err := st.Property(t.Context(), e.orgs["villa"].ID, e.props["soleil"])
		if err != nil {
			t.Fatal(err)
		}
		p.Tax = pricing.TouristTax{PerGuestPerNight: decimal.RequireFromString("1.50")}
		p.Fees.Taxes = []pricing.PercentTax{{Code: "vat", Labels: pricing.Labels{FR: "TVA", EN: "VAT"}, Percent: decimal.NewFromInt(10),
			Inclusive: true, On: []string{pricing.LineAccommodation}}}
		if err := st.UpdateProperty(t.Context(), p); err != nil {
			t.Fatal(err)
		}
		// 2 guests × 3 nights × 1.50 = 9 of tourist tax; VAT 300 × 10 / 110 = 27.27.
		e.paidBooking("villa", "soleil", "2026-05-30", "2026-06-02")

		r = e.do("villa", req{method: "GET", path: hostPath("villa", "/reports/tourist-tax?from=2026-05&to=2026-06")})
		want(t, r, http.StatusOK)
		var tt struct {
			Rows []map[string]any `json:"rows"`
		}
		decodeData(t, r, &tt)
		if len(tt.Rows) != 2 || tt.Rows[0]["municipality_code"] != "06004" || tt.Rows[0]["guest_nights"] != float64(4) ||
			tt.Rows[0]["amount"] != "6.00" || tt.Rows[1]["nights"] != float64(1) {
			t.Fatalf("tourist tax rows: %s", r.body)
		}
		csvAnswer := e.do("villa", req{method: "GET", path: hostPath("villa", "/reports/tourist-tax?from=2026-05&to=2026-06&format=csv")})
		want(t, csvAnswer, http.StatusOK)
		wantCSV := "month,country,municipality_code,postal_code,city,stays,nights,arrivals,guests,exempt_guests,guest_nights,exempt_guest_nights,amount,currency\n" +
			"2026-05,FR,06004,06600,Antibes,1,2,1,2,0,4,0,6.00,EUR\n" +
			"2026-06,FR,06004,06600,Antibes,1,1,0,0,0,2,0,3.00,EUR\n"
		if string(csvAnswer.body) != wantCSV {
			t.Errorf("tourist tax CSV:\n%s\nwant\n%s", csvAnswer.body, wantCSV)
		}
		if cd := csvAnswer.header.Get("Content-Disposition"); cd != `attachment; filename="tourist-tax-villa-2026-05-2026-06.csv"` {
			t.Errorf("Content-Disposition = %q", cd)
		}

		r = e.do("villa", req{method: "GET", path: hostPath("villa", "/reports/vat?from=2026-05&to=2026-06"), header: map[string]string{"Accept-Language": "fr"}})
		want(t, r, http.StatusOK)
		var vat struct {
			Rows []struct {
				Month, Code, Label, Base, Amount string
				Rate                             *string
				Inclusive                        bool
			} `json:"rows"`
		}
		decodeData(t, r, &vat)
		var got []string
		for _, row := range vat.Rows {
			got = append(got, fmt.Sprintf("%s %s %s %v %s %s %v", row.Month, row.Code, row.Label, *row.Rate, row.Base, row.Amount, row.Inclusive))
		}
		if w := "2026-05 vat TVA 10 181.80 18.18 true|2026-06 vat TVA 10 90.90 9.09 true"; strings.Join(got, "|") != w {
			t.Errorf("VAT rows %q, want %q", strings.Join(got, "|"), w)
		}
		csvAnswer = e.do("villa", req{method: "GET", path: hostPath("villa", "/reports/vat?from=2026-05&to=2026-06"), header: map[string]string{"Accept": "text/csv", "Accept-Language": "en"}})
		want(t, csvAnswer, http.StatusOK)
		if w := "month,tax,label,rate,inclusive,base,amount,currency\n2026-05,vat,VAT,10,true,181.80,18.18,EUR\n2026-06,vat,VAT,10,true,90.90,9.09,EUR\n"; string(csvAnswer.body) != w {
			t.Errorf("VAT CSV:\n%s\nwant\n%s", csvAnswer.body, w)
		}
	})
}
