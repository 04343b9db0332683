package rowmap

import "github.com/staykit/staykit/booking"

// ScanTerms reads the columns version, data of booking_terms; the caller
// sets the booking's ID.
func ScanTerms(c Codec, s Scanner) (*booking.Terms, error) {
	var (
		t       booking.Terms
		version int
	)
	if err := Scan(s, &version, JSON(c, &t)); err != nil {
		return nil, err
	}
	t.Version = version
	return &t, nil
}

// ScanSettings reads the column data of booking_settings; the caller sets
// the organisation's and property's IDs.
func ScanSettings(c Codec, s Scanner) (*booking.Settings, error) {
	var st booking.Settings
	if err := Scan(s, JSON(c, &st)); err != nil {
		return nil, err
	}
	return &st, nil
}
