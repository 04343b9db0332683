package booking

// Error codes of the host side.
const (
	CodeUnauthorized = "unauthorized" // no valid credentials
	CodeForbidden    = "forbidden"    // valid credentials of another organisation, or a cross-origin browser request
	// CodeBusy: the server does as much of this costly work (hashing
	// passwords) as it allows at once; retry after a moment.
	CodeBusy = "busy"
	// CodeNotConfigured: the server lacks a setting this needs (a public
	// URL to build the calendar export's URL on).
	CodeNotConfigured = "not_configured"
)

// ReasonCrossOrigin is the ParamReason of the CodeForbidden of a browser
// request from another site (or with several Origin headers) that would
// change something on the host side.
const ReasonCrossOrigin = "cross_origin"
