package rowmap

import (
	"strings"

	"github.com/staykit/staykit/booking"
)

// OrganizationColumns are the columns of organizations, in the order
// ScanOrganization reads them.
const OrganizationColumns = `id, slug, name, logo, payment_mode, default_locale, branding,
	terms_url, min_stay_nights, max_stay_nights, currency, timezone, deposit_percent,
	balance_due_days, hold_minutes, request_hold_hours, custom_domain, allowed_origins,
	public_engine_enabled, country, booking_horizon_days`

// OrganizationDataColumns are OrganizationColumns after id, in the order
// of OrganizationArgs.
var OrganizationDataColumns = strings.TrimPrefix(OrganizationColumns, "id, ")

// OrganizationArgs returns o's columns after id, in
// OrganizationDataColumns order.
func OrganizationArgs(c Codec, o *booking.Organization) ([]any, error) {
	j, err := JSONArgs(c, o.Branding, o.AllowedOrigins)
	if err != nil {
		return nil, err
	}
	return []any{o.Slug, o.Name, o.Logo, string(o.PaymentMode), o.DefaultLocale, j[0],
		o.TermsURL, NullInt(o.MinStayNights), NullInt(o.MaxStayNights), o.Currency, o.Timezone,
		c.MoneyArg(o.DepositPercent), o.BalanceDueDays, o.HoldMinutes, o.RequestHoldHours,
		o.CustomDomain, j[1], o.PublicEngineEnabled, o.Country, o.BookingHorizonDays}, nil
}

// ScanOrganization reads a row of OrganizationColumns.
func ScanOrganization(c Codec, s Scanner) (*booking.Organization, error) {
	var o booking.Organization
	if err := Scan(s, &o.ID, &o.Slug, &o.Name, &o.Logo, (*string)(&o.PaymentMode),
		&o.DefaultLocale, JSON(c, &o.Branding), &o.TermsURL, c.OptInt(&o.MinStayNights),
		c.OptInt(&o.MaxStayNights), &o.Currency, &o.Timezone, c.Money(&o.DepositPercent),
		&o.BalanceDueDays, &o.HoldMinutes, &o.RequestHoldHours, &o.CustomDomain,
		JSON(c, &o.AllowedOrigins), &o.PublicEngineEnabled, &o.Country,
		&o.BookingHorizonDays); err != nil {
		return nil, err
	}
	return &o, nil
}

// OrganizationNotFound is the error for an organisation that is not there.
func OrganizationNotFound() error {
	return booking.Errorf(booking.CodeNotFound, "Organization not found.")
}
