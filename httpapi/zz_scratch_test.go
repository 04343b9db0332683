package httpapi_test

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/httpapi"
	"github.com/staykit/staykit/money"
	"github.com/staykit/staykit/store/cache"
)

func BenchmarkScratchConfig(b *testing.B) {
	e := newTestEnv(b)
	stores := cache.New(e.Store.Stores(), e.Store, cache.Options{}).Stores()
	svc := booking.NewService(booking.Options{Stores: stores, Payments: e.Pay, Clock: e.Clock})
	pay := money.New(svc, money.Options{Store: stores, Payments: e.Pay, Clock: e.Clock})
	h := httpapi.New(httpapi.Options{Service: svc, Money: pay, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	path := e.expand(villa)
	req := httptest.NewRequest(http.MethodGet, path, nil)
	b.ReportAllocs()
	for b.Loop() {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatalf("%s: %d %s", path, rec.Code, rec.Body)
		}
	}
}
