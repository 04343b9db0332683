package main

import (
	"context"
	"log/slog"
	"time"

	"github.com/staykit/staykit/booking"
)

// sweepHolds expires lapsed holds now and then every interval, until ctx
// is done. Lapsed holds stop blocking dates without it; the sweep releases
// card authorisations, frees coupons and tells the host.
func sweepHolds(ctx context.Context, svc *booking.Service, every time.Duration, logger *slog.Logger) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		n, err := svc.ExpireHolds(ctx)
		switch {
		case err != nil && ctx.Err() == nil:
			logger.Error("expire holds", "err", err)
		case n > 0:
			logger.Info("expired holds", "count", n)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
