package render

import (
	"fmt"
	"image/color"
	"strconv"

	"arbiter/rules"
	"arbiter/rules/upthrust"
)

// Upthrust's board: 4 columns, 11 rows, rows 7..11 the scoring zone.
const (
	upCols    = 4
	upRows    = 11
	upScoring = 7 // the lowest scoring row
)

// upthrustScene draws Upthrust: row 11 at the top, the point values beside
// the scoring rows and a line under the zone.
func upthrustScene(reuse *scene, g *upthrust.Game) *scene {
	s := newScene(reuse, "Upthrust", grid, upCols, upRows, 4)
	s.squarePx = 40
	s.palette = scenePalette{
		emptyText:  [cellKinds]string{square: "."},
		emptyEmoji: [cellKinds]string{square: "⬜"},
		zoneEmoji:  "🟫",
		fromEmoji:  "🟪",
		hitEmoji:   "💥",
		board:      rgb(0xEC, 0xEC, 0xE6),
		frame:      rgb(0x7A, 0x7A, 0x72),
		zone:       rgb(0xF3, 0xDF, 0xA2),
	}
	white := rgb(0xFF, 0xFF, 0xFF)
	colours := []struct {
		c         upthrust.Colour
		ansi      string
		emoji     string
		fill, ink color.RGBA
	}{
		{upthrust.Green, "1;32", "🟢", rgb(0x2E, 0x9E, 0x4F), white},
		{upthrust.Red, "1;31", "🔴", rgb(0xD6, 0x3A, 0x31), white},
		{upthrust.Blue, "1;34", "🔵", rgb(0x2F, 0x6F, 0xD0), white},
		{upthrust.Yellow, "1;33", "🟡", rgb(0xF2, 0xC2, 0x1B), rgb(0x30, 0x28, 0x00)},
	}
	var piece [4]uint8
	for _, c := range colours {
		letter := string(c.c.Letter())
		piece[c.c] = s.addPiece(pieceStyle{
			text: letter, ansi: c.ansi, emoji: c.emoji, name: c.c.String() + " piece",
			shape: disc, fill: c.fill, stroke: rgb(0x30, 0x30, 0x30), ink: c.ink, letter: letter, size: 0.74,
		})
	}
	below := 0 // pieces below the scoring zone
	for r := 0; r < upRows; r++ {
		row := upRows - r
		s.rowLabels[r] = strconv.Itoa(row)
		if v := upthrust.RowValue(row); v > 0 {
			s.rowNotes[r] = strconv.Itoa(v)
		}
		s.ruleBelow[r] = row == upScoring
		for col := 1; col <= upCols; col++ {
			c := s.at(col-1, r)
			c.zone = row >= upScoring
			if colour, ok := g.PieceAt(col, row); ok {
				c.piece = piece[colour]
				if row < upScoring {
					below++
				}
			}
		}
	}
	for col := 1; col <= upCols; col++ {
		s.colLabels[col-1] = strconv.Itoa(col)
	}

	scores := g.Scores()
	for _, p := range []rules.Player{rules.P1, rules.P2} {
		cs := g.Colours(p)
		s.status.sides[p] = sideStatus{
			pieces:  []uint8{piece[cs[0]], piece[cs[1]]},
			figures: plural(scores[p], "point"),
		}
	}
	s.status.clock = fmt.Sprintf("move %d, %s below the scoring rows", g.Ply()+1, plural(below, "piece"))
	if hist := g.History(); len(hist) > 0 {
		m := hist[len(hist)-1]
		mover := g.PlayerName(g.ToMove().Other())
		colour, col, pass := upthrust.MovePiece(m)
		if pass {
			s.status.last = mover + " passes"
		} else {
			from, to := g.RowBefore(colour, col), g.RowOf(colour, col)
			s.markMove(col-1, upRows-from, col-1, upRows-to)
			s.status.last = fmt.Sprintf("%s %s, row %d to %d", mover, g.FormatMove(m), from, to)
		}
	}
	return s
}
