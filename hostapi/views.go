package hostapi

import (
	"encoding/json"
	"time"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/host"
	"github.com/staykit/staykit/ledger"
	"github.com/staykit/staykit/pricing"
)

// Amounts are exact decimal strings ("120.50") in the organisation's
// currency, as pricing's types marshal them; instants are RFC 3339 UTC;
// absent dates and instants are null.

func optTime(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	t = t.UTC()
	return &t
}

func optDate(d civil.Date) *civil.Date {
	if d.IsZero() {
		return nil
	}
	return &d
}

func optID(id int64) *int64 {
	if id == 0 {
		return nil
	}
	return &id
}

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

type settingsView struct {
	Slug                string            `json:"slug"`
	Name                string            `json:"name"`
	Logo                string            `json:"logo"`
	Branding            map[string]string `json:"branding"`
	DefaultLocale       string            `json:"default_locale"`
	PaymentMode         string            `json:"payment_mode"`
	DepositPercent      decimal.Decimal   `json:"deposit_percent"`
	MinStayNights       *int              `json:"min_stay_nights"`
	MaxStayNights       *int              `json:"max_stay_nights"`
	AllowedOrigins      []string          `json:"allowed_origins"`
	CustomDomain        string            `json:"custom_domain"`
	TermsURL            string            `json:"terms_url"`
	PublicEngineEnabled bool              `json:"public_engine_enabled"`
	Currency            string            `json:"currency"`
	Timezone            string            `json:"timezone"`
}

func newSettingsView(o *booking.Organization) settingsView {
	b := o.Branding
	if b == nil {
		b = map[string]string{}
	}
	return settingsView{Slug: o.Slug, Name: o.Name, Logo: o.Logo, Branding: b, DefaultLocale: o.DefaultLocale,
		PaymentMode: string(o.PaymentMode), DepositPercent: o.DepositPercent, MinStayNights: o.MinStayNights,
		MaxStayNights: o.MaxStayNights, AllowedOrigins: orEmpty(o.AllowedOrigins), CustomDomain: o.CustomDomain,
		TermsURL: o.TermsURL, PublicEngineEnabled: o.PublicEngineEnabled, Currency: o.Currency, Timezone: o.Timezone}
}

// settingsBody is PATCH /settings.
type settingsBody struct {
	Name                *string              `json:"name"`
	Logo                *string              `json:"logo"`
	Branding            *map[string]string   `json:"branding"`
	DefaultLocale       *string              `json:"default_locale"`
	PaymentMode         *pricing.PaymentMode `json:"payment_mode"`
	DepositPercent      *decimal.Decimal     `json:"deposit_percent"`
	MinStayNights       *int                 `json:"min_stay_nights"`
	MaxStayNights       *int                 `json:"max_stay_nights"`
	AllowedOrigins      *[]string            `json:"allowed_origins"`
	CustomDomain        *string              `json:"custom_domain"`
	TermsURL            *string              `json:"terms_url"`
	PublicEngineEnabled *bool                `json:"public_engine_enabled"`
	termsBody
	// ContactEmail is where the host's e-mails go; "" for none.
	ContactEmail *string `json:"contact_email"`
}

func (b settingsBody) change() host.Settings {
	return host.Settings{Name: b.Name, Logo: b.Logo, Branding: b.Branding, DefaultLocale: b.DefaultLocale,
		PaymentMode: b.PaymentMode, DepositPercent: b.DepositPercent, MinStayNights: b.MinStayNights,
		MaxStayNights: b.MaxStayNights, AllowedOrigins: b.AllowedOrigins, CustomDomain: b.CustomDomain,
		TermsURL: b.TermsURL, PublicEngineEnabled: b.PublicEngineEnabled}
}

type blockView struct {
	ID     int64      `json:"id"`
	Start  civil.Date `json:"start"`
	End    civil.Date `json:"end"`
	Reason string     `json:"reason"`
	// UnitID is the unit the block takes; null: every unit (issue #27).
	UnitID *int64 `json:"unit_id"`
}

func newBlockView(b booking.Block) blockView {
	return blockView{ID: b.ID, Start: b.Start, End: b.End, Reason: b.Reason, UnitID: optID(b.UnitID)}
}

