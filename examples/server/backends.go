package main

import (
	"context"
	"fmt"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/plantstore"
	"github.com/staykit/staykit/ratelimit"
	"github.com/staykit/staykit/store/sqlite"
)

// backends are the stateful services the server runs on: where bookings
// and plants are kept, and where rate-limit counts live.
type backends struct {
	store   booking.Store
	plants  plantstore.Store
	limiter ratelimit.Limiter
	close   func() error
}

// openBackends is the one place that chooses them: the SQLite file of
// cfg.dbPath and an in-memory limiter. A Postgres store or a Redis limiter
// for several replicas would be chosen here from their flags.
func openBackends(ctx context.Context, cfg config) (*backends, error) {
	db, err := sqlite.Open(ctx, cfg.dbPath)
	if err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	return &backends{
		store:   db,
		plants:  db,
		limiter: ratelimit.NewMemory(ratelimit.MemoryOptions{}),
		close:   db.Close,
	}, nil
}
