package seed

import (
	"bytes"
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// decode reads the seed document strictly: unknown fields, wrong types
// and data after the document are errors. A failure is reported with its
// path in the file when it has one ("organizations[0].properties[1].rates:
// unknown field \"bas_rate\""), else with its line and column.
func decode(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil {
		end := dec.InputOffset()
		if _, terr := dec.Token(); terr != io.EOF {
			rest := data[end:]
			end += int64(len(rest) - len(bytes.TrimLeft(rest, " \t\r\n")))
			return problemsError(Problem{Path: position(data, end), Reason: "unexpected data after the JSON document"})
		}
		return nil
	}
	var syntax *json.SyntaxError
	switch {
	case errors.Is(err, io.EOF):
		return problemsError(Problem{Path: "(file)", Reason: "empty file"})
	case errors.Is(err, io.ErrUnexpectedEOF):
		return problemsError(Problem{Path: "(file)", Reason: "the JSON document is cut short"})
	case errors.As(err, &syntax):
		return problemsError(Problem{Path: position(data, syntax.Offset-1), Reason: "invalid JSON: " + syntax.Error()})
	}
	// A well-formed document that does not fit: find where, with indices.
	var tree any
	generic := json.NewDecoder(bytes.NewReader(data))
	generic.UseNumber()
	if gerr := generic.Decode(&tree); gerr == nil {
		if p, ok := misfit(tree, reflect.TypeOf(v).Elem(), ""); ok {
			return problemsError(p)
		}
	}
	return problemsError(Problem{Path: position(data, dec.InputOffset()), Reason: err.Error()})
}

// position names the byte at offset in data as "line L, column C",
// counting from 1.
func position(data []byte, offset int64) string {
	offset = min(max(offset, 0), int64(len(data)))
	before := data[:offset]
	line := bytes.Count(before, []byte("\n")) + 1
	col := int(offset) - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return fmt.Sprintf("line %d, column %d", line, col)
}

var (
	jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// misfit walks a generically decoded JSON value alongside the Go type it
// should fill and returns the first place where it does not fit: an
// unknown object key or a value of the wrong kind.
func misfit(v any, t reflect.Type, path string) (Problem, bool) {
	if v == nil {
		return Problem{}, false // null leaves any field at its zero value
	}
	if t.Kind() == reflect.Pointer {
		return misfit(v, t.Elem(), path)
	}
	custom := reflect.PointerTo(t).Implements(jsonUnmarshaler) || reflect.PointerTo(t).Implements(textUnmarshaler)
	switch {
	case !custom && t.Kind() == reflect.Struct:
		obj, ok := v.(map[string]any)
		if !ok {
			return Problem{Path: orRoot(path), Reason: "expected an object"}, true
		}
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			f, ok := fieldByJSONName(t, k)
			if !ok {
				return Problem{Path: orRoot(path), Reason: "unknown field " + strconv.Quote(k)}, true
			}
			if p, bad := misfit(obj[k], f.Type, join(path, f.name)); bad {
				return p, true
			}
		}
		return Problem{}, false
	case !custom && t.Kind() == reflect.Slice:
		arr, ok := v.([]any)
		if !ok {
			return Problem{Path: orRoot(path), Reason: "expected a list"}, true
		}
		for i, e := range arr {
			if p, bad := misfit(e, t.Elem(), fmt.Sprintf("%s[%d]", path, i)); bad {
				return p, true
			}
		}
		return Problem{}, false
	case !custom && t.Kind() == reflect.Map:
		obj, ok := v.(map[string]any)
		if !ok {
			return Problem{Path: orRoot(path), Reason: "expected an object"}, true
		}
		for k, e := range obj {
			if p, bad := misfit(e, t.Elem(), join(path, k)); bad {
				return p, true
			}
		}
		return Problem{}, false
	}
	// A leaf: let encoding/json judge it on its own.
	raw, err := json.Marshal(v)
	if err != nil {
		return Problem{}, false
	}
	if err := json.Unmarshal(raw, reflect.New(t).Interface()); err != nil {
		return Problem{Path: orRoot(path), Reason: "expected " + kindName(t) + ", got " + string(raw)}, true
	}
	return Problem{}, false
}

type jsonField struct {
	name string
	Type reflect.Type
}

// fieldByJSONName finds the struct field a JSON key fills, matching
// case-insensitively as encoding/json does.
func fieldByJSONName(t reflect.Type, key string) (jsonField, bool) {
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if strings.EqualFold(name, key) {
			return jsonField{name: name, Type: f.Type}, true
		}
	}
	return jsonField{}, false
}

// kindName describes what a Go type expects in JSON.
func kindName(t reflect.Type) string {
	switch t.String() {
	case "decimal.Decimal":
		return "a number"
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	}
	return "a " + t.String()
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

func orRoot(path string) string {
	if path == "" {
		return "(file)"
	}
	return path
}
