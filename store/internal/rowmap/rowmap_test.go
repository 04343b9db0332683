package rowmap_test

import (
	"errors"
	"strconv"
	"testing"

	"github.com/staykit/staykit/store/internal/rowmap"
)

// fakeRow scans its values, in order, into *string and *int64
// destinations, as a driver would.
type fakeRow struct {
	values []any
	err    error
}

func (r fakeRow) Scan(dest ...any) error {
	if r.err != nil {
		return r.err
	}
	if len(dest) != len(r.values) {
		return errors.New("wrong number of destinations")
	}
	for i, d := range dest {
		switch d := d.(type) {
		case *string:
			*d = r.values[i].(string)
		case *int64:
			*d = r.values[i].(int64)
		default:
			return errors.New("unsupported destination")
		}
	}
	return nil
}

func TestScan(t *testing.T) {
	errScan := errors.New("scan failed")
	atoi := func(dst *int) rowmap.Column {
		return rowmap.Into(func(s string) (err error) { *dst, err = strconv.Atoi(s); return err })
	}
	tests := []struct {
		name      string
		row       fakeRow
		wantID    int64
		wantCount int
		wantErr   bool
	}{
		{name: "OK", row: fakeRow{values: []any{int64(7), "42"}}, wantID: 7, wantCount: 42},
		{name: "ErrDecode", row: fakeRow{values: []any{int64(7), "x"}}, wantErr: true},
		{name: "ErrScan", row: fakeRow{err: errScan}, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var (
				id    int64
				count int
			)
			err := rowmap.Scan(tt.row, &id, atoi(&count))
			if (err != nil) != tt.wantErr {
				t.Fatalf("Scan: err = %v, want error: %v", err, tt.wantErr)
			}
			if tt.row.err != nil && !errors.Is(err, tt.row.err) {
				t.Errorf("Scan: err = %v, want the scanner's %v unwrapped", err, tt.row.err)
			}
			if tt.wantErr {
				return
			}
			if got, want := id, tt.wantID; got != want {
				t.Errorf("id = %d, want %d", got, want)
			}
			if got, want := count, tt.wantCount; got != want {
				t.Errorf("count = %d, want %d", got, want)
			}
		})
	}
}
