package data

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestStarkProcessedPrime(t *testing.T) {
	skb, err := ReadStarkProcessed(filepath.Join("testdata", "stark", "prime"), "")
	if err != nil {
		t.Fatal(err)
	}
	if skb.Schema.Name != "stark-prime" || len(skb.Nodes) != 4 || skb.Edges.Len() != 4 {
		t.Fatalf("schema %q, %d nodes, %d edges", skb.Schema.Name, len(skb.Nodes), skb.Edges.Len())
	}
	if !cmp.Equal(skb.Schema.RelationTypes, []string{"ppi", "target", "indication", "associated with"}) {
		t.Errorf("relations %v", skb.Schema.RelationTypes)
	}
	if !cmp.Equal(skb.Edges.Src, []uint32{1, 2, 2, 1}) || !cmp.Equal(skb.Edges.Dst, []uint32{3, 1, 0, 0}) || !cmp.Equal(skb.Edges.Rel.IDs(), []RelID{0, 1, 2, 3}) || skb.Edges.Rel.Hi != nil {
		t.Errorf("edges %+v", skb.Edges)
	}
	want := "kala syndrome\ntype: disease\nsource: MONDO\ndetails: mondo_definition: a rare disorder\nmayo_symptoms: 2.5"
	if got := skb.Document(0); got != want {
		t.Errorf("disease document:\n got %q\nwant %q", got, want)
	}
	wantGene := "name (gene name): tumor protein p53\nalias (other gene names): ['p53', 'LFS1']\n" +
		"genomic_pos (genomic position): {'chr': '17'}\n" +
		"interpro (protein family and classification information): ['p53 DNA-binding', 'p53 tetramer']\n" +
		"generif (PubMed text): binds DNA; mutated in cancer\nsummary (protein summary text): This gene encodes a tumor suppressor."
	if got := skb.Field(1, "details"); got != wantGene {
		t.Errorf("gene details:\n got %q\nwant %q", got, wantGene)
	}
	if skb.Field(2, "details") != "description: an antibody" {
		t.Errorf("drug details %q", skb.Field(2, "details"))
	}
	if skb.Nodes[3].Name != "MDM2" || skb.Field(3, "details") != "" || len(skb.CandidateIDs()) != 4 {
		t.Errorf("node 3 %+v", skb.Nodes[3])
	}
}

func TestStarkProcessedMagAmazon(t *testing.T) {
	mag, err := ReadStarkProcessed(filepath.Join("testdata", "stark", "mag"), "mag")
	if err != nil {
		t.Fatal(err)
	}
	if got := mag.Document(3); got != "Stars in clusters\ntitle: Stars in clusters\nabstract: We study stars.\npublication_date: 2001-02-03\nvenue: Astro Journal" {
		t.Errorf("paper document %q", got)
	}
	if got := mag.Document(0); got != "Ada Byron\npaper_count: 12" {
		t.Errorf("author document %q", got)
	}
	if mag.Field(4, "venue") != "ApJ" || !cmp.Equal(mag.CandidateIDs(), []uint32{3, 4}) {
		t.Errorf("venue %q candidates %v", mag.Field(4, "venue"), mag.CandidateIDs())
	}
	amz, err := ReadStarkProcessed(filepath.Join("testdata", "stark", "amazon"), "")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"title": "Trail Runner 2", "brand": "Acme", "dimensions": "10 x 4 x 3 inches", "weight": "1.2 pounds",
		"description": "Light shoe.  Grippy sole.", "features": "Waterproof", "reviews": "summary: Best\ntext: \"Top\"\nsummary: Great\ntext: \"Love it\"",
		"qa": "question: \"Wide?\"\nanswer: \"Yes\""}
	for f, w := range want {
		if got := amz.Field(0, f); got != w {
			t.Errorf("product %s = %q, want %q", f, got, w)
		}
	}
	if amz.Nodes[2].Name != "Acme" || amz.Nodes[4].Name != "teal" || !cmp.Equal(amz.CandidateIDs(), []uint32{0, 1}) {
		t.Errorf("names %q %q candidates %v", amz.Nodes[2].Name, amz.Nodes[4].Name, amz.CandidateIDs())
	}
}

func TestStarkProcessedErrors(t *testing.T) {
	_, err := ReadStarkProcessed(filepath.Join("testdata", "stark", "bad_edge"), "")
	var pe *ParseError
	if !errors.As(err, &pe) || !errors.Is(err, ErrIDRange) || filepath.Base(pe.File) != "edge_index.pt" || pe.Field != "[:, 0]" {
		t.Errorf("bad edge: %v", err)
	}
	if _, err := ReadStarkProcessed(t.TempDir(), ""); !errors.Is(err, ErrMissingFile) {
		t.Errorf("empty dir: %v", err)
	}
	if _, err := ReadStarkProcessed(filepath.Join("testdata", "stark", "mag"), "imdb"); err == nil {
		t.Error("unknown dataset accepted")
	}
}
