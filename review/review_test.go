package review_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/review"
)

func TestCheck(t *testing.T) {
	cases := []struct {
		name    string
		rating  int
		comment string
		want    string
		fields  map[string]string // field → reason
	}{
		{"rating alone", 1, "", "", nil},
		{"trimmed, CR LF made LF", 5, "  Calme\r\net propre \n", "Calme\net propre", nil},
		{"longest comment", 3, strings.Repeat("é", review.MaxComment), strings.Repeat("é", review.MaxComment), nil},
		{"rating 0", 0, "", "", map[string]string{"rating": "out_of_range"}},
		{"rating 6", 6, "", "", map[string]string{"rating": "out_of_range"}},
		{"too long", 4, strings.Repeat("a", review.MaxComment+1), "", map[string]string{"comment": "too_long"}},
		{"NUL", 4, "a\x00b", "", map[string]string{"comment": booking.ReasonInvalidCharacters}},
		{"bidi override", 4, "a\u202eb", "", map[string]string{"comment": booking.ReasonInvalidCharacters}},
		{"not UTF-8", 4, "a\xffb", "", map[string]string{"comment": booking.ReasonInvalidCharacters}},
		{"both wrong", 9, "a\x00", "", map[string]string{"rating": "out_of_range", "comment": booking.ReasonInvalidCharacters}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := review.Check(c.rating, c.comment)
			if c.fields == nil {
				if err != nil || got != c.want {
					t.Fatalf("Check = %q, %v; want %q", got, err, c.want)
				}
				return
			}
			var e *booking.Error
			if !errors.As(err, &e) || e.Code != booking.CodeInvalid || len(e.Fields) != len(c.fields) {
				t.Fatalf("Check error = %v, want invalid %v", err, c.fields)
			}
			for f, reason := range c.fields {
				if len(e.Fields[f]) != 1 || e.Fields[f][0] != reason {
					t.Errorf("field %s: %v, want %s", f, e.Fields[f], reason)
				}
			}
		})
	}
}

func TestFirstNameAndAverage(t *testing.T) {
	for name, want := range map[string]string{"Marie Curie": "Marie", "  Ada  Lovelace": "Ada", "Zoë": "Zoë", "": "", "   ": ""} {
		if got := review.FirstName(name); got != want {
			t.Errorf("FirstName(%q) = %q, want %q", name, got, want)
		}
	}
	for _, c := range []struct {
		sum   int64
		count int
		want  string
	}{{0, 0, "0"}, {9, 2, "4.5"}, {13, 3, "4.3"}, {14, 3, "4.7"}, {5, 1, "5"}, {1, 8, "0.1"}} {
		if got := review.Average(c.sum, c.count); got.String() != c.want {
			t.Errorf("Average(%d, %d) = %s, want %s", c.sum, c.count, got, c.want)
		}
	}
}
