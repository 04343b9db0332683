package registration_test

import (
	"strings"
	"testing"

	"github.com/staykit/staykit/registration"
)

func TestCheck(t *testing.T) {
	for _, tt := range []struct {
		name, country, in    string
		wantNumber, wantReas string
	}{
		{"Empty", "FR", "  ", "", ""},
		{"FRCompact", "FR", "75056123456AB", "75056123456AB", ""},
		{"FRSpacedLowerCase", "fr", " 75056 123456 ab ", "75056123456AB", ""},
		{"FRDigitKey", "FR", "92012-000123-07", "9201200012307", ""},
		{"FRCorsica", "FR", "2A004 123456 XY", "2A004123456XY", ""},
		{"FRTooShort", "FR", "75056 12345 AB", "", registration.ReasonInvalidFormat},
		{"FRLettersInIdentifier", "FR", "75056 12345A AB", "", registration.ReasonInvalidFormat},
		{"FRBadCommune", "FR", "7A056 123456 AB", "", registration.ReasonInvalidFormat},
		{"FRTooLong", "FR", "75056 123456 ABC", "", registration.ReasonInvalidFormat},
		{"ITExample", "IT", "IT 039 007 B1 00001", "IT039007B100001", ""},
		{"ITLongestRandom", "IT", "IT058091C2ABCD1234", "IT058091C2ABCD1234", ""},
		{"ITNoRandom", "IT", "IT058091C2", "", registration.ReasonInvalidFormat},
		{"ITRandomTooLong", "IT", "IT058091C2ABCD12345", "", registration.ReasonInvalidFormat},
		{"ITNoPrefix", "IT", "058091C2ABCD", "", registration.ReasonInvalidFormat},
		{"ITLetterInProvince", "IT", "IT0A8091C2AB", "", registration.ReasonInvalidFormat},
		{"ESKeptAsEntered", "ES", "ESFCTU0000280190002473490000000000000000VUT-123456", "ESFCTU0000280190002473490000000000000000VUT-123456", ""},
		{"OtherTrimmed", "DE", " 02/123/45 ", "02/123/45", ""},
		{"ControlCharacter", "DE", "12\u202e34", "", registration.ReasonInvalidCharacters},
		{"Punctuation", "ES", "VT-123;DROP", "", registration.ReasonInvalidCharacters},
		{"TooLong", "ES", strings.Repeat("A", registration.MaxLength+1), "", registration.ReasonTooLong},
		{"LongestAllowed", "ES", strings.Repeat("A", registration.MaxLength), strings.Repeat("A", registration.MaxLength), ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, reason := registration.Check(tt.country, tt.in)
			if got != tt.wantNumber || reason != tt.wantReas {
				t.Errorf("Check(%q, %q) = %q, %q; want %q, %q", tt.country, tt.in, got, reason, tt.wantNumber, tt.wantReas)
			}
		})
	}
}
