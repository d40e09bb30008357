package pipeline

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"gopkg.in/yaml.v3"
)

// ReadPipeline reads and validates a JSON or YAML pipeline file (by its
// extension: .yaml/.yml is YAML, anything else JSON), or a run directory's
// pipeline.json.
func ReadPipeline(path string) (*Pipeline, error) {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		path = filepath.Join(path, PipelineFile)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParsePipeline(b, path)
}

// ParsePipeline parses pipeline bytes; path names the file and anchors
// relative model paths.
func ParsePipeline(b []byte, path string) (*Pipeline, error) {
	p := &Pipeline{dir: filepath.Dir(path), file: path}
	ext := strings.ToLower(filepath.Ext(path))
	if ext == ".yaml" || ext == ".yml" {
		var root yaml.Node
		if err := yaml.Unmarshal(b, &root); err != nil {
			return nil, &Error{File: path, Msg: err.Error()}
		}
		dec := yaml.NewDecoder(bytes.NewReader(b))
		dec.KnownFields(true)
		if err := dec.Decode(p); err != nil {
			line := 0
			if te, ok := err.(*yaml.TypeError); ok && len(te.Errors) > 0 {
				fmt.Sscanf(te.Errors[0], "line %d:", &line)
			}
			return nil, &Error{File: path, Line: line, Msg: err.Error()}
		}
		lines := map[string]int{}
		walkYAML(&root, "", lines)
		p.locate = func(k string) int { return lines[k] }
	} else {
		lines, err := jsonKeyLines(b)
		if err != nil {
			return nil, &Error{File: path, Line: lineAt(b, offsetOf(err)), Msg: err.Error()}
		}
		p.locate = func(k string) int { return lines[k] }
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		if err := dec.Decode(p); err != nil {
			msg := err.Error()
			key := ""
			if strings.HasPrefix(msg, "json: unknown field ") {
				key = strings.Trim(strings.TrimPrefix(msg, "json: unknown field "), `"`)
				for k, l := range lines {
					if k == key || strings.HasSuffix(k, "."+key) {
						return nil, &Error{File: path, Line: l, Key: k, Msg: "unknown key"}
					}
				}
			}
			var te *json.UnmarshalTypeError
			if errors.As(err, &te) {
				return nil, &Error{File: path, Line: lineAt(b, te.Offset), Key: te.Field, Msg: fmt.Sprintf("want %s, got %s", te.Type, te.Value)}
			}
			return nil, &Error{File: path, Line: lineAt(b, offsetOf(err)), Key: key, Msg: msg}
		}
	}
	if err := p.validate(); err != nil {
		return nil, err
	}
	return p, nil
}

func offsetOf(err error) int64 {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return se.Offset
	}
	return 0
}

func lineAt(b []byte, off int64) int {
	if off <= 0 {
		return 0
	}
	if off > int64(len(b)) {
		off = int64(len(b))
	}
	return bytes.Count(b[:off], []byte{'\n'}) + 1
}

// jsonKeyLines maps every key path ("scorers[1].model") to its line.
func jsonKeyLines(b []byte) (map[string]int, error) {
	out := map[string]int{}
	dec := json.NewDecoder(bytes.NewReader(b))
	type frame struct {
		obj   bool
		index int
		key   string
		path  string
	}
	var stack []frame
	expectKey := false
	for {
		tok, err := dec.Token()
		off := dec.InputOffset() // just after the token
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		path := func() string {
			if len(stack) == 0 {
				return ""
			}
			return stack[len(stack)-1].path
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{', '[':
				child := path()
				if len(stack) > 0 {
					top := &stack[len(stack)-1]
					if top.obj {
						child = join(top.path, top.key)
					} else {
						child = fmt.Sprintf("%s[%d]", top.path, top.index)
						out[child] = lineAt(b, off)
						top.index++
					}
				}
				stack = append(stack, frame{obj: t == '{', path: child})
				expectKey = t == '{'
			default:
				stack = stack[:len(stack)-1]
				expectKey = len(stack) > 0 && stack[len(stack)-1].obj
			}
			continue
		}
		if len(stack) == 0 {
			continue
		}
		top := &stack[len(stack)-1]
		if top.obj && expectKey {
			top.key = tok.(string)
			out[join(top.path, top.key)] = lineAt(b, off)
			expectKey = false
			continue
		}
		if top.obj {
			expectKey = true
		} else {
			top.index++
		}
	}
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func walkYAML(n *yaml.Node, path string, out map[string]int) {
	switch n.Kind {
	case yaml.DocumentNode:
		for _, c := range n.Content {
			walkYAML(c, path, out)
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := join(path, n.Content[i].Value)
			out[k] = n.Content[i].Line
			walkYAML(n.Content[i+1], k, out)
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			walkYAML(c, fmt.Sprintf("%s[%d]", path, i), out)
		}
	}
}
