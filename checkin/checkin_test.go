package checkin_test

import (
	"encoding/xml"
	"fmt"
	"log/slog"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/checkin"
	"github.com/staykit/staykit/civil"
)

var arrival = civil.MustParse("2026-07-01")

// spanish is a Spanish adult with a DNI (NIF) living in Madrid.
func spanish() checkin.Guest {
	return checkin.Guest{GivenNames: "Ana", Surname: "García", SecondSurname: "de la Fuente", Sex: "F",
		BirthDate: civil.MustParse("1985-03-02"), BirthPlace: "Madrid", BirthCountry: "ES", Nationality: "ES",
		DocumentType: checkin.DocumentIDCard, DocumentNumber: "12345678Z", DocumentSupport: "ABC123456", DocumentCountry: "ES",
		Address: "Calle Mayor 1", PostalCode: "28013", City: "Madrid", MunicipalityCode: "28079", AddressCountry: "ES",
		Phone: "+34600000000"}
}

// german is a German adult with a passport living in Berlin.
func german() checkin.Guest {
	return checkin.Guest{GivenNames: "Jonas", Surname: "Müller", Sex: "M",
		BirthDate: civil.MustParse("1980-11-20"), BirthPlace: "Hamburg", BirthCountry: "DE", Nationality: "DE",
		DocumentType: checkin.DocumentPassport, DocumentNumber: "C01X00T47", DocumentCountry: "DE",
		Address: "Unter den Linden 5", PostalCode: "10117", City: "Berlin", AddressCountry: "DE",
		Phone: "+4915112345678", Email: "jonas@example.com"}
}

func stay(guests ...checkin.Guest) checkin.Stay {
	loc, _ := time.LoadLocation("Europe/Madrid")
	return checkin.Stay{BookingID: 7, Reference: "SK-7", Contracted: civil.MustParse("2026-05-10"),
		Arrival: time.Date(2026, 7, 1, 16, 0, 0, 0, loc), Departure: time.Date(2026, 7, 4, 11, 0, 0, 0, loc), Guests: guests}
}

func fieldsOf(t *testing.T, err error) booking.FieldErrors {
	t.Helper()
	var e *booking.Error
	if err == nil {
		return nil
	}
	if !asError(err, &e) || e.Code != booking.CodeInvalid {
		t.Fatalf("error %v, want a CodeInvalid booking.Error", err)
	}
	return e.Fields
}

func asError(err error, target **booking.Error) bool {
	e, ok := err.(*booking.Error)
	*target = e
	return ok
}

