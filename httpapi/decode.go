package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strconv"

	"github.com/staykit/staykit/booking"
	"github.com/staykit/staykit/civil"
	"github.com/staykit/staykit/internal/apihttp"
)

// decodeObject reads a JSON object body. With optional, an empty body is
// the empty object and needs no Content-Type. Errors: 413, 415, 400.
func decodeObject(w http.ResponseWriter, r *http.Request, optional bool) (*object, error) {
	if !optional && !apihttp.IsJSON(r.Header.Get("Content-Type")) {
		return nil, apihttp.ErrUnsupportedMediaType()
	}
	b, err := apihttp.ReadBody(w, r)
	if err != nil {
		return nil, err
	}
	if optional && len(bytes.TrimSpace(b)) == 0 {
		return &object{fields: map[string]json.RawMessage{}, errs: booking.FieldErrors{}}, nil
	}
	if optional && !apihttp.IsJSON(r.Header.Get("Content-Type")) {
		return nil, apihttp.ErrUnsupportedMediaType()
	}
	return parseObject(b)
}

// parseObject parses a JSON object; anything after it is an error.
func parseObject(b []byte) (*object, error) {
	b = bytes.TrimSpace(b)
	if !json.Valid(b) {
		return nil, apihttp.ErrMalformedJSON()
	}
	if len(b) == 0 || b[0] != '{' {
		return nil, apihttp.ErrNotObject()
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(b, &fields); err != nil {
		return nil, apihttp.ErrMalformedJSON()
	}
	return &object{fields: fields, errs: booking.FieldErrors{}}, nil
}

// object reads the fields of a JSON object one by one, so that a field of
// the wrong type is named. Absent fields and null are the zero value;
// unknown fields are ignored.
type object struct {
	fields map[string]json.RawMessage
	errs   booking.FieldErrors
}

// raw returns the field's JSON, nil when absent or null.
func (o *object) raw(name string) json.RawMessage {
	v, ok := o.fields[name]
	if !ok || string(v) == "null" {
		return nil
	}
	return v
}

// str reads a string field.
func (o *object) str(name string) string {
	v := o.raw(name)
	if v == nil {
		return ""
	}
	var s string
	if v[0] != '"' || json.Unmarshal(v, &s) != nil {
		o.errs.Add(name, "invalid_type")
		return ""
	}
	return s
}

// int64 reads an integer field: a JSON number without fraction or
// exponent. present reports whether the field was given with a valid value.
func (o *object) int64(name string) (n int64, present bool) {
	v := o.raw(name)
	if v == nil {
		return 0, false
	}
	if c := v[0]; c != '-' && (c < '0' || c > '9') {
		o.errs.Add(name, "invalid_type")
		return 0, false
	}
	n, err := strconv.ParseInt(string(v), 10, 64)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			o.errs.Add(name, "out_of_range")
		} else {
			o.errs.Add(name, "invalid_type")
		}
		return 0, false
	}
	return n, true
}

// int reads an integer field that fits an int32, which is plenty for
// counts.
func (o *object) int(name string) int {
	n, ok := o.int64(name)
	if !ok {
		return 0
	}
	if n < -1<<31 || n > 1<<31-1 {
		o.errs.Add(name, "out_of_range")
		return 0
	}
	return int(n)
}

// count reads an optional count field: absent is 0 (the default), and a
// given value must be at least 1; null is not a count.
func (o *object) count(name string) int {
	if v, ok := o.fields[name]; ok && string(v) == "null" {
		o.errs.Add(name, "invalid_type")
		return 0
	}
	_, present := o.fields[name]
	n := o.int(name)
	if present && n < 1 && o.errs[name] == nil {
		o.errs.Add(name, "min_one")
	}
	return n
}

// id reads an identifier field: an integer of at least 1.
func (o *object) id(name string) int64 {
	n, ok := o.int64(name)
	if ok && n < 1 {
		o.errs.Add(name, "out_of_range")
		return 0
	}
	return n
}

// date reads a YYYY-MM-DD string field.
func (o *object) date(name string) civil.Date {
	v := o.raw(name)
	if v == nil {
		return civil.Date{}
	}
	s := o.str(name)
	if s == "" {
		return civil.Date{}
	}
	d, err := civil.Parse(s)
	if err != nil {
		o.errs.Add(name, "invalid_date")
	}
	return d
}

// err returns the problems found, if any.
func (o *object) err() error { return o.errs.Err() }

// Query parameters.

// queryDate reads a YYYY-MM-DD query parameter ("" is zero).
func queryDate(q url.Values, name string, errs booking.FieldErrors) civil.Date {
	s := q.Get(name)
	if s == "" {
		return civil.Date{}
	}
	d, err := civil.Parse(s)
	if err != nil {
		errs.Add(name, "invalid_date")
	}
	return d
}

// queryInt reads an integer query parameter, def when absent.
func queryInt(q url.Values, name string, def int, errs booking.FieldErrors) int {
	s := q.Get(name)
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < -1<<31 || n > 1<<31-1 {
		errs.Add(name, "invalid_integer")
		return def
	}
	return n
}

// pathID reads the {id} of a property path: a positive integer, else the
// property is not found.
func pathID(r *http.Request) (int64, error) {
	s := r.PathValue("id")
	if s == "" || s[0] == '+' || s[0] == '-' {
		return 0, errPropertyNotFound()
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 1 {
		return 0, errPropertyNotFound()
	}
	return n, nil
}
