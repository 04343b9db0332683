package booking_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/staykit/staykit/booking"
)

// TestValidSlugIsItsPattern checks ValidSlug against the pattern it
// implements, on hand-picked slugs and on every string of up to three
// bytes drawn from the characters at its edges.
func TestValidSlugIsItsPattern(t *testing.T) {
	pattern := regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,62}$`)
	cases := []string{"", "demo", "demo-request", "a", "0", "-demo", "demo-", "Demo", "dé", "de mo", "de_mo",
		strings.Repeat("a", 63), strings.Repeat("a", 64), "a" + strings.Repeat("-", 62), "a\x00"}
	alphabet := []byte{'a', 'z', '0', '9', '-', 'A', '_', '/', '`', '{', 0, 0xff}
	for _, a := range alphabet {
		cases = append(cases, string([]byte{a}))
		for _, b := range alphabet {
			cases = append(cases, string([]byte{a, b}))
			for _, c := range alphabet {
				cases = append(cases, string([]byte{a, b, c}))
			}
		}
	}
	for _, s := range cases {
		if got, want := booking.ValidSlug(s), pattern.MatchString(s); got != want {
			t.Errorf("ValidSlug(%q) = %v, the pattern says %v", s, got, want)
		}
	}
}
