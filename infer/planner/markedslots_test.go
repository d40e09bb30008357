package planner

import "testing"

// TestMarkedSlots: "which" right after a noun opens a relative clause
// ("films which type X"), where the next word may be a verb, so nounSlots
// leaves it the readings of all its senses: "type" is read "wrote" (to
// type is to write). With a mark between the noun and "which" ("Her film
// output; which type is it?", and after a comma), "which" asks, and with
// markedSlots "type" is read through its noun senses alone, which name
// nothing here: the text stays as written. Without the mark it is read
// as before.
func TestMarkedSlots(t *testing.T) {
	r := slotResolver(t)
	r.nounSlots = true
	wantReadCases(t, "markedSlots", func(on bool) { r.markedSlots = on }, r, []readCase{
		{"Her film output; which type is it?", "Her film output; which type is it?", "Her film output; which wrote is it?"},
		{"Her film output, which type is it?", "Her film output, which type is it?", "Her film output, which wrote is it?"},
		{"films which type X", "films which wrote X", "films which wrote X"},
	})
}
