package booking

import (
	"context"
	"time"
)

// SameDayGuard may refuse a stay that starts today in the organisation's
// time zone, when it is quoted and at checkout. Package closeout refuses
// it while the property's imported channel calendars are too old to trust
// (the exposure window over the host's threshold), so that a booking made
// on a channel this morning cannot be sold again here for tonight.
type SameDayGuard interface {
	// AllowArrivalToday returns nil, or the error that refuses the stay
	// (CodeUnavailable).
	AllowArrivalToday(ctx context.Context, org *Organization, propertyID int64, now time.Time) error
}

// checkSameDay asks the SameDayGuard, if any, about a stay arriving today.
func (s *Service) checkSameDay(ctx context.Context, org *Organization, propertyID int64, st Stay, now time.Time) error {
	if s.sameDay == nil || st.CheckIn != s.today(org, now) {
		return nil
	}
	return s.sameDay.AllowArrivalToday(ctx, org, propertyID, now)
}
