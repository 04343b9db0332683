package serverenv

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/seed"
)

// SeedOnce loads the seed file of cfg.SeedPath (package seed), else the
// built-in demo (named demoName in the log), when store has no
// organisation yet. A seed file given for a database that has
// organisations is not loaded (the log says so), and another replica
// seeding the same database at the same time is no error.
func SeedOnce(ctx context.Context, store booking.CatalogStore, cfg Config, demo []byte, demoName string, logger *slog.Logger) error {
	orgs, err := store.Organizations(ctx)
	if err != nil {
		return fmt.Errorf("list organisations: %w", err)
	}
	if len(orgs) > 0 {
		if cfg.SeedPath != "" {
			logger.Info("the database has organisations already: seed file not loaded (start with an empty database to load it)",
				append([]any{"seed", cfg.SeedPath, "organizations", len(orgs)}, cfg.StoreAttrs()...)...)
		}
		return nil
	}
	now := time.Now()
	if cfg.SeedPath != "" {
		err = seed.LoadFile(ctx, store, cfg.SeedPath, now)
	} else {
		err = seed.Load(ctx, store, bytes.NewReader(demo), now)
		if err != nil {
			err = fmt.Errorf("demo seed: %w", err)
		}
	}
	if booking.ErrorCode(err) == booking.CodeConflict {
		// Another replica on the same database seeded it meanwhile.
		logger.Info("seed: organisations created by another replica meanwhile", "err", err)
		return nil
	}
	if err != nil {
		return err
	}
	orgs, err = store.Organizations(ctx)
	if err != nil {
		return fmt.Errorf("list organisations: %w", err)
	}
	source := cfg.SeedPath
	if source == "" {
		source = "built-in demo (" + demoName + ")"
	}
	logger.Info("first start: seed loaded", "seed", source, "organizations", len(orgs))
	return nil
}
