package host

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/feed"
	"github.com/staykit/staykit/pricing"
	"github.com/staykit/staykit/registration"
)

// PropertyChange creates or changes a property: nil fields stay as they
// are (on creation: empty, and Active true). For the stay limits, 0
// removes the limit. Rates replace the rate plan, except that nil
// Overrides keep the nightly prices set on the calendar.
type PropertyChange struct {
	Name          *string
	Description   *string
	Photos        *[]string
	City          *string
	Country       *string
	MaxGuests     *int
	Bedrooms      *int
	MinStayNights *int
	MaxStayNights *int
	Active        *bool
	Rates         *pricing.RatePlan
	Fees          *pricing.Fees
	Tax           *pricing.TouristTax
	// RegistrationNumber is checked against the property's country
	// (registration.Check); "" removes it.
	RegistrationNumber *string
	// PostalCode and MunicipalityCode locate the property for the
	// tourist tax report (checkLocality); "" removes them.
	PostalCode       *string
	MunicipalityCode *string
}

func (c PropertyChange) apply(p *booking.Property) error {
	set(&p.Name, c.Name)
	set(&p.Description, c.Description)
	set(&p.Photos, c.Photos)
	set(&p.City, c.City)
	set(&p.Country, c.Country)
	set(&p.MaxGuests, c.MaxGuests)
	set(&p.Bedrooms, c.Bedrooms)
	set(&p.Active, c.Active)
	set(&p.Fees, c.Fees)
	set(&p.Tax, c.Tax)
	if c.MinStayNights != nil {
		p.MinStayNights = limit(*c.MinStayNights)
	}
	if c.MaxStayNights != nil {
		p.MaxStayNights = limit(*c.MaxStayNights)
	}
	if c.Rates != nil {
		r := *c.Rates
		if r.Overrides == nil {
			r.Overrides = p.Rates.Overrides
		}
		p.Rates = r
	}
	f := booking.FieldErrors{}
	for _, photo := range p.Photos {
		if checkPhoto(f, photo); len(f) > 0 {
			break
		}
	}
	if c.RegistrationNumber != nil || (c.Country != nil && p.RegistrationNumber != "") {
		n := p.RegistrationNumber
		if c.RegistrationNumber != nil {
			n = *c.RegistrationNumber
		}
		number, reason := registration.Check(p.Country, n)
		if reason != "" {
			f.Add("registration_number", reason)
		}
		p.RegistrationNumber = number
	}
	set(&p.PostalCode, c.PostalCode)
	set(&p.MunicipalityCode, c.MunicipalityCode)
	p.PostalCode, p.MunicipalityCode = strings.TrimSpace(p.PostalCode), strings.ToUpper(strings.TrimSpace(p.MunicipalityCode))
	checkLocality(f, p)
	if err := f.Err(); err != nil {
		return err
	}
	return p.Validate()
}

// checkLocality records a problem with p's postal code (at most 12
// letters, digits, spaces or hyphens) or municipality code (at most 12
// letters and digits; in France the commune's INSEE code: five
// characters, digits but for Corsica's 2A and 2B).
func checkLocality(f booking.FieldErrors, p *booking.Property) {
	if len(p.PostalCode) > 12 || strings.ContainsFunc(p.PostalCode, func(r rune) bool {
		return !(r >= '0' && r <= '9' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r == ' ' || r == '-')
	}) {
		f.Add("postal_code", registration.ReasonInvalidFormat)
	}
	code := p.MunicipalityCode
	bad := len(code) > 12 || strings.ContainsFunc(code, func(r rune) bool { return !(r >= '0' && r <= '9' || r >= 'A' && r <= 'Z') })
	if !bad && code != "" && strings.EqualFold(p.Country, "FR") {
		bad = !inseeCode(code)
	}
	if bad {
		f.Add("municipality_code", registration.ReasonInvalidFormat)
	}
}

// inseeCode reports whether code is shaped as a French commune's INSEE
// code: five digits, or 2A/2B and three digits (Corsica).
func inseeCode(code string) bool {
	if len(code) != 5 {
		return false
	}
	rest := code
	if code[:2] == "2A" || code[:2] == "2B" {
		rest = code[2:]
	}
	return !strings.ContainsFunc(rest, func(r rune) bool { return r < '0' || r > '9' })
}

