package infer

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sync"
	"sync/atomic"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/graphops/workspace"
)

// Method ranks candidates for a query: a possibly partial ranking of node
// ids (eval places unscored candidates as STaRK does).
type Method interface {
	Name() string
	Rank(ctx context.Context, q data.Query) ([]index.Hit, error)
}

// Reranker is a method that can also score a candidate pool given to it
// (GRASP's stage 3 over stage 2's top 100, a pipeline scorer over its
// candidate stage): Rerank returns the pool's nodes, every one of them,
// best first.
type Reranker interface {
	Method
	Rerank(ctx context.Context, q data.Query, pool []index.Hit) ([]index.Hit, error)
}

// FallbackCounter is a method that answers some queries by falling back
// to a text channel (no usable plan, no pattern; BM25 unless
// TextFallback chose another). TakeFallbacks returns the count
// since the last call and resets it.
type FallbackCounter interface {
	TakeFallbacks() int64
}

// TextFallback is a method whose fallback can be another text channel
// than BM25: WithText returns the method answering its fallbacks with t
// (a planner's run falls back to the text channel its training chose:
// BM25, or BM25 fused with the dense channel).
type TextFallback interface {
	WithText(t Method) Method
}

// FallbackText names the text channel m answers its fallbacks with:
// bm25 unless m has a FallbackText method that says otherwise.
func FallbackText(m Method) string {
	if f, ok := m.(interface{ FallbackText() string }); ok {
		return f.FallbackText()
	}
	return "bm25"
}

type fallbackKey struct{}

// WithFallbackNote returns a context in which a method's fallback on the
// query it ranks is also noted per query (CountFallback), and the count
// it is noted into: score and serve say which queries fell back.
func WithFallbackNote(ctx context.Context) (context.Context, *atomic.Int64) {
	n := new(atomic.Int64)
	return context.WithValue(ctx, fallbackKey{}, n), n
}

// CountFallback counts one query answered by a fallback: in the method's
// total (for FallbackCounter) and, when ctx carries a note
// (WithFallbackNote), in the query's own.
func CountFallback(ctx context.Context, total *atomic.Int64) {
	total.Add(1)
	if n, ok := ctx.Value(fallbackKey{}).(*atomic.Int64); ok {
		n.Add(1)
	}
}

// Explainer is a method that can say how it ranked a query: its top k with
// what produced them.
type Explainer interface {
	Explain(ctx context.Context, q data.Query, k int) (Explanation, error)
}

// Explanation is one query's explanation; it marshals to JSON and writes
// itself as text (node ids resolved against the workspace).
type Explanation interface {
	WriteText(w io.Writer, ws *workspace.Workspace) error
}

// PlanFor is the one plan lookup of the methods that follow a query's
// plan: the query's own (a JSONL query's, or a planner's: see
// planner.PlannedMethod), else the workspace's for its id, when the
// workspace's question of that id is the query's (Workspace.StoredPlan).
func PlanFor(ws *workspace.Workspace, q data.Query) (data.Plan, bool) {
	if q.Plan != nil {
		return *q.Plan, true
	}
	return ws.StoredPlan(q)
}

// SortHits sorts hits in the one ranking order (index.Compare: score
// descending, then node id ascending, STaRK's tie break).
func SortHits(hs []index.Hit) { index.Sort(hs) }

