package conversation_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/conversation"
	"github.com/staykit/staykit/notify"
	"github.com/staykit/staykit/outbox"
)

func reasonOf(err error) string {
	var e *booking.Error
	if errors.As(err, &e) {
		return e.Params[booking.ParamReason]
	}
	return ""
}

func TestCheck(t *testing.T) {
	for _, tt := range []struct {
		name, in, want, reason string
	}{
		{"Trimmed", "  Bonjour\r\nà bientôt \t", "Bonjour\nà bientôt", ""},
		{"MarkupIsText", "<b>gras</b> & <script>", "<b>gras</b> & <script>", ""},
		{"TabsAndLinesKept", "a\tb\n\nc", "a\tb\n\nc", ""},
		{"Empty", " \n ", "", "required"},
		{"Longest", strings.Repeat("é", conversation.MaxLength), strings.Repeat("é", conversation.MaxLength), ""},
		{"TooLong", strings.Repeat("é", conversation.MaxLength+1), "", "too_long"},
		{"Nul", "a\x00b", "", booking.ReasonInvalidCharacters},
		{"Bell", "a\ab", "", booking.ReasonInvalidCharacters},
		{"BidiOverride", "a\u202eb", "", booking.ReasonInvalidCharacters},
		{"ZeroWidthJoiner", "a\u200db", "", booking.ReasonInvalidCharacters},
		{"NotUTF8", "a\xffb", "", booking.ReasonInvalidCharacters},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := conversation.Check(tt.in)
			if tt.reason == "" {
				if err != nil || got != tt.want {
					t.Fatalf("Check = %q, %v; want %q", got, err, tt.want)
				}
				return
			}
			var e *booking.Error
			if !errors.As(err, &e) || e.Code != booking.CodeInvalid || len(e.Fields["body"]) != 1 || e.Fields["body"][0] != tt.reason {
				t.Fatalf("Check = %q, %v; want invalid body %s", got, err, tt.reason)
			}
		})
	}
}

func TestCheckKey(t *testing.T) {
	for key, ok := range map[string]bool{
		"":                           true,
		"3f1c9a52-7d1e-4b0a-9d6e":    true,
		strings.Repeat("k", 255):     true,
		strings.Repeat("k", 256):     false,
		"with space":                 false,
		"accentué":                   false,
		"tab\there":                  false,
		"new\nline":                  false,
		"~!@#$%^&*()_+{}|:<>?[];',.": true,
	} {
		if err := conversation.CheckKey(key); (err == nil) != ok {
			t.Errorf("CheckKey(%.20q) = %v, want ok %v", key, err, ok)
		}
	}
}

// TestGuestMayWrite: the window of each status, in the organisation's
// dates: requested, confirmed, declined and cancelled bookings until
// WriteDays after check-out; pending and expired never.
func TestGuestMayWrite(t *testing.T) {
	out := civil.MustParse("2026-06-13")
	last := out.AddDays(conversation.WriteDays)
	for _, tt := range []struct {
		status booking.Status
		today  civil.Date
		ok     bool
	}{
		{booking.StatusConfirmed, civil.MustParse("2026-05-01"), true},
		{booking.StatusConfirmed, last, true},
		{booking.StatusConfirmed, last.AddDays(1), false},
		{booking.StatusRequested, civil.MustParse("2026-06-01"), true},
		{booking.StatusCancelled, civil.MustParse("2026-06-20"), true},
		{booking.StatusCancelled, last.AddDays(1), false},
		{booking.StatusDeclined, civil.MustParse("2026-05-01"), true},
		{booking.StatusPending, civil.MustParse("2026-05-01"), false},
		{booking.StatusExpired, civil.MustParse("2026-05-01"), false},
	} {
		b := &booking.Booking{Status: tt.status, CheckIn: civil.MustParse("2026-06-10"), CheckOut: out}
		err := conversation.GuestMayWrite(b, tt.today)
		if (err == nil) != tt.ok {
			t.Errorf("%s on %s: %v, want ok %v", tt.status, tt.today, err, tt.ok)
		}
		if err != nil && (booking.ErrorCode(err) != booking.CodeBookingClosed || reasonOf(err) != conversation.ReasonClosed) {
			t.Errorf("%s on %s: %v, want booking_closed %s", tt.status, tt.today, err, conversation.ReasonClosed)
		}
		if until, ok := conversation.WriteUntil(b); ok != (tt.status != booking.StatusPending && tt.status != booking.StatusExpired) ||
			ok && until != last {
			t.Errorf("WriteUntil of a %s booking = %s, %v", tt.status, until, ok)
		}
	}
}

func TestEventNamesTheMessage(t *testing.T) {
	guest := &conversation.Message{ID: 41, OrgID: 3, BookingID: 7, From: conversation.FromGuest, CreatedAt: time.Unix(1, 0)}
	host := &conversation.Message{ID: 42, OrgID: 3, BookingID: 7, From: conversation.FromHost}
	for _, tt := range []struct {
		m    *conversation.Message
		kind string
	}{{guest, outbox.KindGuestMessage}, {host, outbox.KindHostMessage}} {
		ev := conversation.Event(tt.m)
		if ev.Kind != tt.kind || ev.OrgID != 3 || ev.BookingID != 7 || !outbox.Internal(ev.Kind) {
			t.Errorf("Event(%d) = %+v, want kind %s of booking 7", tt.m.ID, ev, tt.kind)
		}
		if id, ok := conversation.MessageOf(&ev); !ok || id != tt.m.ID {
			t.Errorf("MessageOf(%q) = %d, %v; want %d", ev.Key, id, ok, tt.m.ID)
		}
	}
	for _, ev := range []outbox.Event{
		{Key: "message.from_guest:abc", Kind: outbox.KindGuestMessage},
		{Key: "message.from_guest:0", Kind: outbox.KindGuestMessage},
		{Key: "message.from_guest:5", Kind: outbox.KindHostMessage},
		{Key: "message.scheduled:review:1:x", Kind: outbox.KindMessage},
	} {
		if id, ok := conversation.MessageOf(&ev); ok {
			t.Errorf("MessageOf(%+v) = %d, want no message", ev, id)
		}
	}
}

