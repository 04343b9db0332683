package plantstore_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/staykit/staykit/plantstore"
)

// FuzzCreatePlant sends arbitrary bodies to POST /plants with a valid
// token: the handler must never panic nor fail with 500, must answer one
// of 200, 400, 409, 413 and 415 with a body of the documented shape, and a
// 200 must describe the plant the store holds. (Checking each response
// with the OpenAPI validator costs 13 times the request itself; the table
// in TestCreatePlant does that, the fuzzer checks the shape directly.)
func FuzzCreatePlant(f *testing.F) {
	for _, sc := range scenarios() {
		// Bodies of 64 KiB and more are left to the table: minimizing an
		// interesting input of that size stalls the fuzzer for a minute.
		if sc.method == "" && sc.path == "" && sc.header == nil && len(sc.body) < 4096 {
			f.Add(sc.body)
		}
	}
	f.Add(`{"id":42,"name":"Monstera"}`)
	f.Add(`{"id":-0,"name":"\ud800","tag":"\u0000"}`)
	f.Add(`{"id":1,"name":"Fern","name":5}`)
	allowed := map[int]bool{200: true, 400: true, 409: true, 413: true, 415: true}

	f.Fuzz(func(t *testing.T, body string) {
		store := newStore(t)
		req := httptest.NewRequest(http.MethodPost, "/plants", strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+goodToken)
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		newHandler(store).ServeHTTP(rec, req)

		if !allowed[rec.Code] {
			t.Fatalf("body %q: status %d, want one of 200, 400, 409, 413, 415", body, rec.Code)
		}
		if got, want := rec.Header().Get("Content-Type"), "application/json"; got != want {
			t.Fatalf("body %q: Content-Type %q, want %q", body, got, want)
		}
		if rec.Code != http.StatusOK {
			checkError(t, rec, "")
			return
		}
		var created plantstore.Plant
		dec := json.NewDecoder(bytes.NewReader(rec.Body.Bytes()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&created); err != nil {
			t.Fatalf("decode 200 body %s: %v", rec.Body.Bytes(), err)
		}
		stored, found, err := store.Plant(context.Background(), created.ID)
		if err != nil || !found || stored != created {
			t.Fatalf("body %q: response %+v, store has %+v (found %v, err %v); want equal", body, created, stored, found, err)
		}
		if strings.TrimSpace(created.Name) == "" {
			t.Fatalf("body %q: created a plant with a blank name", body)
		}
	})
}
