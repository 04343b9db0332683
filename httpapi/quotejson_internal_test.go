package httpapi

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/policy"
	"github.com/staykit/staykit/pricing"
)

// tricky are strings that encoding/json escapes: quotes, backslashes,
// control characters, HTML, U+2028/2029, invalid UTF-8, DEL.
var tricky = []string{
	"", "plain", `a "quoted" \ back`, "tab\tnew\nline\rcr\bbs\fff", "\x00\x01\x1f\x7f",
	"<b>&amp;</b>", "line\u2028para\u2029", "bad \xff\xfe utf8", "cut \xe2\x82", "€ café 日本 🏖",
}

// TestQuoteEncodingMatchesEncodingJSON: the hand-written encoding of the
// price route writes what encoding/json writes for the same view, for
// quotes with every field set, empty lists and nil lists, and labels full
// of characters to escape.
func TestQuoteEncodingMatchesEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	amount := func() decimal.Decimal {
		return decimal.New(rng.Int64N(2_000_000)-100_000, -int32(rng.IntN(4)))
	}
	str := func() string { return tricky[rng.IntN(len(tricky))] }
	lines := func(n int) []pricing.Line {
		var ls []pricing.Line
		for i := range n {
			l := pricing.Line{Code: str() + string(rune('a'+i)), Label: str(), Amount: amount(), Quantity: rng.IntN(3)}
			if rng.IntN(2) == 0 {
				l.Labels = map[string]string{"fr": str(), "en": str(), "de": str()}
			}
			ls = append(ls, l)
		}
		return ls
	}
	for i := range 300 {
		cur := []string{"EUR", "JPY", "KWD", "USD"}[i%4]
		in := civil.Date{Year: 2020 + rng.IntN(10), Month: time.Month(1 + rng.IntN(12)), Day: 1 + rng.IntN(28)}
		nights := rng.IntN(30)
		q := pricing.Quote{
			CheckIn: in, CheckOut: in.AddDays(nights), Nights: nights, Guests: rng.IntN(9), Currency: cur,
			Accommodation: amount(), Discounts: lines(rng.IntN(3)), Fees: lines(rng.IntN(3)), Taxes: lines(rng.IntN(3)),
			IncludedTaxes: lines(rng.IntN(2)),
			Party:         pricing.Party{Adults: rng.IntN(5), Children: rng.IntN(3), Infants: rng.IntN(2), Pets: rng.IntN(2)},
			Total:         amount(), Mode: pricing.PaymentMode(str()), Charge: amount(), Balance: amount(),
		}
		if rng.IntN(2) == 0 {
			q.BalanceDueDate = in.AddDays(-rng.IntN(60))
		}
		if rng.IntN(2) == 0 {
			q.CouponCode = str()
		}
		for d := range nights {
			q.NightsDetail = append(q.NightsDetail, pricing.Night{Date: in.AddDays(d), Price: amount()})
		}
		v := newQuoteView(rng.Int64N(1e6), &q)
		switch rng.IntN(4) {
		case 0: // no policy: the field is left out
		case 1:
			v.CancellationPolicy = &policyView{Name: str(), Summary: str()} // nil tiers
		default:
			p := policy.Policy{Name: str(), NonRefundable: amount(),
				Tiers: []policy.Tier{{DaysBefore: 30, RefundPercent: decimal.RequireFromString("100")}, {DaysBefore: 7, RefundPercent: decimal.RequireFromString("33.5")}}}
			v.CancellationPolicy = newPolicyView(p, cur, "fr")
			v.CancellationPolicy.Summary = str()
		}
		if rng.IntN(10) == 0 {
			v.NightsDetail, v.Discounts, v.LineLabels = nil, nil, nil
		}
		want, err := encodeData(v)
		if err != nil {
			t.Fatalf("encoding/json: %v", err)
		}
		if got := encodeQuote(&v); !bytes.Equal(got, want) {
			t.Fatalf("quote %d:\nhand-written %s\nencoding/json %s", i, got, want)
		}
	}
}

// TestQuoteEncodingCoversEveryField fails when quoteView gains a field:
// encodeQuote must learn to write it (and the fixture to set it) first.
func TestQuoteEncodingCoversEveryField(t *testing.T) {
	var names []string
	for f := range reflect.TypeFor[quoteView]().Fields() {
		names = append(names, f.Tag.Get("json"))
	}
	want := "property_id check_in check_out nights guests_count currency nights_detail accommodation discounts fees taxes " +
		"total_amount payment_mode charge_amount balance_amount balance_due_date coupon included_taxes guests line_labels " +
		"cancellation_policy,omitempty"
	if got := strings.Join(names, " "); got != want {
		t.Fatalf("quoteView's fields changed; update encodeQuote and this list:\n got %s\nwant %s", got, want)
	}
}

