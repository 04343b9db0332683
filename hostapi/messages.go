package hostapi

import (
	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/host"
	"github.com/staykit/staykit/internal/apihttp"
	"github.com/staykit/staykit/registration"
	"github.com/staykit/staykit/reports"
	"github.com/staykit/staykit/team"
	"github.com/staykit/staykit/units"
)

// Messages of the host API's codes and reasons, in both locales, ahead of
// the shared ones (apihttp.Base): the variants of a code before its
// general wording, the field reasons where the base has none.
var (
	hostCodes = map[string][]apihttp.Variant{
		booking.CodeForbidden: {
			{When: apihttp.Equals(booking.ParamReason, booking.ReasonCrossOrigin), Text: apihttp.Text{
				FR: "Requête d'un autre site refusée : les modifications ne sont acceptées que depuis les pages de ce serveur, ou de scripts avec une clé d'API.",
				EN: "Cross-origin request refused: changes are accepted only from this server's own pages, or from scripts with an API key."}},
			{When: apihttp.Equals(booking.ParamReason, team.ReasonRole), Text: apihttp.Text{
				FR: "Votre rôle dans cet établissement ne permet pas cette action.",
				EN: "Your role in this organisation does not allow this."}},
		},
		booking.CodeNotFound: {
			{When: apihttp.Equals(booking.ParamSubject, "member"), Text: apihttp.Text{
				FR: "Cette personne ne fait pas partie de l'équipe.",
				EN: "This person is not a member of the team."}},
			{When: apihttp.Equals(booking.ParamSubject, "invitation"), Text: apihttp.Text{
				FR: "Cette invitation n'existe pas ou n'est plus en attente.",
				EN: "This invitation does not exist or is no longer pending."}},
			{When: apihttp.Equals(booking.ParamSubject, "coupon"), Text: apihttp.Text{
				FR: "Ce code promo n'existe pas.",
				EN: "This coupon does not exist."}},
			{When: apihttp.Equals(booking.ParamSubject, "block"), Text: apihttp.Text{
				FR: "Ce blocage n'existe pas.",
				EN: "This block does not exist."}},
			{When: apihttp.Equals(booking.ParamSubject, "api_key"), Text: apihttp.Text{
				FR: "Cette clé d'API n'existe pas.",
				EN: "This API key does not exist."}},
			{When: apihttp.Equals(booking.ParamSubject, "unit"), Text: apihttp.Text{
				FR: "Ce lot n'existe pas dans ce logement.",
				EN: "This unit does not exist in this property."}},
			{When: apihttp.Equals(booking.ParamSubject, "link"), Text: apihttp.Text{
				FR: "Ce logement n'est lié à aucun logement entier.",
				EN: "This property is linked to no whole."}},
		},
		booking.CodeConflict: {
			{When: apihttp.Equals(booking.ParamReason, ReasonAnswerErased), Text: apihttp.Text{
				FR: "La réponse à la requête faite avec cette clé Idempotency-Key montrait un voyageur dont les données ont été effacées depuis : elle n'est pas rejouée.",
				EN: "The answer to the request made with this Idempotency-Key showed a guest whose data has been erased since: it is not replayed."}},
			{When: apihttp.Equals(booking.ParamReason, host.ReasonNoGuestMail), Text: apihttp.Text{
				FR: "Cette réservation n'a encore envoyé aucun e-mail au voyageur.",
				EN: "This booking has sent no e-mail to its guest yet."}},
			{When: apihttp.Equals(booking.ParamReason, host.ReasonGuestErased), Text: apihttp.Text{
				FR: "Les données du voyageur ont été effacées : il n'y a plus d'adresse où écrire.",
				EN: "The guest's data was erased: there is no address left to write to."}},
			{When: apihttp.Equals(booking.ParamReason, "booked"), Text: apihttp.Text{
				FR: "Une réservation occupe certaines de ces nuits.",
				EN: "A booking holds some of these nights."}},
			{When: apihttp.Equals(booking.ParamReason, host.ReasonLive), Text: apihttp.Text{
				FR: "Ce séjour est en cours ou à venir : les données du voyageur pourront être effacées une fois la réservation terminée ou annulée.",
				EN: "This stay is under way or ahead: the guest's data can be erased once the booking has ended or been cancelled."}},
			{When: apihttp.Equals(booking.ParamReason, team.ReasonLastOwner), Text: apihttp.Text{
				FR: "L'établissement doit garder au moins un propriétaire.",
				EN: "The organisation must keep at least one owner."}},
			{When: apihttp.Equals(booking.ParamReason, "member"), Text: apihttp.Text{
				FR: "Cette personne fait déjà partie de l'équipe.",
				EN: "This person is already a member of the team."}},
			{When: apihttp.Equals(booking.ParamReason, "code_taken"), Text: apihttp.Text{
				FR: "Un code promo avec ce code existe déjà.",
				EN: "A coupon with this code exists already."}},
			{When: apihttp.Equals(booking.ParamReason, units.ReasonLastUnit), Text: apihttp.Text{
				FR: "Un logement garde au moins un lot.",
				EN: "A property keeps one unit at least."}},
			{When: apihttp.Equals(booking.ParamReason, units.ReasonFutureStays), Text: apihttp.Text{
				FR: "Ce lot a des séjours à venir : déplacez-les ou annulez-les d'abord.",
				EN: "This unit holds stays to come: move or cancel them first."}},
			{When: apihttp.Equals(booking.ParamReason, units.ReasonFutureBlocks), Text: apihttp.Text{
				FR: "Ce lot a des blocages à venir : retirez-les d'abord.",
				EN: "This unit has blocks to come: remove them first."}},
			{When: apihttp.Equals(booking.ParamReason, units.ReasonFeeds), Text: apihttp.Text{
				FR: "Un calendrier importé appartient à ce lot : supprimez-le d'abord.",
				EN: "An imported calendar belongs to this unit: delete it first."}},
			{When: apihttp.Equals(booking.ParamReason, units.ReasonRetired), Text: apihttp.Text{
				FR: "Ce lot est déjà retiré.",
				EN: "This unit is retired already."}},
			{When: apihttp.Equals(booking.ParamReason, units.ReasonWhole), Text: apihttp.Text{
				FR: "Un logement loué entier avec ses parties n'a qu'un lot.",
				EN: "A property let whole with its parts has one unit."}},
			{When: apihttp.Equals(booking.ParamReason, units.ReasonLinked), Text: apihttp.Text{
				FR: "Une partie n'appartient qu'à un logement entier, et un logement entier n'est la partie d'aucun autre.",
				EN: "A part belongs to one whole, and a whole is no part."}},
			{When: apihttp.Equals(booking.ParamReason, units.ReasonNotHolding), Text: apihttp.Text{
				FR: "Seule une réservation qui occupe ses nuits peut changer de lot.",
				EN: "Only a booking holding its dates can move to another unit."}},
			{When: apihttp.Equals(booking.ParamReason, reports.ReasonCurrency), Text: apihttp.Text{
				FR: "Des montants en {currency} ne peuvent pas être additionnés à ceux de la devise de l'établissement.",
				EN: "Amounts in {currency} cannot be added to those in the organisation's currency."}},
		},
		booking.CodeNotConfigured: {
			{When: apihttp.Equals(booking.ParamReason, host.ReasonSecretsKey), Text: apihttp.Text{
				FR: "Ce serveur n'a pas de clé de chiffrement des secrets (-secrets-key) : les réglages SMTP ne peuvent pas être enregistrés. Demandez à son administrateur de la configurer.",
				EN: "This server has no secrets key (-secrets-key): SMTP settings cannot be stored. Ask its operator to set one."}},
			{When: apihttp.Equals(booking.ParamReason, ReasonReports), Text: apihttp.Text{
				FR: "Les rapports ne sont pas activés sur ce serveur. Demandez à son administrateur de les configurer.",
				EN: "Reports are not set up on this server. Ask its operator to set them up."}},
			{When: apihttp.Equals(booking.ParamReason, ReasonTeam), Text: apihttp.Text{
				FR: "La gestion de l'équipe n'est pas activée sur ce serveur.",
				EN: "Team management is not set up on this server."}},
		},
	}
	hostReasons = map[string]apihttp.Text{
		"invalid_host": {
			FR: "Saisissez un nom de serveur, comme smtp.exemple.fr, sans port ni schéma.",
			EN: "Enter a server name such as smtp.example.com, without a port or scheme."},
		"invalid_tls_mode": {
			FR: "Choisissez starttls, tls ou none.",
			EN: "Choose starttls, tls or none."},
		"invalid_port": {
			FR: "Saisissez un port entre 1 et 65535.",
			EN: "Enter a port between 1 and 65535."},
		"invalid_kind": {
			FR: "Ce type d'e-mail n'existe pas.",
			EN: "This kind of e-mail does not exist."},
		"not_mailed_to_guest": {
			FR: "Le voyageur ne reçoit pas d'e-mail pour cet événement ; seul l'hôte en reçoit un.",
			EN: "The guest gets no e-mail for this event; only the host does."},
		"invalid_locale": {
			FR: "Choisissez fr ou en.",
			EN: "Choose fr or en."},
		"invalid_recipient": {
			FR: "Choisissez guest ou host.",
			EN: "Choose guest or host."},
		"invalid_url": {
			FR: "Saisissez une adresse web commençant par https:// ou http://.",
			EN: "Enter a web address starting with https:// or http://."},
		"invalid_origin": {
			FR: "Saisissez des origines de la forme https://exemple.fr, sans chemin.",
			EN: "Enter origins such as https://example.com, without a path."},
		"invalid_domain": {
			FR: "Saisissez un nom de domaine en minuscules, comme exemple.fr.",
			EN: "Enter a domain name in lower case, such as example.com."},
		registration.ReasonInvalidFormat: {
			FR: "Ce numéro ne suit pas le format officiel du pays du logement : en France, 13 caractères (code de la commune, identifiant à 6 chiffres, clé de 2 caractères) ; en Italie, le CIN (IT, codes ISTAT, classement, puis jusqu'à 8 caractères).",
			EN: "This number does not follow the official format of the property's country: in France, 13 characters (commune code, 6-digit identifier, 2-character key); in Italy, the CIN (IT, ISTAT codes, classification, then up to 8 characters)."},
		"unknown_field": {
			FR: "Ce champ n'existe pas.",
			EN: "This field does not exist."},
		"not_found": {
			FR: "Cet élément n'existe pas.",
			EN: "This item does not exist."},
		"invalid_month": {
			FR: "Saisissez un mois de la forme AAAA-MM.",
			EN: "Enter a month as YYYY-MM."},
		"invalid_range": {
			FR: "La fin doit être après le début.",
			EN: "The end must be after the start."},
		"invalid_code": {
			FR: "Utilisez seulement des lettres, des chiffres, « _ » et « - ».",
			EN: "Use only letters, digits, \"_\" and \"-\"."},
		"invalid_slug": {
			FR: "Cet identifiant n'est pas valide.",
			EN: "This identifier is not valid."},
		booking.ReasonAmountTooLarge: {
			FR: "Ce montant dépasse ce qu'un paiement par carte peut encaisser (au plus {max}).",
			EN: "This amount is more than a card payment can charge (at most {max})."},
		booking.ReasonTooManyDecimals: {
			FR: "Cette valeur a trop de décimales.",
			EN: "This value has too many decimal places."},
	}
)

