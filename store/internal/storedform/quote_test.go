package storedform_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/pricing"
	"github.com/staykit/staykit/store/internal/storedform"
)

var update = flag.Bool("update", false, "rewrite testdata/quote.golden.json")

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// fullQuote sets every field of a quote.
func fullQuote() pricing.Quote {
	return pricing.Quote{
		CheckIn:  civil.MustParse("2026-07-03"),
		CheckOut: civil.MustParse("2026-07-05"),
		Nights:   2,
		Guests:   3,
		Currency: "EUR",
		NightsDetail: []pricing.Night{
			{Date: civil.MustParse("2026-07-03"), Price: dec("150.00")},
			{Date: civil.MustParse("2026-07-04"), Price: dec("150.00")},
		},
		Accommodation: dec("300.00"),
		Discounts:     []pricing.Line{{Code: pricing.LineCoupon, Label: "WELCOME10", Amount: dec("30.00")}},
		Fees: []pricing.Line{
			{Code: pricing.LineCleaningFee, Label: "Cleaning", Amount: dec("60.00")},
			{Code: pricing.LineExtraGuestFee, Label: "Extra guest", Amount: dec("30.50")},
		},
		Taxes:          []pricing.Line{{Code: pricing.LineTouristTax, Label: "Tourist tax", Amount: dec("13.80")}},
		Total:          dec("374.30"),
		Mode:           pricing.ModeDeposit,
		Charge:         dec("112.29"),
		Balance:        dec("262.01"),
		BalanceDueDate: civil.MustParse("2026-06-19"),
		CouponCode:     "WELCOME10",
		CouponBase:     dec("300.00"),
	}
}

// sameQuote compares quotes by their Go-named JSON, in which decimals
// compare by their text.
func sameQuote(t *testing.T, got, want pricing.Quote) {
	t.Helper()
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	if !bytes.Equal(g, w) {
		t.Errorf("quote differs\n got: %s\nwant: %s", g, w)
	}
}

// TestQuoteGolden pins the stored form: a change to it breaks every
// database already written, so it must be deliberate (go test -update).
func TestQuoteGolden(t *testing.T) {
	for _, tt := range []struct {
		file  string
		quote pricing.Quote
	}{
		{"quote.golden.json", fullQuote()},
		{"quote-empty.golden.json", pricing.Quote{}},
	} {
		t.Run(tt.file, func(t *testing.T) {
			raw, err := storedform.EncodeQuote(tt.quote)
			if err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			if err := json.Indent(&got, raw, "", "  "); err != nil {
				t.Fatal(err)
			}
			got.WriteByte('\n')
			path := filepath.Join("testdata", tt.file)
			if *update {
				if err := os.WriteFile(path, got.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if !bytes.Equal(got.Bytes(), want) {
				t.Errorf("stored form of the quote changed:\n got: %s\nwant: %s", got.Bytes(), want)
			}
			back, err := storedform.DecodeQuote(want)
			if err != nil {
				t.Fatal(err)
			}
			sameQuote(t, back, tt.quote)
		})
	}
}

// TestQuoteStoredFormIsSnakeCase: no Go field name leaks into the stored
// form.
func TestQuoteStoredFormIsSnakeCase(t *testing.T) {
	raw, err := storedform.EncodeQuote(fullQuote())
	if err != nil {
		t.Fatal(err)
	}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(raw, &keys); err != nil {
		t.Fatal(err)
	}
	for k := range keys {
		if k != strings.ToLower(k) {
			t.Errorf("stored key %q is not snake_case", k)
		}
	}
}

// TestQuoteReadsLegacyForm reads quote-legacy.json, a quote as the stores
// wrote it before the stored form (encoding/json with Go field names).
func TestQuoteReadsLegacyForm(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "quote-legacy.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(raw, []byte(`"CheckIn"`)) {
		t.Fatal("quote-legacy.json is not in the legacy form")
	}
	got, err := storedform.DecodeQuote(raw)
	if err != nil {
		t.Fatal(err)
	}
	sameQuote(t, got, fullQuote())
}

func TestQuoteDecodeRefusesUnknownVersion(t *testing.T) {
	for _, raw := range []string{`{"version": 2, "check_in": "2026-07-03"}`, `not json`} {
		if _, err := storedform.DecodeQuote([]byte(raw)); err == nil {
			t.Errorf("DecodeQuote(%s) succeeded, want an error", raw)
		}
	}
}

// TestQuoteKeepsIncludedTaxes: the inclusive taxes (VAT in the prices)
// survive storing, for the tax report; a quote without them is stored as
// before (the golden files) and reads back without them.
func TestQuoteKeepsIncludedTaxes(t *testing.T) {
	q := fullQuote()
	q.IncludedTaxes = []pricing.Line{{Code: "vat", Label: "VAT", Amount: dec("27.27")}}
	raw, err := storedform.EncodeQuote(q)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), `"included_taxes":[{"code":"vat","label":"VAT","amount":"27.27"}]`) {
		t.Errorf("stored form = %s, want included_taxes", raw)
	}
	got, err := storedform.DecodeQuote(raw)
	if err != nil {
		t.Fatal(err)
	}
	sameQuote(t, got, q)
	plain, _ := storedform.EncodeQuote(fullQuote())
	if strings.Contains(string(plain), "included_taxes") {
		t.Errorf("a quote without inclusive taxes stores included_taxes: %s", plain)
	}
}
