package httpapi

import (
	"strings"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/coupon"
)

// text is a message in both locales; {name} placeholders are filled from
// the error's Params.
type text struct{ fr, en string }

func (t text) in(loc string) string {
	if loc == localeFR {
		return t.fr
	}
	return t.en
}

// variant is a message of a code that applies when its condition holds
// (always when when is nil).
type variant struct {
	when func(p map[string]string) bool
	text
}

func has(names ...string) func(map[string]string) bool {
	return func(p map[string]string) bool {
		for _, n := range names {
			if p[n] == "" {
				return false
			}
		}
		return true
	}
}

func equals(name, value string) func(map[string]string) bool {
	return func(p map[string]string) bool { return p[name] == value }
}

// byCode holds the messages of each code, the first variant whose
// condition holds being used.
var byCode = map[string][]variant{
	booking.CodeInternal: {{text: text{
		fr: "Une erreur inattendue s'est produite. Veuillez réessayer plus tard.",
		en: "An unexpected error occurred. Please try again later."}}},
	booking.CodeServiceUnavailable: {{text: text{
		fr: "Le service est momentanément indisponible. Veuillez réessayer dans quelques secondes.",
		en: "The service is temporarily unavailable. Please try again in a few seconds."}}},
	booking.CodeInvalid: {{text: text{
		fr: "La requête contient des champs invalides.",
		en: "The request is invalid."}}},
	booking.CodeNotFound: {
		{when: equals(booking.ParamSubject, "organization"), text: text{
			fr: "Cet établissement n'existe pas ou ne prend pas de réservations en ligne.",
			en: "This organisation does not exist or does not take bookings online."}},
		{when: equals(booking.ParamSubject, "property"), text: text{
			fr: "Ce logement n'existe pas.",
			en: "This property does not exist."}},
		{when: equals(booking.ParamSubject, "booking"), text: text{
			fr: "Cette réservation n'existe pas.",
			en: "This booking does not exist."}},
		{text: text{
			fr: "Cette ressource n'existe pas.",
			en: "This resource does not exist."}},
	},
	booking.CodeUnavailable: {{text: text{
		fr: "Ces dates ne sont plus disponibles.",
		en: "These dates are no longer available."}}},
	booking.CodeCheckInPast: {{text: text{
		fr: "La date d'arrivée est déjà passée.",
		en: "The check-in date is in the past."}}},
	booking.CodeBeyondHorizon: {{text: text{
		fr: "Les réservations sont ouvertes pour des séjours se terminant au plus tard le {date}.",
		en: "Bookings are open for stays ending on {date} at the latest."}}},
	booking.CodeMinStay: {{text: text{
		fr: "Ce séjour est plus court que le minimum de {min} nuits.",
		en: "This stay is shorter than the minimum of {min} nights."}}},
	booking.CodeMaxStay: {
		{when: equals("max", "1"), text: text{
			fr: "Ce séjour dépasse la durée maximale d'une nuit.",
			en: "This stay is longer than the maximum of 1 night."}},
		{text: text{
			fr: "Ce séjour dépasse la durée maximale de {max} nuits.",
			en: "This stay is longer than the maximum of {max} nights."}},
	},
	booking.CodeMaxGuests: {
		{when: equals("max", "1"), text: text{
			fr: "Ce logement accueille au maximum 1 voyageur.",
			en: "This property takes at most 1 guest."}},
		{text: text{
			fr: "Ce logement accueille au maximum {max} voyageurs.",
			en: "This property takes at most {max} guests."}},
	},
	booking.CodePaymentNotConfirmed: {
		{when: equals(booking.ParamMode, "request"), text: text{
			fr: "La carte n'a pas encore été autorisée.",
			en: "The card has not been authorised yet."}},
		{text: text{
			fr: "Le paiement n'a pas encore abouti.",
			en: "The payment has not succeeded yet."}},
	},
	booking.CodePaymentLate: {{text: text{
		fr: "Le paiement est arrivé après l'expiration du blocage de ces dates, qui ont été réservées depuis. Le paiement a été remboursé.",
		en: "The payment arrived after the hold on these dates lapsed, and they have been booked since. The payment has been returned."}}},
	booking.CodePaymentProcessing: {{text: text{
		fr: "Le paiement est en cours de traitement ; les dates restent bloquées en attendant. Veuillez vérifier à nouveau dans un instant.",
		en: "The payment is still being processed; the dates stay held meanwhile. Please check again in a moment."}}},
	booking.CodeAmountNotChargeable: {{text: text{
		fr: "Ce montant ne peut pas être payé par carte en ligne (il est inférieur au minimum du prestataire de paiement, ou n'est pas un montant payable dans cette devise). Veuillez contacter l'hôte.",
		en: "This amount cannot be paid by card online (it is below the payment provider's minimum, or not a payable amount in this currency). Please contact the host."}}},
	booking.CodePaymentsNotReady: {{text: text{
		fr: "Cet hôte ne peut pas encore recevoir de paiements en ligne. Veuillez réessayer plus tard ou contacter l'hôte.",
		en: "This host cannot take online payments yet. Please try again later or contact the host."}}},
	booking.CodeBookingClosed: {
		{when: equals("action", "cancelled"), text: text{
			fr: "Cette réservation ne peut pas (ou plus) être annulée.",
			en: "This booking cannot be cancelled (any more)."}},
		{when: equals("status", string(booking.StatusDeclined)), text: text{
			fr: "Cette réservation a été refusée et ne peut plus être confirmée.",
			en: "This booking was declined and can no longer be confirmed."}},
		{when: equals("status", string(booking.StatusCancelled)), text: text{
			fr: "Cette réservation a été annulée et ne peut plus être confirmée.",
			en: "This booking was cancelled and can no longer be confirmed."}},
		{when: equals("status", string(booking.StatusExpired)), text: text{
			fr: "Cette réservation a expiré et ne peut plus être confirmée.",
			en: "This booking has expired and can no longer be confirmed."}},
		{text: text{
			fr: "Cette réservation ne peut plus être modifiée.",
			en: "This booking can no longer be changed."}},
	},
	booking.CodeConflict: {
		{when: equals(booking.ParamReason, "key_reused"), text: text{
			fr: "Cette clé Idempotency-Key a déjà servi pour une requête différente.",
			en: "This Idempotency-Key was already used with a different request."}},
		{when: equals(booking.ParamReason, "in_progress"), text: text{
			fr: "Une requête avec cette clé Idempotency-Key est encore en cours de traitement.",
			en: "A request with this Idempotency-Key is still being processed."}},
		{text: text{
			fr: "Cette requête est en conflit avec l'état actuel de la réservation.",
			en: "This request conflicts with the current state of the booking."}},
	},
	booking.CodePaymentUnavailable: {
		{when: equals(booking.ParamStep, "start"), text: text{
			fr: "Le paiement n'a pas pu être lancé. Veuillez réessayer dans un instant.",
			en: "The payment could not be started. Please try again in a moment."}},
		{when: equals(booking.ParamStep, "check"), text: text{
			fr: "Le paiement n'a pas pu être vérifié. Veuillez réessayer dans un instant.",
			en: "The payment could not be checked. Please try again in a moment."}},
		{text: text{
			fr: "Le service de paiement est indisponible. Veuillez réessayer dans un instant.",
			en: "The payment service is unavailable. Please try again in a moment."}},
	},

	booking.CodeCouponNotFound: {{text: text{
		fr: "Ce code promo n'existe pas.",
		en: "This coupon code does not exist."}}},
	coupon.CodeInactive: {{text: text{
		fr: "Ce code promo n'est pas actif.",
		en: "This coupon is not active."}}},
	coupon.CodeNotYetValid: {{text: text{
		fr: "Ce code promo est valable à partir du {date}.",
		en: "This coupon is valid from {date}."}}},
	coupon.CodeExpired: {{text: text{
		fr: "Ce code promo a expiré le {date}.",
		en: "This coupon expired on {date}."}}},
	coupon.CodeExhausted: {{text: text{
		fr: "Ce code promo a atteint sa limite d'utilisation.",
		en: "This coupon has reached its usage limit."}}},
	coupon.CodeProperty: {{text: text{
		fr: "Ce code promo ne s'applique pas à ce logement.",
		en: "This coupon does not apply to this property."}}},
	coupon.CodeStayDates: {
		{when: has("from", "until"), text: text{
			fr: "Ce code promo s'applique aux arrivées du {from} au {until}.",
			en: "This coupon applies to check-ins from {from} to {until}."}},
		{when: has("from"), text: text{
			fr: "Ce code promo s'applique aux arrivées à partir du {from}.",
			en: "This coupon applies to check-ins from {from} onwards."}},
		{when: has("until"), text: text{
			fr: "Ce code promo s'applique aux arrivées jusqu'au {until}.",
			en: "This coupon applies to check-ins until {until}."}},
		{text: text{
			fr: "Ce code promo ne s'applique pas à ces dates.",
			en: "This coupon does not apply to these dates."}},
	},
	coupon.CodeMinNights: {
		{when: equals("min", "1"), text: text{
			fr: "Ce code promo exige un séjour d'au moins 1 nuit.",
			en: "This coupon requires a stay of at least 1 night."}},
		{text: text{
			fr: "Ce code promo exige un séjour d'au moins {min} nuits.",
			en: "This coupon requires a stay of at least {min} nights."}},
	},
	coupon.CodeMinAmount: {{text: text{
		fr: "Ce code promo exige un séjour d'un montant d'au moins {min}.",
		en: "This coupon requires a stay amount of at least {min}."}}},

	codeMalformedJSON: {{text: text{
		fr: "Le corps de la requête n'est pas un JSON valide.",
		en: "The request body is not valid JSON."}}},
	codeBodyTooLarge: {{text: text{
		fr: "Le corps de la requête est trop volumineux (64 Kio au maximum).",
		en: "The request body is too large (64 KiB at most)."}}},
	codeUnsupportedMediaType: {{text: text{
		fr: "Le corps de la requête doit être envoyé en application/json.",
		en: "The request body must be sent as application/json."}}},
	codeMethodNotAllowed: {{text: text{
		fr: "Cette méthode n'est pas autorisée sur cette ressource.",
		en: "This method is not allowed on this resource."}}},
	codeOriginNotAllowed: {{text: text{
		fr: "Ce site n'est pas autorisé à utiliser ce moteur de réservation.",
		en: "This website is not allowed to use this booking engine."}}},
	codeRateLimited: {{text: text{
		fr: "Trop de requêtes. Veuillez réessayer dans un instant.",
		en: "Too many requests. Please try again in a moment."}}},
	codeInvalidWebhook: {{text: text{
		fr: "La signature ou le contenu du webhook est invalide.",
		en: "The webhook signature or payload is invalid."}}},
}

