package baseline

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/data/index"
	"github.com/strata-retrieval/strata/graphops/workspace"
	"github.com/strata-retrieval/strata/infer"
	"github.com/strata-retrieval/strata/internal/testskb"
)

// readingSKB: a person's and an act's definition, and neighbours.
func readingSKB(t *testing.T) *workspace.Workspace {
	t.Helper()
	skb := &data.SKB{Schema: data.Schema{Format: data.FormatSKBDir, NodeTypes: []string{"group", "person", "act"}, RelationTypes: []string{"is"},
		CandidateTypes: []string{"person", "act"}, TextFields: []string{"name", "gloss"}}}
	skb.Nodes = []data.Node{
		{Type: 0, Name: "choir", Fields: []string{"", "singers who sing together"}}, // no candidate: candidate d is node d+1
		{Type: 1, Name: "singer", Fields: []string{"", "one who sings"}},
		{Type: 2, Name: "song", Fields: []string{"", "to sing a tune"}},
		{Type: 1, Name: "dancer", Fields: []string{"", "a performer"}},
		{Type: 2, Name: "vocalist", Fields: []string{"", ""}},
	}
	skb.Edges.Add(3, 0, 1) // the dancer's document names "singer"
	return testskb.Workspace(t, skb)
}

// TestTypeRerank: the type prior's rerank worked out by hand. The prior
// learns "one who sings" and "a performer" for person, "to sing a tune"
// for act (alpha 0.1; features one, who, sing, ^one, ^one who; performer,
// ^performer twice ("a" is no token); to, sing, tune, ^to, ^to sing: V =
// 11, totals 8 and 5; the vocalist has no text and is not learned from).
// "one who dances" has features one, who, danc, ^one, ^one who: person
// gets 2/3 * (1.1/9.1)^4 * 0.1/9.1, act 1/3 * (0.1/6.1)^5, so
// ln P(person) = -0.000252 and ln P(act) = -8.2851. Fused order [song,
// singer, dancer, vocalist] scores -ln 1 + 0.1 * -8.2851, -ln 2 + 0.1 *
// -0.000252, -ln 3 + 0.1 * -0.000252 and -ln 4 + 0.1 * -8.2851: singer,
// song, dancer, vocalist.
func TestTypeRerank(t *testing.T) {
	ws := readingSKB(t)
	r, err := infer.ReadingOf(ws)
	if err != nil {
		t.Fatal(err)
	}
	a, b := math.Log(2.0/3)+4*math.Log(1.1/9.1)+math.Log(0.1/9.1), math.Log(1.0/3)+5*math.Log(0.1/6.1)
	z := math.Log(math.Exp(a) + math.Exp(b))
	lpPerson, lpAct := a-z, b-z
	if math.Abs(lpPerson+0.000252) > 1e-6 || math.Abs(lpAct+8.2851) > 1e-4 {
		t.Fatalf("hand posterior %v %v", lpPerson, lpAct)
	}
	lp := make([]float64, 2)
	r.Prior.LogPosterior(infer.TypeFeatures("one who dances"), lp)
	if math.Abs(lp[r.Label[0]]-lpPerson) > 1e-9 || math.Abs(lp[r.Label[1]]-lpAct) > 1e-9 { // candidates 0, 1: singer, song
		t.Fatalf("prior %v, want person %v act %v", lp, lpPerson, lpAct)
	}
	hits := []index.Hit{{ID: 2, Score: 3}, {ID: 1, Score: 2}, {ID: 3, Score: 1}, {ID: 4, Score: 0.5}}
	got := typeRerank(hits, r, ws, "one who dances")
	want := []struct {
		id    uint32
		score float64
	}{{1, -math.Log(2) + 0.1*lpPerson}, {2, 0.1 * lpAct}, {3, -math.Log(3) + 0.1*lpPerson}, {4, -math.Log(4) + 0.1*lpAct}}
	for i, w := range want {
		if got[i].ID != w.id || math.Abs(float64(got[i].Score)-w.score) > 1e-6 {
			t.Errorf("place %d: %v, want node %d score %.6f", i, got[i], w.id, w.score)
		}
	}
	// Below readingDepth the order is kept, every score below the top's, in
	// whole steps; a hit that is no candidate (the choir, node 0, and ids
	// past the SKB) gets the floor, 0.1 * -1000.
	long := make([]index.Hit, 150)
	for i := range long {
		long[i] = index.Hit{ID: uint32(1000 + i), Score: float32(150 - i)}
	}
	long[0].ID = 0
	long[120] = index.Hit{ID: 2, Score: float32(30)} // the song below the depth: not reranked
	got = typeRerank(long, r, ws, "one who dances")
	for i := 1; i < len(got); i++ {
		if got[i].Score >= got[i-1].Score {
			t.Fatalf("places %d and %d: %v %v, want falling scores", i-1, i, got[i-1], got[i])
		}
	}
	low := -math.Log(100) - 100
	if got[0].ID != 0 || math.Abs(float64(got[0].Score)+100) > 1e-4 || got[99].ID != 1099 || math.Abs(float64(got[99].Score)-low) > 1e-4 ||
		got[100].ID != 1100 || math.Abs(float64(got[100].Score)-(low-1)) > 1e-4 || got[120].ID != 2 || math.Abs(float64(got[120].Score)-(low-21)) > 1e-4 {
		t.Errorf("places 0, 99, 100, 120: %v %v %v %v", got[0], got[99], got[100], got[120])
	}
}

