package analysis

import (
	"fmt"
	"strings"

	"arbiter/rules"
)

// maxTerms is the most quantities a move's explanation names.
const maxTerms = 3

// inTerms says, in the game's own quantities (rules.Counter), how the line
// the engine expects after the best move and the one after the move played
// (move i) end for the mover: the quantities whose lead over the opponent
// differs between them, e.g. "at the end of the expected lines, c4 leaves
// the mover 3 to 2 in pieces and 12 to 9 in legal moves; this move 2 to 2
// and 9 to 12". It is "" for a game that does not count its
// positions, or when the lines end level in every quantity.
func (p *Plan) inTerms(i int, before, after Verdict) string {
	start := p.positions[i]
	if _, ok := start.(rules.Counter); !ok || before.Best == rules.NoMove {
		return ""
	}
	mover := start.ToMove()
	bestLine := before.Line
	if len(bestLine) == 0 || bestLine[0] != before.Best {
		bestLine = []rules.Move{before.Best}
	}
	best := endTerms(start, bestLine)
	played := endTerms(start, append([]rules.Move{p.moves[i]}, after.Line...))
	if len(best) != len(played) {
		return ""
	}
	var withBest, withPlayed []string
	for k := range best {
		lead := func(t rules.Term) int { return t.Count[mover] - t.Count[mover^1] }
		if lead(best[k]) == lead(played[k]) || len(withBest) == maxTerms {
			continue
		}
		withBest = append(withBest, fmt.Sprintf("%d to %d in %s", best[k].Count[mover], best[k].Count[mover^1], best[k].Name))
		withPlayed = append(withPlayed, fmt.Sprintf("%d to %d", played[k].Count[mover], played[k].Count[mover^1]))
	}
	if len(withBest) == 0 {
		return ""
	}
	return fmt.Sprintf("at the end of the expected lines, %s leaves the mover %s; this move %s",
		start.FormatMove(before.Best), joinAnd(withBest), joinAnd(withPlayed))
}

// endTerms plays line on a copy of g, as far as its moves are legal and
// the game goes on, and counts the position it ends in.
func endTerms(g rules.Game, line []rules.Move) []rules.Term {
	g = g.Clone()
	var list rules.MoveList
	for _, m := range line {
		if g.Status() != rules.Ongoing {
			break
		}
		g.Moves(&list)
		if !list.Contains(m) {
			break
		}
		g.Play(m)
	}
	return g.(rules.Counter).Terms()
}

// joinAnd joins parts as a list in words: "a", "a and b", "a, b and c".
func joinAnd(parts []string) string {
	if len(parts) < 2 {
		return strings.Join(parts, "")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}
