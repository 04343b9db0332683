package checkin

import (
	"bytes"
	"encoding/xml"
	"strings"

	"github.com/staykit/staykit/civil"
)

// SESNamespace is the namespace of the XML of a parte de viajeros,
// altaParteHospedaje.xsd.
const SESNamespace = "http://www.neg.hospedajes.mir.es/altaParteHospedaje"

// SESVersion names the specification SESParte follows.
const SESVersion = `MIR-HOSPE-DSI-WS "Interfaz servicios externos – Servicio de Comunicación Hospedajes" v3.1.3 (08/01/2025), altaParteHospedaje.xsd`

// SESPayment is the tipoPago staykit reports: its bookings are paid by
// card online (TIPO_PAGO "TARJT", Instrucciones v1.1.1 §8).
const SESPayment = "TARJT"

// sesPeticion is the root of altaParteHospedaje.xsd: one solicitud for
// one establishment, a comunicacion per contract (booking), a persona
// (rol VI, viajero) per guest, in the XSD's sequence order.
type sesPeticion struct {
	XMLName   xml.Name     `xml:"ns2:peticion"`
	NS        string       `xml:"xmlns:ns2,attr"`
	Solicitud sesSolicitud `xml:"solicitud"`
}

type sesSolicitud struct {
	CodigoEstablecimiento string            `xml:"codigoEstablecimiento"`
	Comunicacion          []sesComunicacion `xml:"comunicacion"`
}

type sesComunicacion struct {
	Contrato sesContrato  `xml:"contrato"`
	Persona  []sesPersona `xml:"persona"`
}

type sesContrato struct {
	Referencia      string  `xml:"referencia"`
	FechaContrato   string  `xml:"fechaContrato"`
	FechaEntrada    string  `xml:"fechaEntrada"`
	FechaSalida     string  `xml:"fechaSalida"`
	NumPersonas     int     `xml:"numPersonas"`
	NumHabitaciones int     `xml:"numHabitaciones"`
	Pago            sesPago `xml:"pago"`
}

type sesPago struct {
	TipoPago string `xml:"tipoPago"`
}

type sesPersona struct {
	Rol              string       `xml:"rol"`
	Nombre           string       `xml:"nombre"`
	Apellido1        string       `xml:"apellido1"`
	Apellido2        string       `xml:"apellido2,omitempty"`
	TipoDocumento    string       `xml:"tipoDocumento,omitempty"`
	NumeroDocumento  string       `xml:"numeroDocumento,omitempty"`
	SoporteDocumento string       `xml:"soporteDocumento,omitempty"`
	FechaNacimiento  string       `xml:"fechaNacimiento"`
	Nacionalidad     string       `xml:"nacionalidad,omitempty"`
	Sexo             string       `xml:"sexo,omitempty"`
	Direccion        sesDireccion `xml:"direccion"`
	Telefono         string       `xml:"telefono,omitempty"`
	Correo           string       `xml:"correo,omitempty"`
	Parentesco       string       `xml:"parentesco,omitempty"`
}

type sesDireccion struct {
	Direccion       string `xml:"direccion"`
	CodigoMunicipio string `xml:"codigoMunicipio,omitempty"`
	NombreMunicipio string `xml:"nombreMunicipio,omitempty"`
	CodigoPostal    string `xml:"codigoPostal"`
	Pais            string `xml:"pais"`
}

// SESParte writes the XML of a parte de viajeros (tipoComunicacion PV) of
// stays at e, as SES.HOSPEDAJES takes it in its "alta masiva" upload and,
// zipped and in Base64, in the solicitud of its web service (SESVersion).
// A stay is a comunicacion; its guests are personas with rol VI, the
// document only for adults, the relationship (parentesco) for minors.
// Errors: booking.CodeInvalid (field "establishment_code": missing or
// longer than ten characters).
func SESParte(e Establishment, stays []Stay) ([]byte, error) {
	if e.Code == "" || len([]rune(e.Code)) > 10 {
		return nil, invalid("establishment_code", ReasonRequired)
	}
	p := sesPeticion{NS: SESNamespace, Solicitud: sesSolicitud{CodigoEstablecimiento: e.Code}}
	for _, s := range stays {
		c := sesComunicacion{Contrato: sesContrato{
			Referencia:    truncate(s.Reference, 50),
			FechaContrato: s.Contracted.String(),
			FechaEntrada:  s.Arrival.Format("2006-01-02T15:04:05"),
			FechaSalida:   s.Departure.Format("2006-01-02T15:04:05"),
			NumPersonas:   len(s.Guests), NumHabitaciones: 1,
			Pago: sesPago{TipoPago: SESPayment},
		}}
		arrival := civil.Of(s.Arrival)
		for _, g := range s.Guests {
			g = Normalize(g)
			per := sesPersona{Rol: "VI", Nombre: g.GivenNames, Apellido1: g.Surname, Apellido2: g.SecondSurname,
				FechaNacimiento: g.BirthDate.String(), Nacionalidad: iso3(g.Nationality), Sexo: sesSex(g.Sex),
				Telefono: g.Phone, Correo: g.Email,
				Direccion: sesDireccion{Direccion: g.Address, CodigoPostal: g.PostalCode, Pais: iso3(g.AddressCountry)}}
			if g.AddressCountry == "ES" {
				per.Direccion.CodigoMunicipio = g.MunicipalityCode
			} else {
				per.Direccion.NombreMunicipio = g.City
			}
			if Adult(g, arrival) {
				per.TipoDocumento = sesDocumentType(g)
				per.NumeroDocumento = g.DocumentNumber
				if per.TipoDocumento == "NIF" || per.TipoDocumento == "NIE" {
					per.SoporteDocumento = g.DocumentSupport
				}
			} else {
				per.Parentesco = g.Relationship
			}
			c.Persona = append(c.Persona, per)
		}
		p.Solicitud.Comunicacion = append(p.Solicitud.Comunicacion, c)
	}
	var buf bytes.Buffer
	buf.WriteString(xml.Header)
	enc := xml.NewEncoder(&buf)
	enc.Indent("", "  ")
	if err := enc.Encode(p); err != nil {
		return nil, err
	}
	buf.WriteByte('\n')
	return buf.Bytes(), nil
}

// truncate is s cut to n characters.
func truncate(s string, n int) string {
	r := []rune(strings.TrimSpace(s))
	if len(r) > n {
		r = r[:n]
	}
	return string(r)
}