// TestTypeRerankLongText: a text of more than readingTypeFeatures
// features has its ln P scaled to that many. "one who dances" said 16
// times has 50 features (one, who, danc 16 times each; ^one, ^one who):
// person's log joint is ln(2/3) + 34 ln(1.1/9.1) + 16 ln(0.1/9.1), act's
// ln(1/3) + 50 ln(0.1/6.1) (TestTypeRerank's counts), and each posterior
// is scaled by 32/50 before the weight 0.1.
func TestTypeRerankLongText(t *testing.T) {
	ws := readingSKB(t)
	r, err := infer.ReadingOf(ws)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.TrimSpace(strings.Repeat("one who dances ", 16))
	if n := len(infer.TypeFeatures(text)); n != 50 {
		t.Fatalf("%d features, want 50", n)
	}
	a, b := math.Log(2.0/3)+34*math.Log(1.1/9.1)+16*math.Log(0.1/9.1), math.Log(1.0/3)+50*math.Log(0.1/6.1)
	z := max(a, b) + math.Log(math.Exp(a-max(a, b))+math.Exp(b-max(a, b)))
	s := 32.0 / 50
	lpPerson, lpAct := s*(a-z), s*(b-z)
	hits := []index.Hit{{ID: 2, Score: 3}, {ID: 1, Score: 2}, {ID: 3, Score: 1}, {ID: 4, Score: 0.5}}
	got := typeRerank(hits, r, ws, text)
	want := []struct {
		id    uint32
		score float64
	}{{1, -math.Log(2) + 0.1*lpPerson}, {3, -math.Log(3) + 0.1*lpPerson}, {2, 0.1 * lpAct}, {4, -math.Log(4) + 0.1*lpAct}}
	for i, w := range want {
		if got[i].ID != w.id || math.Abs(float64(got[i].Score)-w.score) > 1e-4 {
			t.Errorf("place %d: %v, want node %d score %.6f", i, got[i], w.id, w.score)
		}
	}
}

