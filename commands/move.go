package commands

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"arbiter/render"
	"arbiter/rules"
	"arbiter/store"
)

// playable returns the seat of the invoker in g when they may act in a
// game going on, or a refusal that says why not.
func playable(g *store.Game, inv Invocation) (rules.Player, *Reply) {
	seat, ok := seatOf(g, inv.User.ID)
	var why Reply
	switch {
	case flow(g).Challenge && challenged(g).UserID == inv.User.ID:
		why = refuse("%s challenges you; /accept the challenge first (or /decline it)", label(challenger(g)))
	case flow(g).Challenge:
		why = refuse("the challenge has not been accepted yet: %s can /accept it", label(challenged(g)))
	case !ok:
		why = refuse("you are not playing in this game; /board shows it")
	case flow(g).Paused:
		why = refuse("the game is paused by a referee; it goes on when they /referee resume it")
	default:
		return seat, nil
	}
	r := why // on the heap only when refused
	return seat, &r
}

// loadPlayable loads the game here and the invoker's seat in it, when
// they may act in it now; else a refusal that says why not.
func (s *Service) loadPlayable(ctx context.Context, inv Invocation) (*store.Game, rules.Player, *Reply) {
	g, r := s.load(ctx, inv)
	if r != nil {
		return nil, 0, r
	}
	seat, r := playable(g, inv)
	return g, seat, r
}

// move is /move: the player to move plays a move. The move is tried
// first on the game as this process last saved it (no read of the
// store): the save's compare-and-set on the version keeps a stale copy
// from writing over a newer game, and anything but a saved move there (a
// refusal, which the stale copy may have caused, or a conflict) is tried
// again on the game as stored. A save whose outcome is unknown is never
// tried again.
func (s *Service) move(ctx context.Context, inv Invocation) Reply {
	if inv.Version == 0 {
		if g := s.cached.take(inv.Channel); g != nil {
			if r, final := s.playMove(ctx, inv, g); final {
				return r
			}
		}
	}
	g, r := s.load(ctx, inv)
	if r != nil {
		return *r
	}
	reply, _ := s.playMove(ctx, inv, g)
	return reply
}

// playMove plays inv's move in g and saves it, keeping the saved game for
// the channel's next move. final is false when nothing was written: the
// move was refused before its save, or the save found that the game had
// moved on.
func (s *Service) playMove(ctx context.Context, inv Invocation, g *store.Game) (r Reply, final bool) {
	text := strings.TrimSpace(inv.Options["move"])
	seat, refusal := playable(g, inv)
	switch {
	case refusal != nil:
		return *refusal, false
	case text == "":
		return refuse("give a move%s; /moves lists the legal ones", moveExample(g)), false
	case seat != g.State.ToMove():
		return refuse("it is %s's turn, not yours", label(g.Players[g.State.ToMove()])), false
	}
	m, err := g.State.ParseMove(text)
	if err != nil {
		var me *rules.MoveError
		if errors.As(err, &me) {
			return refuse("%s", me.Text), false
		}
		return refuse("%v", err), false
	}
	text, shown := moveTexts(g.State, m)
	now := s.now()
	g.State.Play(m)
	g.Moves = append(g.Moves, store.Move{Text: text, Seat: seat, By: inv.User.ID, At: now})
	notes := s.afterMove(g, now)
	if premoved := s.premoveAnswer(g, seat, now); premoved != "" {
		notes = append(append(notes, premoved), s.afterMove(g, now)...)
	}
	if err := s.saveAndFollow(ctx, g); err != nil {
		moved := errors.Is(err, store.ErrConflict) && !errors.Is(err, store.ErrUnavailable)
		return s.storeRefusal(inv, err), !moved
	}
	reply := Reply{Message: s.playedMessage(g, seat, "played", shown, notes)}
	s.cfg.Meter.Move(g.Name, false)
	s.keep(g)
	return reply, true
}

// moveMessage announces a move with the board, the notes (forced passes)
// and what comes next: the result, or whose turn it is.
func (s *Service) moveMessage(g *store.Game, header string, notes []string) Message {
	w := s.drawings.get()
	w.text = append(w.text, header...)
	msg := s.moveMessageOn(g, s.redraw(w, g, publicView), &w.text, notes)
	s.drawings.put(w)
	return msg
}

// playedMessage is moveMessage for seat's move with moveHeader's words,
// from one board built for both.
func (s *Service) playedMessage(g *store.Game, seat rules.Player, verb, shown string, notes []string) Message {
	w := s.drawings.get()
	b := s.redraw(w, g, publicView)
	w.text = appendMoveHeader(w.text, g, b, seat, verb, shown)
	msg := s.moveMessageOn(g, b, &w.text, notes)
	s.drawings.put(w)
	return msg
}

// moveMessageOn is moveMessage with g's board b, seen from publicView, and
// the header written in *text.
func (s *Service) moveMessageOn(g *store.Game, b *render.Board, text *[]byte, notes []string) Message {
	*text = append(*text, '\n')
	for _, n := range notes {
		*text = append(append(*text, n...), '\n')
	}
	if g.Status == store.Finished {
		*text = append(*text, resultText(g)...)
	} else {
		*text = s.appendTurnNote(*text, g)
	}
	msg := s.styledBoardOn(g, b, text, flow(g).Style)
	msg.Mentions = mentionsFor(g)
	return msg
}

