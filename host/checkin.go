package host

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/checkin"
	"github.com/staykit/staykit/civil"
)

// GuestActor is the actor of a guest's own check-in, from their booking
// page.
var GuestActor = Actor{Kind: "guest", Name: "guest"}

// checkinAudit is what the audit log keeps of a check-in read or change:
// how many guests and how complete, never a guest's data (the log
// outlives the check-in).
type checkinAudit struct {
	Guests   int  `json:"guests"`
	Complete bool `json:"complete"`
}

// fileAudit is what the audit log keeps of an authority file.
type fileAudit struct {
	Authority string `json:"authority"`
	Bookings  int    `json:"bookings"`
	Guests    int    `json:"guests"`
}

// CheckinView is a booking's check-in as the host sees it: its guests
// (nil when none was entered) and its completeness against the rules of
// the property's country.
type CheckinView struct {
	BookingID    int64
	Country      string
	Authority    string
	Record       *checkin.Record
	Completeness checkin.Completeness
}

// checkinStore is the check-in capability, or CodeInternal when the
// database serves none.
func (s *Service) checkinStore() (checkin.Store, error) {
	if s.checkin == nil {
		return nil, fmt.Errorf("check-in: the database serves no checkin.Store")
	}
	return s.checkin, nil
}

// checkinOf reads a booking's check-in and its property's country.
func (s *Service) checkinOf(ctx context.Context, org *booking.Organization, b *booking.Booking) (*CheckinView, error) {
	store, err := s.checkinStore()
	if err != nil {
		return nil, err
	}
	p, err := s.store.Property(ctx, org.ID, b.PropertyID)
	if err != nil {
		return nil, notFoundAs(err, "property", "find property")
	}
	r, err := store.Checkin(ctx, b.ID)
	if err != nil && booking.ErrorCode(err) != booking.CodeNotFound {
		return nil, fmt.Errorf("check-in of booking %d: %w", b.ID, err)
	}
	if err != nil {
		r = nil
	}
	return &CheckinView{BookingID: b.ID, Country: p.Country, Authority: checkin.Authority(p.Country), Record: r,
		Completeness: checkin.Assess(r, p.Country, b.CheckIn, b.Guests)}, nil
}

// CheckinStatus is how complete one of org's bookings' check-in is,
// without its data (no audit: nothing personal is read out). Errors:
// CodeNotFound.
func (s *Service) CheckinStatus(ctx context.Context, org *booking.Organization, bookingID int64) (*CheckinView, error) {
	b, err := s.booking(ctx, org, bookingID)
	if err != nil {
		return nil, err
	}
	v, err := s.checkinOf(ctx, org, b)
	if err != nil {
		return nil, err
	}
	v.Record = nil
	return v, nil
}

// Checkin reads one of org's bookings' check-in with its guests' data,
// audited as "checkin.read" (the count and completeness only). Errors:
// CodeNotFound.
func (s *Service) Checkin(ctx context.Context, org *booking.Organization, bookingID int64, by Actor) (*CheckinView, error) {
	b, err := s.booking(ctx, org, bookingID)
	if err != nil {
		return nil, err
	}
	v, err := s.checkinOf(ctx, org, b)
	if err != nil {
		return nil, err
	}
	n := 0
	if v.Record != nil {
		n = len(v.Record.Guests)
	}
	if err := s.audit(ctx, org, by, "checkin.read", target("booking", bookingID), nil,
		checkinAudit{Guests: n, Complete: v.Completeness.Complete}); err != nil {
		return nil, err
	}
	return v, nil
}

// SaveCheckin replaces one of org's bookings' check-in by guests, checked
// against the rules of the property's country (checkin.Validate), audited
// as "checkin.save" in the same unit of work. A guest (by GuestActor) may
// save it while the booking is pending, requested or confirmed and not
// yet ended; the host at any time. Errors: CodeNotFound, CodeInvalid,
// CodeBookingClosed (a guest, after the stay or on a cancelled booking).
func (s *Service) SaveCheckin(ctx context.Context, org *booking.Organization, bookingID int64, guests []checkin.Guest, by Actor) (*CheckinView, error) {
	b, err := s.booking(ctx, org, bookingID)
	if err != nil {
		return nil, err
	}
	return s.saveCheckin(ctx, org, b, guests, by)
}

// SaveGuestCheckin is SaveCheckin by the guest of the booking whose token
// is token; the answer holds no data. Errors: as SaveCheckin.
func (s *Service) SaveGuestCheckin(ctx context.Context, org *booking.Organization, token string, guests []checkin.Guest) (*checkin.Status, error) {
	b, err := s.store.BookingByToken(ctx, org.ID, token)
	if err != nil {
		return nil, notFoundAs(err, "booking", "find booking")
	}
	v, err := s.saveCheckin(ctx, org, b, guests, GuestActor)
	if err != nil {
		return nil, err
	}
	return v.status(), nil
}

