package checkin

import (
	"net/mail"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
)

// Field error reasons of Validate, beside "required".
const (
	ReasonRequired          = "required"
	ReasonTooLong           = "too_long"
	ReasonInvalidCharacters = booking.ReasonInvalidCharacters
	// ReasonInvalid: a value outside its list (sex, document type,
	// country, relationship) or of the wrong form (a date, an e-mail
	// address, a code of the wrong length).
	ReasonInvalid = "invalid"
	// ReasonUnsupported: a value valid elsewhere that the property's
	// country's authority file cannot carry (sex "X" in Italy, whose
	// Alloggiati Web record knows only 1 and 2).
	ReasonUnsupported = "unsupported_for_country"
	// ReasonChecksum: a Spanish DNI/NIE number whose control letter is
	// wrong.
	ReasonChecksum = "checksum"
)

// MaxGuests is the most guests a check-in holds.
const MaxGuests = 50

// AdultAge is the age from which a guest is an adult: Spain's
// SES.HOSPEDAJES asks a document of adults and a relationship of minors
// (MIR-HOSPE-DSI-WS v3.1.3, §3.1.1.1).
const AdultAge = 18

// Relationships are the codes of SES.HOSPEDAJES' TIPO_PARENTESCO table
// (Instrucciones para el alta masiva de comunicaciones v1.1.1, §8.5; the
// catalogue of MIR-HOSPE-DSI-WS v3.1.3), with their meaning.
var Relationships = map[string]string{
	"AB": "abuelo/a", "BA": "bisabuelo/a", "BN": "bisnieto/a", "CD": "cuñado/a", "CY": "cónyuge",
	"HJ": "hijo/a", "HR": "hermano/a", "NI": "nieto/a", "PM": "padre/madre", "SB": "sobrino/a",
	"SG": "suegro/a", "TI": "tío/a", "YN": "yerno/nuera", "TU": "tutor/a", "OT": "otro",
}

// Rules are what a country asks of a guest's check-in: which fields, and
// the longest each may be (the narrowest field of its authority file).
type Rules struct {
	// Country is the ISO 3166-1 alpha-2 code, "" for the default rules.
	Country string
	// Basis names the law the rules follow.
	Basis string
	// required lists the fields g must have, adult or not, the stay's
	// first guest (lead) or not.
	required func(g Guest, adult, lead bool) []string
	// limits are fields' longest lengths, in characters, beyond
	// defaultLimit.
	limits map[string]int
}

// defaultLimit is the longest text field.
const defaultLimit = 100

var (
	personal = []string{"given_names", "surname", "birth_date", "nationality"}
	document = []string{"document_type", "document_number", "document_country"}
	address  = []string{"address", "postal_code", "city", "address_country"}
)

