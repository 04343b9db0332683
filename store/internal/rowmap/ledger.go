package rowmap

import "github.com/staykit/staykit/ledger"

// LedgerColumns are the columns of ledger_entries, in the order
// ScanLedger reads them.
const LedgerColumns = `id, booking_id, kind, intent_id, amount, currency, key, reason, status,
	provider_id, attempts, next_attempt_at, last_error, created_at, updated_at`

// ScanLedger reads a row of LedgerColumns.
func ScanLedger(c Codec, s Scanner) (*ledger.Entry, error) {
	var e ledger.Entry
	if err := Scan(s, &e.ID, &e.BookingID, (*string)(&e.Kind), &e.IntentID, &e.Amount,
		&e.Currency, &e.Key, &e.Reason, (*string)(&e.Status), &e.ProviderID, &e.Attempts,
		c.Time(&e.NextAttemptAt), &e.LastError, c.Time(&e.CreatedAt),
		c.Time(&e.UpdatedAt)); err != nil {
		return nil, err
	}
	return &e, nil
}
