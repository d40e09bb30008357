package synth

import (
	"math/rand/v2"
	"strings"

	"github.com/strata-retrieval/strata/data/index"
)

// vocab holds the pseudo-word pools of one generated data set. Words are
// built from syllables so that they are unique, tokenizable and never stop
// words; real English glue words come from the preset.
type vocab struct {
	used       map[string]bool
	topicWords [][]string // per topic, Zipf-ordered
	common     []string   // shared distractor words
	props      []string   // property words
	topicProps [][]int    // per topic, indices into props
	nameParts  []string   // capitalised name stems (small pool: names overlap)
	firstNames []string
	lastNames  []string
}

var (
	onsets = []string{"b", "c", "d", "f", "g", "k", "l", "m", "n", "p", "r", "s", "t", "v", "z", "br", "cr", "dr", "gr", "pl", "st", "tr", "th", "sh", "ch"}
	nuclei = []string{"a", "e", "i", "o", "u", "ai", "ea", "io", "ou"}
	codas  = []string{"", "", "", "n", "r", "s", "l", "x", "m", "t"}
)

var stop = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range index.StopwordsEN {
		m[w] = true
	}
	return m
}()

func (v *vocab) word(r *rand.Rand, minSyl, maxSyl int) string {
	for {
		var b strings.Builder
		n := minSyl + r.IntN(maxSyl-minSyl+1)
		for i := 0; i < n; i++ {
			b.WriteString(onsets[r.IntN(len(onsets))])
			b.WriteString(nuclei[r.IntN(len(nuclei))])
		}
		b.WriteString(codas[r.IntN(len(codas))])
		w := b.String()
		if len(w) < 3 || stop[w] || v.used[w] {
			continue
		}
		v.used[w] = true
		return w
	}
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func newVocab(r *rand.Rand, topics, wordsPerTopic, common, props, propsPerTopic, nameParts int) *vocab {
	v := &vocab{used: map[string]bool{}}
	v.topicWords = make([][]string, topics)
	for k := range v.topicWords {
		for i := 0; i < wordsPerTopic; i++ {
			v.topicWords[k] = append(v.topicWords[k], v.word(r, 2, 3))
		}
	}
	for i := 0; i < common; i++ {
		v.common = append(v.common, v.word(r, 1, 2))
	}
	for i := 0; i < props; i++ {
		v.props = append(v.props, v.word(r, 2, 3))
	}
	v.topicProps = make([][]int, topics)
	for k := range v.topicProps {
		perm := r.Perm(props)
		v.topicProps[k] = perm[:min(propsPerTopic, props)]
	}
	for i := 0; i < nameParts; i++ {
		v.nameParts = append(v.nameParts, capitalize(v.word(r, 2, 3)))
	}
	for i := 0; i < max(20, nameParts/2); i++ {
		v.firstNames = append(v.firstNames, capitalize(v.word(r, 1, 2)))
	}
	for i := 0; i < max(30, nameParts); i++ {
		v.lastNames = append(v.lastNames, capitalize(v.word(r, 2, 3)))
	}
	return v
}

// zipf draws an index in [0, n) with probability ∝ 1/(i+1).
func zipf(r *rand.Rand, n int) int {
	// inverse-CDF on the harmonic approximation: i ≈ exp(u·ln(n+1)) − 1
	for {
		x := int(expm1(r.Float64() * ln(float64(n)+1)))
		if x < n {
			return x
		}
	}
}

func (v *vocab) topicWord(r *rand.Rand, topic int) string {
	ws := v.topicWords[topic]
	return ws[zipf(r, len(ws))]
}

// namer makes a node name for a node of the given topic.
type namer func(r *rand.Rand, v *vocab, topic int) string

func pick(r *rand.Rand, xs []string) string { return xs[r.IntN(len(xs))] }

var (
	productNouns  = []string{"Kit", "Set", "Pack", "Case", "Bottle", "Jacket", "Lamp", "Bag", "Mat", "Tool", "Stand", "Cover", "Shoes", "Gloves", "Speaker", "Mount"}
	brandSuffixes = []string{"Labs", "Outdoor", "Home", "Sports", "Works", "Gear", "Co", "Supply", "Essentials"}
	categoryNouns = []string{"Accessories", "Equipment", "Apparel", "Supplies", "Tools", "Furniture", "Electronics", "Toys", "Care", "Parts"}
	colorWords    = []string{"black", "white", "navy", "teal", "crimson", "olive", "ivory", "charcoal", "silver", "gold", "coral", "maroon",
		"beige", "turquoise", "lavender", "mustard", "burgundy", "khaki", "magenta", "indigo", "emerald", "sand", "slate", "rose"}
	processNouns  = []string{"activity", "binding", "complex", "process", "transport", "regulation", "assembly", "signaling", "metabolism"}
	diseaseNouns  = []string{"syndrome", "disease", "disorder", "deficiency", "dystrophy", "carcinoma", "fever"}
	drugSuffixes  = []string{"mab", "nib", "pril", "statin", "cillin", "azole", "olol", "sartan"}
	anatomyNouns  = []string{"gland", "lobe", "tissue", "cortex", "muscle", "epithelium", "nucleus", "duct"}
	phenoAdj      = []string{"abnormal", "increased", "decreased", "absent", "progressive", "recurrent", "delayed"}
	exposureNouns = []string{"exposure", "compound", "pollutant", "toxin"}
	sources       = map[string][]string{
		"disease": {"MONDO"}, "gene/protein": {"NCBI"}, "molecular_function": {"GO"}, "drug": {"DrugBank"},
		"pathway": {"REACTOME"}, "anatomy": {"UBERON"}, "effect/phenotype": {"HPO"}, "biological_process": {"GO"},
		"cellular_component": {"GO"}, "exposure": {"CTD"},
	}
)

func nameProduct(r *rand.Rand, v *vocab, topic int) string {
	return capitalize(v.topicWord(r, topic)) + " " + pick(r, v.nameParts) + " " + pick(r, productNouns)
}

func nameBrand(r *rand.Rand, v *vocab, topic int) string {
	stem := v.nameParts[zipf(r, len(v.nameParts))]
	if r.IntN(2) == 0 {
		return stem
	}
	return stem + " " + pick(r, brandSuffixes)
}

func nameCategory(r *rand.Rand, v *vocab, topic int) string {
	return capitalize(v.topicWord(r, topic)) + " " + pick(r, categoryNouns)
}

func nameColor(r *rand.Rand, v *vocab, topic int) string {
	c := pick(r, colorWords)
	switch r.IntN(3) {
	case 0:
		return c
	case 1:
		return "light " + c
	default:
		return c + " " + v.common[r.IntN(len(v.common))]
	}
}

func namePerson(r *rand.Rand, v *vocab, topic int) string {
	return pick(r, v.firstNames) + " " + v.lastNames[zipf(r, len(v.lastNames))]
}

func nameInstitution(r *rand.Rand, v *vocab, topic int) string {
	p := pick(r, v.nameParts)
	switch r.IntN(3) {
	case 0:
		return "University of " + p
	case 1:
		return p + " Institute of Technology"
	default:
		return p + " State University"
	}
}

func nameField(r *rand.Rand, v *vocab, topic int) string {
	return capitalize(v.topicWord(r, topic)) + " " + v.topicWord(r, topic)
}

func namePaper(r *rand.Rand, v *vocab, topic int) string {
	return capitalize(v.topicWord(r, topic)) + " " + v.topicWord(r, topic) + " " + pick(r, []string{"analysis", "models", "dynamics", "estimation", "theory", "methods"})
}

func nameDisease(r *rand.Rand, v *vocab, topic int) string {
	return pick(r, v.nameParts) + " " + pick(r, diseaseNouns)
}

func nameGene(r *rand.Rand, v *vocab, topic int) string {
	const letters = "ABCDEFGHJKLMNPRSTVWXZ"
	var b strings.Builder
	for i := 0; i < 3+r.IntN(2); i++ {
		b.WriteByte(letters[r.IntN(len(letters))])
	}
	b.WriteString(string(rune('1' + r.IntN(9))))
	return b.String()
}

func nameProcess(r *rand.Rand, v *vocab, topic int) string {
	return v.topicWord(r, topic) + " " + pick(r, processNouns)
}

func nameDrug(r *rand.Rand, v *vocab, topic int) string {
	return capitalize(v.word(r, 2, 2)) + pick(r, drugSuffixes)
}

func nameAnatomy(r *rand.Rand, v *vocab, topic int) string {
	return strings.ToLower(pick(r, v.nameParts)) + " " + pick(r, anatomyNouns)
}

func namePhenotype(r *rand.Rand, v *vocab, topic int) string {
	return pick(r, phenoAdj) + " " + v.topicWord(r, topic)
}

func nameExposure(r *rand.Rand, v *vocab, topic int) string {
	return strings.ToLower(pick(r, v.nameParts)) + " " + pick(r, exposureNouns)
}
