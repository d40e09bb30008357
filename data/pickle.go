package data

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"unicode/utf8"

	"github.com/nlpodyssey/gopickle/pickle"
	"github.com/nlpodyssey/gopickle/types"
)

// Reading pickles safely. gopickle trusts its input: it allocates whatever
// length an opcode declares, indexes its dispatch table with any byte, and
// hands back object graphs that may refer to themselves or share one value
// many times over. Every pickle strata reads therefore goes through three
// steps:
//
//  1. scanPickle walks the opcode stream once without building anything:
//     every opcode must be known and every length-prefixed argument and
//     frame must fit in the bytes that are left, so gopickle never
//     allocates more than the file holds;
//  2. unpickle runs gopickle with the classes strata allows and turns a
//     panic inside it (a malformed stream it did not anticipate) into an
//     error;
//  3. checkPickled walks the result with bounded depth (which also rejects
//     self-reference) and bounded total work (values visited plus string
//     bytes, shared values counted each time they are reached), and
//     rejects strings that are not valid UTF-8, naming where they are.
//
// After that, rendering the value (pyStr and the STaRK field mapping) does
// work proportional to the bound and recurses at most pickleMaxDepth deep.

// pickleMaxDepth bounds the nesting of containers in a pickled value.
// STaRK's node_info nests five deep (node, details, interpro, entry, desc).
const pickleMaxDepth = 64

// pickleWork bounds the work of walking a value unpickled from size bytes:
// values visited plus string bytes, counting a shared value every time it
// is reached. A pickle without shared containers stays below about twice
// its size.
func pickleWork(size int64) int64 { return 8*size + 1<<24 }

// scanPickle checks one pickle opcode stream read from r: known opcodes,
// arguments and frames within the left bytes, ending at STOP. It returns
// the number of bytes the stream takes. When tee is not nil the stream's
// bytes are copied to it.
func scanPickle(r *bufio.Reader, left int64, tee *bytes.Buffer) (int64, error) {
	s := pickleScanner{r: r, left: left, tee: tee}
	if err := s.scan(); err != nil {
		return s.pos, err
	}
	return s.pos, nil
}

type pickleScanner struct {
	r    *bufio.Reader
	left int64
	pos  int64
	tee  *bytes.Buffer
}

var errPickleEnd = errors.New("the pickle ends before its STOP opcode (truncated?)")

func (s *pickleScanner) byte() (byte, error) {
	if s.left <= 0 {
		return 0, errPickleEnd
	}
	b, err := s.r.ReadByte()
	if err != nil {
		return 0, errPickleEnd
	}
	s.left--
	s.pos++
	if s.tee != nil {
		s.tee.WriteByte(b)
	}
	return b, nil
}

// skip consumes n argument bytes of the opcode at op.
func (s *pickleScanner) skip(n uint64, op int64) error {
	if n > uint64(s.left) {
		return fmt.Errorf("opcode at byte %d declares %d bytes, %d are left", op, n, s.left)
	}
	var err error
	if s.tee != nil {
		_, err = io.CopyN(s.tee, s.r, int64(n))
	} else {
		_, err = s.r.Discard(int(n))
	}
	if err != nil {
		return errPickleEnd
	}
	s.left -= int64(n)
	s.pos += int64(n)
	return nil
}

// uint reads an n-byte little-endian argument.
func (s *pickleScanner) uint(n int) (uint64, error) {
	var b [8]byte
	for i := 0; i < n; i++ {
		c, err := s.byte()
		if err != nil {
			return 0, err
		}
		b[i] = c
	}
	return binary.LittleEndian.Uint64(b[:]), nil
}

// pickleMaxNumber bounds the bytes of one integer or float argument:
// gopickle turns long integers into big.Int in time quadratic in their
// length.
const pickleMaxNumber = 4096

// line consumes a newline-terminated argument of at most max bytes (0: no
// bound but the input).
func (s *pickleScanner) line(max int, op int64) error {
	for n := 0; ; n++ {
		if max > 0 && n > max {
			return fmt.Errorf("opcode at byte %d has a number of more than %d digits", op, max)
		}
		c, err := s.byte()
		if err != nil {
			return err
		}
		if c == '\n' {
			return nil
		}
	}
}

