package booking

import (
	"context"
	"time"
)

// RunSweeper does the engine's background work now and then every
// interval, until ctx is done; it then returns nil. Each sweep expires
// lapsed holds (ExpireHolds), sends the payments ledger's due refunds
// and releases (ProcessPayments), and purges the host requests older than
// their idempotency window (PurgeHostRequests). A sweep that fails is
// logged and the next one runs on time: a store or provider that is down
// for a while must not stop the sweeper for good. Lapsed holds stop blocking dates without it,
// but only a sweep releases card authorisations, returns money owed to
// guests, frees coupons and tells the host. Several replicas may each run
// it: transitions are conditional and ledger entries are leased.
//
// A host runs it beside its HTTP server, in its own goroutine:
//
//	go svc.RunSweeper(ctx, time.Minute)
//
// Package jobs runs the same work as durable River jobs (and the ledger's
// entries one job each, as soon as they are due); a host runs one or the
// other.
//
// It panics when every is not positive, a programming error.
func (s *Service) RunSweeper(ctx context.Context, every time.Duration) error {
	if every <= 0 {
		panic("booking: RunSweeper needs a positive interval")
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		n, err := s.ExpireHolds(ctx)
		switch {
		case err != nil && ctx.Err() == nil:
			s.logger.ErrorContext(ctx, "expire holds", "err", err)
		case n > 0:
			s.logger.InfoContext(ctx, "expired holds", "count", n)
		}
		sent, err := s.ProcessPayments(ctx)
		switch {
		case err != nil && ctx.Err() == nil:
			s.logger.WarnContext(ctx, "send payments ledger; retried on the next sweeps", "err", err)
		case sent > 0:
			s.logger.InfoContext(ctx, "sent payments ledger entries", "count", sent)
		}
		purged, err := s.PurgeHostRequests(ctx)
		switch {
		case err != nil && ctx.Err() == nil:
			s.logger.WarnContext(ctx, "purge host requests; retried on the next sweeps", "err", err)
		case purged > 0:
			s.logger.InfoContext(ctx, "purged host requests", "count", purged)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}
