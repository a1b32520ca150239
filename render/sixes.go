package render

import (
	"fmt"
	"strconv"

	"arbiter/rules"
	"arbiter/rules/sixes"
)

// sixesSize is the side of Sixes' board.
const sixesSize = 6

// sixesScene draws Sixes: row a at the top, columns 1..6 from the left. X
// is red and O blue in every style.
func sixesScene(reuse *scene, g *sixes.Game) *scene {
	s := newScene(reuse, "Sixes", grid, sixesSize, sixesSize, 2)
	s.palette = scenePalette{
		emptyText:  [cellKinds]string{square: "."},
		emptyEmoji: [cellKinds]string{square: "⬜"},
		fromEmoji:  "🟩",
		hitEmoji:   "💥",
		board:      rgb(0xE9, 0xE6, 0xDC),
		boardAlt:   rgb(0xDA, 0xD5, 0xC6),
		frame:      rgb(0x5E, 0x58, 0x4C),
	}
	var piece [2]uint8
	piece[rules.P1] = s.addPiece(pieceStyle{text: "X", ansi: "1;31", emoji: "🔴", name: g.PlayerName(rules.P1) + " piece",
		shape: disc, fill: rgb(0xC4, 0x3B, 0x2F), stroke: rgb(0x6E, 0x17, 0x10), ink: rgb(0xFF, 0xFF, 0xFF),
		letter: "X", size: 0.74})
	piece[rules.P2] = s.addPiece(pieceStyle{text: "O", ansi: "1;36", emoji: "🔵", name: g.PlayerName(rules.P2) + " piece",
		shape: disc, fill: rgb(0x2E, 0x64, 0xB5), stroke: rgb(0x12, 0x2F, 0x5E), ink: rgb(0xFF, 0xFF, 0xFF),
		letter: "O", size: 0.74})
	for row := 1; row <= sixesSize; row++ {
		s.rowLabels[row-1] = string(rune('a' + row - 1))
		s.colLabels[row-1] = strconv.Itoa(row)
		for col := 1; col <= sixesSize; col++ {
			if p, ok := g.PieceAt(row, col); ok {
				s.at(col-1, row-1).piece = piece[p]
			}
		}
	}
	for _, p := range []rules.Player{rules.P1, rules.P2} {
		s.status.sides[p] = sideStatus{
			pieces:  []uint8{piece[p]},
			figures: plural(g.Pieces(p), "piece"),
		}
	}
	s.status.clock = fmt.Sprintf("move %d of %d, %d left", g.Ply()+1, g.TurnLimit(), g.TurnsLeft())
	if g.Ply() > 0 {
		sixesLastMove(s, g)
	}
	return s
}

// sixesLastMove marks the last move's squares and the pieces it removed, and
// says it in words.
func sixesLastMove(s *scene, g *sixes.Game) {
	hist := g.History()
	m := hist[len(hist)-1]
	mover := g.ToMove().Other()
	fr, fc, tr, tc := sixes.MoveSquares(m)
	s.markMove(fc-1, fr-1, tc-1, tr-1)
	var removed [2][]string
	for row := 1; row <= sixesSize; row++ {
		for col := 1; col <= sixesSize; col++ {
			owner, was := g.PieceBefore(row, col)
			if row == fr && col == fc {
				// The piece that moved is gone from here; it was removed if
				// it is not where it went.
				if _, arrived := g.PieceAt(tr, tc); arrived {
					continue
				}
				row, col := tr, tc
				s.setMark(col-1, row-1, hitMark)
				removed[owner] = append(removed[owner], fmt.Sprintf("%c%d", 'a'+row-1, col))
				continue
			}
			if _, is := g.PieceAt(row, col); was && !is {
				s.setMark(col-1, row-1, hitMark)
				removed[owner] = append(removed[owner], fmt.Sprintf("%c%d", 'a'+row-1, col))
			}
		}
	}
	s.status.last = g.PlayerName(mover) + " " + g.FormatMove(m) + removals(g, "piece", removed, mover.Other(), mover)
}
