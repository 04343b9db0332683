package apihttp

import (
	"strings"
	"testing"
)

func TestCleanRequestID(t *testing.T) {
	for _, tt := range []struct {
		in   string
		keep bool
	}{
		{"abc-123_X.y", true},
		{"", false},
		{"has space", false},
		{"newline\n", false},
		{"é", false},
		{strings.Repeat("a", maxRequestIDLength), true},
		{strings.Repeat("a", maxRequestIDLength+1), false},
	} {
		got := CleanRequestID(tt.in)
		if tt.keep && got != tt.in {
			t.Errorf("CleanRequestID(%q) = %q, want it kept", tt.in, got)
		}
		if !tt.keep && (got == tt.in || !isNewID(got)) {
			t.Errorf("CleanRequestID(%q) = %q, want a new ID of 32 hex digits", tt.in, got)
		}
	}
}

func TestNewRequestIDsDiffer(t *testing.T) {
	seen := map[string]bool{}
	for range 10_000 {
		id := newRequestID()
		if !isNewID(id) || seen[id] {
			t.Fatalf("request ID %q: want 32 hex digits, never seen before", id)
		}
		seen[id] = true
	}
}

// isNewID reports whether id has the shape of newRequestID's IDs.
func isNewID(id string) bool {
	if len(id) != 32 {
		return false
	}
	for _, c := range id {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}
