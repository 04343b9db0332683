package mcpserver

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
)

// Where an input of a tool goes in the HTTP request of its operation.
const (
	inPath   = "path"
	inQuery  = "query"
	inHeader = "header"
	inBody   = "body"
)

// input is one property of a tool's input schema: the operation's
// parameter or request body property it comes from.
type input struct {
	in   string // inPath, inQuery, inHeader or inBody
	name string // the parameter's or property's name in the request
}

// operation is an OpenAPI operation as a tool calls it: its method and
// path template, and the tool's input schema derived from its parameters
// and JSON request body.
type operation struct {
	method, path string
	summary      string
	description  string
	// schema is the tool's input schema, a JSON Schema object.
	schema map[string]any
	// inputs maps each property of schema to where it goes.
	inputs map[string]input
	// hasBody says the operation takes a JSON request body.
	hasBody bool
}

// skippedHeaders are the header parameters no tool takes: the language
// comes from the locale input, and an MCP call is no browser request.
var skippedHeaders = map[string]bool{"Accept-Language": true, "Origin": true}

// inputName is the tool input of a header parameter: Idempotency-Key is
// idempotency_key.
func inputName(p string, in string) string {
	if in != inHeader {
		return p
	}
	return strings.ReplaceAll(strings.ToLower(p), "-", "_")
}

// document is a parsed OpenAPI 3.1 document.
type document struct {
	raw map[string]any
}

func parseDocument(b []byte) (*document, error) {
	var raw map[string]any
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, fmt.Errorf("parse the OpenAPI document: %w", err)
	}
	if v, _ := raw["openapi"].(string); !strings.HasPrefix(v, "3.") {
		return nil, fmt.Errorf("not an OpenAPI 3 document (openapi: %q)", v)
	}
	return &document{raw: raw}, nil
}

// operation finds operationId in the document and derives its tool
// input schema. fixed names the path parameters the server fills in
// itself (org_slug when the server serves one organisation): they are no
// input.
func (d *document) operation(operationID string, fixed map[string]bool) (*operation, error) {
	paths, _ := d.raw["paths"].(map[string]any)
	var found *operation
	var pathItem, op map[string]any
	for _, p := range slices.Sorted(maps.Keys(paths)) {
		item, _ := paths[p].(map[string]any)
		for m, v := range item {
			o, ok := v.(map[string]any)
			if !ok || o["operationId"] != operationID {
				continue
			}
			if found != nil {
				return nil, fmt.Errorf("operationId %s appears twice", operationID)
			}
			found = &operation{method: strings.ToUpper(m), path: p}
			pathItem, op = item, o
		}
	}
	if found == nil {
		return nil, fmt.Errorf("operationId %s is not in the document", operationID)
	}
	if !validMethod(found.method) {
		return nil, fmt.Errorf("operation %s: method %s", operationID, found.method)
	}
	found.summary, _ = op["summary"].(string)
	found.description, _ = op["description"].(string)
	props := map[string]any{}
	var required []string
	found.inputs = map[string]input{}
	add := func(name string, in input, schema any, req bool) error {
		if _, dup := props[name]; dup {
			return fmt.Errorf("operation %s: input %q comes from two places", operationID, name)
		}
		props[name] = schema
		found.inputs[name] = in
		if req {
			required = append(required, name)
		}
		return nil
	}

	// Parameters of the path item, then of the operation (which win).
	params := map[string]map[string]any{}
	var order []string
	for _, list := range []any{pathItem["parameters"], op["parameters"]} {
		items, _ := list.([]any)
		for _, it := range items {
			p, err := d.resolveObject(it)
			if err != nil {
				return nil, fmt.Errorf("operation %s: %w", operationID, err)
			}
			name, _ := p["name"].(string)
			in, _ := p["in"].(string)
			key := in + " " + name
			if _, seen := params[key]; !seen {
				order = append(order, key)
			}
			params[key] = p
		}
	}
	var bodyProps map[string]any
	var bodyRequired []string
	if rb, ok := op["requestBody"]; ok {
		body, err := d.resolveObject(rb)
		if err != nil {
			return nil, fmt.Errorf("operation %s: request body: %w", operationID, err)
		}
		content, _ := body["content"].(map[string]any)
		media, _ := content["application/json"].(map[string]any)
		if media == nil {
			return nil, fmt.Errorf("operation %s: request body is not application/json", operationID)
		}
		schema, err := d.resolve(media["schema"], 0)
		if err != nil {
			return nil, fmt.Errorf("operation %s: request body: %w", operationID, err)
		}
		s, _ := schema.(map[string]any)
		if s["type"] != "object" {
			return nil, fmt.Errorf("operation %s: request body is not an object", operationID)
		}
		found.hasBody = true
		bodyProps, _ = s["properties"].(map[string]any)
		if req, _ := body["required"].(bool); req {
			for _, r := range asList(s["required"]) {
				if name, ok := r.(string); ok {
					bodyRequired = append(bodyRequired, name)
				}
			}
		}
	}

	for _, key := range order {
		p := params[key]
		name, _ := p["name"].(string)
		in, _ := p["in"].(string)
		switch in {
		case inPath:
			if fixed[name] {
				continue
			}
		case inQuery:
			// A query parameter named like a body property (the
			// checkout's locale) gives way to it: one input, in the body.
			if _, clash := bodyProps[name]; clash {
				continue
			}
		case inHeader:
			if skippedHeaders[name] {
				continue
			}
		default:
			continue // cookies: none taken
		}
		schema, err := d.resolve(p["schema"], 0)
		if err != nil {
			return nil, fmt.Errorf("operation %s: parameter %s: %w", operationID, name, err)
		}
		s, _ := schema.(map[string]any)
		if s == nil {
			return nil, fmt.Errorf("operation %s: parameter %s has no schema", operationID, name)
		}
		if desc, ok := p["description"].(string); ok && s["description"] == nil {
			s = maps.Clone(s)
			s["description"] = desc
		}
		req, _ := p["required"].(bool)
		if err := add(inputName(name, in), input{in: in, name: name}, s, req || in == inPath); err != nil {
			return nil, err
		}
	}
	for _, name := range slices.Sorted(maps.Keys(bodyProps)) {
		if err := add(name, input{in: inBody, name: name}, bodyProps[name], slices.Contains(bodyRequired, name)); err != nil {
			return nil, err
		}
	}
	found.schema = map[string]any{
		"type":                 "object",
		"properties":           props,
		"additionalProperties": false,
	}
	if len(required) > 0 {
		slices.Sort(required)
		found.schema["required"] = required
	}
	return found, nil
}

