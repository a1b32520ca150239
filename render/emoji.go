package render

import (
	"strings"

	"arbiter/rules"
)

// Emoji draws g as a grid of emoji for a Discord message (outside a code
// block): the row labels on the left and the column labels below, made of
// keycap digits and letter emoji so that the columns stay aligned (a
// two-digit label takes two emoji, across for a row and stacked for a
// column), then the players, a key, the last move and whose turn it is. The
// square the last move left is marked (🟩, or 🟪 in Upthrust), the square it
// went to by ◀️ after its row and 🔼 under its column, and a square whose
// piece it removed shows 💥. The whole message stays within DiscordLimit.
//
// A game render has no drawing for yields a one-line message saying so.
func Emoji(g rules.Game, opt Options) string { return NewBoard(g, opt).Emoji() }

// Emoji is the package's Emoji of the board's game.
func (b *Board) Emoji() string {
	if b.err != nil {
		return b.err.Error() + "\n"
	}
	var sb strings.Builder
	sb.Grow(2048)
	writeEmoji(&sb, b.s, b.opt)
	return sb.String()
}

// Emoji for labels and the last move's destination, which holds a piece
// and so is marked beside the board: an arrow after its row and one under
// its column.
const (
	emojiToRow = "◀️"
	emojiToCol = "🔼"
	emojiBlank = "⬛"      // the corner and an empty tens place
	zwsp       = "\u200b" // keeps letter emoji from pairing into flags
)

// keycap returns the keycap emoji of a digit.
func keycap(d byte) string { return string(d) + "\ufe0f\u20e3" }

// letterEmoji returns the regional indicator emoji of a letter a-z.
func letterEmoji(l byte) string {
	if l >= 'A' && l <= 'Z' {
		l += 'a' - 'A'
	}
	return string(rune(0x1F1E6 + int(l-'a')))
}

// labelEmoji writes a label as width emoji: digits as keycaps (padded on
// the left with blanks), a letter as its letter emoji.
func labelEmoji(label string, width int) []string {
	out := make([]string, 0, width)
	for i := len(label); i < width; i++ {
		out = append(out, emojiBlank)
	}
	for i := 0; i < len(label); i++ {
		switch c := label[i]; {
		case c >= '0' && c <= '9':
			out = append(out, keycap(c))
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			out = append(out, letterEmoji(c))
		default:
			out = append(out, emojiBlank)
		}
	}
	return out
}

func writeEmoji(b *strings.Builder, s *scene, opt Options) {
	rowWidth, colHeight := longest(s.rowLabels), longest(s.colLabels)
	toCol, toRow := -1, -1
	for i := range s.cells {
		if s.cells[i].mark == toMark {
			toCol, toRow = i%s.cols, i/s.cols
		}
	}
	band := func(i int) string { // an owned edge's square, "" for none
		return s.edges[i].emoji
	}
	sides := 0 // the emoji a row has left of its cells besides its label
	if band(3) != "" {
		sides = 1
	}
	if s.layout == hexes {
		writeEmojiBand(b, s, band(0), hexShift(s, 0), rowWidth+sides)
	}
	for r := 0; r < s.rows; r++ {
		if s.layout == hexes {
			b.WriteString(strings.Repeat(emojiHalfCell, hexShift(s, r)))
		}
		for _, e := range labelEmoji(s.rowLabels[r], rowWidth) {
			b.WriteString(e)
		}
		b.WriteString(band(3))
		for c := 0; c < s.cols; c++ {
			b.WriteString(cellEmoji(s, s.at(c, r)))
		}
		b.WriteString(band(1))
		if s.rowNotes[r] != "" {
			b.WriteString(" " + s.rowNotes[r])
		}
		if toCol >= 0 && toRow == r {
			b.WriteString(" " + emojiToRow)
		}
		b.WriteByte('\n')
	}
	if s.layout == hexes {
		writeEmojiBand(b, s, band(2), 0, rowWidth+sides)
	}
	rowWidth += sides
	// Column labels, one line per digit of the longest.
	labels := make([][]string, s.cols)
	for c, l := range s.colLabels {
		labels[c] = labelEmoji(l, colHeight)
	}
	for line := 0; line < colHeight; line++ {
		b.WriteString(strings.Repeat(emojiBlank, rowWidth))
		for c := range labels {
			e := labels[c][line]
			if c > 0 && isLetterEmoji(e) && isLetterEmoji(labels[c-1][line]) {
				b.WriteString(zwsp)
			}
			b.WriteString(e)
		}
		b.WriteByte('\n')
	}
	if toCol >= 0 {
		// The destination's column: an arrow under its label.
		b.WriteString(strings.Repeat(emojiBlank, rowWidth+toCol) + emojiToCol + "\n")
	}

	for p, side := range s.status.sides {
		for _, k := range side.pieces {
			b.WriteString(s.pieces[k].emoji)
		}
		b.WriteString(" " + sideLine(s, p, opt.Players) + "\n")
	}
	if s.emojiKey != "" {
		b.WriteString(s.emojiKey + "\n")
	}
	if key := marksKey(s, s.palette.fromEmoji, emojiToRow+emojiToCol, s.palette.hitEmoji); key != "" {
		b.WriteString(key + "\n")
	}
	if last := lastLine(s); last != "" {
		b.WriteString(last + "\n")
	}
	b.WriteString(s.title + ": " + stateLine(s, opt.Players) + "\n")
}

// writeEmojiBand writes a line of an owned edge's squares along the
// cells, shifted half cells and after blanks; nothing for no square.
func writeEmojiBand(b *strings.Builder, s *scene, square string, shift, blanks int) {
	if square == "" {
		return
	}
	b.WriteString(strings.Repeat(emojiHalfCell, shift) + strings.Repeat(emojiBlank, blanks) + strings.Repeat(square, s.cols) + "\n")
}

// isLetterEmoji reports whether e is a regional indicator letter.
func isLetterEmoji(e string) bool {
	r := []rune(e)
	return len(r) == 1 && r[0] >= 0x1F1E6 && r[0] <= 0x1F1FF
}

// cellEmoji returns the emoji of one cell.
func cellEmoji(s *scene, c *cell) string {
	switch {
	case c.piece != 0:
		return s.pieces[c.piece].emoji
	case c.mark == fromMark:
		return s.palette.fromEmoji
	case c.mark == hitMark:
		return s.palette.hitEmoji
	case c.zone && s.palette.zoneEmoji != "":
		return s.palette.zoneEmoji
	}
	return s.palette.emptyEmoji[c.kind]
}
