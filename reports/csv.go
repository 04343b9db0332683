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