// countryRules are the rules of the countries staykit knows, by code.
var countryRules = map[string]Rules{
	// Spain: Real Decreto 933/2021, anexo I, and the fields the
	// SES.HOSPEDAJES "comunicación" of a parte de viajeros requires
	// (MIR-HOSPE-DSI-WS "Servicio de Hospedajes – Comunicaciones" v3.1.3,
	// altaParteHospedaje.xsd and §3.1.1.1).
	"ES": {Country: "ES", Basis: "Real Decreto 933/2021, anexo I; SES.HOSPEDAJES v3.1.3",
		required: func(g Guest, adult, lead bool) []string {
			f := append([]string{"sex"}, personal...)
			f = append(f, address...)
			if g.AddressCountry == "ES" {
				f = append(f, "municipality_code")
			}
			if g.Phone == "" && g.Email == "" {
				f = append(f, "phone")
			}
			if adult {
				f = append(f, document...)
				switch sesDocumentType(g) {
				case "NIF":
					f = append(f, "document_support", "second_surname")
				case "NIE":
					f = append(f, "document_support")
				}
			} else {
				f = append(f, "relationship")
			}
			return f
		},
		limits: map[string]int{"given_names": 50, "surname": 50, "second_surname": 50, "document_number": 15,
			"document_support": 9, "postal_code": 20, "phone": 20, "email": 250}},
	// Italy: art. 109 TULPS and the decreto of the Ministero dell'Interno
	// of 7 January 2013 (allegato tecnico: for a family or a group, the
	// others' names, sex, birth and citizenship only); the Alloggiati Web
	// record (MANUALEWS Rev. 01 of 24/01/2022, Tabella 1) carries the
	// document of the first guest only (ospite singolo, capo famiglia,
	// capo gruppo).
	"IT": {Country: "IT", Basis: "art. 109 TULPS; DM Interno 7 gennaio 2013; Alloggiati Web tracciato record",
		required: func(g Guest, adult, lead bool) []string {
			f := append([]string{"sex", "birth_country"}, personal...)
			if g.BirthCountry == "IT" {
				f = append(f, "birth_municipality_code", "birth_province")
			}
			if lead {
				f = append(f, document...)
				if g.DocumentCountry == "IT" {
					f = append(f, "document_issue_place_code")
				}
			}
			return f
		},
		limits: map[string]int{"given_names": 30, "surname": 50, "document_number": 20}},
	// France: Code de l'entrée et du séjour des étrangers et du droit
	// d'asile, art. R. 814-1 (ex R. 611-42, décret n° 2015-1002 of 18
	// August 2015) and the model of the arrêté of 1 October 2015: a foreign
	// guest's names, birth date and place, nationality, usual residence,
	// mobile phone and e-mail address. French nationals fill in none.
	"FR": {Country: "FR", Basis: "CESEDA art. R. 814-1; arrêté du 1er octobre 2015",
		required: func(g Guest, adult, lead bool) []string {
			f := []string{"given_names", "surname", "nationality"}
			if g.Nationality == "FR" {
				return f
			}
			f = append(f, "birth_date", "birth_place", "birth_country")
			if adult {
				f = append(f, address...)
				f = append(f, "phone", "email")
			}
			return f
		}},
	// Germany: Bundesmeldegesetz §§ 29-30 (Meldeschein): names, birth
	// date, nationality, address; a foreign guest's passport number.
	"DE": {Country: "DE", Basis: "Bundesmeldegesetz §§ 29-30",
		required: func(g Guest, adult, lead bool) []string {
			f := append([]string{}, personal...)
			if adult {
				f = append(f, address...)
				if g.Nationality != "DE" {
					f = append(f, document...)
				}
			}
			return f
		}},
}

// defaultRules are the rules of any other country: the guest's names,
// birth date and nationality.
var defaultRules = Rules{Basis: "staykit default", required: func(Guest, bool, bool) []string { return personal }}

// RulesFor returns the rules of a property's country.
func RulesFor(country string) Rules {
	if r, ok := countryRules[strings.ToUpper(country)]; ok {
		return r
	}
	return defaultRules
}

// Adult reports whether g is an adult on arrival.
func Adult(g Guest, arrival civil.Date) bool {
	if g.BirthDate.IsZero() {
		return true
	}
	return !arrival.Before(g.BirthDate.AddMonths(12 * AdultAge))
}

// Normalize trims g's fields and puts its codes in upper case.
func Normalize(g Guest) Guest {
	for _, p := range []*string{&g.GivenNames, &g.Surname, &g.SecondSurname, &g.BirthPlace, &g.DocumentNumber,
		&g.DocumentSupport, &g.Address, &g.PostalCode, &g.City, &g.Phone, &g.Email, &g.MunicipalityCode,
		&g.BirthMunicipalityCode, &g.DocumentIssuePlaceCode, &g.DocumentType} {
		*p = strings.Join(strings.Fields(*p), " ")
	}
	for _, p := range []*string{&g.Sex, &g.BirthCountry, &g.BirthProvince, &g.Nationality, &g.DocumentCountry,
		&g.AddressCountry, &g.Relationship} {
		*p = strings.ToUpper(strings.TrimSpace(*p))
	}
	g.DocumentNumber = strings.ToUpper(strings.ReplaceAll(g.DocumentNumber, " ", ""))
	g.DocumentSupport = strings.ToUpper(g.DocumentSupport)
	return g
}