// moves is /moves: the legal moves, or those of the piece on a square.
func (s *Service) moves(ctx context.Context, inv Invocation) Reply {
	g, r := s.load(ctx, inv)
	if r != nil {
		return *r
	}
	from := normaliseMoveText(inv.Options["from"])
	var list rules.MoveList
	g.State.Moves(&list)
	var texts []string
	for _, m := range list.Slice() {
		t := g.State.FormatMove(m)
		if strings.HasPrefix(normaliseMoveText(t), from) {
			texts = append(texts, t)
		}
	}
	who := seatTitle(g, g.State.ToMove())
	switch {
	case g.Status != store.Active || list.N == 0:
		return refuse("the game is over; there are no moves")
	case len(texts) == 0:
		return refuse("%s has no legal move from %s%s (%d legal moves in all; /moves lists them)", who, inv.Options["from"], whyNoMoveFrom(g.State, inv.Options["from"]), list.N)
	}
	body := clip(strings.Join(texts, ", "), 1800)
	return Reply{Message: Message{Text: fmt.Sprintf("%d legal moves for %s:\n%s", len(texts), who, body)}, Private: true}
}

// resignNow is a resignation: a player gives up.
func (s *Service) resignNow(ctx context.Context, inv Invocation) Reply {
	g, r := s.load(ctx, inv)
	if r != nil {
		return *r
	}
	if r := resignable(g, inv); r != nil {
		return *r
	}
	seat, _ := resignSeat(g, inv.User.ID)
	s.finish(g, rules.Win(seat.Other()), g.State.PlayerName(seat)+" resigned")
	if err := s.saveAndFollow(ctx, g); err != nil {
		return s.storeRefusal(inv, err)
	}
	return Reply{Message: s.moveMessage(g, fmt.Sprintf("%s resigns.", seatTitle(g, seat)), nil)}
}

// resignSeat is the seat userID may resign: their own, or that of their
// program (whose bridge may never connect); a person's own seat first.
func resignSeat(g *store.Game, userID string) (rules.Player, bool) {
	if seat, ok := seatOf(g, userID); ok {
		return seat, true
	}
	for _, seat := range []rules.Player{g.State.ToMove(), g.State.ToMove().Other()} {
		if p := g.Players[seat]; p.Kind == store.Program && p.UserID == userID {
			return seat, true
		}
	}
	return rules.P1, false
}

// resignable says why the invoker may not resign g, or nil.
func resignable(g *store.Game, inv Invocation) *Reply {
	var r Reply
	if _, ok := resignSeat(g, inv.User.ID); !ok {
		r = refuse("you are not playing in this game; only its players can resign")
	} else if flow(g).Challenge {
		r = refuse("the challenge has not been accepted; /decline withdraws it")
	} else {
		return nil
	}
	return &r
}

// draw is /draw: offer a draw, or accept the opponent's offer. The bot
// accepts when its evaluation says it stands worse.
func (s *Service) draw(ctx context.Context, inv Invocation) Reply {
	g, seat, r := s.loadPlayable(ctx, inv)
	if r != nil {
		return *r
	}
	if !s.drawable(g.Name) {
		return refuse("%s has no draws: every game ends with a winner", s.title(g.Name))
	}
	other := seat.Other()
	accepted := flow(g).DrawOffer == int(other)+1
	if !accepted && g.Players[other].Kind == store.Bot {
		accepted = s.botAcceptsDraw(g, other)
		if !accepted {
			return Reply{Message: Message{Text: fmt.Sprintf("%s declines the draw.", plainName(g.Players[other]))}}
		}
	}
	if !accepted {
		if flow(g).DrawOffer == int(seat)+1 {
			return refuse("you have offered a draw already; it stands until the next move")
		}
		flow(g).DrawOffer = int(seat) + 1
		if err := s.store.Save(ctx, g); err != nil {
			return s.storeRefusal(inv, s.saveError(err))
		}
		msg := Message{Text: fmt.Sprintf("%s offers a draw. %s, /draw accepts; a move declines.", seatTitle(g, seat), label(g.Players[other])),
			Mentions: humanIDs(g.Players[other])}
		msg.Buttons = []Button{{ID: buttonID("draw", g), Label: "Accept draw", Style: Success}}
		return Reply{Message: msg}
	}
	s.finish(g, rules.Draw, "draw agreed")
	if err := s.saveAndFollow(ctx, g); err != nil {
		return s.storeRefusal(inv, err)
	}
	return Reply{Message: s.moveMessage(g, fmt.Sprintf("%s accepts the draw.", seatTitle(g, other)), nil)}
}

// botAcceptsDraw reports whether the bot in seat accepts a draw: when the
// position is worse for it by a clear margin.
func (s *Service) botAcceptsDraw(g *store.Game, seat rules.Player) bool {
	score := g.State.Evaluate()
	if g.State.ToMove() != seat {
		score = -score
	}
	return score < -150
}

