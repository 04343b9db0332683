package ical

// WindowsZoneNames lists the Windows names of the embedded table.
func WindowsZoneNames() []string {
	var names []string
	for _, line := range splitTable() {
		names = append(names, line[0])
	}
	return names
}
