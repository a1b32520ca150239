package render

import (
	"fmt"
	"strconv"

	"arbiter/rules"
	"arbiter/rules/hique"
)

// HiQUE's pieces in emoji.
const (
	hiqueBlackRunner = "🟣"
	hiqueBlackGuard  = "🟪"
	hiqueWhiteRunner = "🟡"
	hiqueWhiteGuard  = "🟨"
)

// hiqueScene draws HiQUE on its 13x13 coordinate grid: runners on the
// squares (both coordinates odd), guards on the points between them (both
// even), Black at the top. Letters follow the rules' diagrams: b and w for
// runners, B and W for guards.
func hiqueScene(reuse *scene, g *hique.Game) *scene {
	const n = 13
	s := newScene(reuse, "HiQUE", lattice, n, n, 4)
	s.squarePx, s.gapPx = 50, 14
	s.palette = scenePalette{
		emptyText:  [cellKinds]string{square: ".", point: "+", hedge: "-", vedge: "|"},
		emptyEmoji: [cellKinds]string{square: "⬜", point: "🟫", hedge: "🟫", vedge: "🟫"},
		fromEmoji:  "🟩",
		hitEmoji:   "💥",
		board:      rgb(0xEE, 0xD9, 0xB0),
		frame:      rgb(0x8A, 0x5A, 0x34),
	}
	dark, light := rgb(0x24, 0x20, 0x1C), rgb(0xFA, 0xF7, 0xF0)
	var runner, guard [2]uint8
	runner[rules.P1] = s.addPiece(pieceStyle{text: "b", ansi: "1;35", emoji: hiqueBlackRunner, name: "Black runner",
		shape: disc, fill: dark, stroke: rgb(0, 0, 0), size: 0.72})
	guard[rules.P1] = s.addPiece(pieceStyle{text: "B", ansi: "1;35", emoji: hiqueBlackGuard, name: "Black guard",
		shape: box, fill: dark, stroke: rgb(0, 0, 0), size: 0.46})
	runner[rules.P2] = s.addPiece(pieceStyle{text: "w", ansi: "1;33", emoji: hiqueWhiteRunner, name: "White runner",
		shape: disc, fill: light, stroke: rgb(0x30, 0x30, 0x30), size: 0.72})
	guard[rules.P2] = s.addPiece(pieceStyle{text: "W", ansi: "1;33", emoji: hiqueWhiteGuard, name: "White guard",
		shape: box, fill: light, stroke: rgb(0x30, 0x30, 0x30), size: 0.46})
	s.emojiKey = hiqueBlackRunner + hiqueWhiteRunner + " runners, " + hiqueBlackGuard + hiqueWhiteGuard + " guards"
	s.textKey = append(s.textKey, "b w runners, B W guards")
	s.imageKey = "discs runners, squares guards"

	for x := 1; x <= n; x++ {
		s.colLabels[x-1] = strconv.Itoa(x)
	}
	for y := 1; y <= n; y++ {
		s.rowLabels[y-1] = strconv.Itoa(y)
		row := s.cells[(y-1)*n : y*n]
		for x := 1; x <= n; x++ {
			c := &row[x-1]
			switch {
			case x%2 == 1 && y%2 == 1:
				c.kind = square
				if p, ok := g.RunnerAt(x, y); ok {
					c.piece = runner[p]
				}
			case x%2 == 0 && y%2 == 0:
				c.kind = point
				if p, ok := g.GuardAt(x, y); ok {
					c.piece = guard[p]
				}
			case x%2 == 1:
				c.kind = hedge
			default:
				c.kind = vedge
			}
		}
	}

	timing := g.TimingScores()
	for _, p := range []rules.Player{rules.P1, rules.P2} {
		s.status.sides[p] = sideStatus{
			pieces:  []uint8{runner[p], guard[p]},
			figures: strconv.Itoa(g.Runners(p)) + " runner" + pluralEnd(g.Runners(p)) + ", timing " + strconv.Itoa(timing[p]),
		}
	}
	if limit := g.TurnLimit(); limit > 0 {
		s.status.clock = "move " + strconv.Itoa(g.Ply()+1) + " of " + strconv.Itoa(limit)
	}
	if g.Ply() > 0 {
		hiqueLastMove(s, g)
	}
	return s
}

// hiqueLastMove marks the last move's points and the runners it removed,
// and says it in words.
func hiqueLastMove(s *scene, g *hique.Game) {
	hist := g.History()
	m := hist[len(hist)-1]
	mover := g.ToMove().Other()
	x1, y1, x2, y2 := hique.MoveCoords(m)
	s.markMove(x1-1, y1-1, x2-1, y2-1)
	var removed [2][]string
	remove := func(owner rules.Player, x, y int) {
		s.setMark(x-1, y-1, hitMark)
		removed[owner] = append(removed[owner], fmt.Sprintf("%d %d", x, y))
	}
	for y := 1; y <= 13; y += 2 {
		for x := 1; x <= 13; x += 2 {
			owner, was := g.RunnerBefore(x, y)
			if _, is := g.RunnerAt(x, y); was && !is && (x != x1 || y != y1) {
				remove(owner, x, y)
			}
		}
	}
	// A runner that stepped between two enemy guards is removed where it
	// went.
	if owner, moved := g.RunnerBefore(x1, y1); moved {
		if _, arrived := g.RunnerAt(x2, y2); !arrived {
			remove(owner, x2, y2)
		}
	}
	s.status.last = g.PlayerName(mover) + " " + g.FormatMove(m) + removals(g, "runner", removed, rules.P1, rules.P2)
}