// GuestCheckinStatus is the completeness of the check-in of the booking
// whose token is token, for its guest (no data read out). Errors:
// CodeNotFound.
func (s *Service) GuestCheckinStatus(ctx context.Context, org *booking.Organization, token string) (*checkin.Status, error) {
	b, err := s.store.BookingByToken(ctx, org.ID, token)
	if err != nil {
		return nil, notFoundAs(err, "booking", "find booking")
	}
	v, err := s.checkinOf(ctx, org, b)
	if err != nil {
		return nil, err
	}
	return v.status(), nil
}

// status is v without its data.
func (v *CheckinView) status() *checkin.Status {
	return &checkin.Status{Country: v.Country, Authority: v.Authority, Completeness: v.Completeness, Fields: checkin.FormFields(v.Country)}
}

func (s *Service) saveCheckin(ctx context.Context, org *booking.Organization, b *booking.Booking, guests []checkin.Guest, by Actor) (*CheckinView, error) {
	store, err := s.checkinStore()
	if err != nil {
		return nil, err
	}
	now := s.clock.Now()
	if by.Kind == GuestActor.Kind && !guestMayCheckIn(*b, civil.Today(now, org.Location())) {
		return nil, &booking.Error{Code: booking.CodeBookingClosed, Message: "This booking can no longer be checked in online."}
	}
	p, err := s.store.Property(ctx, org.ID, b.PropertyID)
	if err != nil {
		return nil, notFoundAs(err, "property", "find property")
	}
	guests, err = checkin.Validate(p.Country, b.CheckIn, guests)
	if err != nil {
		return nil, err
	}
	r := &checkin.Record{BookingID: b.ID, Country: p.Country, Guests: guests, UpdatedBy: by.String(), UpdatedAt: now}
	if by.Kind == GuestActor.Kind {
		r.UpdatedBy = GuestActor.Name
	}
	c := checkin.Assess(r, p.Country, b.CheckIn, b.Guests)
	err = s.atomically(ctx, func(ctx context.Context) error {
		if err := store.SaveCheckin(ctx, r); err != nil {
			return notFoundAs(err, "booking", "save check-in")
		}
		return s.audit(ctx, org, by, "checkin.save", target("booking", b.ID), nil, checkinAudit{Guests: len(guests), Complete: c.Complete})
	})
	if err != nil {
		return nil, err
	}
	return &CheckinView{BookingID: b.ID, Country: p.Country, Authority: checkin.Authority(p.Country), Completeness: c}, nil
}

// guestMayCheckIn reports whether b's guest may still enter the check-in
// on today: a pending, requested or confirmed booking not yet ended.
func guestMayCheckIn(b booking.Booking, today civil.Date) bool {
	switch b.Status {
	case booking.StatusPending, booking.StatusRequested, booking.StatusConfirmed:
		return today.Before(b.CheckOut)
	}
	return false
}

// establishment is p as the authorities know it; code is the host's
// establishment code at SES.HOSPEDAJES.
func establishment(p *booking.Property, code string) checkin.Establishment {
	return checkin.Establishment{Country: p.Country, Name: p.Name, City: p.City, Code: code, RegistrationNumber: p.RegistrationNumber}
}

// stayOf is b with guests as an authority file reports it: the check-in
// and check-out days at midnight in the organisation's zone (staykit
// keeps no arrival time).
func stayOf(org *booking.Organization, b *booking.Booking, guests []checkin.Guest) checkin.Stay {
	loc := org.Location()
	return checkin.Stay{BookingID: b.ID, Reference: strconv.FormatInt(b.ID, 10), Contracted: civil.Today(b.CreatedAt, loc),
		Arrival: b.CheckIn.In(loc), Departure: b.CheckOut.In(loc), Guests: guests}
}

// CheckinFile generates the authority file of one of org's bookings'
// check-in (checkin.Generate; code is SES.HOSPEDAJES' establishment code,
// needed in Spain), audited as "checkin.file". Errors: CodeNotFound (no
// booking, or no check-in), CodeInvalid (the check-in is incomplete, or
// the country has no authority file).
func (s *Service) CheckinFile(ctx context.Context, org *booking.Organization, bookingID int64, code string, by Actor) (*checkin.File, error) {
	b, err := s.booking(ctx, org, bookingID)
	if err != nil {
		return nil, err
	}
	v, err := s.checkinOf(ctx, org, b)
	if err != nil {
		return nil, err
	}
	if v.Record == nil {
		return nil, &booking.Error{Code: booking.CodeNotFound, Message: "This booking has no check-in.",
			Params: map[string]string{booking.ParamSubject: "checkin"}}
	}
	p, err := s.store.Property(ctx, org.ID, b.PropertyID)
	if err != nil {
		return nil, notFoundAs(err, "property", "find property")
	}
	f, err := checkin.Generate(establishment(p, code), []checkin.Stay{stayOf(org, b, v.Record.Guests)}, fmt.Sprintf("booking-%d", b.ID))
	if err != nil {
		return nil, err
	}
	if err := s.audit(ctx, org, by, "checkin.file", target("booking", b.ID), nil,
		fileAudit{Authority: f.Authority, Bookings: 1, Guests: len(v.Record.Guests)}); err != nil {
		return nil, err
	}
	return f, nil
}

