package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/strata-retrieval/strata/data"
)

// TestArchitectureNamesEveryPackage keeps docs/architecture.md's package
// map true: every directory of the module with a non-test Go file is named
// there in backquotes (the internal packages by `internal/*`).
func TestArchitectureNamesEveryPackage(t *testing.T) {
	root := filepath.Join("..", "..")
	doc, err := os.ReadFile(filepath.Join(root, "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(doc)
	pkgs := map[string]bool{}
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "out" || name == "node_modules" || name == "bin") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") {
			rel, err := filepath.Rel(root, filepath.Dir(path))
			if err != nil {
				return err
			}
			pkgs[filepath.ToSlash(rel)] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) < 30 {
		t.Fatalf("found only %d packages under %s", len(pkgs), root)
	}
	for p := range pkgs {
		if p == "." || strings.Contains(text, "`"+p+"`") {
			continue
		}
		if strings.HasPrefix(p, "internal/") && strings.Contains(text, "`internal/*`") {
			continue
		}
		t.Errorf("docs/architecture.md does not name package %s", p)
	}
}

// TestArchitectureQueryPathIsTrue keeps docs/architecture.md's "One
// served query" true: every Go name it quotes in backquotes (`pkg.Name`,
// `Type.Method`, `pkg.Type.Member` or a bare `Name`) is declared in the
// module's non-test code, and every quoted path with a slash exists. A
// renamed function fails it until the walk-through follows.
func TestArchitectureQueryPathIsTrue(t *testing.T) {
	root := filepath.Join("..", "..")
	doc, err := os.ReadFile(filepath.Join(root, "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(doc)
	start := strings.Index(text, "## One served query")
	if start < 0 {
		t.Fatal(`docs/architecture.md has no "## One served query"`)
	}
	section := text[start+3:]
	if end := strings.Index(section, "\n## "); end >= 0 {
		section = section[:end]
	}
	decl := declaredNames(t, root)
	ident := regexp.MustCompile(`^[A-Za-z_]\w*(\.[A-Za-z_]\w*){0,2}$`)
	checked := 0
	for _, m := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(section, -1) {
		q := m[1]
		switch {
		case strings.Contains(q, "/") && !strings.ContainsAny(q, " {"):
			if _, err := os.Stat(filepath.Join(root, q)); err != nil {
				t.Errorf("the query path names %s, which does not exist", q)
			}
			checked++
		case ident.MatchString(q) && !fileLike(q) && q != strings.ToUpper(q):
			if !decl.has(q) {
				t.Errorf("the query path names `%s`, which no package declares", q)
			}
			checked++
		}
	}
	if checked < 20 {
		t.Fatalf("checked only %d names in the query path", checked)
	}
}

// fileLike: a quoted name that is a file (pipeline.json, OUT.progress);
// names in capitals (OUT) are placeholders.
func fileLike(q string) bool {
	for _, ext := range []string{".json", ".jsonl", ".progress", ".csv", ".sh", ".md", ".tsv"} {
		if strings.HasSuffix(q, ext) {
			return true
		}
	}
	return false
}

// goNames are the declarations of a module: top-level names by package
// (its last path element) and the members (methods, struct fields) of
// every type.
type goNames struct {
	top     map[string]map[string]bool // package -> names
	members map[string]map[string]bool // type -> methods and fields
	any     map[string]bool            // every top-level name, method and field
}

func (d goNames) has(q string) bool {
	p := strings.Split(q, ".")
	switch len(p) {
	case 1:
		return d.any[p[0]]
	case 2:
		return d.top[p[0]][p[1]] || d.members[p[0]][p[1]]
	default:
		return d.top[p[0]][p[1]] && d.members[p[1]][p[2]]
	}
}

func declaredNames(t *testing.T, root string) goNames {
	t.Helper()
	d := goNames{top: map[string]map[string]bool{}, members: map[string]map[string]bool{}, any: map[string]bool{}}
	add := func(m map[string]map[string]bool, k, v string) {
		if m[k] == nil {
			m[k] = map[string]bool{}
		}
		m[k][v] = true
		d.any[v] = true
	}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() {
			if path != root && (strings.HasPrefix(e.Name(), ".") || e.Name() == "testdata" || e.Name() == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		pkg := filepath.Base(filepath.Dir(path))
		for _, x := range f.Decls {
			switch x := x.(type) {
			case *ast.FuncDecl:
				if x.Recv == nil {
					add(d.top, pkg, x.Name.Name)
					continue
				}
				typ := x.Recv.List[0].Type
				if s, ok := typ.(*ast.StarExpr); ok {
					typ = s.X
				}
				if ix, ok := typ.(*ast.IndexExpr); ok {
					typ = ix.X
				}
				if id, ok := typ.(*ast.Ident); ok {
					add(d.members, id.Name, x.Name.Name)
				}
			case *ast.GenDecl:
				for _, s := range x.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						add(d.top, pkg, s.Name.Name)
						if st, ok := s.Type.(*ast.StructType); ok {
							for _, f := range st.Fields.List {
								for _, n := range f.Names {
									add(d.members, s.Name.Name, n.Name)
								}
							}
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							add(d.top, pkg, n.Name)
						}
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestPlanTokensStayAtTheEdges keeps docs/architecture.md's plan contract
// true: a plan's paths are typed everywhere (data.Plan has no token
// field), and outside package data, whose readers and writers are the
// file edges, no production code reads or writes the token form
// (ParsePath, ParsePaths, MustPaths, MetapathTokens; ParseRelToken, gone), but
// the generator, whose preset table is written in tokens.
func TestPlanTokensStayAtTheEdges(t *testing.T) {
	pt := reflect.TypeOf(data.Plan{})
	for i := range pt.NumField() {
		if f := pt.Field(i); f.Type == reflect.TypeOf([][]string(nil)) {
			t.Errorf("data.Plan.%s is a token list", f.Name)
		}
	}
	edge := map[string]bool{"ParsePath": true, "ParsePaths": true, "MustPaths": true, "MetapathTokens": true, "ParseRelToken": true}
	allowed := map[string]bool{"data/synth/queries.go MustPaths": true}
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	n := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "out" || d.Name() == "node_modules" || d.Name() == "bin") {
				return filepath.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") || filepath.ToSlash(filepath.Dir(rel)) == "data" {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		n++
		ast.Inspect(f, func(x ast.Node) bool {
			if sel, ok := x.(*ast.SelectorExpr); ok && edge[sel.Sel.Name] && !allowed[rel+" "+sel.Sel.Name] {
				t.Errorf("%s: %s uses the plan's token form (%s)", rel, fset.Position(sel.Pos()), sel.Sel.Name)
			}
			return true
		})
		return nil
	})
	if err != nil || n < 100 {
		t.Fatalf("walked %d files: %v", n, err)
	}
}
