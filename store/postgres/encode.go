package postgres

import (
	"time"

	"github.com/jackc/pgx/v5/pgtype"
	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/store/internal/rowmap"
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

// fromDate decodes a civil date; NULL is the zero date.
func fromDate(d pgtype.Date) civil.Date {
	if !d.Valid {
		return civil.Date{}
	}
	return civil.Of(d.Time)
}

// intPtr decodes an optional count.
func intPtr(n pgtype.Int8) *int {
	if !n.Valid {
		return nil
	}
	v := int(n.Int64)
	return &v
}

// codec is how this store writes and reads the columns whose encoding
// differs from SQLite's, for the shared row mapping.
type codec struct{}

var _ rowmap.Codec = codec{}

func (codec) InstantArg(t time.Time) any     { return instant(t) }
func (codec) DayArg(d civil.Date) any        { return rowmap.Date(d) }
func (codec) MoneyArg(d decimal.Decimal) any { return d }
func (codec) JSONArg(b []byte) any           { return b }
func (codec) Instant(t *time.Time) rowmap.Column {
	return rowmap.Into(func(v pgtype.Timestamptz) error { *t = fromInstant(v); return nil })
}

func (codec) Time(t *time.Time) rowmap.Column {
	return rowmap.Into(func(v time.Time) error { *t = v.UTC(); return nil })
}

func (codec) Day(d *civil.Date) rowmap.Column {
	return rowmap.Into(func(v pgtype.Date) error { *d = fromDate(v); return nil })
}

func (codec) Date(d *civil.Date) rowmap.Column {
	return rowmap.Into(func(v pgtype.Date) error { *d = fromDate(v); return nil })
}

func (codec) Money(d *decimal.Decimal) rowmap.Column {
	return rowmap.Into(func(v decimal.Decimal) error { *d = v; return nil })
}

func (codec) JSON(decode func([]byte) error) rowmap.Column {
	return rowmap.Into(decode)
}

func (codec) OptInt(p **int) rowmap.Column {
	return rowmap.Into(func(n pgtype.Int8) error { *p = intPtr(n); return nil })
}

func (codec) NullInt64(p *int64) rowmap.Column {
	return rowmap.Into(func(n pgtype.Int8) error { *p = n.Int64; return nil })
}

func (codec) NullString(p *string) rowmap.Column {
	return rowmap.Into(func(s pgtype.Text) error { *p = s.String; return nil })
}
