package httpapi

import (
	"net/http"
	"net/http/httptest"
	"path"
	"strings"
	"testing"

	"github.com/staykit/staykit/internal/apihttp"
)

// TestCleanPathIsPathClean checks cleanPath against its definition —
// path.Clean leaves the path as it is, but for a trailing slash — on
// every string of up to seven bytes of '/', '.' and 'a'.
func TestCleanPathIsPathClean(t *testing.T) {
	byDefinition := func(p string) bool {
		if p == "" || p[0] != '/' {
			return false
		}
		c := path.Clean(p)
		if strings.HasSuffix(p, "/") && c != "/" {
			c += "/"
		}
		return c == p
	}
	cases := []string{""}
	for n, level := 0, []string{""}; n < 7; n++ {
		var next []string
		for _, s := range level {
			for _, b := range "/.a" {
				next = append(next, s+string(b))
			}
		}
		cases = append(cases, next...)
		level = next
	}
	clean := 0
	for _, p := range cases {
		got, want := cleanPath(p), byDefinition(p)
		if got != want {
			t.Errorf("cleanPath(%q) = %v, path.Clean says %v", p, got, want)
		}
		if want {
			clean++
		}
	}
	// Both answers occur: the loop compared something.
	if clean == 0 || clean == len(cases) {
		t.Fatalf("%d of %d paths clean", clean, len(cases))
	}
}

// wrapper is a writer around another, as middleware makes them.
type wrapper struct{ http.ResponseWriter }

func (w wrapper) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// TestStateOfReachesTheExchangeThroughWrappers: the routes find the
// request's state through the writer they are given, however wrapped.
func TestStateOfReachesTheExchangeThroughWrappers(t *testing.T) {
	x := &exchange{StatusRecorder: apihttp.StatusRecorder{ResponseWriter: httptest.NewRecorder()}, st: reqState{id: "r1"}}
	for _, w := range []http.ResponseWriter{x, wrapper{x}, wrapper{wrapper{x}}} {
		if st := stateOf(w); st != &x.st {
			t.Errorf("stateOf(%T) = %p (id %q), want the exchange's %p", w, st, st.id, &x.st)
		}
	}
	if st := stateOf(httptest.NewRecorder()); st == nil || st.id == "" {
		t.Errorf("stateOf a writer without an exchange = %+v, want a fresh state with an ID", st)
	}
}
