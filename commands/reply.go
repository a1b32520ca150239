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

// textBufs keeps the buffers a reply's text is written into, so that a
// move's reply costs one allocation for its text (the string it ends as).
type textBufs struct{ pool sync.Pool }

// maxKeptText is the largest buffer textBufs keeps: an image style's or a
// long listing's buffer is left to the collector.
const maxKeptText = 16 << 10

// get returns an empty buffer.
func (t *textBufs) get() *[]byte {
	if p, ok := t.pool.Get().(*[]byte); ok {
		return p
	}
	buf := make([]byte, 0, 2048)
	return &buf
}

// put hands back buf, whose text was copied out, for another reply.
func (t *textBufs) put(p *[]byte, buf []byte) {
	if cap(buf) > maxKeptText {
		return
	}
	*p = buf[:0]
	t.pool.Put(p)
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
		dst = append(append(append(dst, "<@"...), p.UserID...), ">, your move as "...) // label(p)
		dst = append(append(dst, g.State.PlayerName(seat)...), " (until "...)
		return append(s.appendWhen(dst, g.Deadline), ")."...)
	}
	return append(append(dst, plainName(p)...), " is thinking..."...)
}

// appendWhen appends s.when(t) to dst.
func (s *Service) appendWhen(dst []byte, t time.Time) []byte {
	if t.IsZero() || s.cfg.Deadlines != nil {
		return append(dst, s.when(t)...)
	}
	return t.In(time.Local).AppendFormat(dst, localTimeLayout)
}
