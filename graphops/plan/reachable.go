package plan

import (
	"slices"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/graphops"
	"github.com/strata-retrieval/strata/graphops/linking"
)

// AddReachableSplit adds "test-reachable": the test questions whose every
// answer is a node of the KB (none in incomplete) and is reached from the
// topic by the question type's path; and per question file, e.g.
// "1-hop-dev/test-reachable".
func AddReachableSplit(skb *data.SKB, plans map[int]data.Plan, incomplete map[int]bool) error {
	g, err := graphops.Build(skb)
	if err != nil {
		return err
	}
	defer g.Close()
	names := linking.NewNameIndex(skb)
	source := map[int]string{} // question -> the file's split
	for name, ids := range skb.QA.Splits {
		if name == data.SplitTrain || name == data.SplitVal || name == data.SplitTest {
			continue
		}
		for _, id := range ids {
			source[id] = name
		}
	}
	var ids []int
	for _, id := range skb.QA.Splits[data.SplitTest] {
		q, _ := skb.QA.ByID(id)
		p, ok := plans[id]
		if !ok || len(q.Answers) == 0 || incomplete[id] {
			continue
		}
		res, err := Execute(g, names, p)
		if err != nil {
			continue
		}
		all := true
		for _, a := range q.Answers {
			if _, found := slices.BinarySearch(res.Reach, a); !found {
				all = false
				break
			}
		}
		if all {
			ids = append(ids, id)
			if src := source[id]; src != "" {
				skb.QA.Splits[src+"/test-reachable"] = append(skb.QA.Splits[src+"/test-reachable"], id)
			}
		}
	}
	skb.QA.Splits["test-reachable"] = ids
	return nil
}