// TestBM25Stem: the reading index matches a query's words in another
// inflection ("sang" does not stem to "sing"; "singing" does) and reads
// a candidate's neighbours' names: "singers" finds the singer and the
// dancer whose edge points to it, the dancer first (the singer's document
// is the longer: it reads the dancer, its edge in).
func TestBM25Stem(t *testing.T) {
	ws := readingSKB(t)
	m := NewBM25Stem(ws)
	hits, err := m.Rank(t.Context(), data.Query{Text: "singing"})
	if err != nil {
		t.Fatal(err)
	}
	infer.SortHits(hits)
	if len(hits) != 2 || hits[0].ID != 1 && hits[0].ID != 2 || hits[1].ID != 1 && hits[1].ID != 2 {
		t.Errorf("singing: %v, want the singer and the song (nodes 1 and 2; the choir is no candidate)", hits)
	}
	if h, _ := NewBM25(ws).Rank(t.Context(), data.Query{Text: "singing"}); len(h) != 0 {
		t.Errorf("bm25 matched %v: the test does not test stemming", h)
	}
	hits, err = m.Rank(t.Context(), data.Query{Text: "singers"})
	if err != nil {
		t.Fatal(err)
	}
	infer.SortHits(hits)
	if len(hits) != 2 || hits[0].ID != 3 || hits[1].ID != 1 {
		t.Errorf("singers: %v, want the dancer (its neighbour line), then the singer (nodes 3 and 1)", hits)
	}
}

// TestReadingRelatives: "like a vocal" matches no document word ("vocal"
// stems to itself, the vocalist's name to "vocalist"); the reading finds
// the vocalist by its name holding the word, bm25-stem finds nothing. The
// singer's document reads the dancer, whose edge points to it.
func TestReadingRelatives(t *testing.T) {
	ws := readingSKB(t)
	if h, _ := NewBM25Stem(ws).Rank(t.Context(), data.Query{Text: "like a vocal"}); len(h) != 0 {
		t.Fatalf("bm25-stem matched %v: the test does not test relatives", h)
	}
	hits, err := NewReading(ws, nil).Rank(t.Context(), data.Query{Text: "like a vocal"})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 1 || hits[0].ID != 4 {
		t.Errorf("like a vocal: %v, want the vocalist (node 4) alone", hits)
	}
	hits, err = NewBM25Stem(ws).Rank(t.Context(), data.Query{Text: "dancer"})
	if err != nil {
		t.Fatal(err)
	}
	infer.SortHits(hits)
	if len(hits) != 2 || hits[0].ID != 3 || hits[1].ID != 1 {
		t.Errorf("dancer: %v, want the dancer, then the singer (its edge in; nodes 3 and 1)", hits)
	}
}

