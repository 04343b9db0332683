// Package rowmap turns database rows into domain values and domain values
// into statement arguments, once for store/sqlite and store/postgres. Each
// store keeps its SQL; the column lists, the order of the arguments and
// the scan destinations live here.
//
// The stores write some columns differently (instants, civil dates, money,
// JSON): a store passes its Codec, which says how it writes such a value
// and where it scans one. Everything else is the same in both.
//
// The package is named rowmap, not rows, so that it does not collide with
// the stores' many local variables named rows.
package rowmap

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/civil"
)

// Scanner is what a single row and a cursor over rows have in common, in
// database/sql and in pgx.
type Scanner interface {
	Scan(dest ...any) error
}

// Codec is how a store writes and reads the columns whose encoding differs
// between the stores. The write methods return a statement argument; the
// read methods return a Column that Scan fills and then decodes into the
// pointer given.
type Codec interface {
	// InstantArg writes an instant; the zero time is NULL.
	InstantArg(t time.Time) any
	// DayArg writes a civil date of a NOT NULL column.
	DayArg(d civil.Date) any
	// MoneyArg writes an exact decimal.
	MoneyArg(d decimal.Decimal) any
	// JSONArg writes encoded JSON.
	JSONArg(b []byte) any

	// Instant reads an instant; NULL is the zero time.
	Instant(t *time.Time) Column
	// Time reads an instant of a NOT NULL column.
	Time(t *time.Time) Column
	// Day reads a civil date of a NOT NULL column.
	Day(d *civil.Date) Column
	// Date reads a civil date; NULL is the zero date.
	Date(d *civil.Date) Column
	// Money reads an exact decimal.
	Money(d *decimal.Decimal) Column
	// JSON reads a JSON column and hands its bytes to decode.
	JSON(decode func([]byte) error) Column
	// OptInt reads an optional count; NULL is nil.
	OptInt(p **int) Column
	// NullInt64 reads an optional reference; NULL is 0.
	NullInt64(p *int64) Column
	// NullString reads an optional string; NULL is "".
	NullString(p *string) Column
}

// Column is a scan destination that turns what the driver scanned into a
// domain value once the row is read. Build one with Into.
type Column interface {
	dest() any
	decode() error
}

// Into returns a Column that scans into a D and then calls decode with it.
func Into[D any](decode func(D) error) Column {
	return &column[D]{fn: decode}
}

type column[D any] struct {
	raw D
	fn  func(D) error
}

func (c *column[D]) dest() any     { return &c.raw }
func (c *column[D]) decode() error { return c.fn(c.raw) }

// Scan reads one row into dests: a Column is scanned into its own
// destination and decoded after the row is read; anything else is handed
// to the driver as it is.
func Scan(s Scanner, dests ...any) error {
	raw := make([]any, len(dests))
	for i, d := range dests {
		if c, ok := d.(Column); ok {
			raw[i] = c.dest()
		} else {
			raw[i] = d
		}
	}
	if err := s.Scan(raw...); err != nil {
		return err
	}
	for _, d := range dests {
		if c, ok := d.(Column); ok {
			if err := c.decode(); err != nil {
				return err
			}
		}
	}
	return nil
}

// JSON reads a JSON column into v.
func JSON(c Codec, v any) Column {
	return c.JSON(func(b []byte) error { return fromJSON(b, v) })
}

// JSONArg writes v as a JSON column.
func JSONArg(c Codec, v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode json: %w", err)
	}
	return c.JSONArg(b), nil
}

// JSONArgs writes each of vs as a JSON column, in order.
func JSONArgs(c Codec, vs ...any) ([]any, error) {
	args := make([]any, len(vs))
	for i, v := range vs {
		var err error
		if args[i], err = JSONArg(c, v); err != nil {
			return nil, err
		}
	}
	return args, nil
}

// fromJSON decodes a JSON column.
func fromJSON(b []byte, v any) error {
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("decode json: %w", err)
	}
	return nil
}

// Date writes a civil date; the zero date is NULL. Both stores write a date
// as its 'YYYY-MM-DD' text.
func Date(d civil.Date) any {
	if d.IsZero() {
		return nil
	}
	return d.String()
}

// NullInt writes an optional count; nil is NULL.
func NullInt(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}

// NullString writes an optional identifier; "" is NULL.
func NullString(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// NullID writes an optional reference; 0 is NULL.
func NullID(id int64) any {
	if id == 0 {
		return nil
	}
	return id
}
