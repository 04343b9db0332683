// Package sandbox is staykit's test mode over HTTP: an adjustable clock
// (Clock, the wall clock plus an offset) that a server wires into every
// service instead of the wall clock when payments are fake, and a handler
// (Handler) that moves it forward and runs the work that became due, so
// that an integrator sees a booking's whole life — the hold expiring, the
// balance charged, the security deposit held and released, reminders and
// webhooks sent — in seconds instead of weeks.
//
// The clock lives in the memory of one process: each replica has its own,
// and a restart puts it back to the wall clock. Never wire it with real
// payments: a provider's own clock does not move (package
// examples/server refuses -sandbox with Stripe keys).
package sandbox

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// Clock is the wall clock plus an offset that only grows. It is a
// booking.Clock, safe for concurrent use; its zero value is the wall
// clock.
type Clock struct {
	offset atomic.Int64 // nanoseconds
	// wall is the underlying clock; nil means time.Now (tests set it).
	wall func() time.Time
}

// NewClock returns a Clock at the wall clock.
func NewClock() *Clock { return &Clock{} }

// NewClockAt returns a Clock over wall instead of time.Now (tests).
func NewClockAt(wall func() time.Time) *Clock { return &Clock{wall: wall} }

// Now is the wall clock plus the offset.
func (c *Clock) Now() time.Time {
	now := time.Now
	if c.wall != nil {
		now = c.wall
	}
	return now().Add(time.Duration(c.offset.Load()))
}

// Offset is how far ahead of the wall clock c is.
func (c *Clock) Offset() time.Duration { return time.Duration(c.offset.Load()) }

// Advance moves c forward by d (d > 0) and returns the new time.
func (c *Clock) Advance(d time.Duration) time.Time {
	if d > 0 {
		c.offset.Add(int64(d))
	}
	return c.Now()
}

// MaxAdvance is the longest single move: a little over a year and a half,
// beyond which nothing a booking schedules is waiting.
const MaxAdvance = 600 * 24 * time.Hour

// ParseDuration reads an ISO 8601 duration of weeks, days, hours, minutes
// and seconds: "P30D", "PT12H", "P1DT2H30M", "P2W", "PT90S". Years and
// months are refused (their length depends on the date). The result is
// positive and at most MaxAdvance.
func ParseDuration(s string) (time.Duration, error) {
	bad := fmt.Errorf("sandbox: %q is not an ISO 8601 duration such as P30D or PT12H", s)
	rest, ok := strings.CutPrefix(strings.ToUpper(strings.TrimSpace(s)), "P")
	if !ok || rest == "" {
		return 0, bad
	}
	var total time.Duration
	inTime, units := false, 0
	for rest != "" {
		if rest[0] == 'T' {
			if inTime {
				return 0, bad
			}
			inTime, rest = true, rest[1:]
			if rest == "" {
				return 0, bad
			}
			continue
		}
		i := 0
		for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
			i++
		}
		if i == 0 || i == len(rest) || i > 6 {
			return 0, bad
		}
		n, err := strconv.Atoi(rest[:i])
		if err != nil {
			return 0, bad
		}
		var unit time.Duration
		switch c := rest[i]; {
		case !inTime && c == 'W':
			unit = 7 * 24 * time.Hour
		case !inTime && c == 'D':
			unit = 24 * time.Hour
		case inTime && c == 'H':
			unit = time.Hour
		case inTime && c == 'M':
			unit = time.Minute
		case inTime && c == 'S':
			unit = time.Second
		default:
			return 0, bad
		}
		total += time.Duration(n) * unit
		if total > MaxAdvance {
			return 0, errTooFar
		}
		units++
		rest = rest[i+1:]
	}
	if units == 0 || total <= 0 {
		return 0, bad
	}
	return total, nil
}

var errTooFar = errors.New("sandbox: a move is at most 600 days")
