package booking

import "time"

// Clock tells the time. Service reads it once per use case and passes that
// instant down, so one operation sees one "now".
type Clock interface {
	Now() time.Time
}

// SystemClock is the wall clock.
type SystemClock struct{}

// Now returns time.Now().
func (SystemClock) Now() time.Time { return time.Now() }
