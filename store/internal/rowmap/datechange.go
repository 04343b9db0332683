package rowmap

import (
	"encoding/json"

	"github.com/staykit/staykit/datechange"
	"github.com/staykit/staykit/store/internal/storedform"
)

// DateChangeColumns are the columns ScanDateChange reads.
const DateChangeColumns = `id, org_id, booking_id, status, entry_key, reason, data, created_at, expires_at, updated_at`

// DateChangeData is what a date change's data column holds: the change
// as JSON (its stay before, its offer, its customer).
func DateChangeData(c *datechange.Change) ([]byte, error) { return json.Marshal(c) }

// ScanDateChange reads a row of DateChangeColumns.
func ScanDateChange(c Codec, s Scanner) (*datechange.Change, error) {
	var d datechange.Change
	var id, org, bk int64
	var status, key, reason string
	data := c.JSON(func(b []byte) error { return json.Unmarshal(b, &d) })
	var created, expires, updated = c.Time(&d.CreatedAt), c.Instant(&d.ExpiresAt), c.Time(&d.UpdatedAt)
	if err := Scan(s, &id, &org, &bk, &status, &key, &reason, data, created, expires, updated); err != nil {
		return nil, err
	}
	d.ID, d.OrgID, d.BookingID, d.Status, d.EntryKey, d.Reason = id, org, bk, datechange.Status(status), key, reason
	return &d, nil
}

// DateChangeNotFound is the error for a change that is not there.
func DateChangeNotFound() error { return datechange.ErrChangeNotFound() }

// EncodeQuoteJSON is a quote as the bookings' quote column stores it.
var EncodeQuoteJSON = storedform.EncodeQuote
