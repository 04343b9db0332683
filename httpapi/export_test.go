package httpapi

import (
	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/internal/apihttp"
)

// AppendMoney exposes appendMoney to the tests.
var AppendMoney = appendMoney

// Message exposes the message of an error in a locale.
func Message(loc string, e *booking.Error) string { return messages.Message(loc, e) }

// FieldMessage exposes the message of a field problem.
func FieldMessage(loc, field, reason string, params map[string]string) string {
	return messages.FieldMessage(loc, field, reason, params)
}

// ErrorCodes lists the codes of the status table with their status.
func ErrorCodes() map[string]int { return apihttp.Statuses() }

// HTTPStatus exposes the status of a code.
func HTTPStatus(code string) int { return apihttp.Status(code) }
