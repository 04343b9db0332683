package booking

import (
	"context"
	"fmt"
)

// PurgeHostRequests deletes the records of host requests older than
// HostRequestWindow and returns how many it deleted: the host API replays
// an answer to a retry within the window only, so older records serve
// nothing. RunSweeper calls it at each sweep.
func (s *Service) PurgeHostRequests(ctx context.Context) (int, error) {
	n, err := s.store.PurgeHostRequests(ctx, s.clock.Now().Add(-HostRequestWindow))
	if err != nil {
		return 0, fmt.Errorf("purge host requests: %w", err)
	}
	return n, nil
}