// Env is what loading models and methods needs: the workspace, its dense
// channel (read once, on first use), whether checkpoints trained on other
// data are accepted, and the context that bounds the loading (Ctrl-C stops
// a model that encodes every node).
type Env struct {
	Ctx               context.Context
	WS                *workspace.Workspace
	IgnoreFingerprint bool
	// ONNXEncoder is the sentence encoder directory that methods loaded by
	// name embed new text with ("" the dense channel's; see TextSpace).
	ONNXEncoder string
	// Root, when set, confines the models loaded through the registry to
	// this directory: a bundle's extraction directory, so a bundle reads
	// only itself, also for the sub-models its models name.
	Root string
	// Models maps a model path as a model's config names it (MoR's
	// planner, GRASP's mFAR) to the directory that holds it: in a bundle,
	// the copy packed with it. The registry looks every path up here first.
	Models map[string]string
	// OnLoad, when set, is told every model registry.Load opens: the path
	// as given and the directory it read (a checkpoint's, after a run
	// directory's best link). WriteBundle collects the sub-models to pack
	// with it.
	OnLoad func(given, dir string)
	// OnFile, when set, is told every other file or directory a model
	// reads through Path (an ONNX encoder, a plans file).
	OnFile func(given, path string)

	parent *Env // Sub's: the dense channel is the parent's

	once  sync.Once
	dense *DenseChannel
	err   error

	spacesMu sync.Mutex
	spaces   map[string]*TextSpace // by ONNX encoder directory, "" the dense channel's
}

// NewEnv returns an environment over ws.
func NewEnv(ctx context.Context, ws *workspace.Workspace) *Env {
	return &Env{Ctx: ctx, WS: ws}
}

// Dense returns the workspace's dense channel, loaded once (ErrNoDense
// when it has none).
func (e *Env) Dense() (*DenseChannel, error) {
	if e.parent != nil {
		return e.parent.Dense()
	}
	e.once.Do(func() { e.dense, e.err = LoadDense(e.WS) })
	return e.dense, e.err
}

// Sub returns an environment over the same workspace, context, policy,
// dense channel and load observers (OnLoad, OnFile), for loading that must
// not change e: a bundle sets its own Root and Models on it.
func (e *Env) Sub() *Env {
	return &Env{Ctx: e.Ctx, WS: e.WS, IgnoreFingerprint: e.IgnoreFingerprint, ONNXEncoder: e.ONNXEncoder,
		OnLoad: e.OnLoad, OnFile: e.OnFile, parent: e}
}

// Path resolves a file or directory that a model names and reads itself
// (an ONNX encoder, a plans file): through Models, then refused outside
// Root, then reported to OnFile.
func (e *Env) Path(given string) (string, error) {
	p := given
	if m, ok := e.Models[given]; ok {
		p = m
	}
	if err := e.Inside(p); err != nil {
		return "", err
	}
	if e.OnFile != nil {
		e.OnFile(given, p)
	}
	return p, nil
}

// SetDense makes d the environment's dense channel (a trainer that just
// built it).
func (e *Env) SetDense(d *DenseChannel) {
	e.once.Do(func() {})
	e.dense, e.err = d, nil
}

// Ranked is a hit and its position in the slices it was scored from.
type Ranked struct {
	Index int
	Hit   index.Hit
}

// Top returns the k best (score, id) pairs in ranking order with their
// positions.
func Top(scores []float32, ids []uint32, k int) []Ranked {
	tk := index.NewTopK(k)
	pos := map[uint32]int{}
	for i, s := range scores {
		tk.Push(index.Hit{ID: ids[i], Score: s})
		pos[ids[i]] = i
	}
	var out []Ranked
	for _, h := range tk.Sorted(nil) {
		out = append(out, Ranked{pos[h.ID], h})
	}
	return out
}

// ErrOutsideRoot is a model or encoder that lies outside the environment's
// Root.
var ErrOutsideRoot = errors.New("a bundle may load models only from inside itself")

// Inside refuses dir when the environment has a Root and dir, links
// resolved, is not inside it.
func (e *Env) Inside(dir string) error {
	if e.Root == "" {
		return nil
	}
	resolve := func(p string) string {
		if a, err := filepath.Abs(p); err == nil {
			p = a
		}
		if r, err := filepath.EvalSymlinks(p); err == nil {
			p = r
		}
		return p
	}
	if rel, err := filepath.Rel(resolve(e.Root), resolve(dir)); err != nil || !filepath.IsLocal(rel) {
		return fmt.Errorf("model %s: %w", dir, ErrOutsideRoot)
	}
	return nil
}
