package planner

import (
	"slices"
	"strings"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/graphops/linking"
)

// nameSubject is a mention a question makes the subject of a verb that
// names a relation (AnchorConfig.NameSubjects): the mention's last word
// index + 1 (TokEnd) and the relations the verb names alone.
type nameSubject struct {
	end  int
	rels []string
}

// nameSubjects reads the mentions of text that are a verb's subject: a
// strong mention outside quotations, after no preposition ("films
// directed by X star Y": the films star), no possessive (possessiveAt),
// right before a verb (a do- or have-auxiliary between allowed: "X has
// acted in"), a form the lexicon has as a verb's that is no -ing
// participle and has no "by" after it
// ("films with X directed by Y" says how the films were made, not what X
// did), and that names one relation alone (namedRelations). "Titles
// where X directed and Y acted?" says what X and Y did: each is an
// anchor whose first step walks its verb's relation, whatever the
// question asks for. Nil without NameSubjects or a lexicon.
func (p *LinkingPlanner) nameSubjects(text string, ments []linking.LinkedMention, read map[string]bool) []nameSubject {
	lex := p.names.lex
	if !p.Cfg.Anchors.NameSubjects || lex == nil || len(ments) == 0 {
		return nil
	}
	words := linking.MentionWords(text)
	lower := func(i int) string { return strings.ToLower(text[words[i].Start:words[i].End]) }
	quoted := quotedSpans(text, false)
	var out []nameSubject
	for mi := range ments {
		m := &ments[mi]
		if !p.strong(m) || inSpans(m.Start, nil, quoted) || slices.ContainsFunc(out, func(s nameSubject) bool { return s.end == m.TokEnd }) {
			continue
		}
		// A name after a preposition is its object: "films directed by X
		// star Y" has the films star.
		if m.TokStart > 0 && m.TokStart <= len(words) && prepositions[lower(m.TokStart-1)] {
			continue
		}
		v := m.TokEnd
		if v < len(words) && doHave[lower(v)] {
			v++
		}
		// Nothing but spaces between: "X, directed" and "X's scripts"
		// are no subject and verb.
		if v >= len(words) || m.TokEnd < 1 || possessiveAt(text, words[m.TokEnd-1]) || strings.TrimSpace(text[words[m.TokEnd-1].End:words[m.TokEnd].Start]) != "" {
			continue
		}
		w := lower(v)
		if strings.HasSuffix(w, "ing") || !lex.IsVerbForm(w) || v+1 < len(words) && lower(v+1) == "by" {
			continue
		}
		if named := p.namedRelations(w, read); len(named) == 1 {
			out = append(out, nameSubject{end: m.TokEnd, rels: named[0]})
		}
	}
	return out
}

// nameSubjectMisses reports whether candidate c leaves a subject of
// subjects (nameSubjects) unanchored, or anchors it on a path whose first
// step walks none of the relations its verb names.
func nameSubjectMisses(subjects []nameSubject, ments []linking.LinkedMention, c *PlanCandidate) bool {
	for _, s := range subjects {
		ok := false
		for pi, a := range c.Mentions {
			if a < 0 || a >= len(ments) || pi >= len(c.Plan.Paths) || ments[a].TokEnd != s.end {
				continue
			}
			if steps := c.Plan.Paths[pi].Steps; len(steps) > 0 && slices.ContainsFunc(steps[0].Rels, func(r data.RelStep) bool { return slices.Contains(s.rels, r.Rel) }) {
				ok = true
				break
			}
		}
		if !ok {
			return true
		}
	}
	return false
}
