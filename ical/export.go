package ical

import (
	"fmt"
	"io"
	"time"

	goical "github.com/arran4/golang-ical"

	"github.com/staykit/staykit/civil"
)

// ProductID is the PRODID of exported calendars.
const ProductID = "-//staykit//staykit calendar export//EN"

// Summaries of exported events: they say the nights are taken and nothing
// about who takes them.
const (
	SummaryReserved     = "Reserved"
	SummaryNotAvailable = "Not available"
)

// ExportEvent is an all-day event of an exported calendar.
type ExportEvent struct {
	// UID must be stable: the same booking or block, the same UID.
	UID     string
	Start   civil.Date
	End     civil.Date // exclusive: the check-out day
	Summary string
	// Stamp is the DTSTAMP: when the event's information last changed.
	Stamp time.Time
}

// Calendar is an exported calendar.
type Calendar struct {
	// Name is the calendar's display name (X-WR-CALNAME), when set.
	Name   string
	Events []ExportEvent
}

// Write writes c as RFC 5545 iCalendar: CRLF line ends, lines folded at
// 75 octets, one all-day VEVENT per event with DTSTART;VALUE=DATE and an
// exclusive DTEND;VALUE=DATE, its UID, DTSTAMP and summary. The output
// depends on c only, so equal calendars give equal bytes (an ETag).
func Write(w io.Writer, c Calendar) error {
	cal := goical.NewCalendarFor("staykit")
	cal.SetProductId(ProductID)
	cal.SetCalscale("GREGORIAN")
	cal.SetMethod(goical.MethodPublish)
	if c.Name != "" {
		cal.SetXWRCalName(c.Name)
	}
	for _, e := range c.Events {
		if !e.Start.Before(e.End) {
			return fmt.Errorf("ical: event %s: end %s not after start %s", e.UID, e.End, e.Start)
		}
		ve := cal.AddEvent(e.UID)
		ve.SetDtStampTime(e.Stamp)
		ve.SetAllDayStartAt(e.Start.In(time.UTC))
		ve.SetAllDayEndAt(e.End.In(time.UTC))
		ve.SetSummary(e.Summary)
		ve.SetTimeTransparency(goical.TransparencyOpaque)
	}
	if err := cal.SerializeTo(w, goical.WithNewLineWindows); err != nil {
		return fmt.Errorf("ical: write: %w", err)
	}
	return nil
}