// checkPhoto records a problem unless s is an http(s) URL or a path on
// this server ("/img/villa.jpg", as the demo seed has them), which the
// booking page, the widget and the dashboard load from the server's own
// origin. A path starts with one slash ("//host" names another host) and
// holds no space nor backslash.
func checkPhoto(f booking.FieldErrors, s string) {
	if strings.HasPrefix(s, "/") && !strings.HasPrefix(s, "//") && !strings.ContainsAny(s, " \\") {
		if u, err := url.Parse(s); err == nil && u.Scheme == "" && u.Host == "" {
			return
		}
	}
	checkURL(f, "photos", s)
}

// Properties lists an organisation's properties, inactive ones included.
func (s *Service) Properties(ctx context.Context, org *booking.Organization) ([]booking.Property, error) {
	list, err := s.store.Properties(ctx, org.ID)
	if err != nil {
		return nil, fmt.Errorf("list properties: %w", err)
	}
	return list, nil
}

// Property finds a property of org, active or not. Errors: CodeNotFound.
func (s *Service) Property(ctx context.Context, org *booking.Organization, id int64) (*booking.Property, error) {
	p, err := s.store.Property(ctx, org.ID, id)
	if err != nil {
		return nil, notFoundAs(err, "property", "find property")
	}
	return p, nil
}

// CreateProperty adds a property to org. Errors: CodeInvalid (among
// others, a value out of booking.CheckBounds).
func (s *Service) CreateProperty(ctx context.Context, org *booking.Organization, c PropertyChange, by Actor) (*booking.Property, error) {
	if err := booking.CheckBounds(c, org.Currency); err != nil {
		return nil, err
	}
	p := &booking.Property{OrgID: org.ID, Active: true, Photos: []string{}}
	if err := c.apply(p); err != nil {
		return nil, err
	}
	err := s.atomically(ctx, func(ctx context.Context) error {
		if err := s.store.CreateProperty(ctx, p); err != nil {
			return fmt.Errorf("create property: %w", err)
		}
		return s.audit(ctx, org, by, "property.create", target("property", p.ID), nil, p)
	})
	if err != nil {
		return nil, err
	}
	return p, nil
}

// UpdateProperty changes a property. A deactivated property (Active
// false) leaves the public listing and takes no checkout, but keeps its
// bookings. Errors: CodeNotFound, CodeInvalid (among others, a value out
// of booking.CheckBounds).
func (s *Service) UpdateProperty(ctx context.Context, org *booking.Organization, id int64, c PropertyChange, by Actor) (*booking.Property, error) {
	if err := booking.CheckBounds(c, org.Currency); err != nil {
		return nil, err
	}
	before, err := s.Property(ctx, org, id)
	if err != nil {
		return nil, err
	}
	p := *before
	p.Photos = append([]string(nil), before.Photos...)
	if err := c.apply(&p); err != nil {
		return nil, err
	}
	// The blocks are left as stored: one added meanwhile (another request,
	// another replica) must survive.
	action := "property.update"
	if before.Active && !p.Active {
		action = "property.deactivate"
	}
	err = s.atomically(ctx, func(ctx context.Context) error {
		if err := s.store.UpdatePropertyFields(ctx, &p); err != nil {
			return notFoundAs(err, "property", "update property")
		}
		return s.audit(ctx, org, by, action, target("property", id), before, p)
	})
	if err != nil {
		return nil, err
	}
	return &p, nil
}

// DeactivateProperty takes a property off the public side.
func (s *Service) DeactivateProperty(ctx context.Context, org *booking.Organization, id int64, by Actor) (*booking.Property, error) {
	inactive := false
	return s.UpdateProperty(ctx, org, id, PropertyChange{Active: &inactive}, by)
}

