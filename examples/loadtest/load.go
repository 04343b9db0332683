package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// maxRequestsPerRound bounds a round by count as well as by time, so that
// even a very fast server cannot make a round run away with memory.
const maxRequestsPerRound = 2_000_000

// request builds the i-th request of a round; ok reports false when there
// is nothing left to send (checkout slots exhausted).
type request func(ctx context.Context, i int64) (req *http.Request, ok bool, err error)

// sample is what one round measured.
type sample struct {
	requests  int64           // answered with the wanted status
	elapsed   time.Duration   // wall time of the round
	latencies []time.Duration // one per request answered
	exhausted bool            // the round ended because next had nothing left
}

// newClient returns a keep-alive HTTP/1.1 client with room for conns
// connections to one host.
func newClient(conns int) *http.Client {
	return &http.Client{
		Timeout: 30 * time.Second,
		Transport: &http.Transport{
			MaxIdleConns:        conns,
			MaxIdleConnsPerHost: conns,
			MaxConnsPerHost:     conns,
			DisableCompression:  true,
			ForceAttemptHTTP2:   false,
		},
	}
}

// load sends requests from conns goroutines, each on its own kept-alive
// connection, until d has passed or next has nothing left, and returns how
// many were answered with wantStatus and how long each took. Any other
// answer, or a failed request, stops the round with an error.
func load(ctx context.Context, client *http.Client, conns int, d time.Duration, wantStatus int, next request) (sample, error) {
	// Requests carry ctx, not the round's deadline: those in flight when
	// the round ends finish, and their connections stay alive for the next.
	round, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	var (
		counter  atomic.Int64
		mu       sync.Mutex
		all      []time.Duration
		firstErr error
		wg       sync.WaitGroup
		drained  atomic.Bool
	)
	fail := func(err error) {
		mu.Lock()
		if firstErr == nil {
			firstErr = err
		}
		mu.Unlock()
		cancel()
	}
	start := time.Now()
	for range conns {
		wg.Go(func() {
			mine := make([]time.Duration, 0, 1024)
			for round.Err() == nil {
				i := counter.Add(1) - 1
				if i >= maxRequestsPerRound {
					break
				}
				req, ok, err := next(ctx, i)
				if err != nil {
					fail(err)
					break
				}
				if !ok {
					drained.Store(true)
					break
				}
				t0 := time.Now()
				res, err := client.Do(req)
				if err != nil {
					fail(fmt.Errorf("%s %s: %w", req.Method, req.URL, err))
					break
				}
				if res.StatusCode != wantStatus {
					msg, _ := io.ReadAll(io.LimitReader(res.Body, 300))
					res.Body.Close()
					fail(fmt.Errorf("%s %s: status %d, want %d: %s", req.Method, req.URL, res.StatusCode, wantStatus, msg))
					break
				}
				_, err = io.Copy(io.Discard, res.Body)
				res.Body.Close()
				if err != nil {
					fail(fmt.Errorf("%s %s: read: %w", req.Method, req.URL, err))
					break
				}
				mine = append(mine, time.Since(t0))
			}
			mu.Lock()
			all = append(all, mine...)
			mu.Unlock()
		})
	}
	wg.Wait()
	s := sample{requests: int64(len(all)), elapsed: time.Since(start), latencies: all, exhausted: drained.Load()}
	if firstErr != nil {
		return s, firstErr
	}
	return s, nil
}
