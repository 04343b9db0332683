package units_test

import (
	"errors"
	"testing"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/units"
)

func TestPrepare(t *testing.T) {
	if err := units.PrepareLink(3, 3); booking.ErrorCode(err) != booking.CodeInvalid {
		t.Errorf("PrepareLink of a property to itself: %v, want invalid", err)
	}
	if err := units.PrepareLink(3, 4); err != nil {
		t.Errorf("PrepareLink(3, 4): %v", err)
	}
	for _, tt := range []struct{ in, want, reason string }{
		{"  Studio 1 ", "Studio 1", ""},
		{"", "", "required"},
		{"a\x01b", "", booking.ReasonInvalidCharacters},
		{string(make([]byte, booking.MaxUnitName+1)), "", booking.ReasonInvalidCharacters},
	} {
		got, err := units.PrepareUnit(tt.in)
		var e *booking.Error
		switch {
		case tt.reason == "" && (err != nil || got != tt.want):
			t.Errorf("PrepareUnit(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		case tt.reason != "" && (!asError(err, &e) || e.Fields["name"][0] != tt.reason):
			t.Errorf("PrepareUnit(%q) = %v, want field name %s", tt.in, err, tt.reason)
		}
	}
	long := ""
	for range booking.MaxUnitName + 1 {
		long += "é"
	}
	if _, err := units.PrepareUnit(long); booking.ErrorCode(err) != booking.CodeInvalid {
		t.Errorf("PrepareUnit of %d characters: %v, want invalid (too_long)", booking.MaxUnitName+1, err)
	}
	err := units.Conflict(units.ReasonLastUnit, "x")
	var e *booking.Error
	if !asError(err, &e) || e.Code != booking.CodeConflict || e.Params[booking.ParamReason] != units.ReasonLastUnit {
		t.Errorf("Conflict = %#v", err)
	}
}

func asError(err error, target **booking.Error) bool { return errors.As(err, target) }
