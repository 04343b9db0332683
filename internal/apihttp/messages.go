package apihttp

import (
	"strings"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/coupon"
)

// Text is a message in both locales; {name} placeholders are filled from
// the error's Params.
type Text struct{ FR, EN string }

// In is the message in loc.
func (t Text) In(loc string) string {
	if loc == FR {
		return t.FR
	}
	return t.EN
}

// Variant is a message of a code that applies when its condition holds
// (always when When is nil).
type Variant struct {
	When func(p map[string]string) bool
	Text
}

// Has is the condition of a variant that needs each of the params names.
func Has(names ...string) func(map[string]string) bool {
	return func(p map[string]string) bool {
		for _, n := range names {
			if p[n] == "" {
				return false
			}
		}
		return true
	}
}

// Equals is the condition of a variant whose param name is value.
func Equals(name, value string) func(map[string]string) bool {
	return func(p map[string]string) bool { return p[name] == value }
}

// byCode holds the messages of each code, the first variant whose
// condition holds being used.
var byCode = map[string][]Variant{
	booking.CodeInternal: {{Text: Text{
		FR: "Une erreur inattendue s'est produite. Veuillez réessayer plus tard.",
		EN: "An unexpected error occurred. Please try again later."}}},
	booking.CodeServiceUnavailable: {{Text: Text{
		FR: "Le service est momentanément indisponible. Veuillez réessayer dans quelques secondes.",
		EN: "The service is temporarily unavailable. Please try again in a few seconds."}}},
	booking.CodeInvalid: {{Text: Text{
		FR: "La requête contient des champs invalides.",
		EN: "The request is invalid."}}},
	booking.CodeNotFound: {
		{When: Equals(booking.ParamSubject, "organization"), Text: Text{
			FR: "Cet établissement n'existe pas ou ne prend pas de réservations en ligne.",
			EN: "This organisation does not exist or does not take bookings online."}},
		{When: Equals(booking.ParamSubject, "property"), Text: Text{
			FR: "Ce logement n'existe pas.",
			EN: "This property does not exist."}},
		{When: Equals(booking.ParamSubject, "date_change"), Text: Text{
			FR: "Cette réservation n'a pas de modification.",
			EN: "This booking has no change."}},
		{When: Equals(booking.ParamSubject, "review"), Text: Text{
			FR: "Cet avis n'existe pas.",
			EN: "This review does not exist."}},
		{When: Equals(booking.ParamSubject, "booking"), Text: Text{
			FR: "Cette réservation n'existe pas.",
			EN: "This booking does not exist."}},
		{Text: Text{
			FR: "Cette ressource n'existe pas.",
			EN: "This resource does not exist."}},
	},
	booking.CodeUnavailable: {{Text: Text{
		FR: "Ces dates ne sont plus disponibles.",
		EN: "These dates are no longer available."}}},
	booking.CodeCheckInPast: {{Text: Text{
		FR: "La date d'arrivée est déjà passée.",
		EN: "The check-in date is in the past."}}},
	booking.CodeBeyondHorizon: {{Text: Text{
		FR: "Les réservations sont ouvertes pour des séjours se terminant au plus tard le {date}.",
		EN: "Bookings are open for stays ending on {date} at the latest."}}},
	booking.CodeMinStay: {{Text: Text{
		FR: "Ce séjour est plus court que le minimum de {min} nuits.",
		EN: "This stay is shorter than the minimum of {min} nights."}}},
	booking.CodeMaxStay: {
		{When: Equals("max", "1"), Text: Text{
			FR: "Ce séjour dépasse la durée maximale d'une nuit.",
			EN: "This stay is longer than the maximum of 1 night."}},
		{Text: Text{
			FR: "Ce séjour dépasse la durée maximale de {max} nuits.",
			EN: "This stay is longer than the maximum of {max} nights."}},
	},
	booking.CodeMaxGuests: {
		{When: Equals("max", "1"), Text: Text{
			FR: "Ce logement accueille au maximum 1 voyageur.",
			EN: "This property takes at most 1 guest."}},
		{Text: Text{
			FR: "Ce logement accueille au maximum {max} voyageurs.",
			EN: "This property takes at most {max} guests."}},
	},
	booking.CodePaymentNotConfirmed: {
		{When: Equals(booking.ParamMode, "request"), Text: Text{
			FR: "La carte n'a pas encore été autorisée.",
			EN: "The card has not been authorised yet."}},
		{Text: Text{
			FR: "Le paiement n'a pas encore abouti.",
			EN: "The payment has not succeeded yet."}},
	},
	booking.CodePaymentLate: {{Text: Text{
		FR: "Le paiement est arrivé après l'expiration du blocage de ces dates, qui ont été réservées depuis. Le paiement a été remboursé.",
		EN: "The payment arrived after the hold on these dates lapsed, and they have been booked since. The payment has been returned."}}},
	booking.CodePaymentProcessing: {{Text: Text{
		FR: "Le paiement est en cours de traitement ; les dates restent bloquées en attendant. Veuillez vérifier à nouveau dans un instant.",
		EN: "The payment is still being processed; the dates stay held meanwhile. Please check again in a moment."}}},
	booking.CodeAmountNotChargeable: {{Text: Text{
		FR: "Ce montant ne peut pas être payé par carte en ligne (il est inférieur au minimum du prestataire de paiement, ou n'est pas un montant payable dans cette devise). Veuillez contacter l'hôte.",
		EN: "This amount cannot be paid by card online (it is below the payment provider's minimum, or not a payable amount in this currency). Please contact the host."}}},
	booking.CodePaymentsNotReady: {{Text: Text{
		FR: "Cet hôte ne peut pas encore recevoir de paiements en ligne. Veuillez réessayer plus tard ou contacter l'hôte.",
		EN: "This host cannot take online payments yet. Please try again later or contact the host."}}},
	booking.CodeBookingClosed: {
		{When: Equals(booking.ParamReason, "stay_not_over"), Text: Text{
			FR: "Vous pourrez donner votre avis sur ce séjour une fois qu'il sera terminé.",
			EN: "You can review this stay once it is over."}},
		{When: Equals(booking.ParamReason, "messages_closed"), Text: Text{
			FR: "Les messages de cette réservation sont fermés.",
			EN: "Messages on this booking are closed."}},
		{When: Equals(booking.ParamReason, "guest_erased"), Text: Text{
			FR: "Les données du voyageur de cette réservation ont été effacées : aucun message ne peut plus être écrit.",
			EN: "This booking's guest data was erased: no message can be written any more."}},
		// Changes of dates or party (package datechange) and the balance.
		{When: Equals(booking.ParamReason, "change_not_confirmed"), Text: Text{
			FR: "Seule une réservation confirmée peut être modifiée.",
			EN: "Only a confirmed booking can be changed."}},
		{When: Equals(booking.ParamReason, "change_stay_started"), Text: Text{
			FR: "Le séjour a commencé : ses dates ne peuvent plus être modifiées ici. Veuillez contacter l'hôte.",
			EN: "The stay has started: its dates can no longer be changed here. Please contact the host."}},
		{When: Equals(booking.ParamReason, "change_balance_in_progress"), Text: Text{
			FR: "Le solde de cette réservation est en cours de paiement : réglez-le d'abord, puis modifiez les dates.",
			EN: "The balance of this booking is being collected: please pay it first, then change the dates."}},
		{When: Equals(booking.ParamReason, "change_deposit_held"), Text: Text{
			FR: "Le dépôt de garantie est déjà bloqué pour ces dates : veuillez contacter l'hôte pour les modifier.",
			EN: "The security deposit is already held for these dates: please contact the host to change them."}},
		{When: Equals(booking.ParamReason, "balance_not_scheduled"), Text: Text{
			FR: "Aucun solde n'est en attente de prélèvement sur la carte enregistrée.",
			EN: "No balance is waiting to be charged to the saved card."}},
		{When: Equals(booking.ParamReason, "balance_not_confirmed"), Text: Text{
			FR: "Seul le solde d'une réservation confirmée peut être payé.",
			EN: "Only a confirmed booking's balance can be paid."}},
		{When: Equals("action", "cancelled"), Text: Text{
			FR: "Cette réservation ne peut pas (ou plus) être annulée.",
			EN: "This booking cannot be cancelled (any more)."}},
		{When: Equals("status", string(booking.StatusDeclined)), Text: Text{
			FR: "Cette réservation a été refusée et ne peut plus être confirmée.",
			EN: "This booking was declined and can no longer be confirmed."}},
		{When: Equals("status", string(booking.StatusCancelled)), Text: Text{
			FR: "Cette réservation a été annulée et ne peut plus être confirmée.",
			EN: "This booking was cancelled and can no longer be confirmed."}},
		{When: Equals("status", string(booking.StatusExpired)), Text: Text{
			FR: "Cette réservation a expiré et ne peut plus être confirmée.",
			EN: "This booking has expired and can no longer be confirmed."}},
		{Text: Text{
			FR: "Cette réservation ne peut plus être modifiée.",
			EN: "This booking can no longer be changed."}},
	},
	booking.CodeConflict: {
		{When: Equals(booking.ParamReason, "key_reused"), Text: Text{
			FR: "Cette clé Idempotency-Key a déjà servi pour une requête différente.",
			EN: "This Idempotency-Key was already used with a different request."}},
		{When: Equals(booking.ParamReason, "awaiting_reply"), Text: Text{
			FR: "Vous avez envoyé plusieurs messages auxquels l'hôte n'a pas encore répondu : attendez sa réponse pour écrire à nouveau.",
			EN: "You have sent several messages the host has not answered yet: please wait for their reply before writing again."}},
		{When: Equals(booking.ParamReason, "thread_full"), Text: Text{
			FR: "Cette conversation a atteint le nombre maximal de messages.",
			EN: "This conversation holds the most messages it can."}},
		{When: Equals(booking.ParamReason, "already_reviewed"), Text: Text{
			FR: "Vous avez déjà donné votre avis sur ce séjour.",
			EN: "You have already reviewed this stay."}},
		{When: Equals(booking.ParamReason, "in_progress"), Text: Text{
			FR: "Une requête avec cette clé Idempotency-Key est encore en cours de traitement.",
			EN: "A request with this Idempotency-Key is still being processed."}},
		{When: Equals(booking.ParamReason, "change_open"), Text: Text{
			FR: "Une autre modification de cette réservation est en attente (de la réponse de l'hôte ou de son paiement).",
			EN: "Another change of this booking is waiting (for the host's answer or its payment)."}},
		{When: Equals(booking.ParamReason, "change_closed"), Text: Text{
			FR: "Cette modification n'est plus en attente : elle a reçu une réponse, a été appliquée ou a expiré.",
			EN: "This change is no longer waiting: it was answered, applied or has expired."}},
		{Text: Text{
			FR: "Cette requête est en conflit avec l'état actuel de la réservation.",
			EN: "This request conflicts with the current state of the booking."}},
	},
	booking.CodePaymentUnavailable: {
		{When: Equals(booking.ParamStep, "start"), Text: Text{
			FR: "Le paiement n'a pas pu être lancé. Veuillez réessayer dans un instant.",
			EN: "The payment could not be started. Please try again in a moment."}},
		{When: Equals(booking.ParamStep, "check"), Text: Text{
			FR: "Le paiement n'a pas pu être vérifié. Veuillez réessayer dans un instant.",
			EN: "The payment could not be checked. Please try again in a moment."}},
		{Text: Text{
			FR: "Le service de paiement est indisponible. Veuillez réessayer dans un instant.",
			EN: "The payment service is unavailable. Please try again in a moment."}},
	},

	booking.CodeCouponNotFound: {{Text: Text{
		FR: "Ce code promo n'existe pas.",
		EN: "This coupon code does not exist."}}},
	coupon.CodeInactive: {{Text: Text{
		FR: "Ce code promo n'est pas actif.",
		EN: "This coupon is not active."}}},
	coupon.CodeNotYetValid: {{Text: Text{
		FR: "Ce code promo est valable à partir du {date}.",
		EN: "This coupon is valid from {date}."}}},
	coupon.CodeExpired: {{Text: Text{
		FR: "Ce code promo a expiré le {date}.",
		EN: "This coupon expired on {date}."}}},
	coupon.CodeExhausted: {{Text: Text{
		FR: "Ce code promo a atteint sa limite d'utilisation.",
		EN: "This coupon has reached its usage limit."}}},
	coupon.CodeProperty: {{Text: Text{
		FR: "Ce code promo ne s'applique pas à ce logement.",
		EN: "This coupon does not apply to this property."}}},
	coupon.CodeStayDates: {
		{When: Has("from", "until"), Text: Text{
			FR: "Ce code promo s'applique aux arrivées du {from} au {until}.",
			EN: "This coupon applies to check-ins from {from} to {until}."}},
		{When: Has("from"), Text: Text{
			FR: "Ce code promo s'applique aux arrivées à partir du {from}.",
			EN: "This coupon applies to check-ins from {from} onwards."}},
		{When: Has("until"), Text: Text{
			FR: "Ce code promo s'applique aux arrivées jusqu'au {until}.",
			EN: "This coupon applies to check-ins until {until}."}},
		{Text: Text{
			FR: "Ce code promo ne s'applique pas à ces dates.",
			EN: "This coupon does not apply to these dates."}},
	},
	coupon.CodeMinNights: {
		{When: Equals("min", "1"), Text: Text{
			FR: "Ce code promo exige un séjour d'au moins 1 nuit.",
			EN: "This coupon requires a stay of at least 1 night."}},
		{Text: Text{
			FR: "Ce code promo exige un séjour d'au moins {min} nuits.",
			EN: "This coupon requires a stay of at least {min} nights."}},
	},
	coupon.CodeMinAmount: {{Text: Text{
		FR: "Ce code promo exige un séjour d'un montant d'au moins {min}.",
		EN: "This coupon requires a stay amount of at least {min}."}}},

	booking.CodeUnauthorized: {{Text: Text{
		FR: "Une clé d'API valide est requise.",
		EN: "A valid API key is required."}}},
	booking.CodeForbidden: {{Text: Text{
		FR: "Cette clé ne donne pas accès à cet établissement.",
		EN: "This key does not give access to this organisation."}}},
	booking.CodeBusy: {{Text: Text{
		FR: "Le serveur est occupé. Réessayez dans un instant.",
		EN: "The server is busy. Please try again in a moment."}}},
	booking.CodeNotConfigured: {{Text: Text{
		FR: "Ce serveur n'a pas d'adresse publique configurée : l'adresse du calendrier exporté ne peut pas être donnée. Demandez à son administrateur de la configurer.",
		EN: "This server has no public URL configured, so the calendar export's URL cannot be given. Ask its operator to set one."}}},

	CodeMalformedJSON: {{Text: Text{
		FR: "Le corps de la requête n'est pas un JSON valide.",
		EN: "The request body is not valid JSON."}}},
	CodeBodyTooLarge: {{Text: Text{
		FR: "Le corps de la requête est trop volumineux (64 Kio au maximum).",
		EN: "The request body is too large (64 KiB at most)."}}},
	CodeUnsupportedMediaType: {{Text: Text{
		FR: "Le corps de la requête doit être envoyé en application/json.",
		EN: "The request body must be sent as application/json."}}},
	CodeMethodNotAllowed: {{Text: Text{
		FR: "Cette méthode n'est pas autorisée sur cette ressource.",
		EN: "This method is not allowed on this resource."}}},
	CodeOriginNotAllowed: {{Text: Text{
		FR: "Ce site n'est pas autorisé à utiliser ce moteur de réservation.",
		EN: "This website is not allowed to use this booking engine."}}},
	CodeRateLimited: {{Text: Text{
		FR: "Trop de requêtes. Veuillez réessayer dans un instant.",
		EN: "Too many requests. Please try again in a moment."}}},
	CodeInvalidWebhook: {{Text: Text{
		FR: "La signature ou le contenu du webhook est invalide.",
		EN: "The webhook signature or payload is invalid."}}},
}

