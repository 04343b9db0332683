package notify

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/outbox"
)

// ChangeData is a guest's change of a booking's dates or party (package
// datechange) as the events of the change kinds carry it (EventData.Change,
// outbox.Event.Data): written with the change's state in one transaction,
// it keeps the stay the booking had before and the one asked for, which
// the booking, read when the event is sent, no longer shows. Amounts are
// decimal strings in the booking's currency.
type ChangeData struct {
	// ID is the change's id (the host API's /changes/{id}); it is taken
	// from the event's key (ChangeEventKey), not stored in its data.
	ID int64 `json:"id"`
	// Status is the change's: requested, applied, declined, expired or
	// refused (its charge went through, its dates could not be taken: the
	// charge went back).
	Status      string `json:"status"`
	OldCheckIn  string `json:"old_check_in"`
	OldCheckOut string `json:"old_check_out"`
	OldGuests   int    `json:"old_guests"`
	CheckIn     string `json:"check_in"`
	CheckOut    string `json:"check_out"`
	Guests      int    `json:"guests"`
	Currency    string `json:"currency"`
	// PreviousTotal is the booking's total before the change, Total the
	// new one.
	PreviousTotal string `json:"previous_total"`
	Total         string `json:"total_amount"`
	// Charge is charged for the change and Refund given back: done for
	// an applied or refused change, on approval for a requested one, what
	// was offered for a declined or expired one.
	Charge string `json:"charge_amount"`
	Refund string `json:"refund_amount"`
	// Balance is left to pay after the change, by BalanceDueDate.
	Balance        string `json:"balance_amount"`
	BalanceDueDate string `json:"balance_due_date,omitempty"`
	// Cause says why a change was closed unapplied (Cause* constants).
	Cause string `json:"cause,omitempty"`
	// HostReason is the host's words when they declined it.
	HostReason string `json:"host_reason,omitempty"`
	// ExpiresAt is when a requested change lapses without the host's
	// answer.
	ExpiresAt *time.Time `json:"expires_at,omitempty"`
}

// Causes of a change closed unapplied (ChangeData.Cause).
const (
	// CauseHostDeclined: the host declined it (booking.change_declined).
	CauseHostDeclined = "host_declined"
	// CauseUnavailable: the stay asked for could no longer be booked when
	// the host approved it (booking.change_declined).
	CauseUnavailable = "unavailable"
	// CauseDatesTaken: its charge went through but its dates were taken
	// meanwhile; the charge went back in full (booking.change_declined).
	CauseDatesTaken = "dates_taken"
	// CauseRequestLapsed: the host did not answer in time
	// (booking.change_expired).
	CauseRequestLapsed = "request_lapsed"
	// CausePaymentAbandoned: the guest did not complete the charge's
	// payment in time; nothing was taken (booking.change_expired).
	CausePaymentAbandoned = "payment_abandoned"
)

// ChangeKind reports whether kind is one of a date change's
// (booking.NotifyChange*).
func ChangeKind(kind string) bool {
	switch kind {
	case booking.NotifyChangeRequested, booking.NotifyChanged, booking.NotifyChangeDeclined, booking.NotifyChangeExpired:
		return true
	}
	return false
}

// ChangeEventKey is the key of the event of kind about change id: one
// event per change and kind, so that a retry, a replica or the second
// path that closes a change never writes it twice.
func ChangeEventKey(kind string, id int64) string {
	return kind + ":" + strconv.FormatInt(id, 10)
}

// ChangeOf returns the change an event of a change kind carries, nil
// for any other event (or data that does not decode).
func ChangeOf(ev *outbox.Event) *ChangeData {
	if !ChangeKind(ev.Kind) || len(ev.Data) == 0 {
		return nil
	}
	var c ChangeData
	if err := json.Unmarshal(ev.Data, &c); err != nil {
		return nil
	}
	if rest, ok := strings.CutPrefix(ev.Key, ev.Kind+":"); ok {
		c.ID, _ = strconv.ParseInt(rest, 10, 64)
	}
	return &c
}

