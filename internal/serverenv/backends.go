package serverenv

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
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

// Backends are the stateful services a server runs on: where bookings
// and plants are kept, and where rate-limit counts live.
type Backends struct {
	Store   Database
	Plants  plantstore.Store
	Limiter ratelimit.Limiter
	// Ping checks that the database answers (the readiness probe).
	Ping func(context.Context) error
	// Close closes what Open opened.
	Close func() error
}

// Open is the one place that chooses them: the SQLite file of
// cfg.DBPath, created and migrated if needed, or PostgreSQL with
// cfg.PostgresURL (the booking store and the plant store each keep their
// own tables there); an in-memory limiter, or Redis at cfg.RedisAddr so
// that every replica counts the same requests. Redis that fails or hangs
// costs a request at most cfg.RedisTimeout, then nothing while it is
// down: requests are allowed uncounted (fail open), logged once to logger.
func Open(ctx context.Context, cfg Config, logger *slog.Logger) (*Backends, error) {
	b := &Backends{}
	var closers []func() error
	b.Close = func() error {
		var errs []error
		for i := len(closers) - 1; i >= 0; i-- {
			errs = append(errs, closers[i]())
		}
		return errors.Join(errs...)
	}
	if cfg.PostgresURL != "" {
		db, err := postgres.Open(ctx, cfg.PostgresURL, postgres.WithLogger(logger))
		if err != nil {
			return nil, fmt.Errorf("open postgres: %w", err)
		}
		b.Store, b.Ping = DatabaseOf(db), db.Ping
		closers = append(closers, db.Close)
		plants, err := plantpostgres.Open(ctx, cfg.PostgresURL)
		if err != nil {
			b.Close()
			return nil, fmt.Errorf("open plant store: %w", err)
		}
		b.Plants = plants
		closers = append(closers, plants.Close)
	} else {
		db, err := sqlite.Open(ctx, cfg.DBPath)
		if err != nil {
			return nil, fmt.Errorf("open database: %w", err)
		}
		b.Store, b.Ping = DatabaseOf(db), db.Ping
		closers = append(closers, db.Close)
		plants, err := plantsqlite.Open(ctx, cfg.DBPath)
		if err != nil {
			b.Close()
			return nil, fmt.Errorf("open plant store: %w", err)
		}
		b.Plants = plants
		closers = append(closers, plants.Close)
	}
	if cfg.RedisAddr != "" {
		opts, err := redislimit.ClientOptions(cfg.RedisAddr)
		if err != nil {
			b.Close()
			return nil, err
		}
		client := redis.NewClient(opts)
		pingCtx, cancel := context.WithTimeout(ctx, redisStartTimeout)
		err = client.Ping(pingCtx).Err()
		cancel()
		if err != nil {
			client.Close()
			b.Close()
			return nil, fmt.Errorf("reach redis at %s: %w", redactRedisURL(cfg.RedisAddr), err)
		}
		b.Limiter = redislimit.New(client)
		closers = append(closers, client.Close)
	} else {
		b.Limiter = ratelimit.NewMemory(ratelimit.MemoryOptions{})
	}
	if cfg.RedisAddr != "" {
		timeout := cfg.RedisTimeout
		if timeout <= 0 {
			timeout = ratelimit.DefaultBreakerTimeout
		}
		b.Limiter = ratelimit.NewBreaker(b.Limiter, ratelimit.BreakerOptions{Timeout: timeout, Logger: logger})
	}
	return b, nil
}