// humanIDs lists the user ids of the people among ps.
func humanIDs(ps ...store.Player) []string {
	var ids []string
	for _, p := range ps {
		if p.Kind == store.Human {
			ids = append(ids, p.UserID)
		}
	}
	return ids
}

// undo is /undo: in an unrated game, take back your last move (and the
// bot's answer to it); against a person, with their consent.
func (s *Service) undo(ctx context.Context, inv Invocation) Reply {
	g, seat, r := s.loadPlayable(ctx, inv)
	if r != nil {
		return *r
	}
	other := seat.Other()
	if flow(g).Rated && g.Players[other].Kind != store.Human {
		return refuse("this game is rated, so moves cannot be taken back against the bot (start a game with options:\"rated=off\" to allow /undo)")
	}
	if g.Players[other].Kind == store.Human && g.Players[other].UserID != inv.User.ID {
		if flow(g).UndoOffer == int(other)+1 {
			// The other player asked first: this /undo consents to theirs.
			seat, other = other, seat
		} else {
			if lastMoveOf(g, seat) < 0 {
				return refuse("you have no move to take back")
			}
			if flow(g).UndoOffer == int(seat)+1 {
				return refuse("you have asked already; your request stands until the next move")
			}
			flow(g).UndoOffer = int(seat) + 1
			if err := s.store.Save(ctx, g); err != nil {
				return s.storeRefusal(inv, s.saveError(err))
			}
			return Reply{Message: Message{Text: fmt.Sprintf("%s asks to take back their last move. %s, /undo agrees; a move declines.", seatTitle(g, seat), label(g.Players[other])),
				Mentions: humanIDs(g.Players[other]),
				Buttons:  []Button{{ID: buttonID("undo", g), Label: "Allow takeback", Style: Success}}}}
		}
	}
	last := lastMoveOf(g, seat)
	if last < 0 {
		return refuse("you have no move to take back")
	}
	flow(g).Takebacks = append(flow(g).Takebacks, takebackNote(g, seat, last, inv.User))
	flow(g).Premoves = [2][][]string{} // written for moves taken back
	for len(g.Moves) > last {
		g.State.Undo()
		g.Moves = g.Moves[:len(g.Moves)-1]
	}
	s.afterMove(g, s.now())
	if err := s.saveAndFollow(ctx, g); err != nil {
		return s.storeRefusal(inv, err)
	}
	return Reply{Message: s.moveMessage(g, fmt.Sprintf("%s's last move is taken back.", seatTitle(g, seat)), nil)}
}

// lastMoveOf returns the index of seat's last move in g (a forced pass does
// not count), or -1.
func lastMoveOf(g *store.Game, seat rules.Player) int {
	hist := g.State.History()
	for i := len(g.Moves) - 1; i >= 0; i-- {
		if g.Moves[i].Seat == seat && (i >= len(hist) || !rules.IsPass(g.State, hist[i])) {
			return i
		}
	}
	return -1
}

// moveTexts returns m's canonical text, as recorded, and the text to show,
// with what the rules have the player announce ("E2B5 Hi-YA!"). m is
// legal in g's current position.
func moveTexts(g rules.Game, m rules.Move) (text, shown string) {
	text = g.FormatMove(m)
	shown = text
	if a := g.Announce(m); a != "" {
		shown += " " + a
	}
	return text, shown
}

// clip shortens s to at most n bytes, cutting at a rune boundary and
// marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + " ..."
}

// moveExample is ", e.g. /move M" with a legal move M of g, in its own
// notation, or "" when there is none.
func moveExample(g *store.Game) string {
	var list rules.MoveList
	g.State.Moves(&list)
	if list.N == 0 {
		return ""
	}
	return ", e.g. /move " + g.State.FormatMove(list.Moves[0])
}

// moveHeader announces seat's move, with what it removed or hurt as the
// board's last-move line says it: "White (bob) played **8 12 8 6**, Black's
// runner at 8 9 removed." g is the game after the move and b its board.
func moveHeader(g *store.Game, b *render.Board, seat rules.Player, verb, shown string) string {
	return string(appendMoveHeader(make([]byte, 0, 64), g, b, seat, verb, shown))
}

// whyNoMoveFrom asks the rules why no move starts on square: off the
// board, an empty square, the opponent's piece. It returns ": REASON", or
// "" when the rules say nothing more specific than that there is no move.
func whyNoMoveFrom(g rules.Game, square string) string {
	square = strings.TrimSpace(square)
	if square == "" || strings.ContainsAny(square, ",") {
		return ""
	}
	_, err := g.ParseMove(square + " " + square)
	var me *rules.MoveError
	if !errors.As(err, &me) {
		return ""
	}
	text, low := me.Text, strings.ToLower(square)
	fold := strings.ToLower(text)
	if strings.HasPrefix(text, "cannot read") || strings.Contains(fold, low+low) || strings.Contains(fold, low+" to "+low) {
		return ""
	}
	return ": " + text
}
