package booking

import (
	"strings"
	"unicode"

	"github.com/staykit/staykit/internal/phone"
)

// MaxGuestEmailLength is the longest e-mail address accepted: the limit of
// a forward-path in SMTP (RFC 5321) less its angle brackets.
const MaxGuestEmailLength = 254

// Field error reasons of guest details.
const (
	// ReasonInvalidCharacters: the value holds control or format characters
	// (Unicode categories Cc and Cf), such as NUL, ESC, NEL or the bidi
	// overrides U+202E and U+2066–2069, which can hide or reorder text in
	// what a host reads.
	ReasonInvalidCharacters = "invalid_characters"
	ReasonInvalidPhone      = "invalid_phone"
)

// hasForbiddenChars reports whether s holds a control or format character.
// With multiline, the line breaks of plain text ("\n" and "\r\n") and tabs
// are allowed.
func hasForbiddenChars(s string, multiline bool) bool {
	for i, r := range s {
		if !unicode.In(r, unicode.Cc, unicode.Cf) {
			continue
		}
		if multiline && (r == '\n' || r == '\t' || r == '\r' && strings.HasPrefix(s[i+1:], "\n")) {
			continue
		}
		return true
	}
	return false
}

// normalizePhone reads a guest's phone number, in international form
// (+33612345678) or national form of the organisation's country
// (06 12 34 56 78 in France), and returns it in E.164. ok is false when it
// cannot be a phone number: a character other than digits, a leading +,
// spaces and ( ) . - /; an unknown country code; a length no number of
// that country has. It reads numbers as libphonenumber does, with its
// numbering plans (package internal/phone): a hand-written pattern cannot
// tell 06 12 34 56 78 from 06 12, nor keep up with plan changes. Numbers
// are checked for a possible length, not against the ranges in service,
// so that a range opened after the metadata was published, or reserved
// for fiction and tests, is not refused.
func normalizePhone(s, country string) (e164 string, ok bool) {
	return phone.E164(s, country)
}
