package notes_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/notes"
)

func TestCheck(t *testing.T) {
	cases := []struct {
		name, body, want, reason string
	}{
		{"trimmed", "  late arrival, keys in the box \n", "late arrival, keys in the box", ""},
		{"line breaks and tabs kept", "cot\r\n\tfor the baby", "cot\n\tfor the baby", ""},
		{"at most MaxLength characters", strings.Repeat("é", notes.MaxLength), strings.Repeat("é", notes.MaxLength), ""},
		{"empty", "", "", "required"},
		{"white space alone", " \n\t ", "", "required"},
		{"too long", strings.Repeat("a", notes.MaxLength+1), "", "too_long"},
		{"NUL", "a\x00b", "", booking.ReasonInvalidCharacters},
		{"lone carriage return", "a\rb", "", booking.ReasonInvalidCharacters},
		{"bidi override", "a\u202eb", "", booking.ReasonInvalidCharacters},
		{"not UTF-8", "a\xffb", "", booking.ReasonInvalidCharacters},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := notes.Check(c.body)
			if c.reason == "" {
				if err != nil || got != c.want {
					t.Fatalf("Check = %q, %v; want %q", got, err, c.want)
				}
				return
			}
			var e *booking.Error
			if !errors.As(err, &e) || e.Code != booking.CodeInvalid || len(e.Fields["body"]) != 1 || e.Fields["body"][0] != c.reason {
				t.Fatalf("Check error = %v, want invalid body %s", err, c.reason)
			}
		})
	}
}
