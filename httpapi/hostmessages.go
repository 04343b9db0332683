package httpapi

import (
	"github.com/staykit/staykit/booking"
)

// Messages of the host API's codes and reasons, in both locales. They are
// merged into byCode and fieldReasons once, at start-up, the variants of
// existing codes ahead of those codes' general wording.
var (
	hostCodes = map[string][]variant{
		booking.CodeUnauthorized: {{text: text{
			fr: "Une clé d'API valide est requise.",
			en: "A valid API key is required."}}},
		booking.CodeForbidden: {
			{when: equals(booking.ParamReason, booking.ReasonCrossOrigin), text: text{
				fr: "Requête d'un autre site refusée : les modifications ne sont acceptées que depuis les pages de ce serveur, ou de scripts avec une clé d'API.",
				en: "Cross-origin request refused: changes are accepted only from this server's own pages, or from scripts with an API key."}},
			{text: text{
				fr: "Cette clé ne donne pas accès à cet établissement.",
				en: "This key does not give access to this organisation."}},
		},
		booking.CodeBusy: {{text: text{
			fr: "Le serveur est occupé. Réessayez dans un instant.",
			en: "The server is busy. Please try again in a moment."}}},
		booking.CodeNotConfigured: {{text: text{
			fr: "Ce serveur n'a pas d'adresse publique configurée : l'adresse du calendrier exporté ne peut pas être donnée. Demandez à son administrateur de la configurer.",
			en: "This server has no public URL configured, so the calendar export's URL cannot be given. Ask its operator to set one."}}},
		booking.CodeNotFound: {
			{when: equals(booking.ParamSubject, "coupon"), text: text{
				fr: "Ce code promo n'existe pas.",
				en: "This coupon does not exist."}},
			{when: equals(booking.ParamSubject, "block"), text: text{
				fr: "Ce blocage n'existe pas.",
				en: "This block does not exist."}},
			{when: equals(booking.ParamSubject, "api_key"), text: text{
				fr: "Cette clé d'API n'existe pas.",
				en: "This API key does not exist."}},
		},
		booking.CodeConflict: {
			{when: equals(booking.ParamReason, "booked"), text: text{
				fr: "Une réservation occupe certaines de ces nuits.",
				en: "A booking holds some of these nights."}},
			{when: equals(booking.ParamReason, "code_taken"), text: text{
				fr: "Un code promo avec ce code existe déjà.",
				en: "A coupon with this code exists already."}},
		},
	}
	hostReasons = map[string]text{
		"invalid_url": {
			fr: "Saisissez une adresse web commençant par https:// ou http://.",
			en: "Enter a web address starting with https:// or http://."},
		"invalid_origin": {
			fr: "Saisissez des origines de la forme https://exemple.fr, sans chemin.",
			en: "Enter origins such as https://example.com, without a path."},
		"invalid_domain": {
			fr: "Saisissez un nom de domaine en minuscules, comme exemple.fr.",
			en: "Enter a domain name in lower case, such as example.com."},
		"unknown_field": {
			fr: "Ce champ n'existe pas.",
			en: "This field does not exist."},
		"not_found": {
			fr: "Cet élément n'existe pas.",
			en: "This item does not exist."},
		"invalid_range": {
			fr: "La fin doit être après le début.",
			en: "The end must be after the start."},
		"invalid_code": {
			fr: "Utilisez seulement des lettres, des chiffres, « _ » et « - ».",
			en: "Use only letters, digits, \"_\" and \"-\"."},
		"invalid_slug": {
			fr: "Cet identifiant n'est pas valide.",
			en: "This identifier is not valid."},
		booking.ReasonAmountTooLarge: {
			fr: "Ce montant dépasse ce qu'un paiement par carte peut encaisser (au plus {max}).",
			en: "This amount is more than a card payment can charge (at most {max})."},
		booking.ReasonTooManyDecimals: {
			fr: "Cette valeur a trop de décimales.",
			en: "This value has too many decimal places."},
	}
)

func init() {
	for code, vs := range hostCodes {
		byCode[code] = append(append([]variant(nil), vs...), byCode[code]...)
	}
	for reason, t := range hostReasons {
		if _, ok := fieldReasons[reason]; !ok {
			fieldReasons[reason] = t
		}
	}
}
