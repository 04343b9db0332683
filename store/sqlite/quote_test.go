package sqlite_test

import (
	"database/sql"
	"encoding/json"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/pricing"
	"github.com/staykit/staykit/store/sqlite/sqlitetest"
)

// TestQuoteColumn: the quote is written in its snake_case stored form, and
// a row written before it (Go field names) still reads.
func TestQuoteColumn(t *testing.T) {
	path := sqlitetest.Path(t)
	db := openAt(t, path)
	org, prop := newCabin(t, db)
	q := pricing.Quote{CheckIn: civil.MustParse("2026-05-01"), CheckOut: civil.MustParse("2026-05-03"),
		Nights: 2, Guests: 1, Currency: "EUR", Accommodation: decimal.RequireFromString("160"),
		Fees:  []pricing.Line{{Code: pricing.LineCleaningFee, Label: "Cleaning", Amount: decimal.RequireFromString("40.5")}},
		Total: decimal.RequireFromString("200.5"), Mode: pricing.ModeFull, Charge: decimal.RequireFromString("200.5")}
	b := &booking.Booking{OrgID: org.ID, PropertyID: prop.ID, Token: "quoted", CheckIn: q.CheckIn,
		CheckOut: q.CheckOut, Guests: 1, Currency: "EUR", PaymentMode: pricing.ModeFull, Quote: q}
	if err := db.CreateBooking(t.Context(), b, booking.CreateOptions{Now: now}); err != nil {
		t.Fatal(err)
	}
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	var stored string
	if err := raw.QueryRowContext(t.Context(), `SELECT quote FROM bookings WHERE id = ?`, b.ID).Scan(&stored); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"version":1`, `"check_in":"2026-05-01"`, `"total":"200.5"`, `"fees":[{"code":"cleaning_fee"`} {
		if !strings.Contains(stored, want) {
			t.Errorf("stored quote %s lacks %s", stored, want)
		}
	}

	legacy, err := json.Marshal(q) // how the store wrote quotes before
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.ExecContext(t.Context(), `UPDATE bookings SET quote = ? WHERE id = ?`, string(legacy), b.ID); err != nil {
		t.Fatal(err)
	}
	got, err := db.BookingByID(t.Context(), b.ID)
	if err != nil {
		t.Fatalf("read a legacy quote: %v", err)
	}
	g, _ := json.Marshal(got.Quote)
	if string(g) != string(legacy) {
		t.Errorf("legacy quote read as %s, want %s", g, legacy)
	}
}
