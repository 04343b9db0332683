package host

import (
	"context"
	"fmt"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/closeout"
)

// closeoutAudit is what the audit log keeps of a threshold change.
type closeoutAudit struct {
	MaxExposureMinutes int64 `json:"max_exposure_minutes"`
}

// SyncCloseout returns org's same-day close-out threshold (package
// closeout); 0: none.
func (s *Service) SyncCloseout(ctx context.Context, org *booking.Organization) (time.Duration, error) {
	d, err := s.closeout.SyncCloseout(ctx, org.ID)
	if err != nil {
		return 0, fmt.Errorf("sync close-out of %s: %w", org.Slug, err)
	}
	return d, nil
}

// SetSyncCloseout sets org's threshold, in whole minutes, at most
// closeout.MaxThreshold; 0 turns the close-out off. It is audited as
// "settings.sync_closeout". Errors: CodeInvalid (field
// "max_exposure_minutes").
func (s *Service) SetSyncCloseout(ctx context.Context, org *booking.Organization, max time.Duration, by Actor) (time.Duration, error) {
	if max < 0 || max > closeout.MaxThreshold || max%time.Minute != 0 {
		return 0, &booking.Error{Code: booking.CodeInvalid, Message: "The request is invalid.",
			Fields: booking.FieldErrors{"max_exposure_minutes": {"out_of_range"}}}
	}
	before, err := s.SyncCloseout(ctx, org)
	if err != nil {
		return 0, err
	}
	err = s.atomically(ctx, func(ctx context.Context) error {
		if err := s.closeout.SetSyncCloseout(ctx, org.ID, max); err != nil {
			return fmt.Errorf("set sync close-out of %s: %w", org.Slug, err)
		}
		return s.audit(ctx, org, by, "settings.sync_closeout", target("organization", org.ID),
			closeoutAudit{int64(before / time.Minute)}, closeoutAudit{int64(max / time.Minute)})
	})
	if err != nil {
		return 0, err
	}
	return max, nil
}