// ChangeMail is what the templates see of a change of dates
// (MailData.Change), written for the mail's locale.
type ChangeMail struct {
	Status string
	// OldCheckIn, OldCheckOut, OldNights, OldGuests: the stay before the
	// change; CheckIn... the stay asked for (the new one once applied).
	OldCheckIn, OldCheckOut string
	OldNights, OldGuests    int
	CheckIn, CheckOut       string
	Nights, Guests          int
	// BeforeLabel names the stay before the change; StayLabel the stay
	// asked for: "New stay" once applied, else "Requested stay".
	BeforeLabel, StayLabel string
	// Note says what happened and what comes next.
	Note string
	// Lines are the change's amounts, labelled: the new total, what was
	// (or would be) charged and refunded, the balance and its due date.
	Lines []Line
	// HostReason is the host's words when they declined the change,
	// ReasonLabel their label.
	HostReason, ReasonLabel string
}

// Line is a labelled value of a mail.
type Line struct{ Label, Value string }

// changeTexts per locale.
var changeTexts = map[string]struct {
	before, asked, applied, total, charge, refund, chargeIfApproved, refundIfApproved, balance, due, reason string
	// notes by kind or cause, for the guest [0] and the host [1].
	requested, changedGuest, changedHost                                        string
	hostDeclined, unavailable, datesTaken, lapsed, abandoned, declined, expired string
}{
	"fr": {before: "Séjour initial", asked: "Séjour demandé", applied: "Nouveau séjour", total: "Nouveau total",
		charge: "Débité pour le changement", refund: "Remboursé", chargeIfApproved: "À débiter si vous acceptez",
		refundIfApproved: "À rembourser si vous acceptez", balance: "Reste à payer", due: "au plus tard le", reason: "Message de l'hôte",
		requested:    "Le voyageur demande à changer son séjour. Acceptez ou refusez sa demande dans le tableau de bord (page de la réservation, section « Modifications du séjour ») avant le %s ; sans réponse, elle expire et la réservation garde ses dates.",
		changedGuest: "Votre changement est fait : votre réservation a désormais le séjour ci-dessous.",
		changedHost:  "Le voyageur a changé son séjour ; la réservation a désormais le séjour ci-dessous. Rien à faire de votre part.",
		hostDeclined: "L'hôte n'a pas accepté votre changement : votre réservation garde ses dates.",
		unavailable:  "Le séjour demandé ne peut plus être réservé : votre réservation garde ses dates.",
		datesTaken:   "Les nouvelles dates ont été réservées par quelqu'un d'autre avant la fin de votre paiement : votre réservation garde ses dates et le montant débité pour le changement vous est remboursé en totalité.",
		lapsed:       "L'hôte n'a pas répondu à temps à votre demande : elle a expiré et votre réservation garde ses dates. Vous pouvez la refaire depuis la page de votre réservation.",
		abandoned:    "Le paiement de votre changement n'a pas été finalisé à temps : le changement est annulé, rien n'a été débité et votre réservation garde ses dates.",
		declined:     "Votre changement n'a pas pu être fait : votre réservation garde ses dates.",
		expired:      "Votre demande de changement a expiré : votre réservation garde ses dates."},
	"en": {before: "Original stay", asked: "Requested stay", applied: "New stay", total: "New total",
		charge: "Charged for the change", refund: "Refunded", chargeIfApproved: "To charge if you approve",
		refundIfApproved: "To refund if you approve", balance: "Left to pay", due: "by", reason: "The host's message",
		requested:    "The guest asks to change their stay. Approve or decline the request in the dashboard (the booking's page, section “Changes of stay”) before %s; without an answer it lapses and the booking keeps its dates.",
		changedGuest: "Your change is done: your booking now has the stay below.",
		changedHost:  "The guest changed their stay; the booking now has the stay below. Nothing for you to do.",
		hostDeclined: "The host did not accept your change: your booking keeps its dates.",
		unavailable:  "The stay you asked for can no longer be booked: your booking keeps its dates.",
		datesTaken:   "The new dates were booked by someone else before your payment went through: your booking keeps its dates and the amount charged for the change is refunded in full.",
		lapsed:       "The host did not answer your request in time: it has lapsed and your booking keeps its dates. You may ask again from your booking's page.",
		abandoned:    "The payment of your change was not completed in time: the change is cancelled, nothing was charged and your booking keeps its dates.",
		declined:     "Your change could not be made: your booking keeps its dates.",
		expired:      "Your change request has expired: your booking keeps its dates."},
}

