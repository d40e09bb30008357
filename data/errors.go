package data

import (
	"errors"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// Sentinel errors that callers can test with errors.Is.
var (
	ErrSyntax          = errors.New("malformed value")
	ErrUnknownType     = errors.New("unknown node type")
	ErrUnknownRelation = errors.New("unknown relation type")
	ErrUnknownField    = errors.New("unknown text field")
	ErrIDRange         = errors.New("id out of range")
	ErrDuplicateID     = errors.New("duplicate id")
	ErrMissingFile     = errors.New("missing file")
	ErrSchema          = errors.New("invalid schema")
)

// ParseError locates a problem in a user file. Line is 1-based; 0 means the
// problem concerns the file as a whole. Field names the column or JSON key.
type ParseError struct {
	File  string
	Line  int
	Field string
	Err   error
}

// Error formats the location and the problem. Values from the input are
// clipped where they are quoted (see clip); as a last guard the field is
// clipped to maxQuoted bytes and the message to maxMessage, so one error
// stays one short line whatever the input held.
func (e *ParseError) Error() string {
	loc := e.File
	if e.Line > 0 {
		loc = fmt.Sprintf("%s:%d", e.File, e.Line)
	}
	msg := clipMiddle(e.Err.Error(), maxMessage)
	if e.Field != "" {
		return fmt.Sprintf("%s: field %s: %s", loc, quoteClip(e.Field), msg)
	}
	return fmt.Sprintf("%s: %s", loc, msg)
}

// Bounds on what an error message quotes from the input.
const (
	maxQuoted  = 200  // one value
	maxMessage = 1024 // a whole message
)

// cutAt returns the largest rune boundary of s not above n.
func cutAt(s string, n int) int {
	if n >= len(s) {
		return len(s)
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return n
}

// clip shortens a value quoted in an error to about maxQuoted bytes.
func clip(s string) string {
	if len(s) <= maxQuoted {
		return s
	}
	return s[:cutAt(s, maxQuoted)] + "..."
}

// quoteClip quotes s as %q does, clipped to about maxQuoted bytes with its
// full length noted.
func quoteClip(s string) string {
	if len(s) <= maxQuoted {
		return strconv.Quote(s)
	}
	return fmt.Sprintf("%s... (%d bytes)", strconv.Quote(s[:cutAt(s, maxQuoted)]), len(s))
}

// clipMiddle keeps the start and the end of a message longer than n.
func clipMiddle(s string, n int) string {
	if len(s) <= n {
		return s
	}
	head := s[:cutAt(s, n*3/4)]
	tail := s[len(s)-n/4:]
	for len(tail) > 0 && !utf8.RuneStart(tail[0]) {
		tail = tail[1:]
	}
	return fmt.Sprintf("%s ...[%d bytes]... %s", head, len(s)-len(head)-len(tail), tail)
}

func (e *ParseError) Unwrap() error { return e.Err }

func perr(file string, line int, field string, err error) error {
	return &ParseError{File: file, Line: line, Field: field, Err: err}
}

func perrf(file string, line int, field string, sentinel error, format string, args ...any) error {
	return &ParseError{File: file, Line: line, Field: field, Err: fmt.Errorf("%w: %s", sentinel, fmt.Sprintf(format, args...))}
}