// fieldReasons are the messages of the reasons of field errors.
var fieldReasons = map[string]Text{
	"required": {
		FR: "Ce champ est obligatoire.",
		EN: "This field is required."},
	"invalid_email": {
		FR: "Cette adresse e-mail n'est pas valide.",
		EN: "This e-mail address is not valid."},
	"invalid_phone": {
		FR: "Saisissez un numéro de téléphone valide, par exemple 06 12 34 56 78 ou +33612345678.",
		EN: "Enter a valid phone number, such as +33612345678."},
	booking.ReasonInvalidCharacters: {
		FR: "Cette valeur contient des caractères de contrôle ou invisibles qui ne sont pas acceptés.",
		EN: "This value contains control or invisible characters, which are not accepted."},
	"invalid_amount": {
		FR: "Ce montant n'est pas valide : il doit être positif et ne pas dépasser ce qui reste à rembourser ou à retenir.",
		EN: "This amount is not valid: it must be positive and at most what is left to refund or to keep."},
	"too_long": {
		FR: "Cette valeur est trop longue.",
		EN: "This value is too long."},
	"invalid_choice": {
		FR: "Cette valeur ne fait pas partie des choix possibles.",
		EN: "This value is not one of the allowed choices."},
	"after_check_in": {
		FR: "La date de départ doit être postérieure à la date d'arrivée.",
		EN: "The check-out date must be after the check-in date."},
	"min_one": {
		FR: "Cette valeur doit être au moins égale à 1.",
		EN: "This value must be at least 1."},
	"invalid_date": {
		FR: "Saisissez une date au format AAAA-MM-JJ.",
		EN: "Enter a date in the YYYY-MM-DD format."},
	"invalid_type": {
		FR: "Cette valeur n'a pas le bon type.",
		EN: "This value has the wrong type."},
	"invalid_integer": {
		FR: "Saisissez un nombre entier.",
		EN: "Enter a whole number."},
	"out_of_range": {
		FR: "Cette valeur est hors des limites autorisées.",
		EN: "This value is out of range."},
	"mismatch": {
		FR: "Cette valeur ne correspond pas.",
		EN: "This value does not match."},
	"unknown_placeholder": {
		FR: "Ce texte contient un espace réservé inconnu. Utilisez {{guest_name}}, {{check_in}}, {{check_out}}, {{property}}, {{checkin_instructions}}, {{door_code}}, {{balance_link}} ou {{booking_link}}.",
		EN: "This text holds an unknown placeholder. Use {{guest_name}}, {{check_in}}, {{check_out}}, {{property}}, {{checkin_instructions}}, {{door_code}}, {{balance_link}} or {{booking_link}}."},
	"invalid_time": {
		FR: "Saisissez une heure au format HH:MM.",
		EN: "Enter a time of day in the HH:MM format."},
}