// Problems returns what the rules find wrong with g (normalised), the
// stay's first guest when lead, by field: required fields missing, values
// too long or malformed.
func (r Rules) Problems(g Guest, arrival civil.Date, lead bool) booking.FieldErrors {
	f := booking.FieldErrors{}
	adult := Adult(g, arrival)
	values := fields(g)
	for _, name := range r.required(g, adult, lead) {
		if values[name] == "" {
			f.Add(name, ReasonRequired)
		}
	}
	for name, v := range values {
		limit := defaultLimit
		if l, ok := r.limits[name]; ok {
			limit = l
		}
		switch {
		case !utf8.ValidString(v) || strings.ContainsFunc(v, func(c rune) bool { return unicode.IsControl(c) || unicode.Is(unicode.Cf, c) }):
			f.Add(name, ReasonInvalidCharacters)
		case utf8.RuneCountInString(v) > limit:
			f.Add(name, ReasonTooLong)
		}
	}
	if g.Sex != "" && g.Sex != SexMale && g.Sex != SexFemale && g.Sex != SexOther {
		f.Add("sex", ReasonInvalid)
	} else if r.Country == "IT" && g.Sex == SexOther {
		f.Add("sex", ReasonUnsupported)
	}
	for name, c := range map[string]string{"birth_country": g.BirthCountry, "nationality": g.Nationality,
		"document_country": g.DocumentCountry, "address_country": g.AddressCountry} {
		if c != "" && !booking.ValidCountry(c) {
			f.Add(name, ReasonInvalid)
		}
	}
	if !g.BirthDate.IsZero() && (!g.BirthDate.Before(arrival) || g.BirthDate.Before(arrival.AddMonths(-12*120))) {
		f.Add("birth_date", ReasonInvalid)
	}
	if !g.DocumentIssueDate.IsZero() && g.DocumentIssueDate.After(arrival) {
		f.Add("document_issue_date", ReasonInvalid)
	}
	switch g.DocumentType {
	case "", DocumentPassport, DocumentIDCard, DocumentResidencePermit, DocumentDrivingLicence, DocumentOther:
	default:
		f.Add("document_type", ReasonInvalid)
	}
	if g.Email != "" {
		if a, err := mail.ParseAddress(g.Email); err != nil || a.Address != g.Email {
			f.Add("email", ReasonInvalid)
		}
	}
	if g.Phone != "" && strings.Trim(g.Phone, "+0123456789 ") != "" {
		f.Add("phone", ReasonInvalid)
	}
	r.countryProblems(g, f)
	return f
}