type propertyView struct {
	ID            int64              `json:"id"`
	Name          string             `json:"name"`
	Description   string             `json:"description"`
	Photos        []string           `json:"photos"`
	City          string             `json:"city"`
	Country       string             `json:"country"`
	MaxGuests     int                `json:"max_guests"`
	Bedrooms      int                `json:"bedrooms"`
	MinStayNights *int               `json:"min_stay_nights"`
	MaxStayNights *int               `json:"max_stay_nights"`
	Active        bool               `json:"active"`
	Rates         pricing.RatePlan   `json:"rates"`
	Fees          pricing.Fees       `json:"fees"`
	Tax           pricing.TouristTax `json:"tax"`
	Blocks        []blockView        `json:"blocks"`
	// RegistrationNumber: issue #29; "" when the property has none.
	RegistrationNumber string `json:"registration_number"`
	// PostalCode and MunicipalityCode locate it for the tourist tax
	// report; "" when unknown.
	PostalCode       string `json:"postal_code"`
	MunicipalityCode string `json:"municipality_code"`
	// Units are its active units, Linked the properties linked to it
	// (issue #27).
	Units  []unitView `json:"units"`
	Linked []int64    `json:"linked"`
}

func newPropertyView(p *booking.Property) propertyView {
	v := propertyView{ID: p.ID, Name: p.Name, Description: p.Description, Photos: orEmpty(p.Photos), City: p.City,
		Country: p.Country, MaxGuests: p.MaxGuests, Bedrooms: p.Bedrooms, MinStayNights: p.MinStayNights,
		MaxStayNights: p.MaxStayNights, Active: p.Active, Rates: p.Rates, Fees: p.Fees, Tax: p.Tax, Blocks: []blockView{},
		RegistrationNumber: p.RegistrationNumber, PostalCode: p.PostalCode, MunicipalityCode: p.MunicipalityCode,
		Units: []unitView{}, Linked: orEmpty(p.Linked)}
	for _, b := range p.Blocks {
		v.Blocks = append(v.Blocks, newBlockView(b))
	}
	for _, u := range p.Units {
		v.Units = append(v.Units, newUnitView(u))
	}
	return v
}

// propertyBody is POST /properties and PATCH /properties/{id}.
type propertyBody struct {
	Name          *string             `json:"name"`
	Description   *string             `json:"description"`
	Photos        *[]string           `json:"photos"`
	City          *string             `json:"city"`
	Country       *string             `json:"country"`
	MaxGuests     *int                `json:"max_guests"`
	Bedrooms      *int                `json:"bedrooms"`
	MinStayNights *int                `json:"min_stay_nights"`
	MaxStayNights *int                `json:"max_stay_nights"`
	Active        *bool               `json:"active"`
	Rates         *pricing.RatePlan   `json:"rates"`
	Fees          *pricing.Fees       `json:"fees"`
	Tax           *pricing.TouristTax `json:"tax"`
	// Terms is the property's own cancellation policy and deposit.
	Terms              *termsBody `json:"terms"`
	RegistrationNumber *string    `json:"registration_number"`
	PostalCode         *string    `json:"postal_code"`
	MunicipalityCode   *string    `json:"municipality_code"`
}

func (b propertyBody) change() host.PropertyChange {
	return host.PropertyChange{Name: b.Name, Description: b.Description, Photos: b.Photos, City: b.City,
		Country: b.Country, MaxGuests: b.MaxGuests, Bedrooms: b.Bedrooms, MinStayNights: b.MinStayNights,
		MaxStayNights: b.MaxStayNights, Active: b.Active, Rates: b.Rates, Fees: b.Fees, Tax: b.Tax,
		RegistrationNumber: b.RegistrationNumber, PostalCode: b.PostalCode, MunicipalityCode: b.MunicipalityCode}
}

// calendarBody is POST /properties/{id}/calendar.
type calendarBody struct {
	From              civil.Date       `json:"from"`
	To                civil.Date       `json:"to"`
	Price             *decimal.Decimal `json:"price"`
	ClearPrice        bool             `json:"clear_price"`
	Closed            *bool            `json:"closed"`
	MinStayNights     *int             `json:"min_stay_nights"`
	MaxStayNights     *int             `json:"max_stay_nights"`
	ClosedToArrival   *bool            `json:"closed_to_arrival"`
	ClosedToDeparture *bool            `json:"closed_to_departure"`
	Reason            string           `json:"reason"`
}

