// Package conversation is the thread of messages between a booking's guest
// and its host (issue #28): the guest writes from the booking page (the
// public API, with the booking's token), the host answers from the
// dashboard or the host API, and each message is e-mailed to the other
// side through the durable outbox (package notify), in the recipient's
// language: a guest's message (outbox.KindGuestMessage) to the
// organisation's contact address, a host's (outbox.KindHostMessage) to
// the guest.
//
// Replies by e-mail are not threaded back: staykit sends its mail over
// SMTP and receives none, so each e-mail says so and links to the page
// where the reader answers (the guest's booking page, the booking in the
// host's dashboard).
//
// A message and its outbox event are written in one transaction
// (Store.AddMessage), never one without the other, and the event's key
// names the message: its e-mail goes to its recipient once per delivery
// log entry, at least once with the outbox's retries, and a guest's retry
// with the same Idempotency-Key stores nothing twice.
//
// Messages are plain text (at most MaxLength characters, no control
// character but line breaks and tabs), escaped wherever they are shown:
// the pages render them as text, the e-mails' HTML escapes them. A guest
// may write while the booking is requested, confirmed, declined or
// cancelled, until WriteDays days after its check-out date (in the
// organisation's time zone) — never on a booking not yet paid (pending)
// or expired, nor once the guest's data is erased — and at most
// MaxUnanswered messages in a row before the host answers. The host may
// write on any booking whose guest is not erased. A thread holds at most
// MaxThread messages. The thread is the guest's data: a GDPR export
// carries it and an erasure deletes it (package privacy).
package conversation

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/outbox"
)

// Sides of a thread: who wrote a message.
const (
	FromGuest = "guest"
	FromHost  = "host"
)

// Limits of a thread.
const (
	// MaxLength is the longest message, in characters.
	MaxLength = 2000
	// MaxUnanswered is how many messages a guest may write in a row
	// before the host answers: the host's mailbox is not the guest's to
	// flood, whatever their addresses.
	MaxUnanswered = 5
	// MaxThread is the most messages a booking's thread holds.
	MaxThread = 500
	// WriteDays is how many days after its check-out date the guest of a
	// booking may still write.
	WriteDays = 14
	// MaxKey is the longest Idempotency-Key of a guest's message.
	MaxKey = 255
)

// Reasons (booking.ParamReason) of the refusals of a message.
const (
	// ReasonClosed: the guest may not write on this booking (now):
	// booking.CodeBookingClosed.
	ReasonClosed = "messages_closed"
	// ReasonGuestErased: the booking's guest was erased; nobody may write
	// to or as them (booking.CodeBookingClosed).
	ReasonGuestErased = "guest_erased"
	// ReasonAwaitingReply: the guest wrote MaxUnanswered messages the host
	// has not answered yet (booking.CodeConflict).
	ReasonAwaitingReply = "awaiting_reply"
	// ReasonThreadFull: the thread holds MaxThread messages
	// (booking.CodeConflict).
	ReasonThreadFull = "thread_full"
	// ReasonKeyReused: the Idempotency-Key was used for another message
	// (booking.CodeConflict).
	ReasonKeyReused = "key_reused"
)

// Message is one message of a booking's thread.
type Message struct {
	ID        int64
	OrgID     int64
	BookingID int64
	// From is FromGuest or FromHost.
	From string
	// Author names the host's writer as the audit log does (the dashboard
	// user's e-mail address or the API key's name), never shown to the
	// guest; "" for the guest's messages.
	Author string
	// Body is the text, without leading and trailing white space.
	Body string
	// Key is the guest's Idempotency-Key, "" without one.
	Key       string
	CreatedAt time.Time
}

// Store keeps the threads; store/sqlite and store/postgres implement it,
// store/storetest checks it. A store deletes a booking's thread with the
// booking and with its guest's erasure (privacy.Store.EraseGuest), in the
// erasure's transaction: a message written at the same moment is either
// refused or deleted with the rest.
type Store interface {
	// AddMessage stores m, sets its ID and OrgID (the booking's
	// organisation), and records in the same transaction the outbox event
	// that e-mails it to the other side (Event): both or neither. When
	// m.Key is set and the booking has a message stored with it, nothing
	// is stored: m becomes the stored message and created is false. Errors:
	// booking.CodeNotFound (the booking); booking.CodeBookingClosed,
	// reason ReasonGuestErased (its guest was erased); booking.CodeConflict,
	// reason ReasonKeyReused (m.Key names a message of other text or
	// side), ReasonThreadFull (MaxThread messages), ReasonAwaitingReply (a
	// guest's message after MaxUnanswered of theirs in a row). Concurrent
	// calls for one booking are serialised: the limits hold whatever the
	// race.
	AddMessage(ctx context.Context, m *Message) (created bool, err error)
	// BookingMessages lists a booking's messages, oldest first (at most
	// MaxThread).
	BookingMessages(ctx context.Context, bookingID int64) ([]Message, error)
	// Message finds a message. Errors: booking.CodeNotFound.
	Message(ctx context.Context, id int64) (*Message, error)
}

