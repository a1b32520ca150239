package render

import (
	"strconv"

	"arbiter/rules"
	"arbiter/rules/described"
)

// dotsScene draws a game on a dots board (Dots and Boxes) on a lattice:
// the dots at the points, the drawn lines on the borders between the
// boxes, and each completed box in its owner's colour.
func dotsScene(reuse *scene, g *described.Dots) *scene {
	cols, rows := g.Boxes()
	w, h := 2*cols+1, 2*rows+1
	s := newScene(reuse, g.Title(), lattice, w, h, 5)
	s.openLattice = true
	s.squarePx, s.gapPx = 56, 8
	s.palette = scenePalette{
		emptyText:  [cellKinds]string{square: " ", point: "+", hedge: " ", vedge: " "},
		emptyEmoji: [cellKinds]string{square: "⬜", point: "⚫", hedge: "⬜", vedge: "⬜"},
		fromEmoji:  "🟩",
		hitEmoji:   "💥",
		board:      rgb(0xF5, 0xF0, 0xE1),
		frame:      rgb(0xE2, 0xDC, 0xC8),
	}
	if c, ok := g.BoardColour(); ok {
		s.palette.board = rgb(c[0], c[1], c[2])
		s.palette.frame = rgb(c[0]-c[0]/12, c[1]-c[1]/12, c[2]-c[2]/12)
	}
	ink := rgb(0x20, 0x20, 0x20)
	dot := s.addPiece(pieceStyle{text: "+", emoji: "⚫", name: "dot", shape: disc, fill: ink, stroke: ink, size: 0.3})
	across := s.addPiece(pieceStyle{text: "-", emoji: "⬛", name: "line", shape: bar, fill: ink, stroke: ink})
	down := s.addPiece(pieceStyle{text: "|", emoji: "⬛", name: "line", shape: bar, fill: ink, stroke: ink})
	var owned [2]uint8
	for _, p := range []rules.Player{rules.P1, rules.P2} {
		emoji := g.PlayerEmoji(p)
		if emoji == "" {
			emoji = describedEmoji[p]
		}
		c, ok := g.PlayerColour(p)
		if !ok {
			c = describedColour[p]
		}
		letter := g.BoxText(p)
		owned[p] = s.addPiece(pieceStyle{text: letter, ansi: describedANSI[p], emoji: emoji, name: g.PlayerName(p) + " box",
			shape: box, fill: rgb(c[0], c[1], c[2]), stroke: rgb(c[0]/2, c[1]/2, c[2]/2), ink: rgb(0xFF, 0xFF, 0xFF), letter: letter, size: 0.8})
	}
	// Display row 0 is the top: dot row y (from 0 at the bottom) is
	// display row h-1-2y.
	for x := range w {
		s.colLabels[x] = ""
		if x%2 == 0 {
			s.colLabels[x] = string(rune('a' + x/2))
		}
	}
	for r := range h {
		s.rowLabels[r] = ""
		if r%2 == 0 {
			s.rowLabels[r] = strconv.Itoa((h-1-r)/2 + 1)
		}
		for x := range w {
			c := s.at(x, r)
			switch {
			case x%2 == 0 && r%2 == 0:
				c.kind, c.piece = point, dot
			case r%2 == 0:
				c.kind = hedge
			case x%2 == 0:
				c.kind = vedge
			default:
				if p, ok := g.BoxOwner(x/2, (h-2-r)/2); ok {
					c.piece = owned[p]
				}
			}
		}
	}
	last := -1
	if g.Ply() > 0 {
		last, _ = g.LineOf(g.History()[g.Ply()-1])
	}
	for l := range g.Lines() {
		x0, y0, x1, y1 := g.LineEnds(l)
		cx, cy := x0+x1, h-1-(y0+y1)
		if !g.Drawn(l) {
			continue
		}
		if y0 == y1 {
			s.at(cx, cy).piece = across
		} else {
			s.at(cx, cy).piece = down
		}
		if l == last {
			s.setMark(cx, cy, toMark)
			s.moved[1] = cy*s.cols + cx
		}
	}
	for _, p := range []rules.Player{rules.P1, rules.P2} {
		s.status.sides[p] = sideStatus{pieces: []uint8{owned[p]}, figures: boxes(g.Score(p))}
	}
	if mover, ok := g.LastMover(); ok {
		s.status.last = g.PlayerName(mover) + " " + g.FormatMove(g.History()[g.Ply()-1])
		if g.Status() == rules.Ongoing && g.ToMove() == mover {
			s.status.last += ", completing a box and moving again"
		}
	}
	return s
}

// boxes counts boxes in words: "1 box", "3 boxes".
func boxes(n int) string {
	if n == 1 {
		return "1 box"
	}
	return strconv.Itoa(n) + " boxes"
}
