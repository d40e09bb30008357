package data

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"unicode/utf8"

	"github.com/klauspost/compress/zstd"
)

// maxLine bounds one line of a text input file.
const maxLine = 256 << 20

// openMaybeZst opens path, or path+".zst" when path does not exist, and
// returns a reader of the decompressed bytes and the name actually opened.
func openMaybeZst(path string) (io.ReadCloser, string, error) {
	f, err := os.Open(path)
	if err == nil {
		return f, path, nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return nil, path, err
	}
	zpath := path + ".zst"
	zf, zerr := os.Open(zpath)
	if zerr != nil {
		if errors.Is(zerr, os.ErrNotExist) {
			return nil, path, perrf(path, 0, "", ErrMissingFile, "neither %s nor %s exists", path, zpath)
		}
		return nil, zpath, zerr
	}
	dec, err := zstd.NewReader(zf, zstd.WithDecoderConcurrency(1))
	if err != nil {
		zf.Close()
		return nil, zpath, perr(zpath, 0, "", fmt.Errorf("zstd: %w", err))
	}
	return &zstReadCloser{dec: dec, f: zf}, zpath, nil
}

type zstReadCloser struct {
	dec *zstd.Decoder
	f   *os.File
}

func (z *zstReadCloser) Read(p []byte) (int, error) { return z.dec.Read(p) }
func (z *zstReadCloser) Close() error {
	z.dec.Close()
	return z.f.Close()
}

// lineScanner yields lines (without the trailing newline or carriage return)
// and counts them from 1. A line that is not valid UTF-8 ends the scan with
// an error naming it (every text reader refuses such input; none repairs
// it).
type lineScanner struct {
	sc   *bufio.Scanner
	file string
	line int
	err  error
}

func newLineScanner(r io.Reader, file string) *lineScanner {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<20), maxLine)
	return &lineScanner{sc: sc, file: file}
}

// Next returns the next line and true, or nil and false at the end or on an
// error (see Err).
func (l *lineScanner) Next() ([]byte, bool) {
	if l.err != nil || !l.sc.Scan() {
		return nil, false
	}
	l.line++
	b := l.sc.Bytes()
	if l.line == 1 {
		// A byte order mark some editors write at the start of a file
		// is not part of the first record.
		b = bytes.TrimPrefix(b, []byte("\ufeff"))
	}
	if err := checkUTF8(b); err != nil {
		l.err = perr(l.file, l.line, "", err)
		return nil, false
	}
	return bytes.TrimSuffix(b, []byte{'\r'}), true
}

// ErrEncoding reports text that is not valid UTF-8. Every reader of text
// files refuses it with the file and line (and field, where it is known)
// rather than replacing bytes.
var ErrEncoding = errors.New("not valid UTF-8")

// checkUTF8 returns a located description of the first invalid byte of b.
func checkUTF8(b []byte) error {
	if utf8.Valid(b) {
		return nil
	}
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return fmt.Errorf("%w: byte 0x%02x at column %d", ErrEncoding, b[i], i+1)
		}
		i += n
	}
	return ErrEncoding
}

// checkUTF8Text is checkUTF8 for a whole file: the error names the line.
func checkUTF8Text(file string, b []byte) error {
	if utf8.Valid(b) {
		return nil
	}
	line := 1
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		l := b
		if i >= 0 {
			l, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		if err := checkUTF8(l); err != nil {
			return perr(file, line, "", err)
		}
		line++
	}
	return nil
}

func (l *lineScanner) Err() error {
	if l.err != nil {
		return l.err
	}
	if err := l.sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return perrf(l.file, l.line+1, "", ErrSyntax, "line longer than %d bytes", maxLine)
		}
		return perr(l.file, l.line+1, "", err)
	}
	return nil
}
