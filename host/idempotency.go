package host

import (
	"context"
	"time"

	"github.com/staykit/staykit/booking"
)

// ReserveRequest records a host request made with an Idempotency-Key, as
// booking.HostStore.ReserveHostRequest: CodeConflict and the stored
// record when the key was used after notBefore.
func (s *Service) ReserveRequest(ctx context.Context, r *booking.HostRequest, notBefore time.Time) (*booking.HostRequest, error) {
	return s.store.ReserveHostRequest(ctx, r, notBefore)
}

// CompleteRequest stores the response of a reserved request, to replay.
func (s *Service) CompleteRequest(ctx context.Context, orgID int64, key string, status int, body []byte) error {
	return s.store.CompleteHostRequest(ctx, orgID, key, status, body)
}

// ForgetRequest frees a reserved key whose request failed on our side.
func (s *Service) ForgetRequest(ctx context.Context, orgID int64, key string) error {
	return s.store.ForgetHostRequest(ctx, orgID, key)
}
