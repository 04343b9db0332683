package ical

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	goical "github.com/arran4/golang-ical"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/encoding/unicode"
)

// Charsets. RFC 5545 feeds are UTF-8, but Outlook and Exchange publish
// calendars in the Windows code page of their machine (Windows-1252 in
// western Europe and the Americas), some declaring it (a CHARSET
// parameter, from vCalendar 1.0, or the charset of the HTTP Content-Type)
// and most not. A logical line (after unfolding, which works on octets)
// that is valid UTF-8 is taken as UTF-8, whatever is declared: text in a
// legacy charset is almost never valid UTF-8 by chance, and servers often
// declare ISO-8859-1 by default. A line that is not is decoded with its
// CHARSET parameter, else the charset the feed was served with, else
// Windows-1252, and the feed gets a warning that its charset was guessed.
// A UTF-16 feed is recognised by its byte-order mark. The charsets are
// the WHATWG Encoding Standard's (golang.org/x/text/encoding/htmlindex):
// the labels browsers know, ISO-8859-1 meaning Windows-1252 as there.

// LineError is a line of a feed that is not an iCalendar content line.
// Line counts the lines of the document as fetched, from 1, so that the
// host can find it; the line's text is not quoted (it may hold a guest's
// details), only its property name when it has one.
type LineError struct {
	Line     int
	Property string
}

func (e *LineError) Error() string {
	if e.Property != "" {
		return fmt.Sprintf("ical: line %d (%s) is not a valid iCalendar content line", e.Line, e.Property)
	}
	return fmt.Sprintf("ical: line %d is not an iCalendar content line", e.Line)
}

// logical is an unfolded content line and the line of the document where
// it starts.
type logical struct {
	text []byte
	line int
}

// calendarPart returns the VCALENDAR of a feed as UTF-8 content lines,
// unfolded and ended with CRLF, the junk around it, blank lines and a
// byte-order mark dropped. Every line is checked to be a content line as
// golang-ical reads them, so that a bad one is reported with its own line
// number (golang-ical counts only the lines it reads at the top level).
// charset is the one the feed was served with ("" when none). Errors:
// ErrNotCalendar, a *LineError.
func calendarPart(data []byte, charset string) ([]byte, []Warning, error) {
	data, err := decodeBOM(data, charset)
	if err != nil {
		return nil, nil, err
	}
	start := indexFold(data, "BEGIN:VCALENDAR", false)
	end := indexFold(data, "END:VCALENDAR", true)
	if start < 0 || end < start {
		return nil, nil, ErrNotCalendar
	}
	first := 1 + bytes.Count(data[:start], []byte("\n")) + bytes.Count(data[:start], []byte("\r")) -
		bytes.Count(data[:start], []byte("\r\n"))
	lines := unfold(data[start:end+len("END:VCALENDAR")], first)
	declared := encodingOf(charset)
	var warnings []Warning
	var out bytes.Buffer
	for _, l := range lines {
		text := l.text
		if !utf8.Valid(text) {
			enc, guessed := declared, false
			if p := paramCharset(text); p != nil {
				enc = p
			}
			if enc == nil {
				enc, guessed = charmap.Windows1252, true
			}
			decoded, err := enc.NewDecoder().Bytes(text)
			if err != nil || !utf8.Valid(decoded) {
				return nil, nil, &LineError{Line: l.line, Property: propertyName(text)}
			}
			if guessed && len(warnings) == 0 {
				warnings = append(warnings, Warning{Problem: fmt.Sprintf(
					"the feed is not UTF-8 and does not say its charset (line %d first): read as Windows-1252", l.line)})
			}
			text = decoded
		}
		if p, err := goical.ParseProperty(goical.ContentLine(text)); p == nil || err != nil {
			return nil, nil, &LineError{Line: l.line, Property: propertyName(text)}
		}
		out.Write(text)
		out.WriteString("\r\n")
	}
	return out.Bytes(), warnings, nil
}

