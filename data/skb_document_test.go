package data

import "testing"

// TestDocumentWith: a field's value read as another, an emptied field
// left out, field -1 (Document) as stored.
func TestDocumentWith(t *testing.T) {
	s := &SKB{Schema: Schema{TextFields: []string{"lemmas", "name", "gloss"}}}
	s.Nodes = []Node{{Name: "dog", Fields: []string{"dog; domestic dog", "", "a member of the genus Canis"}}}
	for _, c := range []struct {
		field int
		value string
		want  string
	}{
		{-1, "", "dog\nlemmas: dog; domestic dog\ngloss: a member of the genus Canis"},
		{2, "a member of", "dog\nlemmas: dog; domestic dog\ngloss: a member of"},
		{0, "", "dog\ngloss: a member of the genus Canis"},
	} {
		if got := s.DocumentWith(0, c.field, c.value); got != c.want {
			t.Errorf("DocumentWith(0, %d, %q) = %q, want %q", c.field, c.value, got, c.want)
		}
	}
	if got := s.Document(0); got != "dog\nlemmas: dog; domestic dog\ngloss: a member of the genus Canis" {
		t.Errorf("Document(0) = %q", got)
	}
}
