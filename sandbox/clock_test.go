package sandbox

import (
	"sync"
	"testing"
	"time"
)

func TestParseDuration(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"P30D", 30 * 24 * time.Hour, true},
		{"p2w", 14 * 24 * time.Hour, true},
		{"PT12H", 12 * time.Hour, true},
		{"P1DT2H30M", 26*time.Hour + 30*time.Minute, true},
		{"PT90S", 90 * time.Second, true},
		{"P1M", 0, false}, // months: no fixed length
		{"P1Y", 0, false},
		{"PT1D", 0, false},
		{"P", 0, false},
		{"PT", 0, false},
		{"P0D", 0, false},
		{"30D", 0, false},
		{"P601D", 0, false},
		{"P-1D", 0, false},
		{"", 0, false},
	} {
		got, err := ParseDuration(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ParseDuration(%q) = %v, %v; want %v, ok %v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}

// Concurrent moves all count, and Now is the wall clock plus their sum.
func TestClockAdvanceConcurrent(t *testing.T) {
	wall := time.Date(2026, 6, 1, 8, 0, 0, 0, time.UTC)
	c := NewClockAt(func() time.Time { return wall })
	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() {
			c.Advance(time.Hour)
			_ = c.Now()
		})
	}
	wg.Wait()
	if got := c.Now(); !got.Equal(wall.Add(50 * time.Hour)) {
		t.Errorf("Now = %v, want %v", got, wall.Add(50*time.Hour))
	}
	if c.Advance(-time.Hour); c.Offset() != 50*time.Hour {
		t.Errorf("a negative move changed the offset to %v", c.Offset())
	}
}