func TestValidate(t *testing.T) {
	minor := spanish()
	minor.GivenNames, minor.BirthDate, minor.DocumentType, minor.DocumentNumber, minor.DocumentSupport = "Luis", civil.MustParse("2018-01-01"), "", "", ""
	minorWithParent := minor
	minorWithParent.Relationship = "hj"
	noSecondSurname := spanish()
	noSecondSurname.SecondSurname = ""
	badLetter := spanish()
	badLetter.DocumentNumber = "12345678A"
	nie := spanish()
	nie.DocumentType, nie.DocumentNumber = checkin.DocumentResidencePermit, "X1234567L"
	noMunicipality := spanish()
	noMunicipality.MunicipalityCode = ""
	italianBorn := german()
	italianBorn.BirthCountry = "IT"
	otherSex := german()
	otherSex.Sex = "X"
	unknownState := german()
	unknownState.Nationality = "KZ"
	frenchNational := checkin.Guest{GivenNames: "Jean", Surname: "Dupont", Nationality: "FR"}
	foreignNoMail := german()
	foreignNoMail.Email = ""
	future := german()
	future.BirthDate = arrival
	for _, tt := range []struct {
		name    string
		country string
		guest   checkin.Guest
		want    booking.FieldErrors
	}{
		{"SpainAdultOK", "ES", spanish(), nil},
		{"SpainNIEOK", "ES", nie, nil},
		{"SpainMinorNeedsRelationship", "ES", minor, booking.FieldErrors{"guests.0.relationship": {"required"}}},
		{"SpainMinorWithRelationship", "ES", minorWithParent, nil},
		{"SpainNIFNeedsSecondSurname", "ES", noSecondSurname, booking.FieldErrors{"guests.0.second_surname": {"required"}}},
		{"SpainNIFControlLetter", "ES", badLetter, booking.FieldErrors{"guests.0.document_number": {"checksum"}}},
		{"SpainResidenceNeedsMunicipality", "ES", noMunicipality, booking.FieldErrors{"guests.0.municipality_code": {"required"}}},
		{"ItalyForeignOK", "IT", german(), nil},
		{"ItalyBornNeedsComune", "IT", italianBorn, booking.FieldErrors{"guests.0.birth_municipality_code": {"required"},
			"guests.0.birth_province": {"required"}}},
		{"ItalyNoThirdSex", "IT", otherSex, booking.FieldErrors{"guests.0.sex": {"unsupported_for_country"}}},
		{"ItalyStateNotInTable", "IT", unknownState, booking.FieldErrors{"guests.0.nationality": {"unsupported_for_country"}}},
		{"FranceNationalNamesOnly", "FR", frenchNational, nil},
		{"FranceForeignNeedsEmail", "FR", foreignNoMail, booking.FieldErrors{"guests.0.email": {"required"}}},
		{"GermanyOK", "DE", german(), nil},
		{"DefaultBirthBeforeArrival", "US", future, booking.FieldErrors{"guests.0.birth_date": {"invalid"}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := checkin.Validate(tt.country, arrival, []checkin.Guest{tt.guest})
			if got := fieldsOf(t, err); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("fields = %v, want %v", got, tt.want)
			}
		})
	}
	if _, err := checkin.Validate("ES", arrival, nil); !reflect.DeepEqual(fieldsOf(t, err), booking.FieldErrors{"guests": {"required"}}) {
		t.Errorf("no guest: %v", err)
	}
}

func TestAssess(t *testing.T) {
	half := german()
	half.Email = ""
	r := &checkin.Record{Guests: []checkin.Guest{german(), half}}
	if got, want := checkin.Assess(r, "FR", arrival, 2), (checkin.Completeness{Expected: 2, Entered: 2, Valid: 1}); got != want {
		t.Errorf("Assess = %+v, want %+v", got, want)
	}
	r.Guests[1] = german()
	if got := checkin.Assess(r, "FR", arrival, 2); !got.Complete {
		t.Errorf("two valid guests of two: %+v, want complete", got)
	}
	if got := checkin.Assess(nil, "FR", arrival, 2); got.Complete || got.Entered != 0 {
		t.Errorf("no record: %+v", got)
	}
}

// xmlNode is a parsed element, to check the order and content of the
// SES document.
type xmlNode struct {
	XMLName  xml.Name
	Text     string    `xml:",chardata"`
	Children []xmlNode `xml:",any"`
}

func (n xmlNode) child(name string) *xmlNode {
	for i := range n.Children {
		if n.Children[i].XMLName.Local == name {
			return &n.Children[i]
		}
	}
	return nil
}

func (n xmlNode) names() []string {
	var out []string
	for _, c := range n.Children {
		out = append(out, c.XMLName.Local)
	}
	return out
}

// inOrder reports whether got follows the sequence of the XSD type seq
// (each element at most once, optional ones left out).
func inOrder(got, seq []string) bool {
	i := 0
	for _, g := range got {
		for i < len(seq) && seq[i] != g {
			i++
		}
		if i == len(seq) {
			return false
		}
		i++
	}
	return true
}

