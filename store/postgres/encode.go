package postgres

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/pgtype"

	"github.com/staykit/staykit/civil"
)

// Column encodings. Money is NUMERIC, written and read through
// decimal.Decimal's database/sql methods (its exact text); civil dates are
// DATE, written as 'YYYY-MM-DD' text, NULL for the zero date; instants are
// TIMESTAMPTZ (microseconds), NULL for the zero time, read back in UTC.

// instant encodes an instant; the zero time is NULL.
func instant(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.UTC()
}

// fromInstant decodes an instant (UTC); NULL is the zero time.
func fromInstant(t pgtype.Timestamptz) time.Time {
	if !t.Valid {
		return time.Time{}
	}
	return t.Time.UTC()
}

// date encodes a civil date; the zero date is NULL.
func date(d civil.Date) any {
	if d.IsZero() {
		return nil
	}
	return d.String()
}

// fromDate decodes a civil date; NULL is the zero date.
func fromDate(d pgtype.Date) civil.Date {
	if !d.Valid {
		return civil.Date{}
	}
	return civil.Of(d.Time)
}

// nullInt encodes an optional count; nil is NULL.
func nullInt(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}

// intPtr decodes an optional count.
func intPtr(n pgtype.Int8) *int {
	if !n.Valid {
		return nil
	}
	v := int(n.Int64)
	return &v
}

// nullString encodes an optional identifier; "" is NULL.
func nullString(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// nullID encodes an optional reference; 0 is NULL.
func nullID(id int64) any {
	if id == 0 {
		return nil
	}
	return id
}

// toJSON encodes a JSONB column. pgx sends a []byte to a jsonb parameter
// as the JSON text it holds.
func toJSON(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode json: %w", err)
	}
	return b, nil
}

// fromJSON decodes a JSONB column.
func fromJSON(b []byte, v any) error {
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("decode json: %w", err)
	}
	return nil
}

// scanner is what pgx.Row and pgx.Rows have in common.
type scanner interface {
	Scan(dest ...any) error
}