func (b calendarBody) change() booking.CalendarChange {
	return booking.CalendarChange{From: b.From, To: b.To, Price: b.Price, ClearPrice: b.ClearPrice, Closed: b.Closed,
		MinStayNights: b.MinStayNights, MaxStayNights: b.MaxStayNights, ClosedToArrival: b.ClosedToArrival,
		ClosedToDeparture: b.ClosedToDeparture, Reason: b.Reason}
}

type dayView struct {
	Date              civil.Date      `json:"date"`
	Price             decimal.Decimal `json:"price"`
	PriceOverride     bool            `json:"price_override"`
	Closed            bool            `json:"closed"`
	MinStayNights     *int            `json:"min_stay_nights"`
	MaxStayNights     *int            `json:"max_stay_nights"`
	ClosedToArrival   bool            `json:"closed_to_arrival"`
	ClosedToDeparture bool            `json:"closed_to_departure"`
	BlockID           *int64          `json:"block_id"`
	BookingID         *int64          `json:"booking_id"`
	BookingStatus     *string         `json:"booking_status"`
	FeedID            *int64          `json:"feed_id"`
	Channel           *string         `json:"channel"`
	// Units are the night on each unit of the property (issue #27);
	// LinkedPropertyID a linked property holding it on every unit.
	Units            []unitDayView `json:"units"`
	LinkedPropertyID *int64        `json:"linked_property_id"`
}

// unitDayView is a night of one unit: what holds it.
type unitDayView struct {
	UnitID        int64   `json:"unit_id"`
	BlockID       *int64  `json:"block_id"`
	BookingID     *int64  `json:"booking_id"`
	BookingStatus *string `json:"booking_status"`
	FeedID        *int64  `json:"feed_id"`
	Channel       *string `json:"channel"`
}

type calendarView struct {
	PropertyID int64     `json:"property_id"`
	Currency   string    `json:"currency"`
	Days       []dayView `json:"days"`
}

func newCalendarView(org *booking.Organization, propertyID int64, days []host.Day) calendarView {
	v := calendarView{PropertyID: propertyID, Currency: org.Currency, Days: make([]dayView, len(days))}
	for i, d := range days {
		v.Days[i] = dayView{Date: d.Date, Price: d.Price, PriceOverride: d.Override, Closed: d.Closed,
			MinStayNights: d.MinStayNights, MaxStayNights: d.MaxStayNights, ClosedToArrival: d.ClosedToArrival,
			ClosedToDeparture: d.ClosedToDeparture, BlockID: optID(d.BlockID), BookingID: optID(d.BookingID), FeedID: optID(d.FeedID)}
		if d.FeedID != 0 {
			ch := d.Channel
			v.Days[i].Channel = &ch
		}
		if d.BookingID != 0 {
			s := string(d.Status)
			v.Days[i].BookingStatus = &s
		}
		v.Days[i].LinkedPropertyID = optID(d.LinkedPropertyID)
		v.Days[i].Units = make([]unitDayView, len(d.Units))
		for j, u := range d.Units {
			uv := unitDayView{UnitID: u.UnitID, BlockID: optID(u.BlockID), BookingID: optID(u.BookingID), FeedID: optID(u.FeedID)}
			if u.FeedID != 0 {
				ch := u.Channel
				uv.Channel = &ch
			}
			if u.BookingID != 0 {
				s := string(u.Status)
				uv.BookingStatus = &s
			}
			v.Days[i].Units[j] = uv
		}
	}
	return v
}

// blockBody is POST /properties/{id}/blocks.
type blockBody struct {
	Start  civil.Date `json:"start"`
	End    civil.Date `json:"end"`
	Reason string     `json:"reason"`
	// UnitID, when set, blocks that unit alone (issue #27).
	UnitID int64 `json:"unit_id"`
}