// The sequences of altaParteHospedaje.xsd (MIR-HOSPE-DSI-WS v3.1.3):
// contratoHospedajeType, personaHospedajeType, direccionType, and which of
// their elements are required (minOccurs 1).
var (
	contratoSeq   = []string{"referencia", "fechaContrato", "fechaEntrada", "fechaSalida", "numPersonas", "numHabitaciones", "internet", "pago"}
	contratoReq   = []string{"referencia", "fechaContrato", "fechaEntrada", "fechaSalida", "numPersonas", "pago"}
	personaSeq    = []string{"rol", "nombre", "apellido1", "apellido2", "tipoDocumento", "numeroDocumento", "soporteDocumento", "fechaNacimiento", "nacionalidad", "sexo", "direccion", "telefono", "telefono2", "correo", "parentesco"}
	personaReq    = []string{"rol", "nombre", "apellido1", "fechaNacimiento", "direccion"}
	direccionSeq  = []string{"direccion", "direccionComplementaria", "codigoMunicipio", "nombreMunicipio", "codigoPostal", "pais"}
	direccionReq  = []string{"direccion", "codigoPostal", "pais"}
	sesMaxLengths = map[string]int{"nombre": 50, "apellido1": 50, "apellido2": 50, "tipoDocumento": 5, "numeroDocumento": 15,
		"soporteDocumento": 9, "telefono": 20, "correo": 250, "parentesco": 2, "referencia": 50, "codigoPostal": 20, "tipoPago": 5}
)

func checkSequence(t *testing.T, what string, n *xmlNode, seq, req []string) {
	t.Helper()
	if n == nil {
		t.Fatalf("%s missing", what)
	}
	if !inOrder(n.names(), seq) {
		t.Errorf("%s children %v, not in the XSD's order %v", what, n.names(), seq)
	}
	for _, r := range req {
		if n.child(r) == nil {
			t.Errorf("%s lacks the required %s", what, r)
		}
	}
	for _, c := range n.Children {
		if max, ok := sesMaxLengths[c.XMLName.Local]; ok && len([]rune(c.Text)) > max {
			t.Errorf("%s.%s = %q, longer than %d", what, c.XMLName.Local, c.Text, max)
		}
	}
}

