package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/staykit/staykit/plantstore"
	"github.com/staykit/staykit/plantstore/plantpostgres"
	"github.com/staykit/staykit/plantstore/plantsqlite"
	"github.com/staykit/staykit/ratelimit"
	"github.com/staykit/staykit/ratelimit/redislimit"
	"github.com/staykit/staykit/store/postgres"
	"github.com/staykit/staykit/store/sqlite"
)

// redisStartTimeout bounds the check, at start, that Redis answers.
const redisStartTimeout = 5 * time.Second

// backends are the stateful services the server runs on: where bookings
// and plants are kept, and where rate-limit counts live.
type backends struct {
	store   database
	plants  plantstore.Store
	limiter ratelimit.Limiter
	// ping checks that the database answers (the readiness probe).
	ping  func(context.Context) error
	close func() error
}

// openBackends is the one place that chooses them: the SQLite file of
// cfg.dbPath, or PostgreSQL with -postgres (the booking store and the plant
// store each keep their own tables there); an in-memory limiter, or Redis
// with -redis so that every replica counts the same requests.
func openBackends(ctx context.Context, cfg config) (*backends, error) {
	b := &backends{}
	var closers []func() error
	b.close = func() error {
		var errs []error
		for i := len(closers) - 1; i >= 0; i-- {
			errs = append(errs, closers[i]())
		}
		return errors.Join(errs...)
	}
	if cfg.postgresURL != "" {
		db, err := postgres.Open(ctx, cfg.postgresURL)
		if err != nil {
			return nil, fmt.Errorf("open postgres: %w", err)
		}
		b.store, b.ping = databaseOf(db), db.Ping
		closers = append(closers, db.Close)
		plants, err := plantpostgres.Open(ctx, cfg.postgresURL)
		if err != nil {
			b.close()
			return nil, fmt.Errorf("open plant store: %w", err)
		}
		b.plants = plants
		closers = append(closers, plants.Close)
	} else {
		db, err := sqlite.Open(ctx, cfg.dbPath)
		if err != nil {
			return nil, fmt.Errorf("open database: %w", err)
		}
		b.store, b.ping = databaseOf(db), db.Ping
		closers = append(closers, db.Close)
		plants, err := plantsqlite.Open(ctx, cfg.dbPath)
		if err != nil {
			b.close()
			return nil, fmt.Errorf("open plant store: %w", err)
		}
		b.plants = plants
		closers = append(closers, plants.Close)
	}
	if cfg.redisAddr != "" {
		opts, err := redislimit.ClientOptions(cfg.redisAddr)
		if err != nil {
			b.close()
			return nil, err
		}
		client := redis.NewClient(opts)
		pingCtx, cancel := context.WithTimeout(ctx, redisStartTimeout)
		err = client.Ping(pingCtx).Err()
		cancel()
		if err != nil {
			client.Close()
			b.close()
			return nil, fmt.Errorf("reach redis at %s: %w", redactRedisURL(cfg.redisAddr), err)
		}
		// The server puts a ratelimit.Breaker in front (newServer).
		b.limiter = redislimit.New(client)
		closers = append(closers, client.Close)
	} else {
		b.limiter = ratelimit.NewMemory(ratelimit.MemoryOptions{})
	}
	return b, nil
}
