package httpapi

import (
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/shopspring/decimal"

	"github.com/staykit/staykit/civil"
)

// The price route by hand. A widget asks for a quote on every date a
// guest touches, and encoding/json spent a fifth of the server's CPU on
// it there: reflection, and re-scanning every amount a MarshalJSON wrote.
// encodeQuote writes the same bytes as json.Marshal(success{Success: true,
// Data: v}) plus the newline of encodeData; TestQuoteEncodingMatches-
// EncodingJSON holds it to that, so quoteView's struct tags stay the
// definition of the shape. A field added to quoteView must be added here.

// encodeQuote encodes the success envelope of a quote.
func encodeQuote(v *quoteView) rawEnvelope {
	b := make([]byte, 0, 1024+96*len(v.NightsDetail))
	b = append(b, `{"success":true,"data":`...)
	b = v.appendJSON(b)
	return append(b, "}\n"...)
}

func (v *quoteView) appendJSON(b []byte) []byte {
	places := v.Accommodation.places
	b = append(b, `{"property_id":`...)
	b = strconv.AppendInt(b, v.PropertyID, 10)
	b = append(b, `,"check_in":"`...)
	b = appendDate(b, v.CheckIn)
	b = append(b, `","check_out":"`...)
	b = appendDate(b, v.CheckOut)
	b = append(b, `","nights":`...)
	b = strconv.AppendInt(b, int64(v.Nights), 10)
	b = append(b, `,"guests_count":`...)
	b = strconv.AppendInt(b, int64(v.GuestsCount), 10)
	b = append(b, `,"currency":`...)
	b = appendJSONString(b, v.Currency)
	b = append(b, `,"nights_detail":`...)
	if v.NightsDetail == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, n := range v.NightsDetail {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"date":"`...)
			b = appendDate(b, n.Date)
			b = append(b, `","price":`...)
			b = appendMoney(b, n.Price.d, n.Price.places)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = append(b, `,"accommodation":`...)
	b = appendMoney(b, v.Accommodation.d, places)
	b = append(b, `,"discounts":`...)
	b = appendLines(b, v.Discounts)
	b = append(b, `,"fees":`...)
	b = appendLines(b, v.Fees)
	b = append(b, `,"taxes":`...)
	b = appendLines(b, v.Taxes)
	b = append(b, `,"total_amount":`...)
	b = appendMoney(b, v.TotalAmount.d, v.TotalAmount.places)
	b = append(b, `,"payment_mode":`...)
	b = appendJSONString(b, v.PaymentMode)
	b = append(b, `,"charge_amount":`...)
	b = appendMoney(b, v.ChargeAmount.d, v.ChargeAmount.places)
	b = append(b, `,"balance_amount":`...)
	b = appendMoney(b, v.BalanceAmount.d, v.BalanceAmount.places)
	b = append(b, `,"balance_due_date":`...)
	b = v.BalanceDueDate.appendJSON(b)
	b = append(b, `,"coupon":`...)
	b = appendOptString(b, v.Coupon)
	b = append(b, `,"included_taxes":`...)
	b = appendLines(b, v.IncludedTaxes)
	b = append(b, `,"guests":{"adults":`...)
	b = strconv.AppendInt(b, int64(v.Guests.Adults), 10)
	b = append(b, `,"children":`...)
	b = strconv.AppendInt(b, int64(v.Guests.Children), 10)
	b = append(b, `,"infants":`...)
	b = strconv.AppendInt(b, int64(v.Guests.Infants), 10)
	b = append(b, `,"pets":`...)
	b = strconv.AppendInt(b, int64(v.Guests.Pets), 10)
	b = append(b, `},"line_labels":`...)
	b = appendLabels(b, v.LineLabels)
	if v.CancellationPolicy != nil {
		b = append(b, `,"cancellation_policy":`...)
		b = v.CancellationPolicy.appendJSON(b)
	}
	return append(b, '}')
}

func appendLines(b []byte, ls []lineView) []byte {
	if ls == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, l := range ls {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"code":`...)
		b = appendJSONString(b, l.Code)
		b = append(b, `,"label":`...)
		b = appendJSONString(b, l.Label)
		b = append(b, `,"amount":`...)
		b = appendMoney(b, l.Amount.d, l.Amount.places)
		if l.Quantity != 0 {
			b = append(b, `,"quantity":`...)
			b = strconv.AppendInt(b, int64(l.Quantity), 10)
		}
		b = append(b, '}')
	}
	return append(b, ']')
}

// appendLabels appends labels by line code, then by locale.
func appendLabels(b []byte, m map[string]map[string]string) []byte {
	return appendSortedMap(b, m, appendStringMap)
}

func appendStringMap(b []byte, m map[string]string) []byte {
	return appendSortedMap(b, m, appendJSONString)
}

// appendSortedMap appends m as a JSON object, keys sorted as encoding/json
// sorts them, each value by appendValue.
func appendSortedMap[V any](b []byte, m map[string]V, appendValue func([]byte, V) []byte) []byte {
	if m == nil {
		return append(b, "null"...)
	}
	var buf [8]string
	b = append(b, '{')
	for i, k := range sortedKeys(m, buf[:0]) {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, k)
		b = append(b, ':')
		b = appendValue(b, m[k])
	}
	return append(b, '}')
}

// sortedKeys returns m's keys sorted, in buf when they fit: the maps of a
// quote have a handful of keys.
func sortedKeys[V any](m map[string]V, buf []string) []string {
	keys := buf[:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func (p *policyView) appendJSON(b []byte) []byte {
	b = append(b, `{"name":`...)
	b = appendJSONString(b, p.Name)
	b = append(b, `,"tiers":`...)
	if p.Tiers == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, t := range p.Tiers {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"days_before":`...)
			b = strconv.AppendInt(b, int64(t.DaysBefore), 10)
			b = append(b, `,"refund_percent":`...)
			b = append(b, decimal.Decimal(t.RefundPercent).String()...)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = append(b, `,"non_refundable_amount":`...)
	b = appendMoney(b, p.NonRefundable.d, p.NonRefundable.places)
	b = append(b, `,"summary":`...)
	b = appendJSONString(b, p.Summary)
	return append(b, '}')
}

func (d optDate) appendJSON(b []byte) []byte {
	if civil.Date(d).IsZero() {
		return append(b, "null"...)
	}
	b = append(b, '"')
	b = appendDate(b, civil.Date(d))
	return append(b, '"')
}

func appendOptString(b []byte, s *string) []byte {
	if s == nil {
		return append(b, "null"...)
	}
	return appendJSONString(b, *s)
}

// appendJSONString appends s as a JSON string exactly as encoding/json
// writes it: HTML characters (<, >, &), U+2028 and U+2029 escaped, and
// invalid UTF-8 replaced by U+FFFD.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
