package data

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

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
// and counts them from 1.
type lineScanner struct {
	sc   *bufio.Scanner
	file string
	line int
}

func newLineScanner(r io.Reader, file string) *lineScanner {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<20), maxLine)
	return &lineScanner{sc: sc, file: file}
}

// Next returns the next line and true, or nil and false at the end or on an
// error (see Err).
func (l *lineScanner) Next() ([]byte, bool) {
	if !l.sc.Scan() {
		return nil, false
	}
	l.line++
	b := l.sc.Bytes()
	return bytes.TrimSuffix(b, []byte{'\r'}), true
}

func (l *lineScanner) Err() error {
	if err := l.sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return perrf(l.file, l.line+1, "", ErrSyntax, "line longer than %d bytes", maxLine)
		}
		return perr(l.file, l.line+1, "", err)
	}
	return nil
}
