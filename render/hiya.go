package render

import (
	"fmt"
	"strconv"
	"strings"

	"arbiter/rules"
	"arbiter/rules/hiya"
)

// Hi-Ya!'s board: columns A..G, rows 1..8.
const (
	hiyaCols = 7
	hiyaRows = 8
)

// hiyaScene draws Hi-Ya!: row 8 at the top, South at the bottom. In text a
// piece is its letter (K J S j s) after an arrow for the way its side moves
// on the screen: ^ for the side at the bottom, v for the side at the top.
// In emoji and images South is blue or white and North orange or red.
func hiyaScene(reuse *scene, g *hiya.Game) *scene {
	s := newScene(reuse, "Hi-Ya!", grid, hiyaCols, hiyaRows, 2*5)
	s.textWidth = 4
	s.squarePx = 50
	s.palette = scenePalette{
		emptyText:  [cellKinds]string{square: " ."},
		emptyEmoji: [cellKinds]string{square: "⬜"},
		fromEmoji:  "🟩",
		hitEmoji:   "💥",
		board:      rgb(0xE8, 0xE4, 0xD8),
		boardAlt:   rgb(0xD8, 0xD2, 0xC2),
		frame:      rgb(0x6B, 0x63, 0x55),
	}
	kinds := []hiya.Kind{hiya.King, hiya.Ninja, hiya.Samurai, hiya.MiniNinja, hiya.MiniSamurai}
	emoji := [2][5]string{
		hiya.South: {"💙", "🔷", "🟦", "🔹", "🔵"},
		hiya.North: {"🧡", "🔶", "🟧", "🔸", "🟠"},
	}
	shapes := [5]shape{disc, diamond, box, diamond, box}
	sizes := [5]float64{0.80, 0.84, 0.72, 0.60, 0.52}
	var piece [2][5]uint8
	for _, side := range []hiya.Side{hiya.South, hiya.North} {
		mark, turned := "^", "v"
		fill, stroke, ink, ansi := rgb(0xFA, 0xFA, 0xF5), rgb(0x40, 0x40, 0x40), rgb(0x20, 0x20, 0x20), "1;37"
		if side == hiya.North {
			mark, turned = "v", "^"
			fill, stroke, ink, ansi = rgb(0xC8, 0x32, 0x2C), rgb(0x6A, 0x12, 0x10), rgb(0xFF, 0xFF, 0xFF), "1;31"
		}
		for i, k := range kinds {
			letter := string(k.Letter())
			piece[side][i] = s.addPiece(pieceStyle{
				text: mark + letter, turnedText: turned + letter,
				ansi: ansi, emoji: emoji[side][i], name: side.String() + " " + k.String(),
				shape: shapes[i], fill: fill, stroke: stroke, ink: ink, letter: letter, size: sizes[i],
			})
		}
	}
	var key []string
	for i, k := range kinds {
		key = append(key, s.pieces[piece[hiya.South][i]].emoji+s.pieces[piece[hiya.North][i]].emoji+" "+k.String())
	}
	s.emojiKey = strings.Join(key, ", ")
	var letters []string
	for _, k := range kinds {
		letters = append(letters, string(k.Letter())+" "+k.String())
	}
	s.textKey = append(s.textKey, strings.Join(letters, ", "), "^ a piece moving up the board as drawn, v down")
	s.imageKey = strings.Join(letters, ", ")
	for r := 0; r < hiyaRows; r++ {
		row := hiyaRows - r
		s.rowLabels[r] = strconv.Itoa(row)
		for col := 1; col <= hiyaCols; col++ {
			if k, side, ok := g.PieceAt(col, row); ok && int(k) < len(kinds) {
				s.at(col-1, r).piece = piece[side&1][k]
			}
		}
	}
	for col := 1; col <= hiyaCols; col++ {
		s.colLabels[col-1] = string(rune('A' + col - 1))
	}

	for _, p := range []rules.Player{rules.P1, rules.P2} {
		side := g.SideOf(p)
		s.status.sides[p] = sideStatus{
			pieces:  []uint8{piece[side&1][0]},
			figures: plural(g.Pieces(side), "piece"),
		}
	}
	s.status.clock = fmt.Sprintf("move %d", g.Ply()+1)
	if g.Ply() > 0 {
		hiyaLastMove(s, g)
	}
	return s
}

// hiyaLastMove marks the last move's squares and the piece it attacked, and
// says it in words.
func hiyaLastMove(s *scene, g *hiya.Game) {
	hist := g.History()
	m := hist[len(hist)-1]
	mover := g.SideToMove() ^ 1
	fc, fr, tc, tr := hiya.MoveSquares(m)
	s.markMove(fc-1, hiyaRows-fr, tc-1, hiyaRows-tr)
	last := mover.String() + " " + g.FormatMove(m)
	// The attacked square is one step forward of where the move ended.
	ar := tr + 1
	if mover == hiya.North {
		ar = tr - 1
	}
	was, wasSide, wasThere := g.PieceBefore(tc, ar) // false off the board
	if !wasThere || wasSide == mover {
		s.status.last = last
		return
	}
	last += " " + hiya.Announcement
	square := fmt.Sprintf("%c%d", 'A'+tc-1, ar)
	switch now, _, isThere := g.PieceAt(tc, ar); {
	case !isThere:
		s.setMark(tc-1, hiyaRows-ar, hitMark)
		last += fmt.Sprintf(", %s's %s at %s removed", wasSide, was, square)
	case now != was:
		s.setMark(tc-1, hiyaRows-ar, hitMark)
		last += fmt.Sprintf(", %s's %s at %s hurt to a %s", wasSide, was, square, now)
	}
	s.status.last = last
}
