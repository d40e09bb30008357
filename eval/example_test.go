package eval_test

import (
	"fmt"

	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/eval"
)

// Candidates are nodes 0..5; the method scored three of them. Node 4 is
// unscored, so it ranks after every scored node, among the unscored by id:
// the full ranking is 5, 2, 0, 1, 3, 4.
func ExampleEvaluator_Query() {
	ev := eval.NewEvaluator(6, []uint32{0, 1, 2, 3, 4, 5})
	ranking := []index.Hit{{ID: 2, Score: 0.7}, {ID: 5, Score: 0.9}, {ID: 0, Score: -3}}
	r := ev.Query(ranking, []uint32{2, 4})
	fmt.Println("ranks:", r.Ranks)
	fmt.Printf("hit@1=%.2f hit@5=%.2f recall@20=%.2f mrr=%.2f\n", r.Hit1, r.Hit5, r.Recall20, r.MRR)
	// Output:
	// ranks: [2 6]
	// hit@1=0.00 hit@5=1.00 recall@20=1.00 mrr=0.50
}
