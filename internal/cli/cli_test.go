package cli

import "testing"

func TestTermSafe(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"Camille Martin", "Camille Martin"},
		{"Zoé Ünal 李", "Zoé Ünal 李"},
		{"evil\x1b[2J\x1b]0;pwned\x07", `evil\u001b[2J\u001b]0;pwned\u0007`},
		{"abc\u202edcba", `abc\u202edcba`},   // right-to-left override
		{"a\u2066b\u2069", `a\u2066b\u2069`}, // bidi isolates
		{"zero\u200bwidth\ufeff", `zero\u200bwidth\ufeff`},
		{"c1\u009bcsi\u0085", `c1\u009bcsi\u0085`},
		{"del\x7f", `del\u007f`},
		{"tag\U000e0041", `tag\U000e0041`},
		{"bad\xffutf8", `bad\xffutf8`},
		{`back\slash`, `back\\slash`},
		{"line\nbreak\ttab", `line\u000abreak\u0009tab`},
	}
	for _, tt := range tests {
		if got := TermSafe(tt.in); got != tt.want {
			t.Errorf("TermSafe(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