// fieldSpecific are messages of a reason for one field ("field/reason").
var fieldSpecific = map[string]Text{
	"guest_name/too_long": {
		FR: "Le nom ne doit pas dépasser 200 caractères.",
		EN: "The name must be 200 characters at most."},
	"guest_email/too_long": {
		FR: "L'adresse e-mail ne doit pas dépasser 254 caractères.",
		EN: "The e-mail address must be 254 characters at most."},
	"from/out_of_range": {
		FR: "Ce calendrier irait au-delà de l'an 9999.",
		EN: "This calendar would run past the year 9999."},
	"message/too_long": {
		FR: "Le message ne doit pas dépasser 2000 caractères.",
		EN: "The message must be 2000 characters at most."},
	"idempotency_key/too_long": {
		FR: "L'en-tête Idempotency-Key ne doit pas dépasser 255 caractères.",
		EN: "The Idempotency-Key header must be 255 characters at most."},
	"locale/invalid_choice": {
		FR: "Choisissez fr ou en.",
		EN: "Choose fr or en."},
	"guests_count/min_one": {
		FR: "Il faut au moins un voyageur.",
		EN: "At least one guest is required."},
	"months/out_of_range": {
		FR: "Choisissez entre 1 et 24 mois.",
		EN: "Choose between 1 and 24 months."},
	"from/invalid_date": {
		FR: "Saisissez un mois au format AAAA-MM.",
		EN: "Enter a month in the YYYY-MM format."},
	"payment_intent_id/mismatch": {
		FR: "Ce paiement ne correspond pas à cette réservation.",
		EN: "This payment does not belong to this booking."},
	"property_id/required": {
		FR: "Choisissez un logement.",
		EN: "Choose a property."},
}