// AddBlock keeps nights of a property for the owner. Errors: CodeNotFound,
// CodeInvalid, CodeConflict (reason "booked": a booking holds some of
// the nights).
func (s *Service) AddBlock(ctx context.Context, org *booking.Organization, propertyID int64, b booking.Block, by Actor) (*booking.Block, error) {
	if err := booking.CheckBounds(b, org.Currency); err != nil {
		return nil, err
	}
	if _, err := s.Property(ctx, org, propertyID); err != nil {
		return nil, err
	}
	f := booking.FieldErrors{}
	if b.Start.IsZero() {
		f.Add("start", "required")
	}
	if b.End.IsZero() {
		f.Add("end", "required")
	}
	if len(f) == 0 && !b.Start.Before(b.End) {
		f.Add("end", "invalid_range")
	}
	if err := f.Err(); err != nil {
		return nil, err
	}
	err := s.atomically(ctx, func(ctx context.Context) error {
		if err := s.store.AddBlock(ctx, propertyID, &b, s.clock.Now()); err != nil {
			return bookedConflict(notFoundAs(err, "property", "add block"))
		}
		return s.audit(ctx, org, by, "block.create", target("property", propertyID), nil, b)
	})
	if err != nil {
		return nil, err
	}
	return &b, nil
}

// RemoveBlock gives a block's nights back to guests. Errors: CodeNotFound.
func (s *Service) RemoveBlock(ctx context.Context, org *booking.Organization, propertyID, blockID int64, by Actor) error {
	p, err := s.Property(ctx, org, propertyID)
	if err != nil {
		return err
	}
	var before *booking.Block
	for _, b := range p.Blocks {
		if b.ID == blockID {
			before = &b
		}
	}
	if before == nil {
		return errNotFound("block")
	}
	return s.atomically(ctx, func(ctx context.Context) error {
		if err := s.store.RemoveBlock(ctx, propertyID, blockID); err != nil {
			return notFoundAs(err, "block", "remove block")
		}
		return s.audit(ctx, org, by, "block.delete", target("property", propertyID), before, nil)
	})
}

// MaxCalendarDays is the longest range one calendar request reads or sets.
const MaxCalendarDays = booking.MaxCalendarDays

// SetCalendar sets the dates [c.From, c.To) of a property's per-day
// calendar (booking.CalendarDay: price, closed, stay limits, closed to
// arrival or departure) in one atomic step; the public quote, availability
// and checkout see it at once. Closing dates a booking holds is refused:
// the booking keeps its nights (a host cancels it first). Errors:
// CodeNotFound, CodeInvalid, CodeConflict (reason "booked").
func (s *Service) SetCalendar(ctx context.Context, org *booking.Organization, propertyID int64, c booking.CalendarChange, by Actor) error {
	if err := booking.CheckBounds(c, org.Currency); err != nil {
		return err
	}
	if err := c.Validate(); err != nil {
		return err
	}
	if _, err := s.Property(ctx, org, propertyID); err != nil {
		return err
	}
	return s.atomically(ctx, func(ctx context.Context) error {
		return s.setCalendar(ctx, org, propertyID, c, by)
	})
}

// setCalendar applies c and audits it with the days before and after.
func (s *Service) setCalendar(ctx context.Context, org *booking.Organization, propertyID int64, c booking.CalendarChange, by Actor) error {
	before, err := s.store.CalendarDays(ctx, propertyID, c.From, c.To)
	if err != nil {
		return fmt.Errorf("read calendar: %w", err)
	}
	if err := s.store.ApplyCalendar(ctx, org.ID, propertyID, c, s.clock.Now()); err != nil {
		return bookedConflict(notFoundAs(err, "property", "set calendar"))
	}
	after, err := s.store.CalendarDays(ctx, propertyID, c.From, c.To)
	if err != nil {
		return fmt.Errorf("read calendar: %w", err)
	}
	type change struct {
		From              civil.Date `json:"from"`
		To                civil.Date `json:"to"`
		Price             any        `json:"price,omitempty"`
		ClearPrice        bool       `json:"clear_price,omitempty"`
		Closed            *bool      `json:"closed,omitempty"`
		MinStayNights     *int       `json:"min_stay_nights,omitempty"`
		MaxStayNights     *int       `json:"max_stay_nights,omitempty"`
		ClosedToArrival   *bool      `json:"closed_to_arrival,omitempty"`
		ClosedToDeparture *bool      `json:"closed_to_departure,omitempty"`
		Reason            string     `json:"reason,omitempty"`
	}
	ch := change{From: c.From, To: c.To, ClearPrice: c.ClearPrice, Closed: c.Closed, MinStayNights: c.MinStayNights,
		MaxStayNights: c.MaxStayNights, ClosedToArrival: c.ClosedToArrival, ClosedToDeparture: c.ClosedToDeparture, Reason: c.Reason}
	if c.Price != nil {
		ch.Price = c.Price.String()
	}
	return s.audit(ctx, org, by, "calendar.set", target("property", propertyID),
		struct {
			Days []booking.CalendarDay `json:"days"`
		}{orEmpty(before)}, struct {
			Change change                `json:"change"`
			Days   []booking.CalendarDay `json:"days"`
		}{ch, orEmpty(after)})
}

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// Day is one night of a property's calendar as the host sees it.
type Day struct {
	booking.CalendarDay
	// Price is what the night costs: the day's price, else the rate
	// plan's.
	Price decimal.Decimal
	// Override: the day sets the price (or, from before the per-day
	// calendar, the rate plan has an override for the date).
	Override bool
	// BlockID is the owner block covering the night, if any.
	BlockID int64
	// FeedID and Channel are the imported calendar (its name: "Airbnb")
	// whose event covers the night, if any.
	FeedID  int64
	Channel string
	// Booking holding the night at now, if any, and its status.
	BookingID int64
	Status    booking.Status
	// Units are the night on each active unit of the property, by
	// position (issue #27): the day's fields above say what holds it on
	// any unit.
	Units []UnitDay
	// LinkedPropertyID is a property linked to this one (package units)
	// whose booking or block takes the night on every unit; 0 when none.
	LinkedPropertyID int64
}