// fieldReasons are the messages of the reasons of field errors.
var fieldReasons = map[string]text{
	"required": {
		fr: "Ce champ est obligatoire.",
		en: "This field is required."},
	"invalid_email": {
		fr: "Cette adresse e-mail n'est pas valide.",
		en: "This e-mail address is not valid."},
	"invalid_phone": {
		fr: "Saisissez un numéro de téléphone valide, par exemple 06 12 34 56 78 ou +33612345678.",
		en: "Enter a valid phone number, such as +33612345678."},
	booking.ReasonInvalidCharacters: {
		fr: "Cette valeur contient des caractères de contrôle ou invisibles qui ne sont pas acceptés.",
		en: "This value contains control or invisible characters, which are not accepted."},
	"invalid_amount": {
		fr: "Ce montant n'est pas valide : il doit être positif et ne pas dépasser ce qui reste à rembourser ou à retenir.",
		en: "This amount is not valid: it must be positive and at most what is left to refund or to keep."},
	"too_long": {
		fr: "Cette valeur est trop longue.",
		en: "This value is too long."},
	"invalid_choice": {
		fr: "Cette valeur ne fait pas partie des choix possibles.",
		en: "This value is not one of the allowed choices."},
	"after_check_in": {
		fr: "La date de départ doit être postérieure à la date d'arrivée.",
		en: "The check-out date must be after the check-in date."},
	"min_one": {
		fr: "Cette valeur doit être au moins égale à 1.",
		en: "This value must be at least 1."},
	"invalid_date": {
		fr: "Saisissez une date au format AAAA-MM-JJ.",
		en: "Enter a date in the YYYY-MM-DD format."},
	"invalid_type": {
		fr: "Cette valeur n'a pas le bon type.",
		en: "This value has the wrong type."},
	"invalid_integer": {
		fr: "Saisissez un nombre entier.",
		en: "Enter a whole number."},
	"out_of_range": {
		fr: "Cette valeur est hors des limites autorisées.",
		en: "This value is out of range."},
	"mismatch": {
		fr: "Cette valeur ne correspond pas.",
		en: "This value does not match."},
}

