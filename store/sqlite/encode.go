package sqlite

import (
	"database/sql"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/store/internal/rowmap"
)

// Column encodings. Instants are unix milliseconds UTC (sub-millisecond
// precision is dropped), NULL for the zero time; civil dates are
// 'YYYY-MM-DD', NULL for the zero date; money is the decimal's exact string.

// millis encodes an instant; the zero time is NULL.
func millis(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.UnixMilli()
}

// fromMillis decodes an instant (UTC); NULL is the zero time.
func fromMillis(n sql.NullInt64) time.Time {
	if !n.Valid {
		return time.Time{}
	}
	return time.UnixMilli(n.Int64).UTC()
}

// parseDate decodes a civil date; NULL is the zero date.
func parseDate(s sql.NullString) (civil.Date, error) {
	if !s.Valid {
		return civil.Date{}, nil
	}
	return civil.Parse(s.String)
}

// parseDecimal decodes a money or percentage column.
func parseDecimal(s string) (decimal.Decimal, error) {
	d, err := decimal.NewFromString(s)
	if err != nil {
		return decimal.Decimal{}, fmt.Errorf("decimal %q: %w", s, err)
	}
	return d, nil
}

// intPtr decodes an optional count.
func intPtr(n sql.NullInt64) *int {
	if !n.Valid {
		return nil
	}
	v := int(n.Int64)
	return &v
}

// codec is how this store writes and reads the columns whose encoding
// differs from PostgreSQL's, for the shared row mapping.
type codec struct{}

var _ rowmap.Codec = codec{}

func (codec) InstantArg(t time.Time) any     { return millis(t) }
func (codec) DayArg(d civil.Date) any        { return d.String() }
func (codec) MoneyArg(d decimal.Decimal) any { return d.String() }
func (codec) JSONArg(b []byte) any           { return string(b) }
func (codec) Instant(t *time.Time) rowmap.Column {
	return rowmap.Into(func(n sql.NullInt64) error { *t = fromMillis(n); return nil })
}

func (codec) Time(t *time.Time) rowmap.Column {
	return rowmap.Into(func(n int64) error { *t = time.UnixMilli(n).UTC(); return nil })
}

func (codec) Day(d *civil.Date) rowmap.Column {
	return rowmap.Into(func(s string) (err error) { *d, err = civil.Parse(s); return err })
}

func (codec) Date(d *civil.Date) rowmap.Column {
	return rowmap.Into(func(s sql.NullString) (err error) { *d, err = parseDate(s); return err })
}

func (codec) Money(d *decimal.Decimal) rowmap.Column {
	return rowmap.Into(func(s string) (err error) { *d, err = parseDecimal(s); return err })
}

func (codec) JSON(decode func([]byte) error) rowmap.Column {
	return rowmap.Into(func(s string) error { return decode([]byte(s)) })
}

func (codec) OptInt(p **int) rowmap.Column {
	return rowmap.Into(func(n sql.NullInt64) error { *p = intPtr(n); return nil })
}

func (codec) NullInt64(p *int64) rowmap.Column {
	return rowmap.Into(func(n sql.NullInt64) error { *p = n.Int64; return nil })
}

func (codec) NullString(p *string) rowmap.Column {
	return rowmap.Into(func(s sql.NullString) error { *p = s.String; return nil })
}
