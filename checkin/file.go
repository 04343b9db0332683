package checkin

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
)

// Authorities whose files Generate writes.
const (
	// AuthoritySES is Spain's SES.HOSPEDAJES (Ministerio del Interior).
	AuthoritySES = "ses_hospedajes"
	// AuthorityAlloggiati is Italy's Alloggiati Web (Polizia di Stato).
	AuthorityAlloggiati = "alloggiati_web"
	// AuthorityFiche is France's fiche individuelle de police, kept by the
	// host and handed to the police or gendarmerie on request.
	AuthorityFiche = "fiche_police"
)

// Establishment is the property as the authorities know it.
type Establishment struct {
	// Country is the property's ISO 3166-1 alpha-2 code.
	Country string
	Name    string
	Address string
	City    string
	// Code is the establishment's code at the authority: SES.HOSPEDAJES'
	// codigoEstablecimiento (at most ten characters). Alloggiati Web and
	// the fiche need none.
	Code string
	// RegistrationNumber is the property's registration number, printed
	// on the fiche.
	RegistrationNumber string
}

// Stay is a booking as an authority file reports it.
type Stay struct {
	BookingID int64
	// Reference is the booking's reference (SES: referencia of the
	// contract, at most 50 characters).
	Reference string
	// Contracted is the day the booking was made.
	Contracted civil.Date
	// Arrival and Departure are the check-in and check-out instants in
	// the property's time zone.
	Arrival   time.Time
	Departure time.Time
	Guests    []Guest
}

// Nights is the length of the stay in nights.
func (s Stay) Nights() int { return civil.Of(s.Arrival).DaysUntil(civil.Of(s.Departure)) }

// File is a generated authority file.
type File struct {
	Authority   string
	Name        string
	ContentType string
	Body        []byte
}

// Authority is the authority of a property's country, "" when staykit
// writes no file for it.
func Authority(country string) string {
	switch strings.ToUpper(country) {
	case "ES":
		return AuthoritySES
	case "IT":
		return AuthorityAlloggiati
	case "FR":
		return AuthorityFiche
	}
	return ""
}

// Generate writes the authority file of stays at e, named after name
// (such as "booking-12" or "arrivals-2026-07-01"). Each stay's guests
// must pass the rules of e.Country (Validate). Errors: booking.CodeInvalid
// when the country has no authority file (field "country") or a stay
// cannot be written (fields "guests.N.field", or "stays" when none).
func Generate(e Establishment, stays []Stay, name string) (*File, error) {
	if len(stays) == 0 {
		return nil, invalid("stays", ReasonRequired)
	}
	for _, s := range stays {
		if _, err := Validate(e.Country, civil.Of(s.Arrival), s.Guests); err != nil {
			return nil, err
		}
	}
	switch Authority(e.Country) {
	case AuthoritySES:
		body, err := SESParte(e, stays)
		if err != nil {
			return nil, err
		}
		return &File{Authority: AuthoritySES, Name: name + ".xml", ContentType: "application/xml", Body: body}, nil
	case AuthorityAlloggiati:
		body, err := Alloggiati(stays)
		if err != nil {
			return nil, err
		}
		return &File{Authority: AuthorityAlloggiati, Name: name + ".txt", ContentType: "text/plain; charset=utf-8", Body: body}, nil
	case AuthorityFiche:
		body, err := Fiches(e, stays)
		if err != nil {
			return nil, err
		}
		return &File{Authority: AuthorityFiche, Name: name + ".html", ContentType: "text/html; charset=utf-8", Body: body}, nil
	}
	return nil, invalid("country", ReasonUnsupported)
}

// Credentials are a host's credentials at an authority's service. They
// are secrets: never logged nor stored by this package.
type Credentials struct {
	// User and Password (SES: the web service user "NIF+WS"; Alloggiati:
	// the portal user) and Key (Alloggiati Web's WSKEY; SES's
	// codigoArrendador).
	User     string
	Password string
	Key      string
}

// String hides the credentials from %v and %s.
func (Credentials) String() string { return "checkin.Credentials{…}" }

// GoString hides them from %#v.
func (c Credentials) GoString() string { return c.String() }

// LogValue hides them from slog.
func (c Credentials) LogValue() slog.Value { return slog.StringValue(c.String()) }

// Receipt is an authority's answer to a submission.
type Receipt struct {
	// Reference is the authority's reference (SES: the lote).
	Reference string
	At        time.Time
}

// Submitter sends a generated file to its authority's service with the
// host's credentials. staykit ships no implementation that reaches a
// government service (SES.HOSPEDAJES' SOAP "comunicacion" operation,
// Alloggiati Web's "Send"): those need the host's credentials and network
// access to the services, and could not be exercised here. The fiche de
// police is not submitted: the host keeps it. Errors: booking.CodeInvalid
// (the authority refused the file), booking.CodeServiceUnavailable (the
// service could not be reached).
type Submitter interface {
	Submit(ctx context.Context, f *File, c Credentials) (*Receipt, error)
}

// invalid is a CodeInvalid error on one field.
func invalid(field, reason string) error {
	return &booking.Error{Code: booking.CodeInvalid, Message: "The request is invalid.",
		Fields: booking.FieldErrors{field: {reason}}}
}

// stayField is a CodeInvalid error on a field of the stay i's guest j.
func stayField(i, j int, field, reason string) error {
	return invalid(fmt.Sprintf("stays.%d.guests.%d.%s", i, j, field), reason)
}
