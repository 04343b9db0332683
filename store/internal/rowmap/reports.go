package rowmap

import "github.com/staykit/staykit/reports"

// ReportEntryColumns are LedgerColumns and the property of the entry's
// booking, in the order ScanReportEntry reads them; the query names the
// bookings' property_id so that no other column is ambiguous.
const ReportEntryColumns = LedgerColumns + `, property_id`

// ScanReportEntry reads a row of ReportEntryColumns.
func ScanReportEntry(c Codec, s Scanner) (*reports.Entry, error) {
	var r reports.Entry
	e := &r.Entry
	if err := Scan(s, &e.ID, &e.BookingID, (*string)(&e.Kind), &e.IntentID, &e.Amount,
		&e.Currency, &e.Key, &e.Reason, (*string)(&e.Status), &e.ProviderID, &e.Attempts,
		c.Time(&e.NextAttemptAt), &e.LastError, c.Time(&e.CreatedAt),
		c.Time(&e.UpdatedAt), &r.PropertyID); err != nil {
		return nil, err
	}
	return &r, nil
}