func (s *pickleScanner) scan() error {
	for {
		at := s.pos
		op, err := s.byte()
		if err != nil {
			return err
		}
		switch op {
		case '.': // STOP
			return nil
		case '(', '0', '1', '2', 'N', ')', ']', '}', 'a', 'e', 'l', 't', 'd', 's', 'u', 'b', 'R', 'o', 'Q',
			0x81, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8f, 0x90, 0x91, 0x92, 0x93, 0x94, 0x97, 0x98:
			// no argument
		case 'I', 'L', 'F', 'g', 'p':
			err = s.line(pickleMaxNumber, at)
		case 'S', 'V', 'P':
			err = s.line(0, at)
		case 'c', 'i':
			if err = s.line(0, at); err == nil {
				err = s.line(0, at)
			}
		case 'K', 'h', 'q', 0x80, 0x82:
			err = s.skip(1, at)
		case 'M', 0x83:
			err = s.skip(2, at)
		case 'J', 'j', 'r', 0x84:
			err = s.skip(4, at)
		case 'G':
			err = s.skip(8, at)
		case 'U', 'C', 0x8a, 0x8c:
			var n uint64
			if n, err = s.uint(1); err == nil {
				err = s.skip(n, at)
			}
		case 'T', 'X', 'B', 0x8b:
			var n uint64
			if n, err = s.uint(4); err == nil {
				if (op == 'T' || op == 0x8b) && int32(n) < 0 {
					return fmt.Errorf("opcode at byte %d declares a negative length", at)
				}
				if op == 0x8b && n > pickleMaxNumber {
					return fmt.Errorf("opcode at byte %d holds an integer of %d bytes (at most %d)", at, n, pickleMaxNumber)
				}
				err = s.skip(n, at)
			}
		case 0x8d, 0x8e, 0x96:
			var n uint64
			if n, err = s.uint(8); err == nil {
				err = s.skip(n, at)
			}
		case 0x95: // FRAME: the next n bytes are opcodes, scanned as such
			var n uint64
			if n, err = s.uint(8); err == nil && n > uint64(s.left) {
				return fmt.Errorf("frame at byte %d declares %d bytes, %d are left", at, n, s.left)
			}
		default:
			return fmt.Errorf("unknown opcode 0x%02x at byte %d", op, at)
		}
		if err != nil {
			return err
		}
	}
}

// unpickle loads one pickle from r with gopickle. find resolves classes
// (nil: none are allowed); persistent resolves persistent ids (nil: none).
// A panic inside gopickle becomes an error.
func unpickle(r io.Reader, find func(module, name string) (any, error), persistent func(any) (any, error)) (v any, err error) {
	defer func() {
		if p := recover(); p != nil {
			v, err = nil, fmt.Errorf("malformed pickle (%v)", p)
		}
	}()
	u := pickle.NewUnpickler(r)
	if find == nil {
		find = func(module, name string) (any, error) {
			return nil, fmt.Errorf("class %s.%s is not allowed here", module, name)
		}
	}
	u.FindClass = find
	u.PersistentLoad = persistent
	return u.Load()
}

// pickleValueError locates a problem inside an unpickled value; Path is
// Python-like: [12]['details'][3].
type pickleValueError struct {
	Path string
	Msg  string
}

func (e *pickleValueError) Error() string {
	if e.Path == "" {
		return e.Msg
	}
	return e.Path + ": " + e.Msg
}

// checkPickled walks v (see the top of this file) with at most budget
// units of work.
func checkPickled(v any, budget int64) error {
	w := pickleWalker{budget: budget}
	return w.walk(v, 0)
}

type pickleWalker struct {
	work, budget int64
}