func TestSESParteTwoAdults(t *testing.T) {
	e := checkin.Establishment{Country: "ES", Name: "Casa Sol", Code: "0000012345"}
	f, err := checkin.Generate(e, []checkin.Stay{stay(spanish(), german())}, "booking-7")
	if err != nil {
		t.Fatal(err)
	}
	if f.Authority != checkin.AuthoritySES || f.Name != "booking-7.xml" {
		t.Errorf("file %s %s", f.Authority, f.Name)
	}
	body := string(f.Body)
	if !strings.HasPrefix(body, `<?xml version="1.0" encoding="UTF-8"?>`) {
		t.Errorf("no UTF-8 declaration: %.60s", body)
	}
	var root xmlNode
	if err := xml.Unmarshal(f.Body, &root); err != nil {
		t.Fatalf("not XML: %v", err)
	}
	if root.XMLName.Space != checkin.SESNamespace || root.XMLName.Local != "peticion" {
		t.Errorf("root %v, want peticion in %s", root.XMLName, checkin.SESNamespace)
	}
	sol := root.child("solicitud")
	// Only the root is in the namespace: the XSD's elementFormDefault is
	// unqualified, so its children carry none.
	if sol == nil || sol.XMLName.Space != "" || !strings.Contains(body, `<ns2:peticion xmlns:ns2="`+checkin.SESNamespace+`">`) {
		t.Errorf("the root is not ns2:peticion with unqualified children: %.200s", body)
	}
	checkSequence(t, "solicitud", sol, []string{"codigoEstablecimiento", "comunicacion"}, []string{"codigoEstablecimiento", "comunicacion"})
	if sol.child("codigoEstablecimiento").Text != "0000012345" {
		t.Errorf("codigoEstablecimiento %q", sol.child("codigoEstablecimiento").Text)
	}
	com := sol.child("comunicacion")
	// The comunicacion: its contrato, then one persona per guest, exactly.
	if got, want := com.names(), []string{"contrato", "persona", "persona"}; !slices.Equal(got, want) {
		t.Errorf("comunicacion children %v, want %v", got, want)
	}
	contrato := com.child("contrato")
	checkSequence(t, "contrato", contrato, contratoSeq, contratoReq)
	// Exactly these elements, in this order (numHabitaciones 1: a whole
	// dwelling; internet left out, optional), and pagoType's sequence
	// (tipoPago, fechaPago, medioPago, titular, caducidadTarjeta) holding
	// its one required element.
	if got, want := contrato.names(), []string{"referencia", "fechaContrato", "fechaEntrada", "fechaSalida", "numPersonas", "numHabitaciones", "pago"}; !slices.Equal(got, want) {
		t.Errorf("contrato children %v, want %v", got, want)
	}
	if got := contrato.child("pago").names(); !slices.Equal(got, []string{"tipoPago"}) {
		t.Errorf("pago children %v, want [tipoPago]", got)
	}
	for name, want := range map[string]string{"fechaContrato": "2026-05-10", "fechaEntrada": "2026-07-01T16:00:00",
		"fechaSalida": "2026-07-04T11:00:00", "numPersonas": "2", "referencia": "SK-7"} {
		if got := contrato.child(name).Text; got != want {
			t.Errorf("contrato.%s = %q, want %q", name, got, want)
		}
	}
	if tp := contrato.child("pago").child("tipoPago").Text; !slices.Contains([]string{"DESTI", "EFECT", "TARJT", "PLATF", "TRANS", "MOVIL", "TREG", "OTRO"}, tp) {
		t.Errorf("tipoPago %q not in TIPO_PAGO", tp)
	}
	var personas []xmlNode
	for _, c := range com.Children {
		if c.XMLName.Local == "persona" {
			personas = append(personas, c)
		}
	}
	if len(personas) != 2 {
		t.Fatalf("%d personas, want 2 (numPersonas)", len(personas))
	}
	want := []map[string]string{
		{"rol": "VI", "nombre": "Ana", "apellido1": "García", "apellido2": "de la Fuente", "tipoDocumento": "NIF",
			"numeroDocumento": "12345678Z", "soporteDocumento": "ABC123456", "fechaNacimiento": "1985-03-02",
			"nacionalidad": "ESP", "sexo": "M", "telefono": "+34600000000"},
		{"rol": "VI", "nombre": "Jonas", "apellido1": "Müller", "tipoDocumento": "PAS", "numeroDocumento": "C01X00T47",
			"fechaNacimiento": "1980-11-20", "nacionalidad": "DEU", "sexo": "H", "correo": "jonas@example.com"},
	}
	wantAddress := []map[string]string{
		{"direccion": "Calle Mayor 1", "codigoMunicipio": "28079", "codigoPostal": "28013", "pais": "ESP"},
		{"direccion": "Unter den Linden 5", "nombreMunicipio": "Berlin", "codigoPostal": "10117", "pais": "DEU"},
	}
	// Each persona's elements exactly, in personaHospedajeType's order:
	// the Spanish DNI with its support number and second surname, the
	// passport without either; the contacts given.
	wantNames := [][]string{
		{"rol", "nombre", "apellido1", "apellido2", "tipoDocumento", "numeroDocumento", "soporteDocumento", "fechaNacimiento", "nacionalidad", "sexo", "direccion", "telefono"},
		{"rol", "nombre", "apellido1", "tipoDocumento", "numeroDocumento", "fechaNacimiento", "nacionalidad", "sexo", "direccion", "telefono", "correo"},
	}
	for i, p := range personas {
		if got := p.names(); !slices.Equal(got, wantNames[i]) {
			t.Errorf("persona %d children %v, want %v", i, got, wantNames[i])
		}
		checkSequence(t, "persona", &p, personaSeq, personaReq)
		for name, v := range want[i] {
			if c := p.child(name); c == nil || c.Text != v {
				t.Errorf("persona %d %s = %v, want %q", i, name, c, v)
			}
		}
		if i == 1 && p.child("soporteDocumento") != nil {
			t.Errorf("a passport carries a soporteDocumento")
		}
		dir := p.child("direccion")
		checkSequence(t, "direccion", dir, direccionSeq, direccionReq)
		// Spain: codigoMunicipio (INE) and no nombreMunicipio; abroad the
		// reverse (MIR-HOSPE-DSI-WS v3.1.3, direccionType).
		wantDir := []string{"direccion", "codigoMunicipio", "codigoPostal", "pais"}
		if i == 1 {
			wantDir = []string{"direccion", "nombreMunicipio", "codigoPostal", "pais"}
		}
		if got := dir.names(); !slices.Equal(got, wantDir) {
			t.Errorf("persona %d direccion children %v, want %v", i, got, wantDir)
		}
		if len(dir.Children) != len(wantAddress[i]) {
			t.Errorf("persona %d direccion %v, want %v", i, dir.names(), wantAddress[i])
		}
		for name, v := range wantAddress[i] {
			if c := dir.child(name); c == nil || c.Text != v {
				t.Errorf("persona %d direccion.%s = %v, want %q", i, name, c, v)
			}
		}
	}
}