// ArrivalsCheckinFile generates the authority file of the check-ins of
// one of org's properties' arrivals on day, audited as "checkin.file" on
// the property. Errors: CodeNotFound (property; or no check-in for the
// day), CodeInvalid (as CheckinFile).
func (s *Service) ArrivalsCheckinFile(ctx context.Context, org *booking.Organization, propertyID int64, day civil.Date, code string, by Actor) (*checkin.File, error) {
	store, err := s.checkinStore()
	if err != nil {
		return nil, err
	}
	p, err := s.store.Property(ctx, org.ID, propertyID)
	if err != nil {
		return nil, notFoundAs(err, "property", "find property")
	}
	records, err := store.ArrivalCheckins(ctx, propertyID, day)
	if err != nil {
		return nil, fmt.Errorf("arrival check-ins of property %d: %w", propertyID, err)
	}
	var stays []checkin.Stay
	guests := 0
	for _, r := range records {
		b, err := s.booking(ctx, org, r.BookingID)
		if err != nil {
			return nil, err
		}
		if b.Status != booking.StatusConfirmed {
			continue
		}
		stays = append(stays, stayOf(org, b, r.Guests))
		guests += len(r.Guests)
	}
	if len(stays) == 0 {
		return nil, &booking.Error{Code: booking.CodeNotFound, Message: "No check-in for the arrivals of this day.",
			Params: map[string]string{booking.ParamSubject: "checkin"}}
	}
	f, err := checkin.Generate(establishment(p, code), stays, fmt.Sprintf("arrivals-%d-%s", propertyID, day))
	if err != nil {
		return nil, err
	}
	if err := s.audit(ctx, org, by, "checkin.file", target("property", propertyID), nil,
		fileAudit{Authority: f.Authority, Bookings: len(stays), Guests: guests}); err != nil {
		return nil, err
	}
	return f, nil
}

// SubmitCheckinFile submits f with c through sub (checkin.Submitter) and
// marks the check-ins of bookingIDs submitted, audited as
// "checkin.submit" (never the credentials). Errors: those of sub.
func (s *Service) SubmitCheckinFile(ctx context.Context, org *booking.Organization, sub checkin.Submitter, f *checkin.File, c checkin.Credentials, bookingIDs []int64, by Actor) (*checkin.Receipt, error) {
	store, err := s.checkinStore()
	if err != nil {
		return nil, err
	}
	rc, err := sub.Submit(ctx, f, c)
	if err != nil {
		return nil, fmt.Errorf("submit %s: %w", f.Authority, err)
	}
	if err := store.MarkCheckinsSubmitted(ctx, bookingIDs, s.clock.Now()); err != nil {
		return nil, fmt.Errorf("mark check-ins submitted: %w", err)
	}
	for _, id := range bookingIDs {
		if err := s.audit(ctx, org, by, "checkin.submit", target("booking", id), nil,
			fileAudit{Authority: f.Authority, Bookings: len(bookingIDs)}); err != nil {
			return nil, err
		}
	}
	return rc, nil
}

// RetentionActor is the actor of the retention job's deletions.
var RetentionActor = Actor{Kind: "system", Name: "retention"}

// CheckinRetention deletes the check-ins whose keeping period has passed
// (package jobs runs it periodically).
type CheckinRetention struct {
	s *Service
	r checkin.Retention
}

// CheckinRetention returns the retention of check-ins by r's periods
// (nil: checkin.DefaultRetention).
func (s *Service) CheckinRetention(r checkin.Retention) *CheckinRetention {
	if r == nil {
		r = checkin.DefaultRetention
	}
	return &CheckinRetention{s: s, r: r}
}

// PurgeCheckins deletes, on the clock's day (UTC), every check-in past the
// keeping period of its country, each deletion audited as
// "checkin.purge" on its booking in the same unit of work (the country
// only), and returns how many it deleted.
func (c *CheckinRetention) PurgeCheckins(ctx context.Context) (int, error) {
	store, err := c.s.checkinStore()
	if err != nil {
		return 0, err
	}
	today := civil.Today(c.s.clock.Now(), time.UTC)
	n := 0
	for _, cut := range c.r.Cutoffs(today) {
		err := c.s.atomically(ctx, func(ctx context.Context) error {
			gone, err := store.DeleteCheckins(ctx, cut)
			if err != nil {
				return fmt.Errorf("delete check-ins: %w", err)
			}
			for _, d := range gone {
				if err := c.s.audit(ctx, &booking.Organization{ID: d.OrgID}, RetentionActor, "checkin.purge",
					target("booking", d.BookingID), nil, map[string]string{"country": d.Country}); err != nil {
					return err
				}
			}
			n += len(gone)
			return nil
		})
		if err != nil {
			return n, err
		}
	}
	return n, nil
}
