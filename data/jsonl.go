package data

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"strings"
)

// OpenInput opens a user-named input file; a missing file is a located
// ErrMissingFile.
func OpenInput(path string) (*os.File, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, perrf(path, 0, "", ErrMissingFile, "file not found")
	}
	return f, err
}

// ReadJSONL decodes every non-blank line of a JSON-lines file into a T and
// calls fn with it and its line; decoding errors, and errors fn returns
// that are not already located, become ParseErrors naming file and line.
func ReadJSONL[T any](path string, fn func(line int, v *T) error) error {
	f, err := OpenInput(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return ParseJSONL(f, path, fn)
}

// ParseJSONL is ReadJSONL over a reader.
func ParseJSONL[T any](r io.Reader, file string, fn func(line int, v *T) error) error {
	sc := newLineScanner(r, file)
	for {
		b, ok := sc.Next()
		if !ok {
			break
		}
		if len(strings.TrimSpace(string(b))) == 0 {
			continue
		}
		var v T
		if err := json.Unmarshal(b, &v); err != nil {
			return jsonErr(file, sc.line, b, err)
		}
		if err := fn(sc.line, &v); err != nil {
			var pe *ParseError
			if errors.As(err, &pe) {
				return err
			}
			return perr(file, sc.line, "", err)
		}
	}
	return sc.Err()
}

// qidLines is ParseJSONL for records keyed by a unique "q_id": a missing
// or repeated q_id is an error naming both lines.
func qidLines[T any](r io.Reader, file string, qid func(*T) *int, fn func(line, id int, v *T) error) error {
	seen := map[int]int{}
	return ParseJSONL(r, file, func(line int, v *T) error {
		id := qid(v)
		if id == nil {
			return perrf(file, line, "q_id", ErrSyntax, "missing")
		}
		if prev, dup := seen[*id]; dup {
			return perrf(file, line, "q_id", ErrDuplicateID, "q_id %d already on line %d", *id, prev)
		}
		seen[*id] = line
		return fn(line, *id, v)
	})
}
