package reports_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/pricing"
	"github.com/staykit/staykit/reports"
)

// TestTouristTaxPerMunicipality: two properties of one commune (Antibes,
// INSEE 06004) and one elsewhere (Nice, 06088); a stay across April and
// May counts its nights and tax in each month, its arrival and guests in
// April only; children are exempt where the property says so, and the
// nights past the taxed maximum are exempt guest-nights; a cancelled
// stay counts for nothing.
func TestTouristTaxPerMunicipality(t *testing.T) {
	tax := func(amount string) []pricing.Line {
		return []pricing.Line{{Code: pricing.LineTouristTax, Label: "Tourist tax", Amount: dec(amount)}}
	}
	in := reports.Input{Currency: "EUR", Location: paris, Span: span("2026-04", "2026-05"), Properties: []booking.Property{
		{ID: 1, Name: "Soleil", Country: "FR", City: "Antibes", PostalCode: "06600", MunicipalityCode: "06004",
			Tax: pricing.TouristTax{Exempt: []string{pricing.CategoryChildren}}},
		{ID: 2, Name: "Mistral", Country: "FR", City: "Antibes", PostalCode: "06160", MunicipalityCode: "06004",
			Tax: pricing.TouristTax{MaxNights: 2}},
		{ID: 3, Name: "Baie", Country: "FR", City: "Nice", PostalCode: "06000", MunicipalityCode: "06088"},
	}}
	add := func(s stay, party pricing.Party) {
		b := s.booking()
		b.Quote.Party = party
		in.Bookings = append(in.Bookings, b)
	}
	// 29 April – 2 May at Soleil: 2 adults, 1 child (exempt), 3 nights,
	// 6.00 of tax (2 payers × 3 nights × 1.00).
	add(stay{id: 1, prop: 1, in: "2026-04-29", out: "2026-05-02", taxes: tax("6.00")}, pricing.Party{Adults: 2, Children: 1})
	// 10 – 14 May at Mistral: 2 adults, 4 nights, 2 taxed: 4.00.
	add(stay{id: 2, prop: 2, in: "2026-05-10", out: "2026-05-14", taxes: tax("4.00")}, pricing.Party{Adults: 2})
	// 3 – 5 May at Baie: 1 adult, 1.20 a night.
	add(stay{id: 3, prop: 3, in: "2026-05-03", out: "2026-05-05", taxes: tax("2.40")}, pricing.Party{Adults: 1})
	// Cancelled: nothing.
	add(stay{id: 4, prop: 1, status: booking.StatusCancelled, in: "2026-05-20", out: "2026-05-22", taxes: tax("4.00")}, pricing.Party{Adults: 2})

	r, err := reports.Compute(in)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, row := range r.TouristTax {
		got = append(got, fmt.Sprintf("%s %s %s stays=%d nights=%d arrivals=%d guests=%d exempt=%d gn=%d egn=%d %s",
			row.Month, row.MunicipalityCode, row.City, row.Stays, row.Nights, row.Arrivals, row.Guests, row.ExemptGuests,
			row.GuestNights, row.ExemptGuestNights, row.Amount.StringFixed(2)))
	}
	wantRows := []string{
		// April: two of the Soleil stay's three nights (2.00 each).
		"2026-04 06004 Antibes stays=1 nights=2 arrivals=1 guests=3 exempt=1 gn=6 egn=2 4.00",
		// May: Soleil's last night (3 guests, 1 exempt) and Mistral's 4
		// nights (2 guests; its last 2 nights past MaxNights: 4 exempt).
		"2026-05 06004 Antibes stays=2 nights=5 arrivals=1 guests=2 exempt=0 gn=11 egn=5 6.00",
		"2026-05 06088 Nice stays=1 nights=2 arrivals=1 guests=1 exempt=0 gn=2 egn=0 2.40",
	}
	if strings.Join(got, "\n") != strings.Join(wantRows, "\n") {
		t.Errorf("tourist tax rows:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(wantRows, "\n"))
	}
	// The amounts are the tax report's, regrouped.
	var perProperty, perCommune = dec("0"), dec("0")
	for _, row := range r.Taxes {
		if row.Code == pricing.LineTouristTax {
			perProperty = perProperty.Add(row.Amount)
		}
	}
	for _, row := range r.TouristTax {
		perCommune = perCommune.Add(row.Amount)
	}
	if !perProperty.Equal(perCommune) || !perCommune.Equal(dec("12.40")) {
		t.Errorf("tourist tax per property %s, per commune %s, want 12.40 both", perProperty, perCommune)
	}

	var buf bytes.Buffer
	if err := r.WriteTouristTaxCSV(&buf); err != nil {
		t.Fatal(err)
	}
	wantCSV := "month,country,municipality_code,postal_code,city,stays,nights,arrivals,guests,exempt_guests,guest_nights,exempt_guest_nights,amount,currency\n" +
		"2026-04,FR,06004,06600,Antibes,1,2,1,3,1,6,2,4.00,EUR\n" +
		"2026-05,FR,06004,06600,Antibes,2,5,1,2,0,11,5,6.00,EUR\n" +
		"2026-05,FR,06088,06000,Nice,1,2,1,1,0,2,0,2.40,EUR\n"
	if buf.String() != wantCSV {
		t.Errorf("CSV:\n%s\nwant\n%s", buf.String(), wantCSV)
	}
}

// TestVATPerRate: VAT at 10 % included in one property's prices and an
// exclusive 20 % on another's fees are reported per month and rate with
// the base they were charged on; a tax the property no longer has keeps
// its amount with no rate.
func TestVATPerRate(t *testing.T) {
	in := reports.Input{Currency: "EUR", Location: paris, Span: span("2026-05", "2026-05"), Properties: []booking.Property{
		{ID: 1, Name: "Soleil", Fees: pricing.Fees{Taxes: []pricing.PercentTax{{Code: "vat", Percent: dec("10"), Inclusive: true,
			Labels: pricing.Labels{FR: "TVA", EN: "VAT"}}}}},
		{ID: 2, Name: "Mistral", Fees: pricing.Fees{Taxes: []pricing.PercentTax{{Code: "vat_fees", Percent: dec("20")}}}},
	}}
	for _, s := range []stay{
		{id: 1, prop: 1, in: "2026-05-01", out: "2026-05-03", included: []pricing.Line{{Code: "vat", Label: "VAT", Amount: dec("18.18")}}},
		{id: 2, prop: 1, in: "2026-05-10", out: "2026-05-11", included: []pricing.Line{{Code: "vat", Label: "VAT", Amount: dec("9.09")}}},
		{id: 3, prop: 2, in: "2026-05-10", out: "2026-05-12", taxes: []pricing.Line{{Code: "vat_fees", Label: "VAT on fees", Amount: dec("12.00")}}},
		{id: 4, prop: 2, in: "2026-05-20", out: "2026-05-21", taxes: []pricing.Line{{Code: "old_tax", Label: "Old tax", Amount: dec("3.00")}}},
	} {
		in.Bookings = append(in.Bookings, s.booking())
	}
	r, err := reports.Compute(in)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := r.WriteVATCSV(&buf, func(v reports.VATRow) string {
		if l := v.Labels["fr"]; l != "" {
			return l
		}
		return v.Label
	}); err != nil {
		t.Fatal(err)
	}
	want := "month,tax,label,rate,inclusive,base,amount,currency\n" +
		"2026-05,old_tax,Old tax,,false,0.00,3.00,EUR\n" +
		"2026-05,vat,TVA,10,true,272.70,27.27,EUR\n" +
		"2026-05,vat_fees,VAT on fees,20,false,60.00,12.00,EUR\n"
	if buf.String() != want {
		t.Errorf("VAT CSV:\n%s\nwant\n%s", buf.String(), want)
	}
}
