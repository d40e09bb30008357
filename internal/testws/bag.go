package testws

import (
	"hash/fnv"
	"math"
	"strings"
)

// BagEncoder is an infer.TextEncoder for tests: it embeds a text as its normalised bag of lower-cased words
// (hashed into 64 dimensions).
type BagEncoder struct{}

func (BagEncoder) Dim() int { return 64 }
func (BagEncoder) EncodeTexts(texts []string) ([]float32, error) {
	out := make([]float32, 64*len(texts))
	for i, t := range texts {
		row := out[i*64 : (i+1)*64]
		for _, w := range strings.Fields(strings.ToLower(t)) {
			h := fnv.New32a()
			h.Write([]byte(w))
			row[h.Sum32()%64]++
		}
		var s float64
		for _, x := range row {
			s += float64(x) * float64(x)
		}
		for j := range row {
			if s > 0 {
				row[j] /= float32(math.Sqrt(s))
			}
		}
	}
	return out, nil
}
