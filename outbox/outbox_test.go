package outbox_test

import (
	"testing"
	"time"

	"github.com/staykit/staykit/outbox"
)

var t0 = time.Date(2026, 6, 1, 8, 0, 0, 0, time.UTC)

// TestPausePolicy: an endpoint is paused at its PauseFailures-th failed
// attempt in a row when they span PauseSpan, not before: many quick
// failures (a burst of events during a short outage) do not pause it, a
// success starts the count again.
func TestPausePolicy(t *testing.T) {
	tests := []struct {
		name  string
		every time.Duration // between two failed attempts
		n     int
		want  bool
	}{
		{"QuickBurst", time.Second, 50, false},
		{"TooFewOverADay", 3 * time.Hour, outbox.PauseFailures - 1, false},
		{"EnoughOverAnHour", outbox.PauseSpan / (outbox.PauseFailures - 1), outbox.PauseFailures, true},
		{"BurstThenAnHourLater", 0, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var e outbox.Endpoint
			paused := 0
			at := t0
			record := func(ok bool) {
				if e.RecordAttempt(ok, at) {
					paused++
				}
			}
			if tt.name == "BurstThenAnHourLater" {
				for range outbox.PauseFailures {
					record(false)
					at = at.Add(time.Second)
				}
				at = t0.Add(outbox.PauseSpan)
				record(false)
			}
			for i := range tt.n {
				if i > 0 {
					at = at.Add(tt.every)
				}
				record(false)
			}
			if e.Paused() != tt.want || (paused == 1) != tt.want || tt.want && !e.PausedAt.Equal(at) {
				t.Errorf("after %d failures: %+v (paused %d times), want paused %v", e.Failures, e, paused, tt.want)
			}
		})
	}
	var e outbox.Endpoint
	for i := range outbox.PauseFailures - 1 {
		e.RecordAttempt(false, t0.Add(time.Duration(i)*time.Hour))
	}
	e.RecordAttempt(true, t0.Add(10*time.Hour))
	if e.Failures != 0 || !e.FailingSince.IsZero() || e.RecordAttempt(false, t0.Add(11*time.Hour)) {
		t.Errorf("after a success: %+v, want the count started again", e)
	}
}

func TestPausedEvent(t *testing.T) {
	e := outbox.Endpoint{ID: 42, OrgID: 7, PausedAt: t0, Active: true}
	ev := outbox.PausedEvent(e)
	if id, ok := outbox.PausedEndpoint(ev); !ok || id != 42 || ev.OrgID != 7 || ev.Kind != outbox.KindEndpointPaused {
		t.Errorf("PausedEvent = %+v, names endpoint %d, %v", ev, id, ok)
	}
	if outbox.PausedEvent(e).Key != ev.Key {
		t.Error("one pause, two keys")
	}
	e.PausedAt = t0.Add(time.Hour)
	if outbox.PausedEvent(e).Key == ev.Key {
		t.Error("two pauses, one key")
	}
	if _, ok := outbox.PausedEndpoint(outbox.Event{Key: "booking.confirmed:1", Kind: "booking.confirmed"}); ok {
		t.Error("a booking event names an endpoint")
	}
	if e.Wants(outbox.KindEndpointPaused) || !e.Wants("booking.confirmed") {
		t.Error("an endpoint takes the pause events, or not the others")
	}
}

// Jitter shortens a wait by at most a tenth, never lengthens it, and does
// vary it.
func TestJitter(t *testing.T) {
	for _, d := range []time.Duration{30 * time.Second, time.Hour, 2 * time.Hour} {
		seen := map[time.Duration]bool{}
		for range 200 {
			j := outbox.Jitter(d)
			if j > d || j < d-d/10 || j%time.Millisecond != 0 {
				t.Fatalf("Jitter(%v) = %v, want within [%v, %v]", d, j, d-d/10, d)
			}
			seen[j] = true
		}
		if len(seen) < 2 {
			t.Errorf("Jitter(%v) never varies", d)
		}
	}
	if outbox.Jitter(0) != 0 {
		t.Error("Jitter(0) != 0")
	}
}
