package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// maxBareBody bounds the bodies the bare server builds.
const maxBareBody = 4 << 20

// bareBody returns a JSON object of exactly n bytes (at least the size of
// its envelope), the shape of an API success.
func bareBody(n int) []byte {
	const head, tail = `{"success":true,"data":"`, `"}`
	pad := max(n-len(head)-len(tail), 0)
	return []byte(head + strings.Repeat("x", pad) + tail)
}

// bareHandler answers GET /bytes/{n} with a fixed JSON body of n bytes,
// built once per size, and GET /healthz: net/http and nothing else, the
// ceiling the reference server is compared with.
func bareHandler() http.Handler {
	var bodies sync.Map // int → []byte
	mux := http.NewServeMux()
	mux.HandleFunc("GET /bytes/{n}", func(w http.ResponseWriter, r *http.Request) {
		n, err := strconv.Atoi(r.PathValue("n"))
		if err != nil || n < 0 || n > maxBareBody {
			http.Error(w, "bad size", http.StatusBadRequest)
			return
		}
		b, ok := bodies.Load(n)
		if !ok {
			b, _ = bodies.LoadOrStore(n, bareBody(n))
		}
		body := b.([]byte)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.Write(body)
	})
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"status":"ok"}`))
	})
	return mux
}

// serveBare serves bareHandler on addr until ctx is done.
func serveBare(ctx context.Context, addr string) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("bare: listen on %s: %w", addr, err)
	}
	hs := &http.Server{Handler: bareHandler(), ReadHeaderTimeout: 5 * time.Second, IdleTimeout: 2 * time.Minute}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("bare: serve: %w", err)
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("bare: shutdown: %w", err)
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("bare: serve: %w", err)
	}
	return nil
}
