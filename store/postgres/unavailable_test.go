package postgres

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/puddle/v2"

	"github.com/staykit/staykit/booking"
)

// TestClassify: the errors that say the database cannot serve now are
// marked booking.ErrStoreUnavailable, with the driver's error still
// reachable; the errors of a request, and the caller's own cancellation,
// are returned as they are.
func TestClassify(t *testing.T) {
	pg := func(code string) error {
		return fmt.Errorf("postgres: op: %w", &pgconn.PgError{Severity: "FATAL", Code: code})
	}
	tests := []struct {
		name string
		err  error
		want bool
		lost bool // the pool's connections are dropped
	}{
		{"admin shutdown (pg_terminate_backend)", pg("57P01"), true, true},
		{"crash shutdown", pg("57P02"), true, true},
		{"cannot connect now", pg("57P03"), true, false},
		{"connection failure", pg("08006"), true, false},
		{"disk full", pg("53100"), true, false},
		{"too many connections", pg("53300"), true, false},
		{"io error", pg("58030"), true, false},
		{"pool closed", fmt.Errorf("postgres: op: %w", puddle.ErrClosedPool), true, false},
		{"connection closed", fmt.Errorf("postgres: op: %w", pgconn.ErrConnClosed), true, true},
		{"connection lost", fmt.Errorf("read: %w", io.ErrUnexpectedEOF), true, true},
		{"network", &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}, true, true},
		{"unique violation", pg("23505"), false, false},
		{"exclusion violation", pg("23P01"), false, false},
		{"serialization failure", pg("40001"), false, false},
		{"query canceled", pg("57014"), false, false},
		{"no rows", pgx.ErrNoRows, false, false},
		{"canceled by the caller", fmt.Errorf("op: %w", context.Canceled), false, false},
		{"deadline of the caller", fmt.Errorf("op: %w", context.DeadlineExceeded), false, false},
		{"nil", nil, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := classify(tt.err)
			if errors.Is(got, booking.ErrStoreUnavailable) != tt.want {
				t.Fatalf("classify(%v) unavailable = %v, want %v", tt.err, !tt.want, tt.want)
			}
			if tt.err != nil && (got.Error() != tt.err.Error() || !errors.Is(got, tt.err)) {
				t.Errorf("classify(%v) = %v: the cause is lost", tt.err, got)
			}
			if !tt.want && got != tt.err {
				t.Errorf("classify(%v) = %v, want it unchanged", tt.err, got)
			}
			if tt.want && lost(tt.err) != tt.lost {
				t.Errorf("lost(%v) = %v, want %v", tt.err, !tt.lost, tt.lost)
			}
		})
	}
}