// countryProblems adds the problems of the codes the country's file
// carries.
func (r Rules) countryProblems(g Guest, f booking.FieldErrors) {
	switch r.Country {
	case "ES":
		if g.MunicipalityCode != "" && !digits(g.MunicipalityCode, 5) {
			f.Add("municipality_code", ReasonInvalid)
		}
		if g.Relationship != "" && Relationships[g.Relationship] == "" {
			f.Add("relationship", ReasonInvalid)
		}
		if t := sesDocumentType(g); (t == "NIF" || t == "NIE") && g.DocumentNumber != "" && !validSpanishID(g.DocumentNumber, t) {
			f.Add("document_number", ReasonChecksum)
		}
	case "IT":
		if g.BirthMunicipalityCode != "" && !digits(g.BirthMunicipalityCode, 9) {
			f.Add("birth_municipality_code", ReasonInvalid)
		}
		if g.DocumentIssuePlaceCode != "" && !digits(g.DocumentIssuePlaceCode, 9) {
			f.Add("document_issue_place_code", ReasonInvalid)
		}
		if p := g.BirthProvince; p != "" && (len(p) != 2 || strings.Trim(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") != "") {
			f.Add("birth_province", ReasonInvalid)
		}
		for name, c := range map[string]string{"birth_country": g.BirthCountry, "nationality": g.Nationality, "document_country": g.DocumentCountry} {
			if c != "" && booking.ValidCountry(c) && italianStates[c] == "" {
				f.Add(name, ReasonUnsupported)
			}
		}
		if g.DocumentType != "" && italianDocuments[g.DocumentType] == "" {
			f.Add("document_type", ReasonUnsupported)
		}
	}
}

// Validate normalises guests and checks them against the rules of
// country for a stay arriving on arrival. Errors: booking.CodeInvalid with
// fields named "guests.N.field" (N from 0), or "guests" (none, or more
// than MaxGuests).
func Validate(country string, arrival civil.Date, guests []Guest) ([]Guest, error) {
	if len(guests) == 0 || len(guests) > MaxGuests {
		reason := ReasonRequired
		if len(guests) > MaxGuests {
			reason = ReasonTooLong
		}
		return nil, &booking.Error{Code: booking.CodeInvalid, Message: "The request is invalid.",
			Fields: booking.FieldErrors{"guests": {reason}}}
	}
	r := RulesFor(country)
	out := make([]Guest, len(guests))
	all := booking.FieldErrors{}
	for i, g := range guests {
		out[i] = Normalize(g)
		for name, reasons := range r.Problems(out[i], arrival, i == 0) {
			all["guests."+strconv.Itoa(i)+"."+name] = reasons
		}
	}
	if err := all.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// Completeness is how far a booking's check-in is: how many guests the
// booking has, how many were entered and pass the rules of the property's
// country.
type Completeness struct {
	Expected int  `json:"expected"`
	Entered  int  `json:"entered"`
	Valid    int  `json:"valid"`
	Complete bool `json:"complete"`
}

// Assess returns the completeness of a check-in of guests for a booking
// of expected guests arriving on arrival (r nil: none entered).
func Assess(r *Record, country string, arrival civil.Date, expected int) Completeness {
	c := Completeness{Expected: expected}
	if r == nil {
		return c
	}
	rules := RulesFor(country)
	c.Entered = len(r.Guests)
	for i, g := range r.Guests {
		if len(rules.Problems(Normalize(g), arrival, i == 0)) == 0 {
			c.Valid++
		}
	}
	c.Complete = c.Valid >= expected && c.Valid == c.Entered
	return c
}

// fields are g's text fields by their JSON names.
func fields(g Guest) map[string]string {
	date := func(d civil.Date) string {
		if d.IsZero() {
			return ""
		}
		return d.String()
	}
	return map[string]string{
		"given_names": g.GivenNames, "surname": g.Surname, "second_surname": g.SecondSurname, "sex": g.Sex,
		"birth_date": date(g.BirthDate), "birth_place": g.BirthPlace, "birth_country": g.BirthCountry,
		"birth_municipality_code": g.BirthMunicipalityCode, "birth_province": g.BirthProvince,
		"nationality": g.Nationality, "document_type": g.DocumentType, "document_number": g.DocumentNumber,
		"document_support": g.DocumentSupport, "document_country": g.DocumentCountry,
		"document_issue_place_code": g.DocumentIssuePlaceCode, "document_issue_date": date(g.DocumentIssueDate),
		"address": g.Address, "postal_code": g.PostalCode, "city": g.City, "municipality_code": g.MunicipalityCode,
		"address_country": g.AddressCountry, "phone": g.Phone, "email": g.Email, "relationship": g.Relationship,
	}
}

// digits reports whether s is n ASCII digits.
func digits(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// validSpanishID checks a DNI (NIF: eight digits and a control letter) or
// NIE (X, Y or Z, seven digits and a control letter) number: the letter is
// the number modulo 23 in "TRWAGMYFPDXBNJZSQVHLCKE", the NIE's initial
// letter counting as 0, 1 or 2 (Real Decreto 1553/2005 art. 11; Orden
// INT/2058/2008 for the NIE).
func validSpanishID(s, kind string) bool {
	if len(s) != 9 {
		return false
	}
	body := s[:8]
	if kind == "NIE" {
		i := strings.IndexByte("XYZ", s[0])
		if i < 0 {
			return false
		}
		body = strconv.Itoa(i) + s[1:8]
	}
	if !digits(body, 8) {
		return false
	}
	n, _ := strconv.Atoi(body)
	return s[8] == "TRWAGMYFPDXBNJZSQVHLCKE"[n%23]
}

// FormFields are the fields a check-in form shows for a property in
// country, in the order of Guest: those its rules may ask for.
func FormFields(country string) []string {
	switch strings.ToUpper(country) {
	case "ES":
		return []string{"given_names", "surname", "second_surname", "sex", "birth_date", "nationality", "document_type",
			"document_number", "document_support", "document_country", "address", "postal_code", "city", "municipality_code",
			"address_country", "phone", "email", "relationship"}
	case "IT":
		return []string{"given_names", "surname", "sex", "birth_date", "birth_country", "birth_municipality_code", "birth_province",
			"nationality", "document_type", "document_number", "document_country", "document_issue_place_code"}
	case "FR":
		return []string{"given_names", "surname", "birth_date", "birth_place", "birth_country", "nationality", "address",
			"postal_code", "city", "address_country", "phone", "email"}
	case "DE":
		return []string{"given_names", "surname", "birth_date", "nationality", "document_type", "document_number",
			"document_country", "address", "postal_code", "city", "address_country"}
	}
	return []string{"given_names", "surname", "birth_date", "nationality"}
}

// Status is how far a booking's check-in is, without its data: what the
// guest's booking page shows.
type Status struct {
	Country      string
	Authority    string
	Completeness Completeness
	// Fields are the form's fields (FormFields).
	Fields []string
}