// TestAppendJSONStringMatchesEncodingJSON compares the string escaping
// with encoding/json's on the tricky strings and random bytes.
func TestAppendJSONStringMatchesEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	cases := append([]string{}, tricky...)
	for range 2000 {
		b := make([]byte, rng.IntN(12))
		for i := range b {
			b[i] = byte(rng.IntN(256))
		}
		cases = append(cases, string(b))
	}
	for r := rune(0); r < 0x3000; r++ {
		cases = append(cases, string(r))
	}
	cases = append(cases, string([]byte{0xed, 0xa0, 0x80}), strings.Repeat("é", 3)+"\xc3")
	for _, s := range cases {
		want, _ := json.Marshal(s)
		if got := appendJSONString(nil, s); !bytes.Equal(got, want) {
			t.Fatalf("%q (valid UTF-8 %v): got %s, want %s", s, utf8.ValidString(s), got, want)
		}
	}
}

// TestPropertiesEncodingMatchesEncodingJSON: the hand-written encoding of
// the properties list writes what encoding/json writes for the same
// views: optional limits and guest caps set and not, extras with and
// without labels, a search's quote total, nil and empty lists.
func TestPropertiesEncodingMatchesEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	str := func() string { return tricky[rng.IntN(len(tricky))] }
	optInt := func() *int {
		if rng.IntN(2) == 0 {
			return nil
		}
		n := rng.IntN(30)
		return &n
	}
	amount := func(cur string) money {
		return newMoney(decimal.New(rng.Int64N(1_000_000), -int32(rng.IntN(4))), cur)
	}
	for i := range 300 {
		var views []propertyView
		if i%50 != 0 {
			views = []propertyView{}
		}
		for range rng.IntN(4) {
			cur := []string{"EUR", "JPY", "KWD"}[rng.IntN(3)]
			v := propertyView{ID: rng.Int64N(1e6), Name: str(), Description: str(), City: str(), Country: str(),
				MaxGuests: rng.IntN(20), Bedrooms: rng.IntN(8), MinStayNights: optInt(), MaxStayNights: optInt(),
				Currency: cur, PriceFrom: amount(cur),
				Guests: guestsView{MaxChildren: optInt(), MaxInfants: optInt(), MaxPets: rng.IntN(3), ChildAgeBelow: 12, InfantAgeBelow: 2}}
			for range rng.IntN(3) {
				v.Photos = append(v.Photos, str())
			}
			if rng.IntN(2) == 0 {
				v.RegistrationNumber = str()
			}
			if rng.IntN(3) > 0 {
				v.Extras = []extraView{}
			}
			for range rng.IntN(3) {
				e := extraView{Code: str(), Per: str(), Amount: amount(cur), MaxQuantity: rng.IntN(5)}
				if rng.IntN(2) == 0 {
					e.Labels = map[string]string{"fr": str(), "en": str()}
				}
				v.Extras = append(v.Extras, e)
			}
			if rng.IntN(2) == 0 {
				total := amount(cur)
				v.QuoteTotal = &total
			}
			views = append(views, v)
		}
		want, err := encodeData(views)
		if err != nil {
			t.Fatalf("encoding/json: %v", err)
		}
		if got := encodeProperties(views); !bytes.Equal(got, want) {
			t.Fatalf("properties %d:\nhand-written %s\nencoding/json %s", i, got, want)
		}
	}
}

// TestPropertiesEncodingCoversEveryField fails when a property view gains
// a field: encodeProperties must learn to write it first.
func TestPropertiesEncodingCoversEveryField(t *testing.T) {
	for _, tt := range []struct {
		typ  reflect.Type
		want string
	}{
		{reflect.TypeFor[propertyView](), "id name description photos city country max_guests bedrooms registration_number,omitempty min_stay_nights " +
			"max_stay_nights currency price_from units extras guests quote_total,omitempty"},
		{reflect.TypeFor[extraView](), "code labels per amount max_quantity"},
		{reflect.TypeFor[guestsView](), "max_children max_infants max_pets child_age_below infant_age_below"},
	} {
		var names []string
		for f := range tt.typ.Fields() {
			names = append(names, f.Tag.Get("json"))
		}
		if got := strings.Join(names, " "); got != tt.want {
			t.Errorf("%s's fields changed; update encodeProperties and this list:\n got %s\nwant %s", tt.typ, got, tt.want)
		}
	}
}
