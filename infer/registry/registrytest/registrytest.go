// Package registrytest registers methods that tests of the commands score
// with: "test-unanswerable" fails for any query mentioning "nowhere", as
// SimGRAG does for a query whose pattern has no anchor, and ranks nodes
// 1 then 2 for the others.
package registrytest

import (
	"context"
	"fmt"
	"strings"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/infer/registry"
)

// Unanswerable is the name of the failing method.
const Unanswerable = "test-unanswerable"

type failingMethod struct{}

func (failingMethod) Name() string { return Unanswerable }

// Rank fails with the query id in front of its message, as SimGRAG does.
func (failingMethod) Rank(_ context.Context, q data.Query) ([]index.Hit, error) {
	if strings.Contains(q.Text, "nowhere") {
		return nil, fmt.Errorf("query %d: invalid pattern: no anchor", q.ID)
	}
	return []index.Hit{{ID: 1, Score: 2}, {ID: 2, Score: 1}}, nil
}

func init() {
	registry.RegisterMethod(Unanswerable, "test: fails for queries mentioning nowhere", func(*infer.Env) (infer.Method, error) {
		return failingMethod{}, nil
	})
}