func validMethod(m string) bool {
	switch m {
	case http.MethodGet, http.MethodPost, http.MethodPatch, http.MethodPut, http.MethodDelete:
		return true
	}
	return false
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// resolveObject resolves a parameter or request body, which may be a
// $ref to the document's components.
func (d *document) resolveObject(v any) (map[string]any, error) {
	m, _ := v.(map[string]any)
	for range 8 {
		ref, ok := m["$ref"].(string)
		if !ok {
			return m, nil
		}
		target, err := d.lookup(ref)
		if err != nil {
			return nil, err
		}
		m, _ = target.(map[string]any)
	}
	return nil, fmt.Errorf("$ref chain too long")
}

// maxSchemaDepth bounds the inlining of $refs: request schemas are
// shallow, and a recursive one is refused rather than expanded forever.
const maxSchemaDepth = 16

// droppedKeywords are OpenAPI's annotations that are not JSON Schema
// 2020-12 keywords; the tools' schemas leave them out.
var droppedKeywords = map[string]bool{"example": true, "discriminator": true, "xml": true, "externalDocs": true}

// resolve returns a copy of a schema with every $ref into the document
// inlined (a $ref's sibling keywords win over the target's, as in
// OpenAPI 3.1) and OpenAPI's own annotations removed.
func (d *document) resolve(v any, depth int) (any, error) {
	if depth > maxSchemaDepth {
		return nil, fmt.Errorf("schema nested deeper than %d (recursive $ref?)", maxSchemaDepth)
	}
	switch t := v.(type) {
	case map[string]any:
		out := map[string]any{}
		if ref, ok := t["$ref"].(string); ok {
			target, err := d.lookup(ref)
			if err != nil {
				return nil, err
			}
			r, err := d.resolve(target, depth+1)
			if err != nil {
				return nil, err
			}
			rm, ok := r.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("%s is not a schema object", ref)
			}
			maps.Copy(out, rm)
		}
		for k, sub := range t {
			if k == "$ref" || droppedKeywords[k] {
				continue
			}
			r, err := d.resolve(sub, depth+1)
			if err != nil {
				return nil, err
			}
			out[k] = r
		}
		return out, nil
	case []any:
		out := make([]any, len(t))
		for i, sub := range t {
			r, err := d.resolve(sub, depth+1)
			if err != nil {
				return nil, err
			}
			out[i] = r
		}
		return out, nil
	default:
		return v, nil
	}
}

// lookup follows a local JSON pointer ("#/components/schemas/X").
func (d *document) lookup(ref string) (any, error) {
	rest, ok := strings.CutPrefix(ref, "#/")
	if !ok {
		return nil, fmt.Errorf("$ref %q is not local to the document", ref)
	}
	var cur any = d.raw
	for _, tok := range strings.Split(rest, "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("$ref %q: not found", ref)
		}
		if cur, ok = m[tok]; !ok {
			return nil, fmt.Errorf("$ref %q: not found", ref)
		}
	}
	return cur, nil
}