// fieldSpecific are messages of a reason for one field ("field/reason").
var fieldSpecific = map[string]text{
	"guest_name/too_long": {
		fr: "Le nom ne doit pas dépasser 200 caractères.",
		en: "The name must be 200 characters at most."},
	"guest_email/too_long": {
		fr: "L'adresse e-mail ne doit pas dépasser 254 caractères.",
		en: "The e-mail address must be 254 characters at most."},
	"from/out_of_range": {
		fr: "Ce calendrier irait au-delà de l'an 9999.",
		en: "This calendar would run past the year 9999."},
	"message/too_long": {
		fr: "Le message ne doit pas dépasser 2000 caractères.",
		en: "The message must be 2000 characters at most."},
	"idempotency_key/too_long": {
		fr: "L'en-tête Idempotency-Key ne doit pas dépasser 255 caractères.",
		en: "The Idempotency-Key header must be 255 characters at most."},
	"locale/invalid_choice": {
		fr: "Choisissez fr ou en.",
		en: "Choose fr or en."},
	"guests_count/min_one": {
		fr: "Il faut au moins un voyageur.",
		en: "At least one guest is required."},
	"months/out_of_range": {
		fr: "Choisissez entre 1 et 24 mois.",
		en: "Choose between 1 and 24 months."},
	"from/invalid_date": {
		fr: "Saisissez un mois au format AAAA-MM.",
		en: "Enter a month in the YYYY-MM format."},
	"payment_intent_id/mismatch": {
		fr: "Ce paiement ne correspond pas à cette réservation.",
		en: "This payment does not belong to this booking."},
	"property_id/required": {
		fr: "Choisissez un logement.",
		en: "Choose a property."},
}