// UnitDay is one unit's night in a property's calendar: what holds it.
type UnitDay struct {
	UnitID int64
	// BlockID is the owner block covering the night on the unit (its own
	// or one of the whole property), if any.
	BlockID int64
	// FeedID and Channel are the unit's imported calendar whose event
	// covers the night, if any.
	FeedID  int64
	Channel string
	// BookingID holds the night on the unit at now, if any.
	BookingID int64
	Status    booking.Status
}

// checkRange reports CodeInvalid (field "to") unless [from, to) holds
// one night at least and at most MaxCalendarDays.
func checkRange(from, to civil.Date) error {
	if !from.Before(to) || from.DaysUntil(to) > MaxCalendarDays {
		return &booking.Error{Code: booking.CodeInvalid, Message: "The request is invalid.", Fields: booking.FieldErrors{"to": {"invalid_range"}}}
	}
	return nil
}

// Calendar returns the nights [from, to) of a property: the per-day
// settings, the price, blocks and the bookings holding them. Errors:
// CodeNotFound, CodeInvalid.
func (s *Service) Calendar(ctx context.Context, org *booking.Organization, propertyID int64, from, to civil.Date) ([]Day, error) {
	if err := checkRange(from, to); err != nil {
		return nil, err
	}
	p, err := s.Property(ctx, org, propertyID)
	if err != nil {
		return nil, err
	}
	stored, err := s.store.CalendarDays(ctx, propertyID, from, to)
	if err != nil {
		return nil, fmt.Errorf("read calendar: %w", err)
	}
	byDate := make(map[civil.Date]booking.CalendarDay, len(stored))
	for _, d := range stored {
		byDate[d.Date] = d
	}
	var holding []booking.Booking
	for before := int64(0); ; {
		page, err := s.store.BookingsPage(ctx, org.ID, booking.BookingQuery{Statuses: booking.HoldingStatuses,
			PropertyID: propertyID, From: from, To: to, Before: before, Limit: 100})
		if err != nil {
			return nil, fmt.Errorf("calendar bookings: %w", err)
		}
		holding = append(holding, page...)
		if len(page) < 100 {
			break
		}
		before = page[len(page)-1].ID
	}
	now := s.clock.Now()
	overrides := make(map[civil.Date]bool, len(p.Rates.Overrides))
	for _, o := range p.Rates.Overrides {
		overrides[o.Date] = true
	}
	linked, err := s.linkedHolds(ctx, org, p, from, to, now)
	if err != nil {
		return nil, err
	}
	var days []Day
	for d := from; d.Before(to); d = d.AddDays(1) {
		cd, ok := byDate[d]
		if !ok {
			cd = booking.CalendarDay{Date: d}
		}
		day := Day{CalendarDay: cd, Price: p.Rates.NightPrice(d), Override: overrides[d]}
		if cd.Price != nil {
			day.Price, day.Override = *cd.Price, true
		}
		day.Units = make([]UnitDay, len(p.Units))
		for i, u := range p.Units {
			day.Units[i].UnitID = u.ID
		}
		for _, b := range p.Blocks {
			if !d.Before(b.Start) && d.Before(b.End) {
				day.BlockID = b.ID
				for i := range day.Units {
					if b.UnitID == 0 || b.UnitID == day.Units[i].UnitID {
						day.Units[i].BlockID = b.ID
					}
				}
			}
		}
		for _, b := range holding {
			if b.HoldsDates(now) && !d.Before(b.CheckIn) && d.Before(b.CheckOut) {
				day.BookingID, day.Status = b.ID, b.Status
				for i := range day.Units {
					if b.UnitID == day.Units[i].UnitID {
						day.Units[i].BookingID, day.Units[i].Status = b.ID, b.Status
					}
				}
			}
		}
		for _, l := range linked {
			if l.Contains(d) {
				day.LinkedPropertyID = l.property
			}
		}
		days = append(days, day)
	}
	if err := s.markChannels(ctx, org, propertyID, days); err != nil {
		return nil, err
	}
	return days, nil
}

