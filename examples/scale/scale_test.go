package main

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

// TestSmoke runs the command on the smallest datasets (its real sizes are
// for a person, not for CI): each route answers 200 and is printed.
func TestSmoke(t *testing.T) {
	var out bytes.Buffer
	if err := run(t.Context(), []string{"-properties", "2", "-bookings", "12", "-time", "1ms", "-dir", t.TempDir()}, &out, io.Discard); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	for _, want := range []string{
		"2 properties, 12 bookings",
		"search, all free, whole list", "search, all free, by price, page of 20", "search, half held, page of 20",
		"properties list, page of 50", "availability, 12 months", "price, 7 nights",
		"host calendar, one property's year", "365 days",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

func TestBadFlags(t *testing.T) {
	for _, args := range [][]string{{"-properties", "0"}, {"-properties", "ten"}, {"-time"}} {
		if err := run(t.Context(), args, io.Discard, io.Discard); !errors.Is(err, errUsage) {
			t.Errorf("%v: %v, want errUsage", args, err)
		}
	}
}
