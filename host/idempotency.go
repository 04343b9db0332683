package host

import (
	"context"
	"fmt"
	"time"
)

// ReserveRequest records a host request made with an Idempotency-Key, as
// Store.ReserveHostRequest: CodeConflict and the stored
// record when the key was used after notBefore.
func (s *Service) ReserveRequest(ctx context.Context, r *Request, notBefore time.Time) (*Request, error) {
	return s.records.ReserveHostRequest(ctx, r, notBefore)
}

// CompleteRequest stores the response of a reserved request, to replay,
// and the booking whose guest it may show (0: none), whose erasure
// erases it.
func (s *Service) CompleteRequest(ctx context.Context, orgID int64, key string, status int, body []byte, bookingID int64) error {
	return s.records.CompleteHostRequest(ctx, orgID, key, status, body, bookingID)
}

// ForgetRequest frees a reserved key whose request failed on our side.
func (s *Service) ForgetRequest(ctx context.Context, orgID int64, key string) error {
	return s.records.ForgetHostRequest(ctx, orgID, key)
}

// PurgeRequests deletes the records of host requests older than
// RequestWindow and returns how many it deleted: a retry is replayed its
// answer within the window only. It does what
// booking.Service.PurgeHostRequests (which the sweeper calls) does.
func (s *Service) PurgeRequests(ctx context.Context) (int, error) {
	n, err := s.records.PurgeHostRequests(ctx, s.clock.Now().Add(-RequestWindow))
	if err != nil {
		return 0, fmt.Errorf("purge host requests: %w", err)
	}
	return n, nil
}
