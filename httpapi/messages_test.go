package httpapi_test

import (
	"strings"
	"testing"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/coupon"
	"github.com/staykit/staykit/httpapi"
)

func TestEveryCodeHasAStatusAndBothLanguages(t *testing.T) {
	codes := httpapi.ErrorCodes()
	for _, c := range []string{coupon.CodeInactive, coupon.CodeNotYetValid, coupon.CodeExpired, coupon.CodeExhausted,
		coupon.CodeProperty, coupon.CodeStayDates, coupon.CodeMinNights, coupon.CodeMinAmount, booking.CodeCouponNotFound,
		booking.CodeCheckInPast, booking.CodeMinStay, booking.CodeMaxStay, booking.CodeMaxGuests,
		booking.CodePaymentProcessing, booking.CodeAmountNotChargeable} {
		if codes[c] != 422 {
			t.Errorf("%s maps to %d, want 422", c, codes[c])
		}
	}
	for code := range codes {
		e := &booking.Error{Code: code, Message: "untranslated"}
		fr, en := httpapi.Message("fr", e), httpapi.Message("en", e)
		if fr == "untranslated" || en == "untranslated" || fr == en {
			t.Errorf("%s: fr %q, en %q; want two translations", code, fr, en)
		}
	}
}

func TestStatusOfUnknownCodes(t *testing.T) {
	tests := []struct {
		code string
		want int
	}{
		{"internal", 500},
		{"something_new", 500},
		{"coupon_future_rule", 422},
		{"payment_unavailable", 502},
		{"conflict", 409},
		{"not_found", 404},
	}
	for _, tt := range tests {
		if got := httpapi.HTTPStatus(tt.code); got != tt.want {
			t.Errorf("status of %s = %d, want %d", tt.code, got, tt.want)
		}
	}
}

func TestMessagesWithParams(t *testing.T) {
	tests := []struct {
		code   string
		params map[string]string
		fr, en string
	}{
		{coupon.CodeStayDates, map[string]string{"from": "2026-06-01", "until": "2026-06-30"},
			"Ce code promo s'applique aux arrivées du 2026-06-01 au 2026-06-30.",
			"This coupon applies to check-ins from 2026-06-01 to 2026-06-30."},
		{coupon.CodeStayDates, map[string]string{"from": "2026-06-01"},
			"Ce code promo s'applique aux arrivées à partir du 2026-06-01.",
			"This coupon applies to check-ins from 2026-06-01 onwards."},
		{coupon.CodeStayDates, map[string]string{"until": "2026-06-30"},
			"Ce code promo s'applique aux arrivées jusqu'au 2026-06-30.",
			"This coupon applies to check-ins until 2026-06-30."},
		{coupon.CodeMinNights, map[string]string{"min": "1"},
			"Ce code promo exige un séjour d'au moins 1 nuit.", "This coupon requires a stay of at least 1 night."},
		{coupon.CodeMinAmount, map[string]string{"min": "150"},
			"Ce code promo exige un séjour d'un montant d'au moins 150.", "This coupon requires a stay amount of at least 150."},
		{coupon.CodeNotYetValid, map[string]string{"date": "2026-07-01"},
			"Ce code promo est valable à partir du 2026-07-01.", "This coupon is valid from 2026-07-01."},
		{booking.CodeMaxGuests, map[string]string{"max": "1"},
			"Ce logement accueille au maximum 1 voyageur.", "This property takes at most 1 guest."},
		{booking.CodeMaxStay, map[string]string{"max": "1"},
			"Ce séjour dépasse la durée maximale d'une nuit.", "This stay is longer than the maximum of 1 night."},
		{booking.CodeBookingClosed, map[string]string{"status": "declined"},
			"Cette réservation a été refusée et ne peut plus être confirmée.", "This booking was declined and can no longer be confirmed."},
		{booking.CodeBookingClosed, map[string]string{"status": "expired"},
			"Cette réservation a expiré et ne peut plus être confirmée.", "This booking has expired and can no longer be confirmed."},
	}
	for _, tt := range tests {
		e := &booking.Error{Code: tt.code, Message: "English", Params: tt.params}
		if got := httpapi.Message("fr", e); got != tt.fr {
			t.Errorf("%s %v fr = %q, want %q", tt.code, tt.params, got, tt.fr)
		}
		if got := httpapi.Message("en", e); got != tt.en {
			t.Errorf("%s %v en = %q, want %q", tt.code, tt.params, got, tt.en)
		}
	}
}

func TestMessageFallsBackToTheDomainMessage(t *testing.T) {
	e := &booking.Error{Code: "brand_new_code", Message: "Something new happened."}
	if got := httpapi.Message("fr", e); got != "Something new happened." {
		t.Errorf("message = %q, want the domain's own", got)
	}
}

func TestFieldMessages(t *testing.T) {
	tests := []struct {
		field, reason string
		params        map[string]string
		fr            string
	}{
		{"guest_name", "too_long", nil, "Le nom ne doit pas dépasser 200 caractères."},
		{"message", "too_long", nil, "Le message ne doit pas dépasser 2000 caractères."},
		{"anything", "too_long", nil, "Cette valeur est trop longue."},
		{"coupon_code", coupon.CodeMinNights, map[string]string{"min": "7"}, "Ce code promo exige un séjour d'au moins 7 nuits."},
		{"amount", "invalid_amount", nil, "Ce montant n'est pas valide : il doit être positif et ne pas dépasser ce qui reste à rembourser ou à retenir."},
		{"x", "reason_nobody_knows", nil, "Cette valeur n'est pas valide."},
	}
	for _, tt := range tests {
		got := httpapi.FieldMessage("fr", tt.field, tt.reason, tt.params)
		if got != tt.fr {
			t.Errorf("%s/%s = %q, want %q", tt.field, tt.reason, got, tt.fr)
		}
		if strings.Contains(got, "{") {
			t.Errorf("%s/%s left a placeholder: %q", tt.field, tt.reason, got)
		}
	}
}
