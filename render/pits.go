package render

import (
	"image/color"
	"strconv"

	"arbiter/rules"
	"arbiter/rules/described"
)

// keycaps are the emoji of the counts 0 to 10; a larger count shows as
// keycapMore (the text and image boards give every count).
var keycaps = [...]string{"0️⃣", "1️⃣", "2️⃣", "3️⃣", "4️⃣", "5️⃣", "6️⃣", "7️⃣", "8️⃣", "9️⃣", "🔟"}

const keycapMore = "➕"

// pitsScene draws a game on a pits board (Kalah) as the first player sees
// it: player 2's store at the left of the top row and its houses from
// right to left, player 1's houses from left to right on the bottom row
// and its store at the right; each pit shows its seeds.
func pitsScene(reuse *scene, g *described.Pits) *scene {
	n := g.Houses()
	s := newScene(reuse, g.Title(), grid, n+2, 2, 2*(2*n+2)+1)
	s.textWidth = 4
	s.squarePx = 56
	s.palette = scenePalette{
		emptyText:  [cellKinds]string{square: " "},
		emptyEmoji: [cellKinds]string{square: "⬛"},
		fromEmoji:  "🟩",
		hitEmoji:   "💥",
		board:      rgb(0xA0, 0x52, 0x2D),
		boardAlt:   rgb(0xA0, 0x52, 0x2D),
		frame:      rgb(0x5A, 0x2E, 0x1A),
	}
	if c, ok := g.BoardColour(); ok {
		s.palette.board, s.palette.boardAlt = rgb(c[0], c[1], c[2]), rgb(c[0], c[1], c[2])
	}
	var fill, stroke, ink [2]color.RGBA
	for _, p := range []rules.Player{rules.P1, rules.P2} {
		c, ok := g.PlayerColour(p)
		if !ok {
			c = describedColour[p]
		}
		fill[p], stroke[p], ink[p] = rgb(c[0], c[1], c[2]), rgb(c[0]/2, c[1]/2, c[2]/2), rgb(0xFF, 0xFF, 0xFF)
		if int(c[0])*299+int(c[1])*587+int(c[2])*114 > 150000 {
			ink[p] = rgb(0x20, 0x20, 0x20)
		}
	}
	pit := func(p rules.Player, seeds int, store bool, name string) uint8 {
		emoji := keycapMore
		if seeds < len(keycaps) {
			emoji = keycaps[seeds]
		}
		st := pieceStyle{text: strconv.Itoa(seeds), ansi: describedANSI[p], emoji: emoji, name: name + ": " + plural(seeds, "seed"),
			shape: disc, fill: fill[p], stroke: stroke[p], ink: ink[p], letter: strconv.Itoa(seeds), size: 0.8}
		if store {
			st.shape, st.size = box, 0.86
		}
		return s.addPiece(st)
	}
	south, north := rules.P1, rules.P2
	s.rowLabels[0], s.rowLabels[1] = g.PlayerName(north)[:1], g.PlayerName(south)[:1]
	s.topLabels = make([]string, n+2) // the far row's houses count from the right
	for h := 1; h <= n; h++ {
		s.colLabels[h] = strconv.Itoa(h)
		s.topLabels[n+1-h] = strconv.Itoa(h)
		s.at(h, 1).piece = pit(south, g.House(south, h), false, g.PlayerName(south)+" house "+strconv.Itoa(h))
		s.at(n+1-h, 0).piece = pit(north, g.House(north, h), false, g.PlayerName(north)+" house "+strconv.Itoa(h))
	}
	s.pits = true
	s.at(0, 1).void, s.at(n+1, 0).void = true, true
	s.at(0, 0).piece = pit(north, g.Store(north), true, g.PlayerName(north)+" store")
	s.at(n+1, 1).piece = pit(south, g.Store(south), true, g.PlayerName(south)+" store")
	s.textKey = append(s.textKey, g.PlayerName(south)+"'s houses are 1 to "+strconv.Itoa(n)+" from the left, "+
		g.PlayerName(north)+"'s 1 to "+strconv.Itoa(n)+" from the right; the stores are at the ends")
	for _, p := range []rules.Player{south, north} {
		s.status.sides[p] = sideStatus{figures: plural(g.Store(p), "seed") + " in store"}
	}
	if mover, ok := g.LastMover(); ok {
		m := g.History()[g.Ply()-1]
		h, _ := strconv.Atoi(g.FormatMove(m))
		// The house sown is the move's one cell (a click on it plays it).
		c, r := h, 1
		if mover != south {
			c, r = n+1-h, 0
		}
		s.setMark(c, r, fromMark)
		s.moved[1] = r*s.cols + c
		s.status.last = g.PlayerName(mover) + " " + g.FormatMove(m)
		if g.Status() == rules.Ongoing && g.ToMove() == mover {
			s.status.last += ", moving again"
		}
	}
	return s
}