func TestSESParteMinorHasRelationshipNoDocument(t *testing.T) {
	child := spanish()
	child.GivenNames, child.BirthDate, child.DocumentType, child.DocumentNumber, child.DocumentSupport, child.Relationship =
		"Luis", civil.MustParse("2018-01-01"), "", "", "", "HJ"
	body, err := checkin.SESParte(checkin.Establishment{Country: "ES", Code: "0000012345"}, []checkin.Stay{stay(spanish(), child)})
	if err != nil {
		t.Fatal(err)
	}
	var root xmlNode
	if err := xml.Unmarshal(body, &root); err != nil {
		t.Fatal(err)
	}
	p := root.child("solicitud").child("comunicacion").Children[2]
	if p.child("parentesco") == nil || p.child("parentesco").Text != "HJ" || p.child("tipoDocumento") != nil {
		t.Errorf("minor persona %v", p.names())
	}
	if _, err := checkin.SESParte(checkin.Establishment{Country: "ES", Code: "12345678901"}, []checkin.Stay{stay(spanish())}); err == nil {
		t.Errorf("an establishment code of 11 characters was accepted")
	}
}

// alloggiatiLayout is Tabella 1 of the Alloggiati Web record (MANUALEWS
// Rev. 01 of 24/01/2022; MANUALEALBERGHI cap. 12): each field's first and
// last position (from 0) as the specification lists them.
var alloggiatiLayout = []struct {
	name     string
	from, to int
}{
	{"tipo", 0, 1}, {"arrivo", 2, 11}, {"giorni", 12, 13}, {"cognome", 14, 63}, {"nome", 64, 93}, {"sesso", 94, 94},
	{"nascita", 95, 104}, {"comune", 105, 113}, {"provincia", 114, 115}, {"stato", 116, 124}, {"cittadinanza", 125, 133},
	{"tipodoc", 134, 138}, {"numdoc", 139, 158}, {"rilascio", 159, 167},
}

func parseRecord(t *testing.T, line string) map[string]string {
	t.Helper()
	r := []rune(line)
	if len(r) != 168 {
		t.Fatalf("record of %d characters, want 168: %q", len(r), line)
	}
	out := map[string]string{}
	for _, f := range alloggiatiLayout {
		out[f.name] = string(r[f.from : f.to+1])
	}
	return out
}