// decodeBOM decodes a UTF-16 feed (a byte-order mark, or a declared
// UTF-16 charset) to UTF-8 and drops a UTF-8 byte-order mark.
func decodeBOM(data []byte, charset string) ([]byte, error) {
	label := strings.ToLower(strings.Trim(strings.TrimSpace(charset), `"'`))
	order, utf16 := unicode.LittleEndian, strings.HasPrefix(label, "utf-16")
	if label == "utf-16be" {
		order = unicode.BigEndian
	}
	switch {
	case bytes.HasPrefix(data, []byte{0xFF, 0xFE}):
		order, utf16 = unicode.LittleEndian, true
	case bytes.HasPrefix(data, []byte{0xFE, 0xFF}):
		order, utf16 = unicode.BigEndian, true
	}
	if utf16 {
		out, err := unicode.UTF16(order, unicode.UseBOM).NewDecoder().Bytes(data)
		if err != nil {
			return nil, fmt.Errorf("ical: the feed is not the UTF-16 it says: %w", err)
		}
		data = out
	}
	return bytes.TrimPrefix(data, []byte("\xEF\xBB\xBF")), nil
}

// encodingOf returns the legacy encoding a charset label names; nil for
// none, UTF-8, or a label no one knows (the line is then guessed).
func encodingOf(label string) encoding.Encoding {
	label = strings.ToLower(strings.Trim(strings.TrimSpace(label), `"'`))
	if label == "" || strings.HasPrefix(label, "utf-16") {
		return nil // UTF-16 is decoded whole, by decodeBOM
	}
	enc, err := htmlindex.Get(label)
	if err != nil || enc == encoding.Nop || enc == unicode.UTF8 {
		return nil
	}
	return enc
}

// paramCharset returns the encoding a line's CHARSET parameter names, nil
// when it has none (or one no one knows).
func paramCharset(line []byte) encoding.Encoding {
	head := line
	if i := bytes.IndexByte(line, ':'); i >= 0 {
		head = line[:i]
	}
	i := indexFold(head, ";CHARSET=", false)
	if i < 0 {
		return nil
	}
	v := head[i+len(";CHARSET="):]
	if j := bytes.IndexByte(v, ';'); j >= 0 {
		v = v[:j]
	}
	return encodingOf(string(v))
}

// propertyName is a line's property name when it starts with one.
func propertyName(line []byte) string {
	n := 0
	for n < len(line) && n < 64 && (line[n] == '-' || line[n] >= '0' && line[n] <= '9' ||
		line[n]|0x20 >= 'a' && line[n]|0x20 <= 'z') {
		n++
	}
	if n == 0 || n < len(line) && line[n] != ':' && line[n] != ';' {
		return ""
	}
	return strings.ToUpper(string(line[:n]))
}

// unfold splits text into logical lines (RFC 5545 §3.1: a line starting
// with a space or a tab continues the previous one), blank lines dropped,
// each with its line number counted from first. CRLF, LF and CR all end a
// line.
func unfold(text []byte, first int) []logical {
	var out []logical
	n := first
	for len(text) > 0 {
		i := bytes.IndexAny(text, "\r\n")
		line := text
		next := len(text)
		if i >= 0 {
			line, next = text[:i], i+1
			if text[i] == '\r' && i+1 < len(text) && text[i+1] == '\n' {
				next = i + 2
			}
		}
		text = text[next:]
		switch {
		case len(line) > 0 && (line[0] == ' ' || line[0] == '\t') && len(out) > 0:
			last := &out[len(out)-1]
			last.text = append(last.text, line[1:]...)
		case len(bytes.TrimSpace(line)) > 0:
			out = append(out, logical{text: bytes.Clone(line), line: n})
		}
		n++
	}
	return out
}

// indexFold returns the index of the first (or last) ASCII
// case-insensitive occurrence of an upper-case ASCII word in data, -1
// when none. Only ASCII letters are folded, so that the index is valid in
// data whatever else data holds (bytes.ToUpper changes the length of a
// text that is not UTF-8, and an index found in its result is not one in
// data).
func indexFold(data []byte, word string, last bool) int {
	upper := make([]byte, len(data))
	for i, c := range data {
		if c >= 'a' && c <= 'z' {
			c -= 'a' - 'A'
		}
		upper[i] = c
	}
	if last {
		return bytes.LastIndex(upper, []byte(word))
	}
	return bytes.Index(upper, []byte(word))
}
