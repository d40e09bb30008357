package graphops

import (
	"slices"

	"github.com/strata-retrieval/strata/data"
)

// MinedPath is the relation path that best explains a question's answers.
type MinedPath struct {
	Rels []data.RelID
	F1   float64 // of the path's end nodes against the answers
}

// MinePath finds the relation path of at most maxHops undirected typed steps
// from the topic nodes whose end nodes (the topics excluded) best match the
// answers by F1; ties go to the shorter path, then to the smaller relation
// ids. Frontiers larger than maxFrontier nodes are not extended (their F1
// is still scored). ok is false when no path reaches an answer.
func MinePath(g *Graph, topics, answers []uint32, maxHops, maxFrontier int) (MinedPath, bool) {
	ans := slices.Clone(answers)
	slices.Sort(ans)
	ans = slices.Compact(ans)
	var best MinedPath
	var rec func(frontier []uint32, rels []data.RelID)
	rec = func(frontier []uint32, rels []data.RelID) {
		if len(rels) == maxHops || len(frontier) > maxFrontier {
			return
		}
		next := map[data.RelID][]uint32{}
		for _, v := range frontier {
			nb, rs := g.Neighbors(v)
			for i, u := range nb {
				next[rs[i]] = append(next[rs[i]], u)
			}
		}
		keys := make([]data.RelID, 0, len(next))
		for r := range next {
			keys = append(keys, r)
		}
		slices.Sort(keys)
		for _, r := range keys {
			f := next[r]
			slices.Sort(f)
			f = slices.Compact(f)
			path := append(slices.Clone(rels), r)
			ends := f
			if len(path) > 1 {
				ends = slices.DeleteFunc(slices.Clone(f), func(v uint32) bool { _, in := slices.BinarySearch(topics, v); return in })
			}
			if hit := len(data.IntersectSorted(ends, ans)); hit > 0 {
				p, rc := float64(hit)/float64(len(ends)), float64(hit)/float64(len(ans))
				f1 := 2 * p * rc / (p + rc)
				if f1 > best.F1 || f1 == best.F1 && (len(path) < len(best.Rels) ||
					len(path) == len(best.Rels) && slices.Compare(path, best.Rels) < 0) {
					best = MinedPath{Rels: path, F1: f1}
				}
			}
			rec(f, path)
		}
	}
	topics = slices.Clone(topics)
	slices.Sort(topics)
	rec(topics, nil)
	return best, best.F1 > 0
}
