package data

import (
	"errors"
	"fmt"
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

func (e *ParseError) Error() string {
	loc := e.File
	if e.Line > 0 {
		loc = fmt.Sprintf("%s:%d", e.File, e.Line)
	}
	if e.Field != "" {
		return fmt.Sprintf("%s: field %q: %v", loc, e.Field, e.Err)
	}
	return fmt.Sprintf("%s: %v", loc, e.Err)
}

func (e *ParseError) Unwrap() error { return e.Err }

func perr(file string, line int, field string, err error) error {
	return &ParseError{File: file, Line: line, Field: field, Err: err}
}

func perrf(file string, line int, field string, sentinel error, format string, args ...any) error {
	return &ParseError{File: file, Line: line, Field: field, Err: fmt.Errorf("%w: %s", sentinel, fmt.Sprintf(format, args...))}
}