func TestAlloggiatiTwoAdults(t *testing.T) {
	italian := checkin.Guest{GivenNames: "Chiara", Surname: "Rossi", Sex: "F", BirthDate: civil.MustParse("1972-12-23"),
		BirthCountry: "IT", BirthMunicipalityCode: "412058091", BirthProvince: "RM", Nationality: "IT",
		DocumentType: checkin.DocumentIDCard, DocumentNumber: "CA01376BS", DocumentCountry: "IT", DocumentIssuePlaceCode: "412058091"}
	s := stay(italian, german())
	f, err := checkin.Generate(checkin.Establishment{Country: "IT", Name: "Casa Roma"}, []checkin.Stay{s}, "arrivals-2026-07-01")
	if err != nil {
		t.Fatal(err)
	}
	if f.Authority != checkin.AuthorityAlloggiati || f.Name != "arrivals-2026-07-01.txt" {
		t.Errorf("file %s %s", f.Authority, f.Name)
	}
	body := string(f.Body)
	if strings.HasSuffix(body, "\n") || strings.Count(body, "\r\n") != 1 {
		t.Fatalf("records must be separated by CR LF, none after the last: %q", body)
	}
	lines := strings.Split(body, "\r\n")
	if len(lines) != 2 || len(lines[0])+2 != 170 {
		t.Errorf("%d lines; first is %d bytes with its CR LF, want 170", len(lines), len(lines[0])+2)
	}
	head := parseRecord(t, lines[0])
	wantHead := map[string]string{"tipo": "18", "arrivo": "01/07/2026", "giorni": "03", "cognome": pad("Rossi", 50),
		"nome": pad("Chiara", 30), "sesso": "2", "nascita": "23/12/1972", "comune": "412058091", "provincia": "RM",
		"stato": "100000100", "cittadinanza": "100000100", "tipodoc": "IDENT", "numdoc": pad("CA01376BS", 20), "rilascio": "412058091"}
	if !reflect.DeepEqual(head, wantHead) {
		t.Errorf("capo gruppo record\n got %q\nwant %q", head, wantHead)
	}
	member := parseRecord(t, lines[1])
	wantMember := map[string]string{"tipo": "20", "arrivo": "01/07/2026", "giorni": "03", "cognome": pad("Müller", 50),
		"nome": pad("Jonas", 30), "sesso": "1", "nascita": "20/11/1980", "comune": pad("", 9), "provincia": "  ",
		"stato": "100000216", "cittadinanza": "100000216", "tipodoc": pad("", 5), "numdoc": pad("", 20), "rilascio": pad("", 9)}
	if !reflect.DeepEqual(member, wantMember) {
		t.Errorf("membro gruppo record\n got %q\nwant %q", member, wantMember)
	}
	single, err := checkin.Alloggiati([]checkin.Stay{stay(german())})
	if err != nil {
		t.Fatal(err)
	}
	if r := parseRecord(t, string(single)); r["tipo"] != "16" || r["tipodoc"] != "PASOR" || r["rilascio"] != "100000216" {
		t.Errorf("ospite singolo %q", r)
	}
	long := stay(german())
	long.Departure = long.Arrival.AddDate(0, 0, 31)
	if _, err := checkin.Alloggiati([]checkin.Stay{long}); err == nil {
		t.Errorf("a stay of 31 days was written")
	}
}

func fmtV(c checkin.Credentials) string {
	var logged strings.Builder
	slog.New(slog.NewTextHandler(&logged, nil)).Info("submit", "credentials", c)
	return fmt.Sprintf("%v %+v %#v %s", c, c, c, logged.String())
}

func pad(s string, n int) string { return s + strings.Repeat(" ", n-len([]rune(s))) }

func TestFichesTwoForeignAdults(t *testing.T) {
	second := german()
	second.GivenNames, second.Email = "Lena", "lena@example.com"
	child := german()
	child.GivenNames, child.BirthDate = "Emil", civil.MustParse("2019-04-04")
	french := checkin.Guest{GivenNames: "Jean", Surname: "Dupont", Nationality: "FR"}
	e := checkin.Establishment{Country: "FR", Name: "Gîte <Les Pins>", Address: "1 rue des Pins", City: "Annecy", RegistrationNumber: "74010123456AB"}
	f, err := checkin.Generate(e, []checkin.Stay{stay(german(), second, child, french)}, "booking-7")
	if err != nil {
		t.Fatal(err)
	}
	body := string(f.Body)
	if f.Authority != checkin.AuthorityFiche || f.ContentType != "text/html; charset=utf-8" {
		t.Errorf("file %s %s", f.Authority, f.ContentType)
	}
	if n := strings.Count(body, `<section class="fiche">`); n != 2 {
		t.Errorf("%d fiches, want 2 (two foreign adults; the child on the first; none for the French guest)", n)
	}
	// The data of CESEDA art. R. 814-1, each labelled as the model does.
	for _, want := range []string{"Nom / Name", "Prénoms / Christian names", "Date de naissance / Date of birth",
		"Lieu de naissance / Place of birth", "Nationalité / Nationality", "Domicile habituel / Home address",
		"Téléphone mobile / Mobile phone", "Adresse électronique / E-mail address", "Date d'arrivée / Date of arrival",
		"Date de départ prévue / Expected date of departure", "Jonas", "Lena", "20/11/1980", "01/07/2026", "04/07/2026",
		"lena@example.com", "Müller, Emil (04/04/2019)", "Gîte &lt;Les Pins&gt;", "74010123456AB"} {
		if !strings.Contains(body, want) {
			t.Errorf("fiche lacks %q", want)
		}
	}
	if strings.Contains(body, "Dupont") {
		t.Errorf("a French national has a fiche")
	}
}

