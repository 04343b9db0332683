package booking

import (
	"testing"

	"github.com/staykit/staykit/civil"
)

// TestNextDay: stepping day by day agrees with civil.Date.AddDays over
// four centuries' leap-year rules and month ends.
func TestNextDay(t *testing.T) {
	for _, start := range []string{"1899-12-25", "1999-12-25", "2023-12-30", "2096-01-01"} {
		d := civil.MustParse(start)
		for i := range 5 * 366 {
			want := civil.MustParse(start).AddDays(i + 1)
			d = nextDay(d)
			if d != want {
				t.Fatalf("%d days after %s: %v, want %v", i+1, start, d, want)
			}
		}
	}
}