// Messages of the host API's channels (calendar feeds, webhook
// endpoints), added as hostCodes are.
var channelCodes = map[string][]apihttp.Variant{
	booking.CodeNotFound: {
		{When: apihttp.Equals(booking.ParamSubject, "feed"), Text: apihttp.Text{
			FR: "Ce calendrier importé n'existe pas.",
			EN: "This calendar feed does not exist."}},
		{When: apihttp.Equals(booking.ParamSubject, "webhook"), Text: apihttp.Text{
			FR: "Ce webhook n'existe pas.",
			EN: "This webhook endpoint does not exist."}},
		{When: apihttp.Equals(booking.ParamSubject, "delivery"), Text: apihttp.Text{
			FR: "Cet envoi n'existe pas.",
			EN: "This delivery does not exist."}},
	},
	booking.CodeConflict: {
		{When: apihttp.Equals(booking.ParamReason, "sync_in_progress"), Text: apihttp.Text{
			FR: "Ce calendrier est en cours de synchronisation. Réessayez dans un instant.",
			EN: "This feed is being synced at this moment. Please try again shortly."}},
	},
}

// channelReasons word the field reasons of a feed or webhook URL that
// the outbound policy refuses (outbound.Refusal.Reason).
var channelReasons = map[string]apihttp.Text{
	"https_required": {
		FR: "Saisissez l'adresse en https:// que donne le service : staykit ne joint les calendriers et les webhooks qu'en https.",
		EN: "Enter the https:// address the service gives: staykit reaches calendars and webhooks over https only."},
	"private_address": {
		FR: "Cette adresse mène à un réseau privé ou au serveur lui-même, pas à Internet : staykit ne la joint pas, sauf si l'opérateur du serveur l'autorise.",
		EN: "This address leads to a private network or to the server itself, not to the internet: staykit does not reach it unless the server's operator allows it."},
}

// messages words every answer of the host API: the shared catalogue with
// the channels' and the host's messages.
var messages = apihttp.Base.With(channelCodes, channelReasons).With(hostCodes, hostReasons)
