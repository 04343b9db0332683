package mcpserver

// API names one of the two OpenAPI documents a tool's operation is in.
type API string

// The APIs the tools call.
const (
	// Public is the public booking API v1 (package httpapi), its
	// document at /api/v1/openapi.json.
	Public API = "public"
	// Host is the authenticated host API (package hostapi), its
	// document at /api/v1/host/openapi.json; its tools send the host's
	// API key.
	Host API = "host"
)

// documentPath is where each API serves its OpenAPI document.
var documentPath = map[API]string{
	Public: "/api/v1/openapi.json",
	Host:   "/api/v1/host/openapi.json",
}

// Tool is one MCP tool: an operation of the public or the host API. Its
// input schema is the operation's parameters and request body as the API's
// OpenAPI document describes them, read from the document the API serves
// when the server is built; calling it makes that HTTP request to the
// API's handler in the same process.
type Tool struct {
	Name        string
	API         API
	OperationID string
	// Note is added to the operation's summary and description in the
	// tool's description: what an assistant should know beyond them.
	Note string
	// Writes says the operation changes something (a hold, a payment).
	Writes bool
}

// Tools returns the tools the server exposes: the public booking flow
// (configuration, search, availability, quote, coupon, checkout, status,
// confirmation) and the host API's reads (properties, bookings, calendar).
func Tools() []Tool {
	return []Tool{
		{Name: "get_organisation", API: Public, OperationID: "getConfig",
			Note: "Start here: the currency, time zone, payment mode (full, deposit or request) and stay rules of the organisation."},
		{Name: "search_properties", API: Public, OperationID: "listProperties",
			Note: "Dates are YYYY-MM-DD in the organisation's time zone; check_out is the departure day."},
		{Name: "get_availability", API: Public, OperationID: "getAvailability"},
		{Name: "get_quote", API: Public, OperationID: "getPrice",
			Note: "Amounts are exact decimals in the organisation's currency; checkout charges this quote's charge_amount now."},
		{Name: "validate_coupon", API: Public, OperationID: "validateCoupon"},
		{Name: "checkout", API: Public, OperationID: "checkout", Writes: true,
			Note: "This holds the dates for a while and creates the card payment; it does not charge anything by itself. " +
				"The guest pays with client_secret on the booking page (or the fake provider's card step in test mode), " +
				"then confirm_booking confirms it. Keep booking_token: get_booking_status and confirm_booking need it. " +
				"Send idempotency_key when a retry must not create a second booking."},
		{Name: "get_booking_status", API: Public, OperationID: "getBooking"},
		{Name: "confirm_booking", API: Public, OperationID: "confirmBooking", Writes: true,
			Note: "Answers 422 payment_not_confirmed until the guest has paid."},

		{Name: "host_list_properties", API: Host, OperationID: "listProperties",
			Note: "Host API: needs the organisation's API key (sk_host_…)."},
		{Name: "host_get_property", API: Host, OperationID: "getProperty",
			Note: "Host API: needs the organisation's API key (sk_host_…)."},
		{Name: "host_list_bookings", API: Host, OperationID: "listBookings",
			Note: "Host API: needs the organisation's API key (sk_host_…)."},
		{Name: "host_get_booking", API: Host, OperationID: "getBooking",
			Note: "Host API: needs the organisation's API key (sk_host_…)."},
		{Name: "host_get_calendar", API: Host, OperationID: "getCalendar",
			Note: "Host API: needs the organisation's API key (sk_host_…)."},
	}
}
