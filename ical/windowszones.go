package ical

import (
	_ "embed"
	"strings"
	"sync"
	"time"
)

// windowsZonesData maps Windows time-zone names, which Outlook and
// Exchange write as TZID ("W. Europe Standard Time"), to IANA zones: the
// default mapping of CLDR's windowsZones table (see the file's header for
// its version and licence).
//
//go:embed windowszones.txt
var windowsZonesData string

// windowsZones is windowsZonesData read once.
var windowsZones = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	for _, e := range splitTable() {
		m[strings.ToLower(e[0])] = e[1]
	}
	return m
})

// splitTable returns the table's entries: Windows name, IANA zone.
func splitTable() [][2]string {
	var out [][2]string
	for _, line := range strings.Split(windowsZonesData, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if name, zone, ok := strings.Cut(line, "\t"); ok {
			out = append(out, [2]string{name, zone})
		}
	}
	return out
}

// WindowsZone returns the IANA zone of a Windows time-zone name (any
// case); ok is false for a name the table does not have.
func WindowsZone(name string) (zone string, ok bool) {
	zone, ok = windowsZones()[strings.ToLower(strings.TrimSpace(name))]
	return zone, ok
}

// zoneOf returns the location a TZID names: an IANA zone, or a Windows
// zone name mapped to one; ok is false when it names neither (or the
// system has no data for the zone).
func zoneOf(tzid string) (*time.Location, bool) {
	tzid = strings.TrimSpace(strings.Trim(tzid, `"`))
	if tzid == "" || tzid == "Local" { // "Local" would be the server's zone
		return nil, false
	}
	if l, err := time.LoadLocation(tzid); err == nil {
		return l, true
	}
	if zone, ok := WindowsZone(tzid); ok {
		if l, err := time.LoadLocation(zone); err == nil {
			return l, true
		}
	}
	return nil, false
}