// TestReadingProfiles: two senses named "volcano" pool their documents in
// one name profile, with the "volcano crater" that is named by both
// profiles. A passage (data.Query.Passage) scores a candidate by its own
// document's BM25 plus readingProfileWeight times its best (not summed)
// name profile's score, and the sense whose own document matches nothing
// still comes through its name; a question scores the documents alone.
// Node 0 is no candidate, so candidate d is node d+1. With one candidate
// type and no dense channel the reading's scores are those sums; the
// profile index is rebuilt here from the documents' text.
func TestReadingProfiles(t *testing.T) {
	skb := &data.SKB{Schema: data.Schema{Format: data.FormatSKBDir, NodeTypes: []string{"group", "thing"}, CandidateTypes: []string{"thing"}, RelationTypes: []string{"r"}, TextFields: []string{"name", "gloss"}}}
	skb.Nodes = []data.Node{
		{Type: 0, Name: "volcano field", Fields: []string{"", "lava mountain bowl"}}, // no candidate
		{Type: 1, Name: "volcano", Fields: []string{"", "a mountain of ash"}},
		{Type: 1, Name: "volcano", Fields: []string{"", "a vent that lava leaves"}},
		{Type: 1, Name: "crater", Fields: []string{"", "a bowl of ash"}},
		{Type: 1, Name: "volcano crater", Fields: []string{"", "where a lake forms"}},
	}
	ws := testskb.Workspace(t, skb)
	r, err := infer.ReadingOf(ws)
	if err != nil {
		t.Fatal(err)
	}
	if r.Profiles.NumDocs() != 2 || !slices.Equal(r.ProfileDocs[0], []int32{0, 1, 3}) || !slices.Equal(r.ProfileDocs[1], []int32{2, 3}) {
		t.Fatalf("%d profiles, docs %v; want volcano (candidates 0, 1, 3) and crater (2, 3)", r.Profiles.NumDocs(), r.ProfileDocs)
	}
	b := index.NewBuilder(index.Config{Stem: true})
	b.AddTokens(index.StemTokens(nil, skb.Document(1)+" "+skb.Document(2)+" "+skb.Document(4)))
	b.AddTokens(index.StemTokens(nil, skb.Document(3)+" "+skb.Document(4)))
	prof := b.Build()
	named := [][]uint32{{0}, {0}, {1}, {0, 1}} // each candidate's profiles
	for _, c := range []struct {
		query   string
		passage bool
		want    []uint32 // nodes, best first
	}{
		{"lava mountain", true, []uint32{1, 2, 4}},
		{"lava bowl", true, []uint32{3, 2, 4, 1}},
		{"mountain", true, []uint32{1, 2, 4}},
		{"mountain", false, []uint32{1}},
	} {
		toks := index.StemTokens(nil, c.query)
		hits, err := NewReading(ws, nil).Rank(t.Context(), data.Query{Text: c.query, Passage: c.passage})
		if err != nil {
			t.Fatal(err)
		}
		infer.SortHits(hits)
		if len(hits) != len(c.want) {
			t.Fatalf("%q (passage %v): %v, want nodes %v", c.query, c.passage, hits, c.want)
		}
		for i, h := range hits {
			d := h.ID - 1
			want := float64(r.BM25.ScoreTokens(toks, d))
			if c.passage {
				best := 0.0
				for _, p := range named[d] {
					best = max(best, float64(prof.ScoreTokens(toks, p)))
				}
				want += readingProfileWeight * best
			}
			if h.ID != c.want[i] || math.Abs(float64(h.Score)-want) > 1e-5 {
				t.Errorf("%q (passage %v) place %d: %v, want node %d score %.6f", c.query, c.passage, i, h, c.want[i], want)
			}
		}
	}
	if s := r.BM25.ScoreTokens([]string{"mountain"}, 1); s != 0 {
		t.Fatalf("candidate 1's own document matched mountain (%v): the test does not test pooling", s)
	}
	if a, b := prof.ScoreTokens([]string{"lava", "bowl"}, 0), prof.ScoreTokens([]string{"lava", "bowl"}, 1); a == b {
		t.Fatalf("the two profiles score \"lava bowl\" alike (%v): the test does not tell best from sum", a)
	}
}