// message returns the message of an error in loc: the code's (the variant
// its params select), else the domain's English message as it is.
func message(loc string, e *booking.Error) string {
	if t, ok := codeText(e.Code, e.Params); ok {
		return fill(t.in(loc), localParams(loc, e.Params))
	}
	if e.Message != "" {
		return e.Message
	}
	return byCode[booking.CodeInternal][0].in(loc)
}

func codeText(code string, params map[string]string) (text, bool) {
	vs, ok := byCode[code]
	if !ok {
		vs = stayRuleTexts[code]
	}
	for _, v := range vs {
		if v.when == nil || v.when(params) {
			return v.text, true
		}
	}
	return text{}, false
}

// fieldMessage returns the message of one problem of a field.
func fieldMessage(loc, field, reason string, params map[string]string) string {
	if t, ok := fieldSpecific[field+"/"+reason]; ok {
		return fill(t.in(loc), params)
	}
	if t, ok := fieldReasons[reason]; ok {
		return fill(t.in(loc), params)
	}
	if t, ok := codeText(reason, params); ok {
		return fill(t.in(loc), params)
	}
	return text{fr: "Cette valeur n'est pas valide.", en: "This value is not valid."}.in(loc)
}

// fill replaces each {name} of s with params[name]; unknown names stay.
func fill(s string, params map[string]string) string {
	if len(params) == 0 || !strings.Contains(s, "{") {
		return s
	}
	pairs := make([]string, 0, 2*len(params))
	for k, v := range params {
		pairs = append(pairs, "{"+k+"}", v)
	}
	return strings.NewReplacer(pairs...).Replace(s)
}
