// Package registration checks the registration number a short-term
// rental must show on every listing (Regulation (EU) 2024/1028, applicable
// since 20 May 2026), against the format its country publishes where it
// publishes one. It is pure: no I/O, no time.
//
// Formats known, and where they are published:
//
//   - FR, the numéro d'enregistrement of a meublé de tourisme: Code du
//     tourisme, article D324-1-1 (décret n° 2017-678 of 28 April 2017):
//     thirteen characters in three groups, the commune's five-character
//     official geographic code (code officiel géographique, INSEE: digits,
//     or 2A/2B and three digits in Corsica), a six-digit identifier and a
//     two-character control key. The article does not define the key's
//     characters: letters or digits are accepted.
//   - IT, the Codice Identificativo Nazionale (CIN) of the Ministero del
//     Turismo's Banca Dati delle Strutture Ricettive (art. 13-ter of
//     decreto-legge 145/2023, legge 191/2023): "IT", the ISTAT codes of the
//     province and of the commune (three digits each), the two-character
//     ISTAT classification of the accommodation (such as B1 or C2), and a
//     random alphanumeric string of at most eight characters.
//
// Elsewhere (Spain's Registro Único de Arrendamientos under Real Decreto
// 1312/2024 publishes no number format in its text) a number is only
// held to MaxLength and to letters, digits and the separators - / . and
// space.
package registration

import (
	"strings"
)

// MaxLength is the longest registration number accepted, in characters.
const MaxLength = 64

// Field error reasons of Check.
const (
	// ReasonInvalidFormat: the number does not follow its country's
	// published format.
	ReasonInvalidFormat = "invalid_format"
	// ReasonInvalidCharacters: a character other than a letter, a digit
	// or a separator.
	ReasonInvalidCharacters = "invalid_characters"
	// ReasonTooLong: more than MaxLength characters.
	ReasonTooLong = "too_long"
)

// Check reads the registration number s of a property in country (ISO
// 3166-1 alpha-2, any case) and returns it as it is stored and shown, or
// the field error reason that refuses it ("" with reason "": no number).
// A number of a country with a published format (FR, IT) is stored
// compact and in upper case ("75056 123456 ab" is "75056123456AB"); any
// other is trimmed and kept as entered.
func Check(country, s string) (number, reason string) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", ""
	}
	if len([]rune(s)) > MaxLength {
		return "", ReasonTooLong
	}
	for _, r := range s {
		if !isAlnum(r) && !strings.ContainsRune(" -/.", r) {
			return "", ReasonInvalidCharacters
		}
	}
	switch strings.ToUpper(country) {
	case "FR":
		return compactCheck(s, validFR)
	case "IT":
		return compactCheck(s, validIT)
	}
	return s, ""
}

// compactCheck removes spaces and hyphens, upper-cases s and checks it
// with valid.
func compactCheck(s string, valid func(string) bool) (string, string) {
	c := strings.ToUpper(strings.NewReplacer(" ", "", "-", "").Replace(s))
	if !valid(c) {
		return "", ReasonInvalidFormat
	}
	return c, ""
}

// validFR: 5-character commune code, 6 digits, 2-character key.
func validFR(s string) bool {
	if len(s) != 13 {
		return false
	}
	commune, id, key := s[:5], s[5:11], s[11:]
	dept := commune[:2]
	if !(allDigits(dept) || dept == "2A" || dept == "2B") || !allDigits(commune[2:]) {
		return false
	}
	return allDigits(id) && isAlnum(rune(key[0])) && isAlnum(rune(key[1]))
}

// validIT: "IT", 3 + 3 digits, 2-character classification, 1 to 8
// alphanumeric characters.
func validIT(s string) bool {
	if len(s) < 11 || len(s) > 18 || !strings.HasPrefix(s, "IT") {
		return false
	}
	if !allDigits(s[2:8]) {
		return false
	}
	for _, r := range s[8:] {
		if !isAlnum(r) {
			return false
		}
	}
	return true
}

func allDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// isAlnum reports whether r is an ASCII letter or digit.
func isAlnum(r rune) bool {
	return '0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z'
}
