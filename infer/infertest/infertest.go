// Package infertest holds helpers for the tests of methods: a dense
// channel that needs no training.
package infertest

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/models"
)

// LexicalDense is a dense channel from an untrained hashed encoder (random
// n-gram vectors, IDF over the documents): a lexical sketch that needs no
// training, enough to find entities by name.
func LexicalDense(tb testing.TB, ws *workspace.Workspace) *infer.DenseChannel {
	tb.Helper()
	enc, err := models.NewEncoder(models.EncoderConfig{}, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		tb.Fatal(err)
	}
	feats := make([][]uint32, len(ws.SKB.Nodes))
	for i := range feats {
		feats[i] = enc.Features(ws.SKB.Document(uint32(i)))
	}
	enc.FitIDF(feats)
	docs, err := infer.EncodeNodes(context.Background(), ws.SKB, enc)
	if err != nil {
		tb.Fatal(err)
	}
	return &infer.DenseChannel{Docs: docs, Encoder: enc}
}
