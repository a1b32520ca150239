package commands

import (
	"bytes"
	"strconv"
	"sync"
	"time"
	"unicode"

	"arbiter/render"
	"arbiter/rules"
	"arbiter/store"
)

// drawing is the memory a reply is written in, kept for the next reply:
// its text (one allocation a reply, the string it ends as) and its board.
type drawing struct {
	text  []byte
	board render.Board
}

// drawings keeps drawings for reuse.
type drawings struct{ pool sync.Pool }

// maxKeptText is the longest text buffer drawings keeps: a longer one is
// left to the collector.
const maxKeptText = 16 << 10

// get returns a drawing with an empty text.
func (d *drawings) get() *drawing {
	if w, ok := d.pool.Get().(*drawing); ok {
		return w
	}
	return &drawing{text: make([]byte, 0, 2048)}
}

// put hands back w, whose text was copied out and whose board is no
// longer in use, for another reply.
func (d *drawings) put(w *drawing) {
	if cap(w.text) > maxKeptText {
		w.text = nil
	}
	w.text = w.text[:0]
	d.pool.Put(w)
}

// redraw is w's board, redrawn as boardOf(g, view) draws it.
func (s *Service) redraw(w *drawing, g *store.Game, view render.View) *render.Board {
	w.board.Redraw(g.State, s.renderOptions(g, view))
	return &w.board
}

// appendCodeBlock turns text, which holds a header, into
// strings.TrimSpace(header + "\n" + render.CodeBlock(board, colour)), the
// board written by appendBoard: a move's reply holds a board of about a
// kilobyte, written once.
func appendCodeBlock(text []byte, colour bool, appendBoard func([]byte) []byte) []byte {
	header := bytes.TrimLeftFunc(text, unicode.IsSpace)
	text = text[:copy(text, header)]
	if len(text) > 0 {
		text = append(text, '\n')
	}
	open, end := render.CodeFences(colour)
	text = appendBoard(append(text, open...))
	return append(text, end...) // the block ends with its fence: nothing to trim
}

// appendSeatTitle appends seatTitle(g, seat) to dst.
func appendSeatTitle(dst []byte, g *store.Game, seat rules.Player) []byte {
	dst = append(dst, g.State.PlayerName(seat)...)
	p := g.Players[seat]
	if p.Kind == store.Bot {
		dst = strconv.AppendInt(append(dst, " (Arbiter, level "...), int64(p.Level), 10)
		return append(dst, ')')
	}
	return append(appendEscapeMarkdown(append(dst, " ("...), rawName(p)), ')')
}

// appendMoveHeader appends moveHeader(g, b, seat, verb, shown) to dst.
func appendMoveHeader(dst []byte, g *store.Game, b *render.Board, seat rules.Player, verb, shown string) []byte {
	dst = append(appendSeatTitle(dst, g, seat), ' ')
	dst = append(append(append(append(dst, verb...), " **"...), shown...), "**"...)
	if effects := b.LastMoveEffects(); effects != "" {
		dst = append(append(dst, ", "...), effects...)
	}
	return append(dst, '.')
}

// appendTurnNote appends turnNote(g) to dst.
func (s *Service) appendTurnNote(dst []byte, g *store.Game) []byte {
	if g.Status != store.Active {
		return dst
	}
	seat := g.State.ToMove()
	p := g.Players[seat]
	switch {
	case flow(g).Challenge:
		return append(append(append(append(dst, label(g.Players[rules.P2])...), ", "...),
			label(g.Players[rules.P1])...), " challenges you: /accept or /decline."...)
	case flow(g).Paused:
		return append(dst, pauseNote(g)...)
	case p.Kind == store.Human:
		dst = append(appendMention(dst, p.UserID), ", your move as "...) // label(p) of a person
		dst = append(append(dst, g.State.PlayerName(seat)...), " (until "...)
		return append(s.appendWhen(dst, g.Deadline), ")."...)
	}
	return append(append(dst, plainName(p)...), " is thinking..."...)
}

// appendWhen appends s.when(t) to dst.
func (s *Service) appendWhen(dst []byte, t time.Time) []byte {
	switch {
	case t.IsZero():
		return append(dst, "no deadline"...)
	case s.cfg.Deadlines != nil:
		return append(dst, s.cfg.Deadlines(t)...)
	}
	return t.In(time.Local).AppendFormat(dst, localTimeLayout)
}