// NewChangeMail is what the templates see of change c, told by an event
// of kind, for the guest or the host of org, in locale.
func NewChangeMail(org *booking.Organization, c *ChangeData, kind, locale string, forHost bool) *ChangeMail {
	locale = mailLocale(locale)
	tx := changeTexts[locale]
	day := func(s string) string {
		d, err := civil.Parse(s)
		if err != nil {
			return s
		}
		return Date(d, locale)
	}
	nights := func(in, out string) int {
		a, err1 := civil.Parse(in)
		b, err2 := civil.Parse(out)
		if err1 != nil || err2 != nil {
			return 0
		}
		return a.DaysUntil(b)
	}
	amount := func(s string) (string, bool) {
		v, err := decimal.NewFromString(s)
		if err != nil || !v.IsPositive() {
			return "", false
		}
		return Amount(v, c.Currency, locale), true
	}
	m := &ChangeMail{Status: c.Status, OldCheckIn: day(c.OldCheckIn), OldCheckOut: day(c.OldCheckOut),
		OldNights: nights(c.OldCheckIn, c.OldCheckOut), OldGuests: c.OldGuests, CheckIn: day(c.CheckIn), CheckOut: day(c.CheckOut),
		Nights: nights(c.CheckIn, c.CheckOut), Guests: c.Guests, BeforeLabel: tx.before, StayLabel: tx.asked, HostReason: c.HostReason, ReasonLabel: tx.reason}
	add := func(label, value string, ok bool) {
		if ok {
			m.Lines = append(m.Lines, Line{Label: label, Value: value})
		}
	}
	total, hasTotal := amount(c.Total)
	switch kind {
	case booking.NotifyChangeRequested:
		expires := ""
		if c.ExpiresAt != nil {
			expires = DateTime(*c.ExpiresAt, org.Location(), locale)
		}
		m.Note = fmt.Sprintf(tx.requested, expires)
		add(tx.total, total, hasTotal)
		v, ok := amount(c.Charge)
		add(tx.chargeIfApproved, v, ok)
		v, ok = amount(c.Refund)
		add(tx.refundIfApproved, v, ok)
	case booking.NotifyChanged:
		m.StayLabel, m.Note = tx.applied, tx.changedGuest
		if forHost {
			m.Note = tx.changedHost
		}
		add(tx.total, total, hasTotal)
		v, ok := amount(c.Charge)
		add(tx.charge, v, ok)
		v, ok = amount(c.Refund)
		add(tx.refund, v, ok)
		if v, ok = amount(c.Balance); ok {
			if c.BalanceDueDate != "" {
				v += ", " + tx.due + " " + day(c.BalanceDueDate)
			}
			add(tx.balance, v, true)
		}
	default:
		m.Note = tx.declined
		if kind == booking.NotifyChangeExpired {
			m.Note = tx.expired
		}
		switch c.Cause {
		case CauseHostDeclined:
			m.Note = tx.hostDeclined
		case CauseUnavailable:
			m.Note = tx.unavailable
		case CauseDatesTaken:
			m.Note = tx.datesTaken
			v, ok := amount(c.Charge)
			add(tx.charge, v, ok)
			v, ok = amount(c.Refund)
			add(tx.refund, v, ok)
		case CauseRequestLapsed:
			m.Note = tx.lapsed
		case CausePaymentAbandoned:
			m.Note = tx.abandoned
		}
	}
	return m
}

// DateTime formats an instant in loc for a locale: "15 août 2026, 14:00".
func DateTime(t time.Time, loc *time.Location, locale string) string {
	if loc == nil {
		loc = time.UTC
	}
	t = t.In(loc)
	return Date(civil.Of(t), locale) + ", " + t.Format("15:04")
}
