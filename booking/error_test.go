package booking_test

import (
	"errors"
	"fmt"
	"io/fs"
	"testing"

	"github.com/staykit/staykit/booking"
)

// TestStoreUnavailable: a marked error says booking.ErrStoreUnavailable
// and keeps its message and its cause; ErrorCode still calls it internal;
// nil stays nil and marking twice changes nothing.
func TestStoreUnavailable(t *testing.T) {
	cause := &fs.PathError{Op: "write", Path: "staykit.db", Err: errors.New("no space left on device")}
	err := booking.StoreUnavailable(fmt.Errorf("sqlite: create booking: %w", cause))
	if !errors.Is(err, booking.ErrStoreUnavailable) {
		t.Error("not ErrStoreUnavailable")
	}
	var pe *fs.PathError
	if !errors.As(err, &pe) || pe != cause {
		t.Error("the cause is lost")
	}
	if got, want := err.Error(), "sqlite: create booking: write staykit.db: no space left on device"; got != want {
		t.Errorf("message %q, want %q", got, want)
	}
	if got := booking.ErrorCode(err); got != booking.CodeInternal {
		t.Errorf("ErrorCode = %q, want internal", got)
	}
	if again := booking.StoreUnavailable(err); again != err {
		t.Errorf("marked twice: %v", again)
	}
	if booking.StoreUnavailable(nil) != nil {
		t.Error("nil is marked")
	}
	if errors.Is(fmt.Errorf("x: %w", cause), booking.ErrStoreUnavailable) {
		t.Error("an unmarked error is ErrStoreUnavailable")
	}
}