// linkedHold is a night range a linked property's booking or block takes.
type linkedHold struct {
	civil.Range
	property int64
}

// linkedHolds returns the bookings holding dates at now and the blocks
// (imported ones included) of the properties linked to p that overlap
// [from, to): they take p's nights on every unit.
func (s *Service) linkedHolds(ctx context.Context, org *booking.Organization, p *booking.Property, from, to civil.Date, now time.Time) ([]linkedHold, error) {
	if len(p.Linked) == 0 {
		return nil, nil
	}
	var feeds []feed.Feed
	if s.store.FeedStore != nil {
		var err error
		if feeds, err = s.store.Feeds(ctx, org.ID); err != nil {
			return nil, fmt.Errorf("calendar feeds: %w", err)
		}
	}
	window := civil.Range{Start: from, End: to}
	var out []linkedHold
	add := func(id int64, r civil.Range) {
		if r.Overlaps(window) {
			out = append(out, linkedHold{r, id})
		}
	}
	for _, id := range p.Linked {
		lp, err := s.store.Property(ctx, org.ID, id)
		if err != nil {
			return nil, fmt.Errorf("calendar of a linked property: %w", err)
		}
		for _, b := range lp.Blocks {
			add(id, b.Range())
		}
		for before := int64(0); ; {
			page, err := s.store.BookingsPage(ctx, org.ID, booking.BookingQuery{Statuses: booking.HoldingStatuses,
				PropertyID: id, From: from, To: to, Before: before, Limit: 100})
			if err != nil {
				return nil, fmt.Errorf("calendar bookings of a linked property: %w", err)
			}
			for _, b := range page {
				if b.HoldsDates(now) {
					add(id, b.Range())
				}
			}
			if len(page) < 100 {
				break
			}
			before = page[len(page)-1].ID
		}
		for _, f := range feeds {
			if f.PropertyID != id {
				continue
			}
			blocks, err := s.store.FeedBlocks(ctx, f.ID)
			if err != nil {
				return nil, fmt.Errorf("calendar feed blocks of a linked property: %w", err)
			}
			for _, b := range blocks {
				add(id, b.Range())
			}
		}
	}
	return out, nil
}

// markChannels marks the days that an imported calendar's event covers
// with its feed: a channel's booking or block, shown apart from the
// owner's blocks.
func (s *Service) markChannels(ctx context.Context, org *booking.Organization, propertyID int64, days []Day) error {
	if s.store.FeedStore == nil || len(days) == 0 {
		return nil
	}
	feeds, err := s.store.Feeds(ctx, org.ID)
	if err != nil {
		return fmt.Errorf("calendar feeds: %w", err)
	}
	from := days[0].Date
	for _, f := range feeds {
		if f.PropertyID != propertyID {
			continue
		}
		blocks, err := s.store.FeedBlocks(ctx, f.ID)
		if err != nil {
			return fmt.Errorf("calendar feed blocks: %w", err)
		}
		for _, b := range blocks {
			for i := max(from.DaysUntil(b.Start), 0); i < len(days) && days[i].Date.Before(b.End); i++ {
				days[i].FeedID, days[i].Channel = f.ID, f.Name
				for j := range days[i].Units {
					if days[i].Units[j].UnitID == f.UnitID {
						days[i].Units[j].FeedID, days[i].Units[j].Channel = f.ID, f.Name
					}
				}
			}
		}
	}
	return nil
}
