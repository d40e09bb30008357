package graphops

import (
	"strings"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
)

// TextMatcher finds the nodes of one type that best match a text (the
// textual half of MoR's mixed traversal).
type TextMatcher interface {
	Match(text string, t data.TypeID, k int) []index.Hit
}

// TraversalConfig holds MoR's traversal sizes; zero values mean MoR's
// defaults.
type TraversalConfig struct {
	SeedK    int `json:"seed_k,omitempty"`    // textual seeds of each path's first layer, default 5
	LayerK   int `json:"layer_k,omitempty"`   // textual matches added at every later layer, default 10
	PoolSize int `json:"pool_size,omitempty"` // candidates after filling by the first-stage score, default 100
	// Ablations: NoTextual adds no textual matches after the seeds (a pure
	// structural walk); NoStructural follows no edges (every layer is its
	// textual matches only).
	NoTextual    bool `json:"no_textual,omitempty"`
	NoStructural bool `json:"no_structural,omitempty"`
}

// WithDefaults fills the zero sizes with MoR's defaults.
func (c TraversalConfig) WithDefaults() TraversalConfig {
	if c.SeedK == 0 {
		c.SeedK = 5
	}
	if c.LayerK == 0 {
		c.LayerK = 10
	}
	if c.PoolSize == 0 {
		c.PoolSize = 100
	}
	return c
}

// Step is one node of a trajectory and how it was reached.
type Step struct {
	Node    uint32
	Type    data.TypeID
	Textual bool // reached by textual matching, not by an edge from the previous step
}

// TraversalResult is the candidate pool of a query with the trajectory
// that reached each candidate.
type TraversalResult struct {
	Pool         []index.Hit // candidates, best first-stage score first
	Trajectories map[uint32][]Step
	Union        bool // the paths' final layers did not intersect: their union was used
	Filled       int  // candidates added from the first-stage ranking
}

// ExpandQuery is MoR's expanded query "[Q : restriction]".
func ExpandQuery(q string, restriction []string) string {
	if len(restriction) == 0 {
		return q
	}
	return q + " : " + strings.Join(restriction, " ")
}