// Messages is a catalogue of messages: those of every error code of the
// status table and of the field reasons the booking engine gives, in
// French and English (Base), with what an API adds of its own (With).
type Messages struct {
	// codes are variants tried ahead of the base's, by code.
	codes map[string][]Variant
	// reasons are field reasons the base lacks.
	reasons map[string]Text
}

// Base is the catalogue both APIs share: the messages of the codes of the
// status table and of the booking engine's field reasons.
var Base = &Messages{}

// With returns m with codes' variants ahead of the variants m has for the
// same code, and the field reasons that m lacks.
func (m *Messages) With(codes map[string][]Variant, reasons map[string]Text) *Messages {
	out := &Messages{codes: map[string][]Variant{}, reasons: map[string]Text{}}
	for c, vs := range m.codes {
		out.codes[c] = vs
	}
	for r, t := range m.reasons {
		out.reasons[r] = t
	}
	for c, vs := range codes {
		out.codes[c] = append(append([]Variant(nil), vs...), out.codes[c]...)
	}
	for r, t := range reasons {
		if _, ok := fieldReasons[r]; ok {
			continue
		}
		if _, ok := out.reasons[r]; !ok {
			out.reasons[r] = t
		}
	}
	return out
}

// Message returns the message of an error in loc: the code's (the variant
// its params select), else the domain's English message as it is.
func (m *Messages) Message(loc string, e *booking.Error) string {
	if t, ok := m.codeText(e.Code, e.Params); ok {
		return fill(t.In(loc), localParams(loc, e.Params))
	}
	if e.Message != "" {
		return e.Message
	}
	return byCode[booking.CodeInternal][0].In(loc)
}

func (m *Messages) codeText(code string, params map[string]string) (Text, bool) {
	vs, ok := byCode[code]
	if !ok {
		vs = stayRuleTexts[code]
	}
	for _, v := range append(m.codes[code], vs...) {
		if v.When == nil || v.When(params) {
			return v.Text, true
		}
	}
	return Text{}, false
}

// FieldMessage returns the message of one problem of a field.
func (m *Messages) FieldMessage(loc, field, reason string, params map[string]string) string {
	if t, ok := fieldSpecific[field+"/"+reason]; ok {
		return fill(t.In(loc), params)
	}
	if t, ok := fieldReasons[reason]; ok {
		return fill(t.In(loc), params)
	}
	if t, ok := m.reasons[reason]; ok {
		return fill(t.In(loc), params)
	}
	if t, ok := m.codeText(reason, params); ok {
		return fill(t.In(loc), params)
	}
	return Text{FR: "Cette valeur n'est pas valide.", EN: "This value is not valid."}.In(loc)
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
