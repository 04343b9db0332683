package host_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/booking/bookingtest"
	"github.com/staykit/staykit/checkin"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/host"
	"github.com/staykit/staykit/payment/paymenttest"
	"github.com/staykit/staykit/seed"
	"github.com/staykit/staykit/store/sqlite/sqlitetest"
)

// fakeSubmitter stands for an authority's service: it keeps what it was
// sent, or fails.
type fakeSubmitter struct {
	files []*checkin.File
	creds []checkin.Credentials
	fail  error
}

func (f *fakeSubmitter) Submit(_ context.Context, file *checkin.File, c checkin.Credentials) (*checkin.Receipt, error) {
	if f.fail != nil {
		return nil, f.fail
	}
	f.files, f.creds = append(f.files, file), append(f.creds, c)
	return &checkin.Receipt{Reference: "lote-1", At: time.Date(2026, 7, 1, 9, 0, 0, 0, time.UTC)}, nil
}

// TestSubmitCheckinFile: an Italian property's stay of two adults is
// checked in by the host, its Alloggiati Web file generated (two records
// of 168 characters, capo gruppo then membro gruppo) and submitted through
// a Submitter with the host's credentials: the check-in is marked
// submitted and the submission audited without the credentials. A
// failing service leaves it unsubmitted.
func TestSubmitCheckinFile(t *testing.T) {
	ctx := context.Background()
	db := sqlitetest.Open(t)
	clock := bookingtest.NewClock(time.Date(2026, 6, 1, 8, 0, 0, 0, time.UTC))
	if err := seed.LoadFile(ctx, db, "../examples/server/demo-seed.json", clock.Now()); err != nil {
		t.Fatal(err)
	}
	svc := booking.NewService(booking.Options{Stores: db.Stores(), Payments: paymenttest.New(paymenttest.WithClock(clock.Now)), Clock: clock})
	hs := host.New(host.Options{Stores: db.HostStores(), Bookings: svc, Clock: clock})
	org, err := hs.Organization(ctx, "demo")
	if err != nil {
		t.Fatal(err)
	}
	props, err := db.Properties(ctx, org.ID)
	if err != nil {
		t.Fatal(err)
	}
	p := props[0]
	p.Country = "IT"
	if err := db.UpdatePropertyFields(ctx, &p); err != nil {
		t.Fatal(err)
	}
	res, err := svc.Checkout(ctx, "demo", booking.CheckoutRequest{PropertyID: p.ID,
		Stay:      booking.Stay{CheckIn: civil.MustParse("2026-07-01"), CheckOut: civil.MustParse("2026-07-04"), Guests: 2},
		GuestName: "Chiara Rossi", GuestEmail: "chiara@example.com", GuestPhone: "+39061234567"})
	if err != nil {
		t.Fatal(err)
	}
	id := res.Booking.ID
	by := host.Actor{Kind: "user", ID: 3, Name: "host@example.com", Role: "manager"}
	guests := []checkin.Guest{
		{GivenNames: "Chiara", Surname: "Rossi", Sex: "F", BirthDate: civil.MustParse("1972-12-23"), BirthCountry: "IT",
			BirthMunicipalityCode: "412058091", BirthProvince: "RM", Nationality: "IT", DocumentType: checkin.DocumentIDCard,
			DocumentNumber: "CA01376BS", DocumentCountry: "IT", DocumentIssuePlaceCode: "412058091"},
		{GivenNames: "Jonas", Surname: "Müller", Sex: "M", BirthDate: civil.MustParse("1980-11-20"), BirthCountry: "DE", Nationality: "DE"},
	}
	v, err := hs.SaveCheckin(ctx, org, id, guests, by)
	if err != nil {
		t.Fatal(err)
	}
	if !v.Completeness.Complete || v.Authority != checkin.AuthorityAlloggiati {
		t.Fatalf("saved: %+v", v)
	}
	f, err := hs.CheckinFile(ctx, org, id, "", by)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(f.Body), "\r\n")
	if len(lines) != 2 || len([]rune(lines[0])) != 168 || len([]rune(lines[1])) != 168 ||
		!strings.HasPrefix(lines[0], "1801/07/202603Rossi") || !strings.HasPrefix(lines[1], "2001/07/202603Müller") {
		t.Errorf("Alloggiati file:\n%q", f.Body)
	}

	failing := &fakeSubmitter{fail: &booking.Error{Code: booking.CodeServiceUnavailable, Message: "down"}}
	creds := checkin.Credentials{User: "ALLOGGIATI_USER", Password: "s3cret-password", Key: "WSKEY-123"}
	if _, err := hs.SubmitCheckinFile(ctx, org, failing, f, creds, []int64{id}, by); booking.ErrorCode(err) != booking.CodeServiceUnavailable {
		t.Errorf("failing service: %v", err)
	}
	if r, _ := db.Checkin(ctx, id); !r.SubmittedAt.IsZero() {
		t.Errorf("marked submitted after a failure")
	}
	sub := &fakeSubmitter{}
	rc, err := hs.SubmitCheckinFile(ctx, org, sub, f, creds, []int64{id}, by)
	if err != nil || rc.Reference != "lote-1" {
		t.Fatalf("submit: %v %v", rc, err)
	}
	if len(sub.files) != 1 || !bytes.Equal(sub.files[0].Body, f.Body) || sub.creds[0] != creds {
		t.Errorf("the service got %d files, credentials %v", len(sub.files), sub.creds)
	}
	if r, _ := db.Checkin(ctx, id); !r.SubmittedAt.Equal(clock.Now()) {
		t.Errorf("SubmittedAt = %v, want %v", r.SubmittedAt, clock.Now())
	}
	log, err := db.AuditLog(ctx, org.ID, 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	submits := 0
	for _, a := range log {
		if a.Action == "checkin.submit" {
			submits++
		}
		for _, secret := range []string{"s3cret", "WSKEY", "ALLOGGIATI_USER", "CA01376BS", "Müller"} {
			if bytes.Contains(a.After, []byte(secret)) || bytes.Contains(a.Before, []byte(secret)) {
				t.Errorf("audit %s holds %q", a.Action, secret)
			}
		}
	}
	if submits != 1 {
		t.Errorf("%d checkin.submit audit entries, want 1", submits)
	}
}