type couponView struct {
	ID             int64           `json:"id"`
	Code           string          `json:"code"`
	Label          string          `json:"label"`
	Kind           string          `json:"kind"`
	Value          decimal.Decimal `json:"value"`
	Active         bool            `json:"active"`
	ValidFrom      *civil.Date     `json:"valid_from"`
	ValidUntil     *civil.Date     `json:"valid_until"`
	StayFrom       *civil.Date     `json:"stay_from"`
	StayUntil      *civil.Date     `json:"stay_until"`
	MinNights      int             `json:"min_nights"`
	MinAmount      decimal.Decimal `json:"min_amount"`
	MaxRedemptions int             `json:"max_redemptions"`
	PropertyIDs    []int64         `json:"property_ids"`
	Redemptions    int             `json:"redemptions"`
}

func newCouponView(c *host.CouponCount) couponView {
	return couponView{ID: c.ID, Code: c.Code, Label: c.Label, Kind: string(c.Kind), Value: c.Value, Active: c.Active,
		ValidFrom: optDate(c.ValidFrom), ValidUntil: optDate(c.ValidUntil), StayFrom: optDate(c.StayFrom),
		StayUntil: optDate(c.StayUntil), MinNights: c.MinNights, MinAmount: c.MinAmount,
		MaxRedemptions: c.MaxRedemptions, PropertyIDs: orEmpty(c.PropertyIDs), Redemptions: c.Redemptions}
}

// couponBody is POST /coupons and PATCH /coupons/{id}.
type couponBody struct {
	Code           *string               `json:"code"`
	Label          *string               `json:"label"`
	Kind           *pricing.DiscountKind `json:"kind"`
	Value          *decimal.Decimal      `json:"value"`
	Active         *bool                 `json:"active"`
	ValidFrom      *civil.Date           `json:"valid_from"`
	ValidUntil     *civil.Date           `json:"valid_until"`
	StayFrom       *civil.Date           `json:"stay_from"`
	StayUntil      *civil.Date           `json:"stay_until"`
	MinNights      *int                  `json:"min_nights"`
	MinAmount      *decimal.Decimal      `json:"min_amount"`
	MaxRedemptions *int                  `json:"max_redemptions"`
	PropertyIDs    *[]int64              `json:"property_ids"`
}

func (b couponBody) change() host.CouponChange {
	return host.CouponChange{Code: b.Code, Label: b.Label, Kind: b.Kind, Value: b.Value, Active: b.Active,
		ValidFrom: b.ValidFrom, ValidUntil: b.ValidUntil, StayFrom: b.StayFrom, StayUntil: b.StayUntil,
		MinNights: b.MinNights, MinAmount: b.MinAmount, MaxRedemptions: b.MaxRedemptions, PropertyIDs: b.PropertyIDs}
}

type bookingView struct {
	ID            int64           `json:"id"`
	Token         string          `json:"token"`
	PropertyID    int64           `json:"property_id"`
	Status        string          `json:"status"`
	CheckIn       civil.Date      `json:"check_in"`
	CheckOut      civil.Date      `json:"check_out"`
	Nights        int             `json:"nights"`
	Guests        int             `json:"guests"`
	GuestName     string          `json:"guest_name"`
	GuestEmail    string          `json:"guest_email"`
	GuestPhone    string          `json:"guest_phone"`
	Message       string          `json:"message"`
	Locale        string          `json:"locale"`
	CouponCode    *string         `json:"coupon_code"`
	Currency      string          `json:"currency"`
	PaymentMode   string          `json:"payment_mode"`
	TotalAmount   decimal.Decimal `json:"total_amount"`
	ChargeAmount  decimal.Decimal `json:"charge_amount"`
	PaidAmount    decimal.Decimal `json:"paid_amount"`
	BalanceAmount decimal.Decimal `json:"balance_amount"`
	CreatedAt     time.Time       `json:"created_at"`
	ExpiresAt     *time.Time      `json:"expires_at"`
	ConfirmedAt   *time.Time      `json:"confirmed_at"`
	// UnitID is the unit of the property the stay holds (issue #27).
	UnitID *int64 `json:"unit_id"`
}

