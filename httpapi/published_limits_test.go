package httpapi_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/staykit/staykit/httpapi"
)

// TestPublishedLimitsAreTheDefaults: the limits the OpenAPI document
// publishes (x-ratelimit) are DefaultLimits, route by route: every
// limited route is published with its limit, and no other.
func TestPublishedLimitsAreTheDefaults(t *testing.T) {
	data, err := os.ReadFile(openAPIPath)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	type operation struct {
		OperationID string `json:"operationId"`
		RateLimit   *struct {
			Limit  int `json:"limit"`
			Period int `json:"period_seconds"`
		} `json:"x-ratelimit"`
	}
	routeOf := map[string]string{"checkout": httpapi.RouteCheckout, "validateCoupon": httpapi.RouteValidateCoupon,
		"confirmBooking": httpapi.RouteConfirm, "cancelBooking": httpapi.RouteCancel, "payBalance": httpapi.RouteBalancePayment,
		"reviewBooking": httpapi.RouteReview, "saveCheckin": httpapi.RouteCheckin, "postBookingMessage": httpapi.RouteMessage,
		"changeBooking": httpapi.RouteChange, "quoteBookingChange": httpapi.RouteChangeQuote}
	published := map[string]bool{}
	for path, ops := range doc.Paths {
		for method, raw := range ops {
			var op operation
			if method == "parameters" || json.Unmarshal(raw, &op) != nil || op.RateLimit == nil {
				continue
			}
			route, ok := routeOf[op.OperationID]
			if !ok {
				t.Errorf("%s %s (%s) publishes a limit but is not a limited route", method, path, op.OperationID)
				continue
			}
			published[route] = true
			l := httpapi.DefaultLimits()[route]
			if op.RateLimit.Limit != l.Requests || op.RateLimit.Period != int(l.Period.Seconds()) {
				t.Errorf("%s publishes %d per %d s, the default is %v", op.OperationID, op.RateLimit.Limit, op.RateLimit.Period, l)
			}
		}
	}
	for route := range httpapi.DefaultLimits() {
		if !published[route] {
			t.Errorf("route %s is limited by default but its limit is not published", route)
		}
	}
}
