package train

import (
	"math/rand/v2"
	"slices"
)

// UniformNegatives draws k distinct items from pool uniformly, skipping
// those for which isPos is true. It returns fewer than k when the pool has
// fewer negatives. r owns the randomness.
func UniformNegatives(r *rand.Rand, pool []uint32, isPos func(uint32) bool, k int) []uint32 {
	out := make([]uint32, 0, k)
	if k <= 0 || len(pool) == 0 {
		return out
	}
	// Rejection sampling while the pool is much larger than k, otherwise a
	// partial shuffle of the eligible items.
	if len(pool) > 4*k {
		seen := make(map[uint32]bool, k)
		for tries := 0; len(out) < k && tries < 20*k; tries++ {
			c := pool[r.IntN(len(pool))]
			if seen[c] || isPos(c) {
				continue
			}
			seen[c] = true
			out = append(out, c)
		}
		if len(out) == k {
			return out
		}
		out = out[:0]
	}
	eligible := make([]uint32, 0, len(pool))
	for _, c := range pool {
		if !isPos(c) {
			eligible = append(eligible, c)
		}
	}
	slices.Sort(eligible)
	eligible = slices.Compact(eligible)
	for i := 0; i < len(eligible) && i < k; i++ {
		j := i + r.IntN(len(eligible)-i)
		eligible[i], eligible[j] = eligible[j], eligible[i]
		out = append(out, eligible[i])
	}
	return out
}

// HardestNegatives returns the first k items of a ranked list (best first)
// that are not positives: the hardest negatives of a retriever.
func HardestNegatives(ranked []uint32, isPos func(uint32) bool, k int) []uint32 {
	out := make([]uint32, 0, k)
	for _, c := range ranked {
		if len(out) == k {
			break
		}
		if !isPos(c) {
			out = append(out, c)
		}
	}
	return out
}

// FreshSubset draws k of the given negatives without replacement, a new
// subset at every call: GRASP's listwise collator samples the 23 negatives
// of each group afresh at every step from a larger hard-negative list. The
// order of the result is random too.
func FreshSubset(r *rand.Rand, negatives []uint32, k int) []uint32 {
	if k >= len(negatives) {
		out := slices.Clone(negatives)
		r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
		return out
	}
	idx := r.Perm(len(negatives))[:k]
	out := make([]uint32, k)
	for i, j := range idx {
		out[i] = negatives[j]
	}
	return out
}