// TestReadingProfilesBounded: a name word's profile pools the documents of
// its first MaxProfileDocs candidates, and every candidate named by it
// takes the profile's score.
func TestReadingProfilesBounded(t *testing.T) {
	skb := &data.SKB{Schema: data.Schema{Format: data.FormatSKBDir, NodeTypes: []string{"thing"}, RelationTypes: []string{"r"}, TextFields: []string{"name", "gloss"}}}
	n := infer.MaxProfileDocs + 1
	for i := range n {
		gloss := "plain"
		if i == n-1 {
			gloss = "unseen" // the last genus's gloss: past the bound
		}
		skb.Nodes = append(skb.Nodes, data.Node{Name: "genus", Fields: []string{"", gloss}})
	}
	ws := testskb.Workspace(t, skb)
	r, err := infer.ReadingOf(ws)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.ProfileDocs) != 1 || len(r.ProfileDocs[0]) != n {
		t.Fatalf("profiles %v: want one, of all %d candidates", r.ProfileDocs, n)
	}
	if s := r.Profiles.ScoreTokens([]string{"unseen"}, 0); s != 0 {
		t.Errorf("the profile read its %dth document (score %v), past MaxProfileDocs", n, s)
	}
	if s := r.Profiles.ScoreTokens([]string{"plain"}, 0); s <= 0 {
		t.Errorf("the profile did not read its first documents (score %v)", s)
	}
	hits, err := NewReading(ws, nil).Rank(t.Context(), data.Query{Text: "plain", Passage: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != n {
		t.Errorf("%d hits, want all %d genera (their name's profile)", len(hits), n)
	}
}

// TestTypeRerankUnlearnedType: a candidate of a type no candidate has
// text for (the lemma "tune", a name alone) takes the most probable
// learned type's ln P, not the floor: "tune" finds the tune first (its
// document is the shorter) and the song second, and the rerank keeps
// that order, the two scores ln 2 apart (one type's prior, places 0 and
// 1). With the floor the tune scored 0.1 * -1000 and came last.
func TestTypeRerankUnlearnedType(t *testing.T) {
	skb := &data.SKB{Schema: data.Schema{Format: data.FormatSKBDir, NodeTypes: []string{"person", "act", "lemma"}, RelationTypes: []string{"r"}, TextFields: []string{"name", "gloss"}}}
	skb.Nodes = []data.Node{
		{Type: 0, Name: "singer", Fields: []string{"", "one who sings"}},
		{Type: 1, Name: "song", Fields: []string{"", "to sing a tune"}},
		{Type: 2, Name: "tune", Fields: []string{"", ""}},
	}
	ws := testskb.Workspace(t, skb)
	hits, err := NewReading(ws, nil).Rank(t.Context(), data.Query{Text: "tune"})
	if err != nil {
		t.Fatal(err)
	}
	infer.SortHits(hits)
	if len(hits) != 2 || hits[0].ID != 2 || hits[1].ID != 1 || math.Abs(float64(hits[0].Score-hits[1].Score)-math.Log(2)) > 1e-5 {
		t.Errorf("tune: %v, want the tune (node 2) then the song (node 1), ln 2 apart", hits)
	}
}

// saidSKB: synsets with lemma lists (an alias field), one type, every
// node a candidate (candidate d is node d).
func saidSKB(t *testing.T) *workspace.Workspace {
	t.Helper()
	skb := &data.SKB{Schema: data.Schema{Format: data.FormatSKBDir, NodeTypes: []string{"thing"}, RelationTypes: []string{"r"}, TextFields: []string{"name", "lemmas", "gloss"}}}
	skb.Nodes = []data.Node{
		{Name: "wet", Fields: []string{"", "wet", "covered with water"}},
		{Name: "wetness", Fields: []string{"", "wetness", "the state of being covered with water"}},
		{Name: "dry", Fields: []string{"", "dry", "free from water"}},
		{Name: "speed", Fields: []string{"", "speed; velocity", "swiftness as distance travelled per unit of time"}},
		{Name: "celerity", Fields: []string{"", "celerity; fleetness; rapidity", "a rapid rate of motion"}},
	}
	return testskb.Workspace(t, skb)
}

// TestProfileSaidWordLendsNone: a passage that says "wet" lifts no
// candidate by the profile of "wet" whose names' words of that stem it all
// says (the node wet), and lifts wetness, whose word of the stem it does
// not say, by readingProfileWeight times that profile's score; a passage
// that does not say the word lifts both. The profile is rebuilt here from
// the documents (with no neighbours, a document is the node's text).
func TestProfileSaidWordLendsNone(t *testing.T) {
	ws := saidSKB(t)
	r, err := infer.ReadingOf(ws)
	if err != nil {
		t.Fatal(err)
	}
	b := index.NewBuilder(index.Config{Stem: true})
	for _, p := range [][]uint32{{0, 1}, {2}, {3}, {3}, {4}, {4}, {4}} { // wet (wet, wetness), dry, speed, velocity, celerity, fleetness, rapidity
		var text string
		for _, d := range p {
			text += ws.SKB.Document(d) + " "
		}
		b.AddTokens(index.StemTokens(nil, text))
	}
	prof := b.Build()
	for _, c := range []struct {
		text    string
		lifted  []uint32 // candidates the profile of "wet" lifts
		missing uint32   // a candidate it must not
	}{
		{"the quality of being wet", []uint32{1}, 0},
		{"the quality of being covered with water", []uint32{0, 1}, 99},
	} {
		toks, w, err := r.Expand(t.Context(), c.text, readingRelativeWeight)
		if err != nil {
			t.Fatal(err)
		}
		lex, err := r.BM25.ScoreAllWeighted(t.Context(), toks, w, nil)
		if err != nil {
			t.Fatal(err)
		}
		own := map[uint32]float32{}
		for _, h := range lex {
			own[h.ID] = h.Score
		}
		got, err := withProfiles(t.Context(), r, ws, infer.PassageWords(c.text), toks, w, slices.Clone(lex))
		if err != nil {
			t.Fatal(err)
		}
		score := map[uint32]float32{}
		for _, h := range got {
			score[h.ID] = h.Score
		}
		ph, err := prof.ScoreAllWeighted(t.Context(), toks, w, nil)
		if err != nil {
			t.Fatal(err)
		}
		var lift float32
		for _, h := range ph {
			if h.ID == 0 {
				lift = readingProfileWeight * h.Score
			}
		}
		if lift <= 0 {
			t.Fatalf("%q: the profile of wet scores %v: the test tests nothing", c.text, lift)
		}
		for _, d := range c.lifted {
			if math.Abs(float64(score[d]-own[d]-lift)) > 1e-4 {
				t.Errorf("%q: %s scores %v, want its own %v + the profile's %v", c.text, ws.SKB.Nodes[d].Name, score[d], own[d], lift)
			}
		}
		if c.missing != 99 && score[c.missing] != own[c.missing] {
			t.Errorf("%q: %s scores %v, want its own document's %v alone", c.text, ws.SKB.Nodes[c.missing].Name, score[c.missing], own[c.missing])
		}
	}
}

// TestReadingDemotesSaid: among a passage's first readingDepth hits,
// those whose every name it says go below the others, in their order, a
// whole step apart, and the hits past readingDepth follow a step further
// each; the others keep their places and scores. "speed or velocity of
// motion" says speed and velocity (node speed) but not fleetness (node
// celerity); ids past the SKB's nodes name nothing and stay. A passage
// that says nothing whole keeps the list.
func TestReadingDemotesSaid(t *testing.T) {
	ws := saidSKB(t)
	r, err := infer.ReadingOf(ws)
	if err != nil {
		t.Fatal(err)
	}
	const text = "speed or velocity of motion"
	hits := []index.Hit{{ID: 3, Score: 10}, {ID: 4, Score: 9}}
	for i := range readingDepth - 1 {
		hits = append(hits, index.Hit{ID: uint32(1000 + i), Score: 8 - float32(i)/100})
	}
	got := demoteSaid(slices.Clone(hits), r, ws, infer.PassageWords(text))
	want := append([]index.Hit{}, hits[1:readingDepth]...)
	last := want[len(want)-1].Score
	want = append(want, index.Hit{ID: 3, Score: last - 1}, index.Hit{ID: hits[readingDepth].ID, Score: last - 2})
	if !slices.Equal(got, want) {
		t.Errorf("demoted: %v...%v, want %v...%v", got[:3], got[len(got)-3:], want[:3], want[len(want)-3:])
	}
	if got := demoteSaid(slices.Clone(hits), r, ws, infer.PassageWords("speed of motion")); !slices.Equal(got, hits) {
		t.Errorf("a passage that leaves velocity unsaid moved %v", got[:3])
	}
	all := []index.Hit{{ID: 3, Score: 2}, {ID: 0, Score: 1}} // speed, wet: both said
	if got := demoteSaid(slices.Clone(all), r, ws, infer.PassageWords("wet speed and velocity")); !slices.Equal(got, []index.Hit{{ID: 3, Score: 2}, {ID: 0, Score: 1}}) {
		t.Errorf("every hit said: %v, want the order kept from the first's score down", got)
	}
	p, err := NewReading(ws, nil).Rank(t.Context(), data.Query{Text: text, Passage: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(p) == 0 || p[len(p)-1].ID != 3 {
		t.Errorf("the passage ranked by reading: %v, want speed last", p)
	}
}

// verbSKB: two verbs and two places that share their words.
func verbSKB(t *testing.T) *workspace.Workspace {
	t.Helper()
	skb := &data.SKB{Schema: data.Schema{Format: data.FormatSKBDir, NodeTypes: []string{"act", "place"}, RelationTypes: []string{"r"}, TextFields: []string{"name", "gloss"}}}
	skb.Nodes = []data.Node{
		{Type: 1, Name: "dwelling", Fields: []string{"", "a place to stay and live in; a home"}},
		{Type: 0, Name: "dwell", Fields: []string{"", "live in"}},
		{Type: 1, Name: "residence", Fields: []string{"", "a place where one stays and lives"}},
		{Type: 0, Name: "abide", Fields: []string{"", "stay or remain"}},
	}
	return testskb.Workspace(t, skb)
}

// TestVerbsFirst: among the first readingDepth hits, those of a type that
// names verbs go above the others, each group in its order, and the
// others' scores, and those past readingDepth, fall a whole step each
// below the last verb's; a list with no verb keeps its order, from the
// first's score down.
func TestVerbsFirst(t *testing.T) {
	ws := verbSKB(t)
	r, err := infer.ReadingOf(ws)
	if err != nil {
		t.Fatal(err)
	}
	hits := []index.Hit{{ID: 0, Score: 10}, {ID: 1, Score: 9}, {ID: 2, Score: 8}}
	for i := range readingDepth - 2 {
		hits = append(hits, index.Hit{ID: uint32(1000 + i), Score: 7 - float32(i)/100}) // no candidate: no verb
	}
	hits = append(hits, index.Hit{ID: 3, Score: 1}) // abide, past readingDepth: stays there
	got := verbsFirst(slices.Clone(hits), r, ws)
	want := []index.Hit{{ID: 1, Score: 9}, {ID: 0, Score: 8}, {ID: 2, Score: 7}}
	for i, h := range hits[3:] {
		want = append(want, index.Hit{ID: h.ID, Score: 6 - float32(i)})
	}
	if !slices.Equal(got, want) {
		t.Errorf("verbs first: %v...%v, want %v...%v", got[:4], got[len(got)-2:], want[:4], want[len(want)-2:])
	}
	none := []index.Hit{{ID: 2, Score: 5}, {ID: 0, Score: 3}}
	if got := verbsFirst(slices.Clone(none), r, ws); !slices.Equal(got, []index.Hit{{ID: 2, Score: 5}, {ID: 0, Score: 4}}) {
		t.Errorf("no verb: %v, want the order kept from the first's score down", got)
	}
}

// TestReadingInfinitive: a passage that opens with an infinitive ranks the
// verbs (dwell, abide) above the places its words describe better; the
// same words without the infinitive, and the infinitive read as a
// question, rank a place first.
func TestReadingInfinitive(t *testing.T) {
	ws := verbSKB(t)
	m := NewReading(ws, nil)
	rank := func(text string, passage bool) []string {
		hits, err := m.Rank(t.Context(), data.Query{Text: text, Passage: passage})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, h := range hits {
			out = append(out, ws.SKB.Nodes[h.ID].Name)
		}
		return out
	}
	got := rank("To stay and live in a place", true)
	if len(got) < 3 || !(got[0] == "dwell" && got[1] == "abide" || got[0] == "abide" && got[1] == "dwell") {
		t.Errorf("the infinitive read as a passage: %v, want dwell and abide first", got)
	}
	for _, c := range []struct {
		text    string
		passage bool
	}{{"A place to stay and live in", true}, {"To stay and live in a place", false}} {
		if got := rank(c.text, c.passage); len(got) == 0 || got[0] != "dwelling" && got[0] != "residence" {
			t.Errorf("%q (passage %v): %v, want a place first", c.text, c.passage, got)
		}
	}
}
