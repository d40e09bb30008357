package planner

import "testing"

// TestCompoundSlots: after "the" a word is in a noun slot (nounSlots),
// and the singular noun "film" read there may open a compound whose head
// comes next. "type" in its base form there cannot be the verb ("the
// film types ..." would be), so with compoundSlots it is read through its
// noun senses alone, which name nothing here, and stays as written;
// without it, it is read "wrote" (to type is to write), as it is after a
// plural ("the films type X": a verb may follow a plural), after a mark
// ("the film, type it"), and in its -s form ("the film types X").
func TestCompoundSlots(t *testing.T) {
	r := slotResolver(t)
	r.nounSlots = true
	wantReadCases(t, "compoundSlots", func(on bool) { r.compoundSlots = on }, r, []readCase{
		{"Pick the film type for X.", "Pick the film type for X.", "Pick the film wrote for X."},
		{"Pick the genre label for X.", "Pick the genre label for X.", "Pick the genre directed for X."},
		{"the films type X", "the films wrote X", "the films wrote X"},
		{"the film, type it", "the film, wrote it", "the film, wrote it"},
		{"the film types X", "the film wrote X", "the film wrote X"},
	})
}
