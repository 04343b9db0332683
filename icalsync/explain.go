package icalsync

import (
	"context"
	"errors"
	"fmt"
	"mime"
	"net"

	"github.com/staykit/staykit/ical"
	"github.com/staykit/staykit/outbound"
)

// describe words a failed sync for the host, who reads it as the feed's
// last error in the dashboard and the host API: what went wrong and what
// to do, in a sentence. The technical error is logged.
func describe(err error, maxBytes int64) string {
	if s, ok := outbound.Explain(err); ok {
		return s
	}
	var (
		status *StatusError
		dns    *net.DNSError
		line   *ical.LineError
		nerr   net.Error
	)
	switch {
	case errors.As(err, &status) && (status.Code == 401 || status.Code == 403):
		return fmt.Sprintf("The channel refused to give the calendar (HTTP %d): the address may have changed or expired; copy its export link again.", status.Code)
	case errors.As(err, &status) && (status.Code == 404 || status.Code == 410):
		return fmt.Sprintf("The channel has no calendar at this address (HTTP %d): copy its export link again.", status.Code)
	case errors.As(err, &status) && status.Code >= 500:
		return fmt.Sprintf("The channel's server failed (HTTP %d); staykit tries again at the next poll.", status.Code)
	case errors.As(err, &status):
		return fmt.Sprintf("The channel answered HTTP %d instead of the calendar; check the address.", status.Code)
	case errors.Is(err, context.DeadlineExceeded) || errors.As(err, &nerr) && nerr.Timeout():
		return "The channel did not answer in time (deadline exceeded); staykit tries again at the next poll."
	case errors.As(err, &dns) && dns.IsNotFound:
		return fmt.Sprintf("The server name %s does not exist: check the address.", dns.Name)
	case errors.Is(err, ErrTooLarge):
		return fmt.Sprintf("The calendar is larger than %s, more than staykit reads; nothing was changed.", size(maxBytes))
	case errors.Is(err, ical.ErrNotCalendar):
		return "The address does not serve a calendar (it is not an iCalendar feed): copy the channel's iCal export link, not a web page's address."
	case errors.Is(err, ical.ErrTooManyEvents), errors.Is(err, ical.ErrTooManyOccurrences):
		return fmt.Sprintf("The calendar holds more events than staykit reads (%s); nothing was changed.", err)
	case errors.As(err, &line):
		return fmt.Sprintf("The calendar could not be read: line %d is not valid iCalendar; nothing was changed.", line.Line)
	}
	return "The calendar could not be synced: " + err.Error()
}

// size writes a byte count in MiB, or KiB below one MiB.
func size(n int64) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d KiB", n>>10)
}

// charsetOf is the charset parameter of a Content-Type, "" when none.
func charsetOf(contentType string) string {
	_, params, err := mime.ParseMediaType(contentType)
	if err != nil {
		return ""
	}
	return params["charset"]
}
