// Package ical is the pure part of calendar sync with Airbnb, Booking.com,
// Vrbo and every other channel that speaks iCalendar (RFC 5545): writing a
// property's calendar (Write), reading a channel's feed (Parse) and
// deciding what a fetch changes among the blocks a feed holds (Diff). It
// does no I/O beyond the reader and writer it is given, and never reads
// the clock: package icalsync fetches, stores and polls.
//
// Dates are civil dates: an all-day value (VALUE=DATE) is taken as
// written, never converted through UTC; a DATE-TIME value is read in its
// own zone (TZID, Z or, when floating, the property's) and becomes the
// property's date of that instant. A stay is the half-open range
// [check-in, check-out): the exclusive DTEND of RFC 5545.
//
// A recurring event (RRULE, RDATE, EXDATE, RECURRENCE-ID) is expanded
// over a window of nights the caller gives, into one event per
// occurrence, by a small expander of our own (recur.go, rrule.go) whose
// work is bounded however hostile the feed.
//
// The content lines (unfolding, parameters, components, escaping, and
// folding at 75 octets on output) are github.com/arran4/golang-ical's.
package ical