func TestGenerateRefusesInvalidAndUnknownCountry(t *testing.T) {
	bad := german()
	bad.Surname = ""
	if _, err := checkin.Generate(checkin.Establishment{Country: "IT"}, []checkin.Stay{stay(bad)}, "x"); fieldsOf(t, err)["guests.0.surname"] == nil {
		t.Errorf("a guest without surname was written: %v", err)
	}
	if _, err := checkin.Generate(checkin.Establishment{Country: "DE"}, []checkin.Stay{stay(german())}, "x"); fieldsOf(t, err)["country"] == nil {
		t.Errorf("Germany has no authority file here: %v", err)
	}
}

func TestRetentionCutoffs(t *testing.T) {
	today := civil.MustParse("2026-07-10")
	got := checkin.DefaultRetention.Cutoffs(today)
	want := []checkin.Cutoff{
		{Countries: []string{"DE"}, DepartedBy: civil.MustParse("2025-07-09")},
		{Countries: []string{"ES"}, DepartedBy: civil.MustParse("2023-07-09")},
		{Countries: []string{"FR"}, DepartedBy: civil.MustParse("2026-01-09")},
		{Countries: []string{"IT"}, DepartedBy: civil.MustParse("2026-07-09")},
		{Countries: []string{"DE", "ES", "FR", "IT"}, Others: true, DepartedBy: civil.MustParse("2026-01-09")},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Cutoffs = %+v\nwant %+v", got, want)
	}
}

func TestCredentialsNeverPrinted(t *testing.T) {
	c := checkin.Credentials{User: "B58658985WS", Password: "s3cret", Key: "0000000001"}
	for _, s := range []string{c.String(), fmtV(c)} {
		if strings.Contains(s, "s3cret") || strings.Contains(s, "B58658985WS") {
			t.Errorf("credentials printed: %s", s)
		}
	}
}

// Every field a country's rules require of some guest is on its form.
func TestFormFieldsCoverTheRules(t *testing.T) {
	child := spanish()
	child.BirthDate = civil.MustParse("2018-01-01")
	italianBorn := german()
	italianBorn.BirthCountry, italianBorn.DocumentCountry = "IT", "IT"
	for _, country := range []string{"ES", "IT", "FR", "DE", "US"} {
		form := checkin.FormFields(country)
		for _, g := range []checkin.Guest{{}, {AddressCountry: "ES", Nationality: "XX"}, child, italianBorn, {DocumentType: checkin.DocumentIDCard, DocumentCountry: "ES"}} {
			for field := range checkin.RulesFor(country).Problems(g, arrival, true) {
				if !slices.Contains(form, field) {
					t.Errorf("%s: %s is required of %+v but not on the form %v", country, field, g, form)
				}
			}
		}
	}
}

// In Italy only the first guest of a stay (the capo gruppo) shows a
// document; the others give names, sex, birth and citizenship.
func TestItalyDocumentOfTheFirstGuestOnly(t *testing.T) {
	member := german()
	member.DocumentType, member.DocumentNumber, member.DocumentCountry = "", "", ""
	if _, err := checkin.Validate("IT", arrival, []checkin.Guest{german(), member}); err != nil {
		t.Errorf("a member without document: %v", err)
	}
	got := fieldsOf(t, func() error { _, err := checkin.Validate("IT", arrival, []checkin.Guest{member, german()}); return err }())
	want := booking.FieldErrors{"guests.0.document_type": {"required"}, "guests.0.document_number": {"required"}, "guests.0.document_country": {"required"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("a first guest without document: %v, want %v", got, want)
	}
}
