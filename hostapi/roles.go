package hostapi

import (
	"net/http"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/team"
)

// routeRoles is the least role a dashboard member needs for each route
// ("METHOD /path" under /api/v1/host/{org_slug}); API keys may use every
// route. A route missing here needs team.Owner (TestEveryRouteHasARole
// fails until it is classified).
//
//   - Housekeeping reads the planning (GET /planning: who stays where and
//     when, guest name and party size only) and the arrivals and
//     departures (GET /reports/movements): no guest contact, no amount.
//   - Manager does everything else but the team, the API keys, the
//     organisation's SMTP server and the Stripe account (reading their
//     state included).
//   - Owner does everything.
var routeRoles = map[string]team.Role{
	"GET /planning":          team.Housekeeping,
	"GET /reports/movements": team.Housekeeping,

	"GET /settings":                             team.Manager,
	"PATCH /settings":                           team.Manager,
	"GET /properties":                           team.Manager,
	"POST /properties":                          team.Manager,
	"GET /properties/{id}":                      team.Manager,
	"PATCH /properties/{id}":                    team.Manager,
	"POST /properties/{id}/deactivate":          team.Manager,
	"POST /properties/{id}/preview":             team.Manager,
	"GET /properties/{id}/calendar":             team.Manager,
	"POST /properties/{id}/calendar":            team.Manager,
	"POST /properties/{id}/blocks":              team.Manager,
	"DELETE /properties/{id}/blocks/{block_id}": team.Manager,
	"GET /coupons":                              team.Manager,
	"POST /coupons":                             team.Manager,
	"GET /coupons/{id}":                         team.Manager,
	"PATCH /coupons/{id}":                       team.Manager,
	"POST /coupons/{id}/disable":                team.Manager,
	"GET /bookings":                             team.Manager,
	"GET /bookings/{id}":                        team.Manager,
	"POST /bookings/{id}/approve":               team.Manager,
	"POST /bookings/{id}/decline":               team.Manager,
	"POST /bookings/{id}/cancel":                team.Manager,
	"POST /bookings/{id}/deposit/claim":         team.Manager,
	"GET /audit-log":                            team.Manager,
	"GET /reports/monthly":                      team.Manager,
	"GET /reports/taxes":                        team.Manager,
	"GET /reports/tourist-tax":                  team.Manager,
	"GET /reports/vat":                          team.Manager,
	// The channels (calendar feeds, the calendar export, webhooks) and the
	// guests' privacy requests.
	"GET /properties/{id}/feeds":                        team.Manager,
	"POST /properties/{id}/feeds":                       team.Manager,
	"PATCH /properties/{id}/feeds/{feed_id}":            team.Manager,
	"DELETE /properties/{id}/feeds/{feed_id}":           team.Manager,
	"POST /properties/{id}/feeds/{feed_id}/sync":        team.Manager,
	"GET /properties/{id}/ical":                         team.Manager,
	"POST /properties/{id}/ical/rotate":                 team.Manager,
	"GET /webhooks":                                     team.Manager,
	"POST /webhooks":                                    team.Manager,
	"PATCH /webhooks/{id}":                              team.Manager,
	"DELETE /webhooks/{id}":                             team.Manager,
	"POST /webhooks/{id}/rotate-secret":                 team.Manager,
	"POST /webhooks/{id}/resume":                        team.Manager,
	"GET /webhooks/{id}/deliveries":                     team.Manager,
	"POST /webhooks/deliveries/{delivery_id}/redeliver": team.Manager,
	"GET /bookings/{id}/notes":                          team.Manager,
	"POST /bookings/{id}/notes":                         team.Manager,
	"GET /settings/sync-closeout":                       team.Manager,
	"PATCH /settings/sync-closeout":                     team.Manager,
	"GET /bookings/{id}/guest-data":                     team.Manager,
	"POST /bookings/{id}/erase-guest":                   team.Manager,
	// The guests' check-in (identity documents): never housekeeping.
	"GET /bookings/{id}/checkin":        team.Manager,
	"PUT /bookings/{id}/checkin":        team.Manager,
	"GET /bookings/{id}/checkin/status": team.Manager,
	"GET /bookings/{id}/checkin/file":   team.Manager,
	"GET /properties/{id}/checkin-file": team.Manager,
	// The event feed and its acknowledgements, as the webhooks.
	"GET /events":                 team.Manager,
	"POST /events/ack":            team.Manager,
	"POST /events/{id}/ack":       team.Manager,
	"POST /webhooks/{id}/replay":  team.Manager,
	"GET /mail-templates/preview": team.Manager,
	// The guests' reviews and their publication on the properties.
	"GET /bookings/{id}/changes":       team.Manager,
	"POST /changes/{id}/approve":       team.Manager,
	"POST /changes/{id}/decline":       team.Manager,
	"GET /change-settings":             team.Manager,
	"PATCH /change-settings":           team.Manager,
	"GET /reviews":                     team.Manager,
	"POST /reviews/{id}/publish":       team.Manager,
	"POST /reviews/{id}/unpublish":     team.Manager,
	"POST /bookings/{id}/resend-email": team.Manager,
	// Invoices and credit notes (package invoice).
	"GET /invoices":               team.Manager,
	"GET /invoices/{id}/pdf":      team.Manager,
	"GET /bookings/{id}/invoices": team.Manager,
	"GET /settings/invoicing":     team.Manager,
	// The seller's legal details, which every invoice prints.
	"PUT /settings/invoicing": team.Owner,
	// The scheduled messages, and the check-in instructions they send.
	"GET /message-templates":                    team.Manager,
	"POST /message-templates":                   team.Manager,
	"GET /message-templates/{id}":               team.Manager,
	"PUT /message-templates/{id}":               team.Manager,
	"POST /message-preview":                     team.Manager,
	"GET /settings/messages":                    team.Manager,
	"PUT /settings/messages":                    team.Manager,
	"GET /properties/{id}/checkin-instructions": team.Manager,
	"PUT /properties/{id}/checkin-instructions": team.Manager,
	// The messages between the guests and the host: the guest's words and
	// contact, never housekeeping's (who sees no guest contact).
	"GET /bookings/{id}/messages":  team.Manager,
	"POST /bookings/{id}/messages": team.Manager,

	// The organisation's own SMTP server: credentials, like the keys.
	"GET /settings/smtp":            team.Owner,
	"PUT /settings/smtp":            team.Owner,
	"DELETE /settings/smtp":         team.Owner,
	"POST /settings/smtp/test":      team.Owner,
	"GET /api-keys":                 team.Owner,
	"POST /api-keys":                team.Owner,
	"DELETE /api-keys/{id}":         team.Owner,
	"GET /stripe":                   team.Owner,
	"POST /stripe/onboarding":       team.Owner,
	"GET /team/members":             team.Owner,
	"PATCH /team/members/{id}":      team.Owner,
	"DELETE /team/members/{id}":     team.Owner,
	"GET /team/invitations":         team.Owner,
	"POST /team/invitations":        team.Owner,
	"DELETE /team/invitations/{id}": team.Owner,

	// Units and linked listings (issue #27).
	"GET /properties/{id}/units":                   team.Manager,
	"POST /properties/{id}/units":                  team.Manager,
	"PATCH /properties/{id}/units/{unit_id}":       team.Manager,
	"POST /properties/{id}/units/{unit_id}/retire": team.Manager,
	"GET /properties/{id}/units/{unit_id}/prices":  team.Manager,
	"POST /properties/{id}/units/{unit_id}/prices": team.Manager,
	"POST /bookings/{id}/move":                     team.Manager,
	"GET /links":                                   team.Manager,
	"POST /links":                                  team.Manager,
	"DELETE /links/{part_id}":                      team.Manager,
}

// minRole is the least role of a route, and whether it is classified.
func minRole(method, path string) (team.Role, bool) {
	if r, ok := routeRoles[method+" "+path]; ok {
		return r, true
	}
	return team.Owner, false
}

// errRole refuses a member whose role does not allow the request.
func errRole() error {
	return &booking.Error{Code: booking.CodeForbidden, Message: "Your role in this organisation does not allow this.",
		Params: map[string]string{booking.ParamReason: team.ReasonRole}}
}

// allowed reports whether actor may use a route needing min: an API key
// may use any; a dashboard member needs a role at least min.
func allowed(kind, role string, min team.Role) bool {
	return kind == "key" || (kind == "user" && team.Role(role).AtLeast(min))
}

// roleChecked is the middleware that refuses a member's request its role
// does not allow.
func (h *handler) roleChecked(min team.Role, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c := callOf(r)
		if !allowed(c.actor.Kind, c.actor.Role, min) {
			messages.WriteError(w, r, h.log, c.loc, errRole())
			return
		}
		next.ServeHTTP(w, r)
	})
}
