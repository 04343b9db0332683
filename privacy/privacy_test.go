package privacy_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/checkin"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/ledger"
	"github.com/staykit/staykit/privacy"
)

func TestLive(t *testing.T) {
	today := civil.MustParse("2026-06-10")
	for _, tt := range []struct {
		name     string
		status   booking.Status
		checkOut string
		want     bool
	}{
		{"ConfirmedAhead", booking.StatusConfirmed, "2026-06-12", true},
		{"ConfirmedLeavingToday", booking.StatusConfirmed, "2026-06-10", true},
		{"ConfirmedOver", booking.StatusConfirmed, "2026-06-09", false},
		{"RequestedAhead", booking.StatusRequested, "2026-07-01", true},
		{"PendingAhead", booking.StatusPending, "2026-07-01", true},
		{"CancelledAhead", booking.StatusCancelled, "2026-07-01", false},
		{"DeclinedAhead", booking.StatusDeclined, "2026-07-01", false},
		{"ExpiredAhead", booking.StatusExpired, "2026-07-01", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b := booking.Booking{Status: tt.status, CheckIn: civil.MustParse("2026-06-01"), CheckOut: civil.MustParse(tt.checkOut)}
			if got := privacy.Live(b, today); got != tt.want {
				t.Errorf("Live = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestExport(t *testing.T) {
	at := time.Date(2026, 6, 1, 10, 0, 0, 0, time.UTC)
	b := booking.Booking{ID: 7, PropertyID: 3, Status: booking.StatusConfirmed, CheckIn: civil.MustParse("2026-06-01"),
		CheckOut: civil.MustParse("2026-06-03"), Guests: 2, GuestName: "Ana", GuestEmail: "ana@example.com", GuestPhone: "+33612345678",
		Currency: "EUR", TotalAmount: decimal.RequireFromString("230.5"), PaidAmount: decimal.RequireFromString("230.5"),
		PaymentIntentID: "pi_1", ClientSecret: "pi_1_secret_x", CreatedAt: at, UpdatedAt: at}
	entries := []ledger.Entry{{ID: 1, BookingID: 7, Kind: "refund", Amount: 5050, Currency: "EUR", Key: "k", ProviderID: "re_1", CreatedAt: at}}
	for _, tt := range []struct {
		name      string
		b         booking.Booking
		wantIn    []string
		wantNotIn []string
	}{
		{"Guest", b, []string{`"guest_email":"ana@example.com"`, `"total_amount":230.50`, `"amount":50.50`, `"provider_id":"re_1"`, `"erased":false`},
			[]string{"secret"}},
		{"Erased", func() booking.Booking {
			e := b
			e.GuestName, e.GuestEmail, e.GuestPhone = privacy.ErasedName, "", ""
			return e
		}(), []string{`"erased":true`, `"guest_name":"Erased guest"`}, []string{"ana@example.com", "+33612345678"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, err := json.Marshal(privacy.NewExport(tt.b, entries))
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range tt.wantIn {
				if !strings.Contains(string(out), s) {
					t.Errorf("export lacks %s: %s", s, out)
				}
			}
			for _, s := range tt.wantNotIn {
				if strings.Contains(string(out), s) {
					t.Errorf("export holds %s: %s", s, out)
				}
			}
		})
	}
}

// The export carries the booking's check-in: the guests' identity data
// (an empty list without one).
func TestExportCheckin(t *testing.T) {
	b := booking.Booking{ID: 7, PropertyID: 3, Status: booking.StatusConfirmed, CheckIn: civil.MustParse("2026-06-01"),
		CheckOut: civil.MustParse("2026-06-03"), Guests: 1, GuestName: "Ana", Currency: "EUR"}
	e := privacy.NewExport(b, nil)
	out, _ := json.Marshal(e)
	if !strings.Contains(string(out), `"checkin":[]`) {
		t.Errorf("no check-in: %s", out)
	}
	e.AddCheckin(nil)
	e.AddCheckin(&checkin.Record{BookingID: 7, Guests: []checkin.Guest{{GivenNames: "Ana", Surname: "García", DocumentNumber: "12345678Z"}}})
	out, _ = json.Marshal(e)
	if !strings.Contains(string(out), `"document_number":"12345678Z"`) || len(e.Checkin) != 1 {
		t.Errorf("check-in export: %s", out)
	}
}
