// Package bookingtest holds fakes of the booking package's small interfaces
// for tests across staykit: a clock that moves only when told and a
// notifier that remembers what it was told.
package bookingtest

import (
	"context"
	"sync"
	"time"

	"github.com/staykit/staykit/booking"
)

// Clock is a booking.Clock that stands still until Set or Advance moves it.
// It is safe for concurrent use.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// NewClock returns a Clock showing now.
func NewClock(now time.Time) *Clock { return &Clock{now: now} }

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Set moves the clock to t.
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t
}

// Advance moves the clock forward by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// Notifier is a booking.Notifier that records every notification.
type Notifier struct {
	mu   sync.Mutex
	sent []booking.Notification
}

// Notify records n.
func (r *Notifier) Notify(_ context.Context, n booking.Notification) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.sent = append(r.sent, n)
	return nil
}

// Kinds returns the kinds of the notifications about a booking token, in
// the order they were sent.
func (r *Notifier) Kinds(token string) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var kinds []string
	for _, n := range r.sent {
		if n.Booking.Token == token {
			kinds = append(kinds, n.Kind)
		}
	}
	return kinds
}

var (
	_ booking.Clock    = (*Clock)(nil)
	_ booking.Notifier = (*Notifier)(nil)
)
