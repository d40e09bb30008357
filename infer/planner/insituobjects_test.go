package planner

import "testing"

// TestInSituObjects: "Ann Lee's movie put whom in front of the camera?"
// names movies before its question word, which does not close it and
// follows no preposition, so castPlanner answers with her film (node 1)
// with InSituWh alone. With InSituObjects "whom", the object of "put",
// asks for what "who" asked for opening 10 training questions, a person,
// and her film's director (Paul Smith, node 0) answers. A stop word
// before it ("is whom"), a mark between ("put, whom"), a noun that is no
// verb ("the director whom"), a noun after a determiner ("put which
// director") and a verb after it in its clause (a relative clause) leave
// it asking nothing.
func TestInSituObjects(t *testing.T) {
	const q = "Ann Lee's movie put whom in front of the camera?"
	inSituRule(t, "InSituObjects", func(a *AnchorConfig, on bool) { a.InSituWh, a.InSituObjects = true, on }, q, []whCase{
		{q, "person"},
		{"Ann Lee's movie featured whom over the years?", "person"},
		{"Ann Lee's movie is whom in the end?", ""},
		{"Ann Lee's movie put, whom in front of the camera?", ""},
		{"Ann Lee's movie had the director whom in the end?", ""},
		{"Ann Lee's movie put which director in charge?", ""},
		{"Ann Lee's movie put whom Ann Lee hired in front?", ""},
	})
}
