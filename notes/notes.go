// Package notes keeps the host's private notes on a booking: what the
// host or a colleague wants to remember about a stay ("late arrival, keys
// in the box", "guest asked for a cot"). A note is written once, with its
// author and time, and never changed: the list of a booking's notes is
// its journal. Notes are never shown to the guest nor sent in webhooks;
// they go with the guest's data in a GDPR export and are deleted with it
// by an erasure (package privacy), as they may name the guest.
package notes

import (
	"context"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/staykit/staykit/booking"
)

// MaxLength is the longest note, in characters.
const MaxLength = 2000

// Note is one note on a booking.
type Note struct {
	ID        int64
	BookingID int64
	// Author names who wrote it: the dashboard user's e-mail address or
	// the API key's name, as the audit log names them.
	Author    string
	Body      string
	CreatedAt time.Time
}

// Store keeps the notes. A store that implements it deletes a booking's
// notes when the booking is deleted, and when its guest is erased
// (privacy.Store.EraseGuest).
type Store interface {
	// AddNote stores n and sets its ID. Errors: booking.CodeNotFound when
	// n.BookingID is no booking.
	AddNote(ctx context.Context, n *Note) error
	// BookingNotes lists a booking's notes, oldest first.
	BookingNotes(ctx context.Context, bookingID int64) ([]Note, error)
}

// Check returns body without its leading and trailing white space, or a
// booking.CodeInvalid error naming the field "body": required, at most
// MaxLength characters, valid UTF-8 with no control character other than
// line breaks and tabs. CR LF line breaks become LF.
func Check(body string) (string, error) {
	body = strings.TrimSpace(strings.ReplaceAll(body, "\r\n", "\n"))
	reason := ""
	switch {
	case body == "":
		reason = "required"
	case !utf8.ValidString(body) || strings.ContainsFunc(body, forbidden):
		reason = booking.ReasonInvalidCharacters
	case utf8.RuneCountInString(body) > MaxLength:
		reason = "too_long"
	default:
		return body, nil
	}
	return "", &booking.Error{Code: booking.CodeInvalid, Message: "The request is invalid.",
		Fields: booking.FieldErrors{"body": {reason}}}
}

// forbidden reports a character a note may not hold: control and format
// characters (NUL, bidi overrides…), except line breaks and tabs.
func forbidden(r rune) bool {
	if r == '\n' || r == '\t' {
		return false
	}
	return unicode.IsControl(r) || unicode.Is(unicode.Cf, r)
}
