package checkin

import (
	"golang.org/x/text/language"
)

// iso3 is the ISO 3166-1 alpha-3 code of an alpha-2 country code, as
// SES.HOSPEDAJES wants its countries ("" when unknown).
func iso3(alpha2 string) string {
	r, err := language.ParseRegion(alpha2)
	if err != nil || !r.IsCountry() {
		return ""
	}
	return r.ISO3()
}

// sesDocumentType is g's document as a code of SES.HOSPEDAJES'
// TIPO_DOCUMENTO table (Instrucciones v1.1.1 §8.5: NIF, NIE, PAS, OTRO):
// a Spanish identity card is a NIF (the DNI's number), a Spanish residence
// permit a NIE, any passport a PAS, anything else OTRO.
func sesDocumentType(g Guest) string {
	switch {
	case g.DocumentType == "":
		return ""
	case g.DocumentType == DocumentPassport:
		return "PAS"
	case g.DocumentType == DocumentIDCard && g.DocumentCountry == "ES":
		return "NIF"
	case g.DocumentType == DocumentResidencePermit && g.DocumentCountry == "ES":
		return "NIE"
	}
	return "OTRO"
}

// sesSex is SES.HOSPEDAJES' SEXO code (Instrucciones v1.1.1 §8.4: H
// hombre, M mujer, O otro).
func sesSex(s string) string {
	switch s {
	case SexMale:
		return "H"
	case SexFemale:
		return "M"
	}
	return "O"
}

// italianDocuments are the codes of Alloggiati Web's Documenti table
// (Tabelle.aspx, "documenti.csv") for the documents staykit takes: carta
// di identità, passaporto ordinario, patente di guida. Other documents of
// the table (95 rows) are not offered.
var italianDocuments = map[string]string{
	DocumentIDCard:         "IDENT",
	DocumentPassport:       "PASOR",
	DocumentDrivingLicence: "PATEN",
}

// ItalyCountryCode is the code of ITALIA in Alloggiati Web's Stati table.
const ItalyCountryCode = "100000100"

// italianStates are the codes of Alloggiati Web's Stati table
// (Tabelle.aspx, "stati.csv", Codice,Descrizione) for the countries
// staykit can report in Italy: the European Union and EEA, Switzerland,
// the United Kingdom and the most frequent others. A country missing here
// is refused for an Italian property (ReasonUnsupported) rather than
// reported with a wrong code.
var italianStates = map[string]string{
	"IT": ItalyCountryCode,
	"AT": "100000203", "BE": "100000206", "BG": "100000209", "CY": "100000315", "HR": "100000250",
	"DK": "100000212", "EE": "100000247", "FI": "100000214", "FR": "100000215", "DE": "100000216",
	"GR": "100000220", "IE": "100000221", "LV": "100000248", "LT": "100000249", "LU": "100000226",
	"MT": "100000227", "NL": "100000232", "PL": "100000233", "PT": "100000234", "CZ": "100000257",
	"RO": "100000235", "SK": "100000255", "SI": "100000251", "ES": "100000239", "SE": "100000240",
	"HU": "100000244", "IS": "100000223", "LI": "100000225", "NO": "100000231", "CH": "100000241",
	"GB": "100000219", "AL": "100000201", "UA": "100000243", "TR": "100000351", "MA": "100000436",
	"CN": "100000314", "JP": "100000326", "IN": "100000330", "US": "100000536", "CA": "100000509",
	"MX": "100000527", "AR": "100000602", "BR": "100000605", "AU": "100000701", "NZ": "100000719",
}