func (w *pickleWalker) walk(v any, depth int) error {
	w.work++
	if w.work > w.budget {
		return &pickleValueError{Msg: fmt.Sprintf("the value expands to more than %d values and string bytes (shared references?)", w.budget)}
	}
	if depth > pickleMaxDepth {
		return &pickleValueError{Msg: fmt.Sprintf("containers nested more than %d deep (or a container that holds itself)", pickleMaxDepth)}
	}
	in := func(seg string, err error) error {
		var pe *pickleValueError
		if errors.As(err, &pe) {
			pe.Path = seg + pe.Path
		}
		return err
	}
	list := func(xs []any) error {
		for i, x := range xs {
			if err := w.walk(x, depth+1); err != nil {
				return in("["+strconv.Itoa(i)+"]", err)
			}
		}
		return nil
	}
	entry := func(k, x any) error {
		if err := w.walk(k, depth+1); err != nil {
			return in("[key]", err)
		}
		if err := w.walk(x, depth+1); err != nil {
			return in("["+keyLabel(k)+"]", err)
		}
		return nil
	}
	switch x := v.(type) {
	case string:
		w.work += int64(len(x))
		if !utf8.ValidString(x) {
			return &pickleValueError{Msg: fmt.Sprintf("string %s is not valid UTF-8", quoteClip(x))}
		}
	case []byte:
		w.work += int64(len(x))
	case *types.ByteArray:
		w.work += int64(len(*x))
	case *types.List:
		return list(*x)
	case *types.Tuple:
		return list(*x)
	case *types.Dict:
		for _, e := range *x {
			if err := entry(e.Key, e.Value); err != nil {
				return err
			}
		}
	case *types.OrderedDict:
		for e := x.List.Front(); e != nil; e = e.Next() {
			en := e.Value.(*types.OrderedDictEntry)
			if err := entry(en.Key, en.Value); err != nil {
				return err
			}
		}
	case *types.Set:
		for k := range *x {
			if err := w.walk(k, depth+1); err != nil {
				return in("{...}", err)
			}
		}
	case *types.FrozenSet:
		for k := range *x {
			if err := w.walk(k, depth+1); err != nil {
				return in("{...}", err)
			}
		}
	}
	return nil
}

// keyLabel renders a dict key for an error path, short.
func keyLabel(k any) string {
	switch x := k.(type) {
	case string:
		if len(x) > 40 {
			x = x[:cutAt(x, 40)] + "..."
		}
		return pyRepr(x)
	case int, int64, float64, bool, nil:
		return pyStr(x)
	}
	return fmt.Sprintf("<%T>", k)
}

// readPickleFile reads one pickle file (node_info.pkl, the type
// dictionaries) with the numpy classes STaRK's files use.
func readPickleFile(path string) (any, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	v, err := decodePickle(f, st.Size())
	if err != nil {
		return nil, pickleErr(path, err)
	}
	return v, nil
}

// pickleErr locates an error of decodePickle or decodeTorch in file.
func pickleErr(file string, err error) error {
	var pe *pickleValueError
	if errors.As(err, &pe) {
		return perrf(file, 0, pe.Path, ErrSyntax, "%s", pe.Msg)
	}
	return perrf(file, 0, "", ErrSyntax, "%v", err)
}

// decodePickle reads the pickle held in the size bytes of ra.
func decodePickle(ra io.ReaderAt, size int64) (any, error) {
	if size == 0 {
		return nil, errors.New("empty file: not a pickle")
	}
	var head [4]byte
	n, _ := ra.ReadAt(head[:], 0)
	if bytes.HasPrefix(head[:n], []byte("PK\x03\x04")) {
		return nil, errors.New("a zip archive (a torch .pt file?), not a pickle")
	}
	if _, err := scanPickle(bufio.NewReader(io.NewSectionReader(ra, 0, size)), size, nil); err != nil {
		return nil, fmt.Errorf("pickle: %w", err)
	}
	v, err := unpickle(bufio.NewReader(io.NewSectionReader(ra, 0, size)), numpyFindClass, nil)
	if err != nil {
		return nil, fmt.Errorf("pickle: %w", err)
	}
	if err := checkPickled(v, pickleWork(size)); err != nil {
		return nil, err
	}
	return v, nil
}
