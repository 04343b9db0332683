package apihttp_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/staykit/staykit/internal/apihttp"
)

func TestStatusRecorder(t *testing.T) {
	cases := []struct {
		name      string
		write     func(w http.ResponseWriter)
		wantWrote bool
		want      int
	}{
		{"nothing written", func(http.ResponseWriter) {}, false, http.StatusOK},
		{"a status", func(w http.ResponseWriter) { w.WriteHeader(http.StatusNotFound) }, true, http.StatusNotFound},
		{"a body alone", func(w http.ResponseWriter) { w.Write([]byte("{}")) }, true, http.StatusOK},
		{"a status, then a body", func(w http.ResponseWriter) {
			w.WriteHeader(http.StatusCreated)
			w.Write([]byte("{}"))
		}, true, http.StatusCreated},
		{"a body, then a late status", func(w http.ResponseWriter) {
			w.Write([]byte("{}"))
			w.WriteHeader(http.StatusInternalServerError)
		}, true, http.StatusOK},
	}
	for _, c := range cases {
		inner := httptest.NewRecorder()
		r := &apihttp.StatusRecorder{ResponseWriter: inner}
		c.write(r)
		if r.Wrote() != c.wantWrote || r.Status() != c.want {
			t.Errorf("%s: Wrote %v, Status %d; want %v, %d", c.name, r.Wrote(), r.Status(), c.wantWrote, c.want)
		}
		if r.Unwrap() != inner {
			t.Errorf("%s: Unwrap is not the wrapped writer", c.name)
		}
		if c.wantWrote && inner.Code != c.want {
			t.Errorf("%s: the wrapped writer got %d, want %d", c.name, inner.Code, c.want)
		}
	}
}
