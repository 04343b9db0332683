package postgres

import (
	"context"
	"time"

	"github.com/staykit/staykit/closeout"
	"github.com/staykit/staykit/store/internal/sqlflow"
)

var _ closeout.Store = (*DB)(nil)

// SyncCloseout returns an organisation's same-day close-out threshold, 0
// when it has none (closeout.Store).
func (db *DB) SyncCloseout(ctx context.Context, orgID int64) (time.Duration, error) {
	secs, err := sqlflow.Get(ctx, db.run, "sync close-out", func(q querier) (int64, error) {
		return sqlflow.Value[int64](ctx, q, nil, `SELECT max_exposure_seconds FROM sync_closeout WHERE org_id = $1`, orgID)
	})
	return time.Duration(secs) * time.Second, err
}

// SetSyncCloseout sets an organisation's threshold; 0 removes it
// (closeout.Store).
func (db *DB) SetSyncCloseout(ctx context.Context, orgID int64, max time.Duration) error {
	return db.run(ctx, "set sync close-out", func(q querier) error {
		if max <= 0 {
			return sqlflow.Exec(ctx, q, nil, `DELETE FROM sync_closeout WHERE org_id = $1`, orgID)
		}
		return sqlflow.Exec(ctx, q, nil, `INSERT INTO sync_closeout (org_id, max_exposure_seconds) VALUES ($1, $2)
			ON CONFLICT (org_id) DO UPDATE SET max_exposure_seconds = excluded.max_exposure_seconds`,
			orgID, int64(max/time.Second))
	})
}
