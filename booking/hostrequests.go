package booking

import (
	"context"
	"fmt"
	"time"
)

// HostRequestWindow is how long a host request made with an
// Idempotency-Key is remembered, to replay its response to a retry
// (package host keeps the records: host.Store); a periodic job (package
// jobs) purges older
// records.
const HostRequestWindow = 24 * time.Hour

// HostRequestPurger deletes the records of old host requests, which
// package host keeps (host.Store): the one method of them the periodic purge
// needs.
type HostRequestPurger interface {
	// PurgeHostRequests deletes the records of every organisation's host
	// requests created before before, and returns how many it deleted.
	PurgeHostRequests(ctx context.Context, before time.Time) (int, error)
}

// PurgeHostRequests deletes the records of host requests older than
// HostRequestWindow and returns how many it deleted: the host API replays
// an answer to a retry within the window only, so older records serve
// nothing. Package jobs calls it periodically (TaskPurgeHostRequests).
func (s *Service) PurgeHostRequests(ctx context.Context) (int, error) {
	n, err := s.store.PurgeHostRequests(ctx, s.clock.Now().Add(-HostRequestWindow))
	if err != nil {
		return 0, fmt.Errorf("purge host requests: %w", err)
	}
	return n, nil
}
