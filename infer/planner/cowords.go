package planner

import (
	"slices"
	"strings"

	"github.com/strata-retrieval/strata/data"
	"github.com/strata-retrieval/strata/graphops/linking"
)

// minCoRest is the shortest word "co" may prefix without a hyphen and
// still make a co-word of it ("costar", "cowrote"; "cost" and "cook" are
// no co-words).
const minCoRest = 4

// coRelations returns, for each co-word of text outside its quotations
// (CoWords), the relations the word after "co" names (namedRelations,
// read as for it): "co-stars" (two words to linking.MentionWords) and
// "costars" name what "stars" names. A
// word no relation is named by after "co" ("collection", "cost") is
// none.
func (p *LinkingPlanner) coRelations(text string, read map[string]bool) [][]string {
	if !p.Cfg.Anchors.CoWords {
		return nil
	}
	text = unquoted(text)
	ws := linking.MentionWords(text)
	var out [][]string
	for i, w := range ws {
		var rest string
		switch lw := strings.ToLower(text[w.Start:w.End]); {
		case lw == "co" && i+1 < len(ws) && ws[i+1].Start == w.End+1 && text[w.End] == '-':
			rest = text[ws[i+1].Start:ws[i+1].End]
		case strings.HasPrefix(lw, "co") && len(lw) >= len("co")+minCoRest:
			rest = lw[len("co"):]
		default:
			continue
		}
		for _, rels := range p.namedRelations(rest, read) {
			out = append(out, rels)
		}
	}
	if p.Cfg.Anchors.SharedWith {
		out = append(out, p.sharedWith(text, ws, read)...)
	}
	return out
}

// sharedWith returns, for each form of the verb "share" in text (its
// words ws) with a "with" after it (SharedWith), the relations the words
// between the two name, or every relation of the schema where they name
// none: "Who has shared the screen with X?" asks, as a co-word does, for
// the nodes that share a neighbour with X, along whatever relation X has
// ("the screen" names none); "Which films share a screenwriter with X?"
// along the one "screenwriter" names.
func (p *LinkingPlanner) sharedWith(text string, ws []linking.Word, read map[string]bool) [][]string {
	lex := p.names.lex
	if lex == nil {
		return nil
	}
	var out [][]string
	for i, w := range ws {
		lw := strings.ToLower(text[w.Start:w.End])
		if lw != "share" && !slices.Contains(lex.Bases(lw), "share") || !lex.IsVerbForm(lw) {
			continue
		}
		for j := i + 1; j < len(ws); j++ {
			if strings.ToLower(text[ws[j].Start:ws[j].End]) != "with" {
				continue
			}
			var rels []string
			for _, named := range p.namedRelations(text[w.End:ws[j].Start], read) {
				for _, r := range named {
					if !slices.Contains(rels, r) {
						rels = append(rels, r)
					}
				}
			}
			if len(rels) == 0 {
				for r := range p.names.rels {
					rels = append(rels, r)
				}
			}
			slices.Sort(rels)
			out = append(out, rels)
			break
		}
	}
	return out
}

// sharesAlong reports whether plan reaches nodes that share a neighbour
// along one of rels with an anchor: a path walks the relation from its
// anchor into a node and straight back out of it (X <-starred_actors
// movie ->starred_actors person: X's co-stars), or two paths start
// walking it the same way from their anchors (X <-starred_actors movie
// and Y <-starred_actors movie: the films X co-starred in with Y). A
// walk back along the relation further on shares nothing with the
// anchor (X <-directed_by movie ->written_by person <-written_by movie
// are films of the writers of X's films, not X's co-writers).
func sharesAlong(plan *data.Plan, rels []string) bool {
	var first []data.RelStep
	for _, path := range plan.Paths {
		if len(path.Steps) == 0 {
			continue
		}
		for _, a := range path.Steps[0].Rels {
			if !slices.Contains(rels, a.Rel) {
				continue
			}
			if slices.Contains(first, a) {
				return true
			}
			first = append(first, a)
			if a.Dir != data.Undirected && len(path.Steps) > 1 && slices.Contains(path.Steps[1].Rels, a.Reverse()) {
				return true
			}
		}
	}
	return false
}

// coMisses reports whether c walks none of the relations a co-word of
// the question outside c's anchors names into a node and back out
// (CoWords, coRelations, sharesAlong).
func (p *LinkingPlanner) coMisses(text string, ments []linking.LinkedMention, c *PlanCandidate, read map[string]bool) bool {
	if !p.Cfg.Anchors.CoWords {
		return false
	}
	for _, rels := range p.coRelations(linking.RestrictionText(text, ments, c.Mentions), read) {
		if !sharesAlong(&c.Plan, rels) {
			return true
		}
	}
	return false
}
