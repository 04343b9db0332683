package reports

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/staykit/staykit/pricing"
)

// TaxCSVHeader is the first line of WriteTaxCSV.
var TaxCSVHeader = []string{"month", "property_id", "property", "tax", "label", "inclusive", "amount", "currency"}

// WriteTaxCSV writes r's taxes as CSV (RFC 4180): TaxCSVHeader, then a
// row per month, property and tax, amounts fixed to the currency's minor
// units with a dot ("12.50"), each tax labelled by label (nil: its
// Label). A text cell that a spreadsheet would read
// as a formula (starting with =, +, -, @, a tab or a carriage return) is
// written after a single quote.
func (r *Report) WriteTaxCSV(w io.Writer, label func(TaxLine) string) error {
	if label == nil {
		label = func(t TaxLine) string { return t.Label }
	}
	cw := csv.NewWriter(w)
	if err := cw.Write(TaxCSVHeader); err != nil {
		return fmt.Errorf("tax csv: %w", err)
	}
	places := pricing.MinorUnits(r.Currency)
	for _, t := range r.Taxes {
		if err := cw.Write([]string{t.Month.String(), strconv.FormatInt(t.PropertyID, 10), cell(t.PropertyName), cell(t.Code),
			cell(label(t.TaxLine)), strconv.FormatBool(t.Inclusive), t.Amount.StringFixed(places), r.Currency}); err != nil {
			return fmt.Errorf("tax csv: %w", err)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("tax csv: %w", err)
	}
	return nil
}

// cell defuses a text cell a spreadsheet would run as a formula.
func cell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

// TouristTaxCSVHeader is the first line of WriteTouristTaxCSV.
var TouristTaxCSVHeader = []string{"month", "country", "municipality_code", "postal_code", "city", "stays", "nights",
	"arrivals", "guests", "exempt_guests", "guest_nights", "exempt_guest_nights", "amount", "currency"}

// WriteTouristTaxCSV writes r's tourist tax per month and municipality
// (TouristTaxRow) as CSV, as WriteTaxCSV writes the taxes.
func (r *Report) WriteTouristTaxCSV(w io.Writer) error {
	places := pricing.MinorUnits(r.Currency)
	itoa := strconv.Itoa
	rows := [][]string{TouristTaxCSVHeader}
	for _, t := range r.TouristTax {
		rows = append(rows, []string{t.Month.String(), cell(t.Country), cell(t.MunicipalityCode), cell(t.PostalCode), cell(t.City),
			itoa(t.Stays), itoa(t.Nights), itoa(t.Arrivals), itoa(t.Guests), itoa(t.ExemptGuests), itoa(t.GuestNights),
			itoa(t.ExemptGuestNights), t.Amount.StringFixed(places), r.Currency})
	}
	return writeCSV(w, "tourist tax csv", rows)
}

// VATCSVHeader is the first line of WriteVATCSV.
var VATCSVHeader = []string{"month", "tax", "label", "rate", "inclusive", "base", "amount", "currency"}

// WriteVATCSV writes r's percentage taxes per month and rate (VATRow) as
// CSV, each labelled by label (nil: its Label); the rate is a percent
// ("10", "5.5"), empty when unknown.
func (r *Report) WriteVATCSV(w io.Writer, label func(VATRow) string) error {
	if label == nil {
		label = func(v VATRow) string { return v.Label }
	}
	places := pricing.MinorUnits(r.Currency)
	rows := [][]string{VATCSVHeader}
	for _, v := range r.VAT {
		rate := ""
		if v.Rate.IsPositive() {
			rate = v.Rate.String()
		}
		rows = append(rows, []string{v.Month.String(), cell(v.Code), cell(label(v)), rate, strconv.FormatBool(v.Inclusive),
			v.Base.StringFixed(places), v.Amount.StringFixed(places), r.Currency})
	}
	return writeCSV(w, "vat csv", rows)
}

// writeCSV writes rows as RFC 4180 CSV.
func writeCSV(w io.Writer, what string, rows [][]string) error {
	cw := csv.NewWriter(w)
	if err := cw.WriteAll(rows); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}
