package checkin

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"
)

// AlloggiatiVersion names the specification Alloggiati follows.
const AlloggiatiVersion = `Polizia di Stato, Alloggiati Web: "WS_ALLOGGIATI – Documento di Descrizione" (MANUALEWS.pdf) Rev. 01 del 24/01/2022, Tabella 1, and the user manual (MANUALEALBERGHI.pdf) cap. 12 "File tracciato record"`

// AlloggiatiRecordLength is the length of a record of the file, in
// characters, without its line break (CR LF).
const AlloggiatiRecordLength = 168

// AlloggiatiMaxNights is the longest stay (giorni di permanenza) a record
// may report.
const AlloggiatiMaxNights = 30

// Tipo alloggiato codes (Tabelle.aspx, "tipo_alloggiato.csv").
const (
	OspiteSingolo = "16"
	CapoFamiglia  = "17"
	CapoGruppo    = "18"
	Familiare     = "19"
	MembroGruppo  = "20"
)

// alloggiatiField is one field of the record: its length in characters,
// per Tabella 1 of AlloggiatiVersion.
var alloggiatiFields = []struct {
	name   string
	length int
}{
	{"tipo_alloggiato", 2}, {"data_arrivo", 10}, {"giorni_permanenza", 2}, {"cognome", 50}, {"nome", 30},
	{"sesso", 1}, {"data_nascita", 10}, {"comune_nascita", 9}, {"provincia_nascita", 2}, {"stato_nascita", 9},
	{"cittadinanza", 9}, {"tipo_documento", 5}, {"numero_documento", 20}, {"luogo_rilascio_documento", 9},
}

// Alloggiati writes the text file of stays that Alloggiati Web's "Invio
// File" (and its web service's Send) takes (AlloggiatiVersion): one
// record of 168 characters per guest, UTF-8, CR LF between records and
// none after the last. A stay of one guest is an ospite singolo (16); the
// first guest of a larger stay is its capo gruppo (18) with the document,
// the others membri del gruppo (20) right after it, whose document fields
// are blank. Dates are gg/mm/aaaa; places and nationalities are codes of
// the Comuni and Stati tables, documents of the Documenti table.
// Errors: booking.CodeInvalid (a stay longer than AlloggiatiMaxNights, a
// code missing from staykit's tables).
func Alloggiati(stays []Stay) ([]byte, error) {
	var lines []string
	for i, s := range stays {
		nights := s.Nights()
		if nights < 1 || nights > AlloggiatiMaxNights {
			return nil, invalid(fmt.Sprintf("stays.%d.nights", i), "out_of_range")
		}
		for j, g := range s.Guests {
			g = Normalize(g)
			tipo := OspiteSingolo
			switch {
			case len(s.Guests) > 1 && j == 0:
				tipo = CapoGruppo
			case j > 0:
				tipo = MembroGruppo
			}
			line, err := alloggiatiRecord(tipo, s, g)
			if err != nil {
				return nil, stayField(i, j, err.Error(), ReasonUnsupported)
			}
			lines = append(lines, line)
		}
	}
	return []byte(strings.Join(lines, "\r\n")), nil
}

// alloggiatiRecord is g's record; its error names the field whose code
// is missing.
func alloggiatiRecord(tipo string, s Stay, g Guest) (string, error) {
	sex := "1"
	if g.Sex == SexFemale {
		sex = "2"
	}
	comune, provincia := "", ""
	if g.BirthCountry == "IT" {
		comune, provincia = g.BirthMunicipalityCode, g.BirthProvince
	}
	values := []string{tipo, s.Arrival.Format("02/01/2006"), fmt.Sprintf("%02d", s.Nights()), g.Surname, g.GivenNames,
		sex, fmt.Sprintf("%02d/%02d/%04d", g.BirthDate.Day, g.BirthDate.Month, g.BirthDate.Year), comune, provincia,
		italianStates[g.BirthCountry], italianStates[g.Nationality], "", "", ""}
	if values[9] == "" {
		return "", fmt.Errorf("birth_country")
	}
	if values[10] == "" {
		return "", fmt.Errorf("nationality")
	}
	if tipo == OspiteSingolo || tipo == CapoFamiglia || tipo == CapoGruppo {
		values[11] = italianDocuments[g.DocumentType]
		values[12] = g.DocumentNumber
		values[13] = italianStates[g.DocumentCountry]
		if g.DocumentCountry == "IT" {
			values[13] = g.DocumentIssuePlaceCode
		}
		if values[11] == "" {
			return "", fmt.Errorf("document_type")
		}
		if values[13] == "" {
			return "", fmt.Errorf("document_country")
		}
	}
	var b bytes.Buffer
	for k, f := range alloggiatiFields {
		b.WriteString(pad(values[k], f.length))
	}
	return b.String(), nil
}

// pad is s cut or filled with spaces on the right to n characters.
func pad(s string, n int) string {
	if c := utf8.RuneCountInString(s); c < n {
		return s + strings.Repeat(" ", n-c)
	}
	return string([]rune(s)[:n])
}
