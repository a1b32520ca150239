package render

import (
	"fmt"
	"strconv"
	"strings"

	"arbiter/rules"
	"arbiter/rules/described"
)

// Default looks of a described game's players when its file gives none.
var (
	describedEmoji  = [2]string{"🔴", "🔵"}
	describedColour = [2][3]uint8{{0xC4, 0x3B, 0x2F}, {0x2E, 0x64, 0xB5}}
	describedANSI   = [2]string{"1;31", "1;36"}
)

// describedScene draws a game described in a file: its grid as the
// notation numbers it, each player's pieces in the file's text, emoji and
// colour (red and blue when it gives none).
func describedScene(reuse *scene, g *described.Game) *scene {
	cols, rows := g.Size()
	kinds := g.PieceNames()
	l := grid
	if g.Hexagonal() {
		l = hexes
	}
	if g.Graph() {
		l = points
	}
	s := newScene(reuse, g.Title(), l, cols, rows, 2*len(kinds)+1)
	s.blockSide = g.TurningBlock()
	if l == hexes {
		// About 560 pixels across the rhombus, 28 to 56 a cell.
		s.squarePx = min(56, max(28, 1120/(2*cols+rows-1)))
	}
	s.palette = scenePalette{
		emptyText:  [cellKinds]string{square: "."},
		emptyEmoji: [cellKinds]string{square: "⬜"},
		fromEmoji:  "🟩",
		hitEmoji:   "💥",
		board:      rgb(0xE9, 0xE6, 0xDC),
		boardAlt:   rgb(0xDA, 0xD5, 0xC6),
		frame:      rgb(0x5E, 0x58, 0x4C),
	}
	colours, emoji := g.BoardLook()
	if len(colours) > 0 {
		c, alt := colours[0], colours[len(colours)-1]
		s.palette.board, s.palette.boardAlt = rgb(c[0], c[1], c[2]), rgb(alt[0], alt[1], alt[2])
	}
	if emoji != "" {
		s.palette.emptyEmoji[square] = emoji
	}
	style := make([][2]uint8, len(kinds))
	for _, p := range []rules.Player{rules.P1, rules.P2} {
		emoji := g.PlayerEmoji(p)
		if emoji == "" {
			emoji = describedEmoji[p]
		}
		c, ok := g.PlayerColour(p)
		if !ok {
			c = describedColour[p]
		}
		fill := rgb(c[0], c[1], c[2])
		ink, stroke := rgb(0xFF, 0xFF, 0xFF), rgb(c[0]/2, c[1]/2, c[2]/2)
		if int(c[0])*299+int(c[1])*587+int(c[2])*114 > 150000 {
			ink, stroke = rgb(0x20, 0x20, 0x20), rgb(0x50, 0x50, 0x50)
		}
		if owner, ok := g.EdgeOwners(); true {
			for i := range owner {
				if ok[i] && owner[i] == p {
					s.edges[i] = edgeLook{colour: fill, emoji: squareEmoji(emoji), owner: g.PlayerName(p)}
				}
			}
		}
		for k, name := range kinds {
			style[k][p] = s.addPiece(pieceStyle{text: g.PieceText(k, p), ansi: describedANSI[p], emoji: emoji, name: g.PlayerName(p) + " " + name,
				shape: disc, fill: fill, stroke: stroke, ink: ink, letter: g.PieceLetter(k), size: 0.74})
		}
	}
	// A blocker shot by a move (an arrow of the Amazons): no player's, a
	// dark square.
	var blocked uint8
	if g.Shoots() {
		blocked = s.addPiece(pieceStyle{text: "#", ansi: "1;33", emoji: "🟫", name: "arrow",
			shape: box, fill: rgb(0x4A, 0x4A, 0x4A), stroke: rgb(0xF0, 0xE6, 0xD0), ink: rgb(0xFF, 0xFF, 0xFF), size: 0.7})
		s.textKey = append(s.textKey, "# arrow")
		s.emojiKey = "🟫 arrow"
	}
	for c := range cols {
		s.colLabels[c] = g.ColumnLabel(c)
	}
	if g.Graph() {
		pointsScene(s, g)
	}
	for r := range rows {
		s.rowLabels[r] = g.RowLabel(r)
		for c := range cols {
			if p, k, ok := g.At(c, r); ok {
				s.at(c, r).piece = style[k][p]
			} else if blocked != 0 && g.Blocked(c, r) {
				s.at(c, r).piece = blocked
			}
		}
	}
	for _, p := range []rules.Player{rules.P1, rules.P2} {
		side := sideStatus{figures: plural(g.Pieces(p), "piece")}
		if g.OnlyPlaces() { // nothing is taken: the count is what was placed
			side.figures = strconv.Itoa(g.Pieces(p)) + " placed"
		}
		if n := g.InHand(p); n > 0 {
			side.figures += ", " + strconv.Itoa(n) + " to place"
		}
		for k := range kinds {
			side.pieces = append(side.pieces, style[k][p])
		}
		s.status.sides[p] = side
	}
	if key := edgesKey(s); key != "" {
		s.textKey = append(s.textKey, key)
		s.imageKey = key
	}
	if blocked != 0 && s.imageKey == "" {
		s.imageKey = "grey squares: arrows"
	}
	if len(kinds) > 1 {
		var names []string
		for k, name := range kinds {
			names = append(names, g.PieceText(k, rules.P1)+" "+g.PieceText(k, rules.P2)+" "+name)
		}
		s.textKey = append(s.textKey, strings.Join(names, ", "))
	}
	if g.Ply() > 0 {
		describedLastMove(s, g)
	}
	return s
}

// describedLastMove marks the last move's squares and what it changed
// besides: pieces removed and pieces that changed hands (flipped).
func describedLastMove(s *scene, g *described.Game) {
	hist := g.History()
	m := hist[len(hist)-1]
	mover := g.ToMove().Other()
	text := g.PlayerName(mover) + " " + g.FormatMove(m)
	fc, fr, tc, tr, hasFrom, ok := g.MoveSquares(m)
	if !ok {
		s.status.last = text
		return
	}
	if hasFrom {
		s.markMove(fc, fr, tc, tr)
	} else {
		s.setMark(tc, tr, toMark)
		s.moved[1] = tr*s.cols + tc
	}
	if g.TurnsBlocks() {
		// The turn moves pieces; none is removed or turned over, and the
		// move's text says which block turned.
		s.status.last = text
		return
	}
	var removed [2][]string
	flipped := 0
	cols, rows := g.Size()
	for r := range rows {
		for c := range cols {
			if (c == tc && r == tr) || (hasFrom && c == fc && r == fr) {
				continue
			}
			was, _, had := g.AtBefore(c, r)
			is, _, has := g.At(c, r)
			switch {
			case had && !has:
				s.setMark(c, r, hitMark)
				removed[was] = append(removed[was], g.ColumnLabel(c)+g.RowLabel(r))
			case had && has && was != is:
				flipped++
			}
		}
	}
	if was, _, had := g.AtBefore(tc, tr); had && was != mover {
		removed[was] = append(removed[was], g.ColumnLabel(tc)+g.RowLabel(tr))
	}
	text += removals(g, "piece", removed, mover.Other(), mover)
	if flipped > 0 {
		text += fmt.Sprintf(", turning %s", plural(flipped, "piece"))
	}
	s.status.last = text
}
