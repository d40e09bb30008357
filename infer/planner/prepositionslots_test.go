package planner

import "testing"

// TestPrepositionSlots: "type" is read "wrote" (to type is to write)
// wherever a verb may stand; with prepSlots a word right after a
// preposition ("by", "of", "for", ...) is in a noun slot, where no verb's
// base form stands, and is read through its noun senses alone, which
// name nothing here: it stays as written. After "to" (an infinitive's
// mark, no preposition of prepositions) and after no preposition it is
// read "wrote" either way. ("Sort", a noun as written, is read "genre",
// a sort being a kind, either way.)
func TestPrepositionSlots(t *testing.T) {
	r := slotResolver(t)
	r.nounSlots = true
	wantReadCases(t, "prepSlots", func(on bool) { r.prepSlots = on }, r, []readCase{
		{"Sort by type the films X starred in.", "Genre by type the films X starred in.", "Genre by wrote the films X starred in."},
		{"The films of type X.", "The films of type X.", "The films of wrote X."},
		{"Who was hired to type X?", "Who was hired to wrote X?", "Who was hired to wrote X?"},
		{"Films they type X.", "Films they wrote X.", "Films they wrote X."},
	})
}
