// Package checkin holds a booking's online check-in (issue #29): the
// identity data of each guest that the law of the property's country asks
// a host to collect, entered by the guest on their booking page before
// arrival or by the host at arrival, validated per country (Rules), and
// turned into the files the authorities accept (SES.HOSPEDAJES in Spain,
// Alloggiati Web in Italy, the fiche individuelle de police in France).
//
// The data is stored apart from the booking (Store), read only by the
// roles that need it and audited on every read by package host, never
// logged, erased with the guest (package privacy) and deleted by the
// retention job (package jobs) once the keeping period of its country
// has passed (Retention). No image of a document is ever kept: Spain's
// data protection authority (AEPD, note of 17 June 2025) forbids asking
// for a copy, and no country here needs one.
package checkin

import (
	"context"
	"time"

	"github.com/staykit/staykit/civil"
)

// Guest is one guest's identity data, as entered. Country codes are ISO
// 3166-1 alpha-2 in upper case; each authority file converts them to its
// own codes.
type Guest struct {
	GivenNames string `json:"given_names"`
	Surname    string `json:"surname"`
	// SecondSurname is the second apellido of Spanish naming, required
	// in Spain with a Spanish identity document (NIF).
	SecondSurname string `json:"second_surname"`
	// Sex is SexMale, SexFemale or SexOther.
	Sex       string     `json:"sex"`
	BirthDate civil.Date `json:"birth_date"`
	// BirthPlace is the town of birth as written by the guest.
	BirthPlace   string `json:"birth_place"`
	BirthCountry string `json:"birth_country"`
	// BirthMunicipalityCode is the code of an Italian-born guest's comune
	// of birth in Alloggiati Web's Comuni table (nine digits), and
	// BirthProvince its province's two-letter sigla: Italy needs both.
	BirthMunicipalityCode string `json:"birth_municipality_code"`
	BirthProvince         string `json:"birth_province"`
	Nationality           string `json:"nationality"`
	// DocumentType is one of the Document* constants.
	DocumentType   string `json:"document_type"`
	DocumentNumber string `json:"document_number"`
	// DocumentSupport is the support number of a Spanish DNI or NIE
	// (número de soporte), which SES.HOSPEDAJES requires with them.
	DocumentSupport string `json:"document_support"`
	DocumentCountry string `json:"document_country"`
	// DocumentIssuePlaceCode is the Alloggiati Web Comuni code of the
	// comune that issued an Italian document (nine digits).
	DocumentIssuePlaceCode string     `json:"document_issue_place_code"`
	DocumentIssueDate      civil.Date `json:"document_issue_date"`
	// Address is the usual residence: street and number.
	Address    string `json:"address"`
	PostalCode string `json:"postal_code"`
	City       string `json:"city"`
	// MunicipalityCode is the INE code (five digits) of the municipality
	// of a residence in Spain, which SES.HOSPEDAJES requires then.
	MunicipalityCode string `json:"municipality_code"`
	AddressCountry   string `json:"address_country"`
	Phone            string `json:"phone"`
	Email            string `json:"email"`
	// Relationship is a minor's relationship to an adult of the stay, a
	// code of SES.HOSPEDAJES' TIPO_PARENTESCO table (Relationships),
	// required in Spain for a guest under 18.
	Relationship string `json:"relationship"`
}

// Sexes of Guest.Sex.
const (
	SexMale   = "M"
	SexFemale = "F"
	SexOther  = "X"
)

// Document types of Guest.DocumentType.
const (
	DocumentPassport        = "passport"
	DocumentIDCard          = "id_card"
	DocumentResidencePermit = "residence_permit"
	DocumentDrivingLicence  = "driving_licence"
	DocumentOther           = "other"
)

// Record is a booking's check-in: its guests, the country whose rules they
// were checked against (the property's), and who wrote it last.
type Record struct {
	BookingID int64
	// Country is the property's country when the record was saved.
	Country string
	Guests  []Guest
	// UpdatedBy names who saved it: "guest", or the host's actor.
	UpdatedBy string
	UpdatedAt time.Time
	// SubmittedAt is when an authority file holding it was last
	// submitted (Submitter); zero before.
	SubmittedAt time.Time
}

// Store keeps the check-ins, one per booking, apart from the bookings. A
// store deletes a booking's check-in with the booking and when its guest
// is erased (privacy.Store.EraseGuest). store/sqlite and store/postgres
// implement it; store/storetest checks it.
type Store interface {
	// SaveCheckin stores r, replacing the booking's check-in. Errors:
	// booking.CodeNotFound when r.BookingID is no booking.
	SaveCheckin(ctx context.Context, r *Record) error
	// Checkin returns a booking's check-in. Errors: booking.CodeNotFound
	// when none was saved.
	Checkin(ctx context.Context, bookingID int64) (*Record, error)
	// ArrivalCheckins lists the check-ins of a property's bookings that
	// arrive on day, by booking ID.
	ArrivalCheckins(ctx context.Context, propertyID int64, day civil.Date) ([]Record, error)
	// MarkCheckinsSubmitted sets SubmittedAt of the bookings' check-ins.
	MarkCheckinsSubmitted(ctx context.Context, bookingIDs []int64, at time.Time) error
	// DeleteCheckins deletes the check-ins that c selects and returns
	// what it deleted, by booking ID.
	DeleteCheckins(ctx context.Context, c Cutoff) ([]Deleted, error)
}

// Cutoff selects the check-ins the retention job deletes: those saved for
// a property in Countries (or, when Others, in none of them) whose
// booking's check-out is on or before DepartedBy.
type Cutoff struct {
	Countries  []string
	Others     bool
	DepartedBy civil.Date
}

// Deleted is a check-in the retention job deleted.
type Deleted struct {
	BookingID int64
	OrgID     int64
	Country   string
}