// Check returns body without its leading and trailing white space (CR LF
// line breaks become LF), or a booking.CodeInvalid error naming the field
// "body": required, too_long (over MaxLength characters) or
// invalid_characters (not UTF-8, or a control or format character other
// than a line break or a tab).
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

// CheckKey validates a guest's Idempotency-Key: at most MaxKey printable
// ASCII characters ("" is no key). Errors: booking.CodeInvalid (field
// "Idempotency-Key").
func CheckKey(key string) error {
	ok := len(key) <= MaxKey
	for i := 0; ok && i < len(key); i++ {
		ok = key[i] > ' ' && key[i] < 0x7f
	}
	if ok {
		return nil
	}
	return &booking.Error{Code: booking.CodeInvalid, Message: "The Idempotency-Key is invalid.",
		Fields: booking.FieldErrors{"Idempotency-Key": {"invalid"}}}
}

// forbidden reports a character a message may not hold: control and
// format characters (NUL, bidi overrides…), except line breaks and tabs.
func forbidden(r rune) bool {
	if r == '\n' || r == '\t' {
		return false
	}
	return unicode.IsControl(r) || unicode.Is(unicode.Cf, r)
}

// WriteUntil is the last day, in the organisation's time zone, the guest
// of b may write: WriteDays after its check-out date for a requested,
// confirmed, declined or cancelled booking. ok is false for a booking on
// which the guest never writes: pending (not paid yet) or expired.
func WriteUntil(b *booking.Booking) (last civil.Date, ok bool) {
	switch b.Status {
	case booking.StatusRequested, booking.StatusConfirmed, booking.StatusDeclined, booking.StatusCancelled:
		return b.CheckOut.AddDays(WriteDays), true
	}
	return civil.Date{}, false
}

// GuestMayWrite reports whether the guest of b may write on today (the
// organisation's date), and when not, a booking.CodeBookingClosed error
// with reason ReasonClosed. The store refuses an erased guest's
// messages.
func GuestMayWrite(b *booking.Booking, today civil.Date) error {
	if last, ok := WriteUntil(b); ok && !today.After(last) {
		return nil
	}
	return ErrClosed()
}

// Event is the outbox event that e-mails a stored message to the other
// side: outbox.KindGuestMessage to the host, outbox.KindHostMessage to
// the guest, keyed by the message.
func Event(m *Message) outbox.Event {
	kind := outbox.KindGuestMessage
	if m.From == FromHost {
		kind = outbox.KindHostMessage
	}
	return outbox.Event{Key: kind + ":" + strconv.FormatInt(m.ID, 10), Kind: kind, OrgID: m.OrgID,
		BookingID: m.BookingID, CreatedAt: m.CreatedAt}
}

// MessageOf returns the message an event of Event tells about; ok is
// false for any other event.
func MessageOf(ev *outbox.Event) (id int64, ok bool) {
	if ev.Kind != outbox.KindGuestMessage && ev.Kind != outbox.KindHostMessage {
		return 0, false
	}
	rest, found := strings.CutPrefix(ev.Key, ev.Kind+":")
	if !found {
		return 0, false
	}
	id, err := strconv.ParseInt(rest, 10, 64)
	return id, err == nil && id > 0
}

// Refusals, which stores and the Service return.

// ErrClosed is the refusal of a guest's message on a booking they may not
// write on (GuestMayWrite).
func ErrClosed() error {
	return refusal(booking.CodeBookingClosed, ReasonClosed, "Messages on this booking are closed.")
}

// ErrGuestErased is the refusal of a message on a booking whose guest
// was erased.
func ErrGuestErased() error {
	return refusal(booking.CodeBookingClosed, ReasonGuestErased, "This booking's guest data was erased: no message can be written.")
}

// ErrAwaitingReply is the refusal of a guest's message after MaxUnanswered
// of theirs in a row.
func ErrAwaitingReply() error {
	return refusal(booking.CodeConflict, ReasonAwaitingReply,
		fmt.Sprintf("You have sent %d messages the host has not answered yet: please wait for their reply.", MaxUnanswered))
}

// ErrThreadFull is the refusal of a message in a thread of MaxThread.
func ErrThreadFull() error {
	return refusal(booking.CodeConflict, ReasonThreadFull, "This conversation is full.")
}

// ErrKeyReused is the refusal of an Idempotency-Key used for another
// message.
func ErrKeyReused() error {
	return refusal(booking.CodeConflict, ReasonKeyReused, "This Idempotency-Key was already used with a different message.")
}

// ErrNotFound is the error of a message that is not there.
func ErrNotFound() error {
	return &booking.Error{Code: booking.CodeNotFound, Message: "Message not found.",
		Params: map[string]string{booking.ParamSubject: "message"}}
}

func refusal(code, reason, message string) error {
	return &booking.Error{Code: code, Message: message, Params: map[string]string{booking.ParamReason: reason}}
}
