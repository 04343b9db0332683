package rowmap

import "github.com/staykit/staykit/booking"

// IdempotencyColumns are the columns of idempotency_keys, in the order
// ScanIdempotencyRecord reads them.
const IdempotencyColumns = `org_id, scope, key, request_hash, booking_id, created_at`

// ScanIdempotencyRecord reads a row of IdempotencyColumns; a NULL
// booking_id (the request created no booking) is 0.
func ScanIdempotencyRecord(c Codec, s Scanner) (*booking.IdempotencyRecord, error) {
	var r booking.IdempotencyRecord
	if err := Scan(s, &r.OrgID, &r.Scope, &r.Key, &r.RequestHash, c.NullInt64(&r.BookingID),
		c.Instant(&r.CreatedAt)); err != nil {
		return nil, err
	}
	return &r, nil
}