func newBookingView(b *booking.Booking) bookingView {
	v := bookingView{ID: b.ID, Token: b.Token, PropertyID: b.PropertyID, Status: string(b.Status), CheckIn: b.CheckIn,
		CheckOut: b.CheckOut, Nights: b.Nights(), Guests: b.Guests, GuestName: b.GuestName, GuestEmail: b.GuestEmail,
		GuestPhone: b.GuestPhone, Message: b.Message, Locale: b.Locale, Currency: b.Currency,
		PaymentMode: string(b.PaymentMode), TotalAmount: b.TotalAmount, ChargeAmount: b.ChargeAmount,
		PaidAmount: b.PaidAmount, BalanceAmount: b.BalanceAmount, CreatedAt: b.CreatedAt.UTC(),
		ExpiresAt: optTime(b.ExpiresAt), ConfirmedAt: optTime(b.ConfirmedAt), UnitID: optID(b.UnitID)}
	if b.CouponCode != "" {
		v.CouponCode = &b.CouponCode
	}
	return v
}

// paymentView is a ledger entry: its amount in minor units (cents), and
// the same as an exact decimal string fixed to the currency's minor units
// ("175.45"), so that no client needs to know a currency's exponent.
type paymentView struct {
	ID         int64     `json:"id"`
	Kind       string    `json:"kind"`
	Amount     int64     `json:"amount_minor"`
	Decimal    string    `json:"amount"`
	Currency   string    `json:"currency"`
	Reason     string    `json:"reason"`
	Status     string    `json:"status"`
	ProviderID string    `json:"provider_id"`
	CreatedAt  time.Time `json:"created_at"`
	UpdatedAt  time.Time `json:"updated_at"`
}

type bookingDetailView struct {
	bookingView
	Payments []paymentView `json:"payments"`
}

func newBookingDetailView(b *booking.Booking, entries []ledger.Entry) bookingDetailView {
	v := bookingDetailView{bookingView: newBookingView(b), Payments: []paymentView{}}
	for _, e := range entries {
		v.Payments = append(v.Payments, paymentView{ID: e.ID, Kind: string(e.Kind), Amount: e.Amount,
			Decimal: pricing.FromMinor(e.Amount, e.Currency).StringFixed(pricing.MinorUnits(e.Currency)), Currency: e.Currency,
			Reason: e.Reason, Status: string(e.Status), ProviderID: e.ProviderID, CreatedAt: e.CreatedAt.UTC(), UpdatedAt: e.UpdatedAt.UTC()})
	}
	return v
}

type apiKeyView struct {
	ID         int64      `json:"id"`
	Name       string     `json:"name"`
	Prefix     string     `json:"prefix"`
	CreatedAt  time.Time  `json:"created_at"`
	LastUsedAt *time.Time `json:"last_used_at"`
	RevokedAt  *time.Time `json:"revoked_at"`
}

func newAPIKeyView(k *host.APIKey) apiKeyView {
	return apiKeyView{ID: k.ID, Name: k.Name, Prefix: k.Prefix, CreatedAt: k.CreatedAt.UTC(),
		LastUsedAt: optTime(k.LastUsedAt), RevokedAt: optTime(k.RevokedAt)}
}

// newKeyView is a key just created: the only time its secret is shown
// (null in the replay of a retried request).
type newKeyView struct {
	apiKeyView
	Key *string `json:"key"`
}

func (v newKeyView) withoutSecret() any {
	v.Key = nil
	return v
}

type apiKeyBody struct {
	Name string `json:"name"`
}

type auditView struct {
	ID        int64           `json:"id"`
	Actor     string          `json:"actor"`
	ActorName string          `json:"actor_name"`
	Action    string          `json:"action"`
	Target    string          `json:"target"`
	Before    json.RawMessage `json:"before"`
	After     json.RawMessage `json:"after"`
	At        time.Time       `json:"at"`
}

func newAuditView(e host.AuditEntry) auditView {
	v := auditView{ID: e.ID, Actor: e.Actor, ActorName: e.ActorName, Action: e.Action, Target: e.Target,
		Before: e.Before, After: e.After, At: e.At.UTC()}
	if len(v.Before) == 0 {
		v.Before = json.RawMessage("null")
	}
	if len(v.After) == 0 {
		v.After = json.RawMessage("null")
	}
	return v
}
