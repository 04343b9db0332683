package plantstore_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/staykit/staykit/plantstore"
)

func post(tb testing.TB, h http.Handler, token, body string) *httptest.ResponseRecorder {
	tb.Helper()
	req := httptest.NewRequest(http.MethodPost, "/plants", strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

func TestCreatedPlantIsKeptByTheStore(t *testing.T) {
	store := &plantstore.MemoryStore{}
	first := newHandler(store)
	if rec := post(t, first, goodToken, `{"id":3,"name":"Cactus","tag":"succulent"}`); rec.Code != http.StatusOK {
		t.Fatalf("create: status %d, want 200; body %s", rec.Code, rec.Body.Bytes())
	}

	got, found, err := store.Plant(context.Background(), 3)
	if err != nil || !found {
		t.Fatalf("store.Plant(3) = found %v, err %v; want found", found, err)
	}
	if want := (plantstore.Plant{ID: 3, Name: "Cactus", Tag: "succulent"}); got != want {
		t.Errorf("stored %+v, want %+v", got, want)
	}

	// A second handler over the same store (a restarted server) sees it.
	second := newHandler(store)
	if rec := post(t, second, goodToken, `{"id":3,"name":"Other"}`); rec.Code != http.StatusConflict {
		t.Errorf("create again through another handler: status %d, want 409", rec.Code)
	}
}

func TestNoTokensConfiguredRefusesEveryRequest(t *testing.T) {
	for _, tokens := range [][]string{nil, {}, {""}} {
		h := plantstore.New(plantstore.Options{Store: &plantstore.MemoryStore{}, Tokens: tokens})
		for _, token := range []string{"", "anything", goodToken} {
			rec := post(t, h, token, `{"id":1,"name":"Fern"}`)
			if rec.Code != http.StatusUnauthorized {
				t.Errorf("tokens %q, sent %q: status %d, want 401", tokens, token, rec.Code)
			}
		}
	}
}

// bodySpy records whether the handler read the request body.
type bodySpy struct {
	io.Reader
	read bool
}

func (b *bodySpy) Read(p []byte) (int, error) {
	b.read = true
	return b.Reader.Read(p)
}

func TestUnauthorizedRequestBodyIsNotRead(t *testing.T) {
	for _, auth := range []string{"", "Bearer wrong", "Basic " + goodToken} {
		spy := &bodySpy{Reader: strings.NewReader(`{"id":1,"name":"Fern"}`)}
		req := httptest.NewRequest(http.MethodPost, "/plants", spy)
		req.Header.Set("Content-Type", "application/json")
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		rec := httptest.NewRecorder()
		newHandler(&plantstore.MemoryStore{}).ServeHTTP(rec, req)
		if rec.Code != http.StatusUnauthorized {
			t.Errorf("Authorization %q: status %d, want 401", auth, rec.Code)
		}
		if spy.read {
			t.Errorf("Authorization %q: the body was read before authentication", auth)
		}
	}
}

// failingStore fails every call.
type failingStore struct{ err error }

func (s failingStore) CreatePlant(context.Context, plantstore.Plant) error { return s.err }
func (s failingStore) Plant(context.Context, int64) (plantstore.Plant, bool, error) {
	return plantstore.Plant{}, false, s.err
}

func TestStoreFailureAnswers500AndLogsWithoutToken(t *testing.T) {
	var logs bytes.Buffer
	cause := errors.New("disk I/O error at /var/lib/secret-path")
	h := plantstore.New(plantstore.Options{
		Store:  failingStore{err: cause},
		Tokens: []string{goodToken},
		Logger: slog.New(slog.NewTextHandler(&logs, nil)),
	})
	req := httptest.NewRequest(http.MethodPost, "/plants", strings.NewReader(`{"id":9,"name":"Fern"}`))
	req.Header.Set("Authorization", "Bearer "+goodToken)
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)

	if got, want := rec.Code, http.StatusInternalServerError; got != want {
		t.Fatalf("status = %d, want %d", got, want)
	}
	checkError(t, rec, "could not be stored")
	if strings.Contains(rec.Body.String(), "secret-path") {
		t.Errorf("the response leaks the cause: %s", rec.Body.Bytes())
	}
	loadContract(t).checkResponse(t, req, rec)

	logged := logs.String()
	if !strings.Contains(logged, cause.Error()) || !strings.Contains(logged, "id=9") {
		t.Errorf("log = %q, want the cause and the id", logged)
	}
	if strings.Contains(logged, goodToken) {
		t.Errorf("log = %q, contains the bearer token", logged)
	}
}

func TestConcurrentCreatesOfOneIDSucceedOnce(t *testing.T) {
	h := newHandler(&plantstore.MemoryStore{})
	const n = 16
	codes := make(chan int, n)
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			req := httptest.NewRequest(http.MethodPost, "/plants", strings.NewReader(`{"id":5,"name":"Fern"}`))
			req.Header.Set("Authorization", "Bearer "+goodToken)
			req.Header.Set("Content-Type", "application/json")
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			codes <- rec.Code
		})
	}
	wg.Wait()
	close(codes)
	got := map[int]int{}
	for c := range codes {
		got[c]++
	}
	if got[http.StatusOK] != 1 || got[http.StatusConflict] != n-1 {
		t.Errorf("statuses = %v, want one 200 and %d 409", got, n-1)
	}
}

func TestMountedOnHostMuxOverHTTP(t *testing.T) {
	host := http.NewServeMux()
	host.Handle("/plants", newHandler(&plantstore.MemoryStore{}))
	host.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) })
	srv := httptest.NewServer(host)
	defer srv.Close()

	do := func(method, path, body string) *http.Response {
		t.Helper()
		req, err := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+goodToken)
		req.Header.Set("Content-Type", "application/json")
		res, err := srv.Client().Do(req)
		if err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
		_, _ = io.Copy(io.Discard, res.Body)
		_ = res.Body.Close()
		return res
	}

	tests := []struct {
		method, path, body string
		want               int
	}{
		{http.MethodPost, "/plants", `{"id":1,"name":"Fern"}`, http.StatusOK},
		{http.MethodPost, "/plants", `{"id":1,"name":"Fern"}`, http.StatusConflict},
		{http.MethodPost, "/plants", padded(65 << 10), http.StatusRequestEntityTooLarge},
		{http.MethodGet, "/plants", "", http.StatusMethodNotAllowed},
		{http.MethodGet, "/healthz", "", http.StatusNoContent},
	}
	for _, tt := range tests {
		if got := do(tt.method, tt.path, tt.body).StatusCode; got != tt.want {
			t.Errorf("%s %s: status %d, want %d", tt.method, tt.path, got, tt.want)
		}
	}
}

func TestNewWithoutStorePanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("New with a nil Store did not panic")
		}
	}()
	plantstore.New(plantstore.Options{Tokens: []string{goodToken}})
}

// brokenBody fails like a connection dropped mid-body.
type brokenBody struct{}

func (brokenBody) Read([]byte) (int, error) { return 0, io.ErrUnexpectedEOF }

func TestUnreadableBodyAnswers400(t *testing.T) {
	req := httptest.NewRequest(http.MethodPost, "/plants", brokenBody{})
	req.Header.Set("Authorization", "Bearer "+goodToken)
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	newHandler(&plantstore.MemoryStore{}).ServeHTTP(rec, req)
	if got, want := rec.Code, http.StatusBadRequest; got != want {
		t.Fatalf("status = %d, want %d", got, want)
	}
	checkError(t, rec, "could not be read")
}