// TestRender: each side's e-mail in each language, with the stay, the
// message's words as text, escaped in the HTML, the link to the page
// where the reader answers (the guest's page opened at the thread), and
// the warning that a reply by e-mail reaches no one.
func TestRender(t *testing.T) {
	org := &booking.Organization{Name: "Gîtes du Lac", DefaultLocale: "fr"}
	b := &booking.Booking{GuestName: "Camille\r\nMartin", CheckIn: civil.MustParse("2026-06-08"), CheckOut: civil.MustParse("2026-06-11")}
	m := &conversation.Message{From: conversation.FromGuest, Body: "<script>alert('x')</script>\nÀ bientôt & merci"}
	for _, tt := range []struct {
		name      string
		to        notify.Recipient
		subject   string
		text      []string
		link      string
		noLinkFor string
	}{
		{"HostFR", notify.Recipient{Host: true, Locale: "fr", Link: "https://b.example/host/#bookings/7"},
			"Message de Camille Martin — Villa Soleil, du 8 juin 2026 au 11 juin 2026",
			[]string{"Camille Martin vous a écrit", "Répondez depuis la réservation", "ne parvient pas au voyageur"}, "https://b.example/host/#bookings/7", ""},
		{"HostEN", notify.Recipient{Host: true, Locale: "en", Link: "https://b.example/host/#bookings/7"},
			"Message from Camille Martin — Villa Soleil, 8 June 2026 to 11 June 2026",
			[]string{"Camille Martin wrote to you", "Answer from the booking in your dashboard", "does not reach the guest"}, "https://b.example/host/#bookings/7", ""},
		{"GuestEN", notify.Recipient{Locale: "en", Link: "https://b.example/?org=lac&booking=tok"},
			"Gîtes du Lac wrote to you about your stay at Villa Soleil",
			[]string{"Hello Camille Martin,", "Read and answer on your booking's page", "does not reach Gîtes du Lac"}, "https://b.example/?org=lac&booking=tok#messages", ""},
		{"GuestFR", notify.Recipient{Locale: "fr", Link: "https://b.example/?org=lac&booking=tok"},
			"Gîtes du Lac vous a écrit au sujet de votre séjour à Villa Soleil",
			[]string{"Bonjour Camille Martin,", "Lisez et répondez sur la page", "ne parvient pas à Gîtes du Lac"}, "https://b.example/?org=lac&booking=tok#messages", ""},
		{"HostWithoutLink", notify.Recipient{Host: true, Locale: "en"}, "Message from Camille Martin — Villa Soleil, 8 June 2026 to 11 June 2026",
			[]string{"Answer from the booking in your dashboard, where the guest reads it."}, "", "href"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			msg, err := conversation.Render(m, org, b, "Villa Soleil", tt.to)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(msg.Subject+msg.Text+msg.HTML, "%!") {
				t.Errorf("a format error in the e-mail:\n%s\n%s", msg.Text, msg.HTML)
			}
			if msg.Subject != tt.subject {
				t.Errorf("subject = %q, want %q", msg.Subject, tt.subject)
			}
			for _, want := range append(tt.text, m.Body) {
				if !strings.Contains(msg.Text, want) {
					t.Errorf("text lacks %q:\n%s", want, msg.Text)
				}
			}
			if tt.link != "" && !strings.Contains(msg.Text, " "+tt.link+"\n") {
				t.Errorf("text lacks the link %s:\n%s", tt.link, msg.Text)
			}
			if strings.Contains(msg.HTML, "<script>") || !strings.Contains(msg.HTML, "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;") ||
				!strings.Contains(msg.HTML, "À bientôt &amp; merci") {
				t.Errorf("HTML does not escape the message:\n%s", msg.HTML)
			}
			if tt.link != "" && !strings.Contains(msg.HTML, `href="`+strings.ReplaceAll(tt.link, "&", "&amp;")+`"`) {
				t.Errorf("HTML lacks the link %s:\n%s", tt.link, msg.HTML)
			}
			if tt.noLinkFor != "" && strings.Contains(msg.HTML, tt.noLinkFor) {
				t.Errorf("HTML has a link though there is none:\n%s", msg.HTML)
			}
			if len(msg.Private) != 1 || msg.Private[0] != m.Body {
				t.Errorf("Private = %q, want the message's words", msg.Private)
			}
		})
	}
}

// TestRenderRefusesAScriptLink: a link that is no http(s) URL never
// becomes an href.
func TestRenderRefusesAScriptLink(t *testing.T) {
	org := &booking.Organization{Name: "Gîtes"}
	b := &booking.Booking{GuestName: "Camille", CheckIn: civil.MustParse("2026-06-08"), CheckOut: civil.MustParse("2026-06-11")}
	msg, err := conversation.Render(&conversation.Message{From: conversation.FromHost, Body: "x"}, org, b, "Villa",
		notify.Recipient{Locale: "en", Link: "javascript:alert(1)"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(msg.HTML, `href="javascript`) {
		t.Errorf("HTML links a script:\n%s", msg.HTML)
	}
}
