package commands

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"arbiter/render"
	"arbiter/rules"
	"arbiter/store"
)

// load returns the game going on in the invocation's channel, or a refusal.
func (s *Service) load(ctx context.Context, inv Invocation) (*store.Game, *Reply) {
	g, err := s.store.Load(ctx, inv.Channel)
	if err != nil {
		r := s.storeRefusal(inv, err)
		return nil, &r
	}
	if inv.Version != 0 && (inv.Version != g.Version || inv.Game != g.ID) {
		r := s.staleRefusal(g, inv)
		return nil, &r
	}
	return g, nil
}

// staleRefusal answers a button or menu drawn for an older state of g
// with the board as it is now.
func (s *Service) staleRefusal(g *store.Game, inv Invocation) Reply {
	msg := s.boardMessage(g, viewFor(g, inv.User.ID), "That button belongs to an older state of the game; this is the board now.")
	return Reply{Message: msg, Private: true}
}

// seatOf returns the seat of user in g, preferring the seat to move when a
// user holds both (two people on one keyboard in the console).
func seatOf(g *store.Game, userID string) (rules.Player, bool) {
	toMove := g.State.ToMove()
	if p := g.Players[toMove]; p.Kind == store.Human && p.UserID == userID {
		return toMove, true
	}
	if p := g.Players[toMove.Other()]; p.Kind == store.Human && p.UserID == userID {
		return toMove.Other(), true
	}
	return rules.P1, false
}

// label names the player in a seat for messages: a mention for a person,
// "Arbiter (level 3)" for the bot.
func label(p store.Player) string {
	switch p.Kind {
	case store.Human:
		return Mention(p.UserID)
	case store.Bot:
		return fmt.Sprintf("Arbiter (level %d)", p.Level)
	}
	return EscapeMarkdown(p.Program)
}

// plainName names the player in a seat without pinging anyone, for a
// message: a person's name is made inert (EscapeMarkdown).
func plainName(p store.Player) string {
	if p.Kind == store.Bot {
		return rawName(p)
	}
	return EscapeMarkdown(rawName(p))
}

// rawName names the player in a seat as written, for what is not Markdown
// (a board's image, the API, the wall).
func rawName(p store.Player) string {
	switch p.Kind {
	case store.Bot:
		return fmt.Sprintf("Arbiter (level %d)", p.Level)
	case store.Program:
		return p.Program
	}
	return p.Name
}

// seatTitle is "Black (alice)", or "O (Arbiter, level 3)" for the bot.
func seatTitle(g *store.Game, seat rules.Player) string {
	return string(appendSeatTitle(make([]byte, 0, 32), g, seat))
}

// rawSeatTitle is seatTitle with the name as written, for what is not
// Markdown (an image, a page).
func rawSeatTitle(g *store.Game, seat rules.Player) string {
	if g.Players[seat].Kind == store.Bot {
		return seatTitle(g, seat)
	}
	return fmt.Sprintf("%s (%s)", g.State.PlayerName(seat), rawName(g.Players[seat]))
}

// title is the game's name as people write it.
func (s *Service) title(name string) string {
	if d, err := s.reg.Lookup(name); err == nil {
		return d.Title
	}
	return name
}

// renderOptions are the options for drawing g from view.
func (s *Service) renderOptions(g *store.Game, view render.View) render.Options {
	opt := render.Options{View: view, Colour: s.cfg.Colour}
	for i, p := range g.Players {
		// A text board is a code block, where Markdown is not rendered but
		// a backtick could end the block.
		name := rawName(p)
		if p.Kind == store.Bot { // "O (Arbiter, level 2)", as seatTitle has it
			name = fmt.Sprintf("Arbiter, level %d", p.Level)
		}
		opt.Players[i] = strings.ReplaceAll(name, "`", "'")
	}
	if g.Status == store.Finished {
		out := rules.Outcome{Result: g.Result, Reason: g.Reason}
		if own := g.State.Outcome(); own.Result == g.Result && own.Reason == g.Reason {
			out = own
		}
		opt.Result = &out
	}
	return opt
}

// boardMessage is a header, the board as text and the buttons that fit the
// game's state. The next player to move, when a person, is mentioned.
func (s *Service) boardMessage(g *store.Game, view render.View, header string) Message {
	return s.styledBoard(g, s.boardOf(g, view), header, flow(g).Style)
}

// boardOf reduces g to a board seen from view, once for every form a reply
// shows it in.
func (s *Service) boardOf(g *store.Game, view render.View) *render.Board {
	return render.NewBoard(g.State, s.renderOptions(g, view))
}

// boardStyles are the ways a board can be drawn in a message.
func boardStyles() []string { return []string{"text", "emoji", "image"} }

// styledBoard is boardMessage with g's board b in a given style: text (a
// code block, the default), emoji, or image (a PNG attached; text if it
// cannot be drawn).
func (s *Service) styledBoard(g *store.Game, b *render.Board, header, style string) Message {
	w := s.drawings.get()
	w.text = append(w.text, header...)
	msg := s.styledBoardOn(g, b, &w.text, style)
	s.drawings.put(w)
	return msg
}

// styledBoardOn is styledBoard with the header written in *text, a buffer
// the board's text may be written after.
func (s *Service) styledBoardOn(g *store.Game, b *render.Board, text *[]byte, style string) Message {
	var msg Message
	switch style {
	case "emoji":
		msg.Text = strings.TrimSpace(string(*text) + "\n" + b.Emoji())
	case "image":
		png, err := b.PNG()
		if err == nil {
			msg.Text = strings.TrimSpace(string(*text))
			msg.Files = []File{{Name: "board.png", ContentType: "image/png", Data: png}}
			break
		}
		s.log.Error("board image not drawn; sending text", "game", g.Name, "err", err)
		fallthrough
	default:
		*text = appendCodeBlock(*text, s.cfg.Colour, b.AppendText)
		msg.Text = string(*text)
	}
	msg.Buttons = s.boardButtons(g)
	return msg
}

// boardButtons are the buttons below g's board: the ones that fit its
// state.
func (s *Service) boardButtons(g *store.Game) []Button {
	if g.Status != store.Active {
		if g.Status == store.Finished && rematchable(g) {
			return []Button{{ID: buttonID("rematch", g), Label: "Rematch", Style: Primary}}
		}
		return nil
	}
	if flow(g).Challenge {
		return []Button{
			{ID: buttonID("accept", g), Label: "Accept", Style: Success},
			{ID: buttonID("decline", g), Label: "Decline", Style: Danger},
		}
	}
	buttons := make([]Button, 0, 5) // at most five below a board in play
	if g.Players[g.State.ToMove()].Kind == store.Human {
		buttons = append(buttons, Button{ID: "pick", Label: "Pick a move", Style: Primary})
	}
	buttons = append(buttons, Button{ID: "board", Label: "Refresh", Style: Secondary})
	if s.drawable(g.Name) {
		buttons = append(buttons, Button{ID: "draw", Label: "Offer draw", Style: Secondary})
	}
	buttons = append(buttons, Button{ID: "resign", Label: "Resign", Style: Danger})
	if s.playPage().Links != nil {
		buttons = append(buttons, Button{ID: "playboard", Label: "Play on the board", Style: Primary})
	}
	setButtonIDs(buttons, g)
	return buttons
}

// setButtonIDs turns the commands that are the buttons' ids into the ids
// of buttons running them on g as it is now: buttonID's, or pickID's for
// "pick". The ids share one string, made at once. There are at most five
// buttons, a message row's.
func setButtonIDs(buttons []Button, g *store.Game) {
	var room [192]byte
	var ends [5]int // where each id ends in ids
	ids := room[:0]
	for i, b := range buttons {
		ids = appendButtonID(ids, b.ID, g)
		ends[i] = len(ids)
	}
	all, start := string(ids), 0
	for i := range buttons {
		buttons[i].ID, start = all[start:ends[i]], ends[i]
	}
}

// buttonID is the id of a button that runs cmd on game g as it is now:
// "CMD:GAME:VERSION", e.g. "resign:12:31".
func buttonID(cmd string, g *store.Game) string {
	return string(appendButtonID(nil, cmd, g))
}

// appendButtonID appends buttonID(cmd, g) to dst, or pickID(g) for "pick".
func appendButtonID(dst []byte, cmd string, g *store.Game) []byte {
	dst = append(append(append(append(dst, cmd...), ':'), g.ID...), ':')
	if cmd == "pick" {
		return strconv.AppendInt(dst, positionKey(g), 10)
	}
	return strconv.AppendInt(dst, g.Version, 10)
}

// ParseButton reads a button id back into the command, the game (its
// archive id) and the game version it was made for. The platform layer
// turns a press into an Invocation with these.
func ParseButton(id string) (cmd, game string, version int64, err error) {
	parts := strings.Split(id, ":")
	if len(parts) != 3 || parts[0] == "" || parts[1] == "" {
		return "", "", 0, fmt.Errorf("button %q: not one of Arbiter's", id)
	}
	version, err = strconv.ParseInt(parts[2], 10, 64)
	if err != nil || version < 1 {
		return "", "", 0, fmt.Errorf("button %q: no game version", id)
	}
	switch parts[0] {
	case "accept", "decline", "board", "draw", "resign", "resign-confirm", "cancel", "rematch", "undo", "analyse", "pick", "playboard":
		return parts[0], parts[1], version, nil
	}
	return "", "", 0, fmt.Errorf("button %q: unknown action", id)
}

// drawable reports whether a game can end in a draw, so that a draw may
// be offered: every game whose rules have draws.
func (s *Service) drawable(game string) bool {
	d, err := s.reg.Lookup(game)
	return err == nil && !d.NoDraws
}

// turnNote says whose turn it is, mentioning a person.
func (s *Service) turnNote(g *store.Game) string { return string(s.appendTurnNote(nil, g)) }

// when writes a deadline for people, as Config.Deadlines says.
func (s *Service) when(t time.Time) string { return string(s.appendWhen(nil, t)) }

// LocalTime writes t in the time zone of this machine (TZ), as the
// console shows deadlines: "Fri 27 Nov 13:05 CET".
func LocalTime(t time.Time) string { return t.In(time.Local).Format(localTimeLayout) }

// localTimeLayout is LocalTime's layout.
const localTimeLayout = "Mon 2 Jan 15:04 MST"

// mentionsFor lists the people a message about g may ping: the player to
// move, or both players when the game is over or waiting for a challenge.
func mentionsFor(g *store.Game) []string {
	var ids []string
	for seat, p := range g.Players {
		if p.Kind != store.Human {
			continue
		}
		if g.Status == store.Active && !flow(g).Challenge && rules.Player(seat) != g.State.ToMove() {
			continue
		}
		if len(ids) == 0 || ids[0] != p.UserID {
			ids = append(ids, p.UserID)
		}
	}
	return ids
}

// afterMove brings g up to date after a move was played on g.State: it
// plays forced passes (announcing them), ends a finished game, and sets the
// next deadline. It returns the notes to show with the move.
func (s *Service) afterMove(g *store.Game, now time.Time) []string {
	var notes []string
	flow(g).DrawOffer, flow(g).UndoOffer, flow(g).Reminders = 0, 0, 0
	var list *rules.MoveList // only a game with passes needs one (and its kilobyte)
	if _, passes := g.State.(rules.Passer); passes {
		list = new(rules.MoveList)
	}
	for list != nil && g.State.Status() == rules.Ongoing {
		g.State.Moves(list)
		if list.N != 1 || !rules.IsPass(g.State, list.Moves[0]) {
			break
		}
		seat := g.State.ToMove()
		notes = append(notes, fmt.Sprintf("%s has no legal move and passes.", seatTitle(g, seat)))
		text := g.State.FormatMove(list.Moves[0])
		g.State.Play(list.Moves[0])
		g.Moves = append(g.Moves, store.Move{Text: text, Seat: seat, At: now})
	}
	if out := g.State.Outcome(); out.Result != rules.Ongoing {
		s.finish(g, out.Result, out.Reason)
		return notes
	}
	s.setDeadline(g, now)
	return notes
}

// setDeadline sets the deadline and first reminder of the turn that starts
// now. A bot's turn gets a deadline too, past its think time, so that the
// clock queues it again if its job is ever lost.
func (s *Service) setDeadline(g *store.Game, now time.Time) {
	flow(g).Reminders = 0
	if flow(g).Paused {
		return
	}
	flow(g).TurnFrom = now
	flow(g).turnStarted = true
	p := g.Players[g.State.ToMove()]
	if p.Kind == store.Bot {
		g.Deadline = now.Add(s.botMoveTime(g.Name) + time.Minute)
		g.RemindAt = time.Time{}
		return
	}
	turn := flow(g).TurnTime
	if turn <= 0 {
		turn = s.cfg.TurnTime
	}
	from := now
	if until := flow(g).VacationUntil[g.State.ToMove()]; until.After(now) {
		from = until // on vacation: the clock starts when it ends
	}
	g.Deadline = from.Add(turn)
	g.RemindAt = from.Add(turn / 2)
}

// finish ends g with result and reason.
func (s *Service) finish(g *store.Game, result rules.Result, reason string) {
	g.Status = store.Finished
	g.Result = result
	g.Reason = reason
	g.Deadline, g.RemindAt = time.Time{}, time.Time{}
}

// resultText says how g ended, naming the winner.
func resultText(g *store.Game) string {
	switch g.Result {
	case rules.P1Wins, rules.P2Wins:
		w, _ := g.Result.Winner()
		return fmt.Sprintf("**%s wins**: %s.", seatTitle(g, w), g.Reason)
	case rules.Draw:
		return fmt.Sprintf("**Draw**: %s.", g.Reason)
	}
	return fmt.Sprintf("**Game over, no result**: %s.", g.Reason)
}

// saveAndFollow saves g (a compare-and-set on its version); then, for a
// finished game, records the ratings exactly once (through the outbox, see
// commit); for a bot's turn, queues it. A store error after which the save
// may have been applied is an *errOutcomeUnknown.
func (s *Service) saveAndFollow(ctx context.Context, g *store.Game) error {
	return s.commit(ctx, g, nil)
}

// follow queues the bot's turn after a saved change, if it is the bot's.
// A failure is logged: the clock queues a lost bot turn again at its
// deadline.
func (s *Service) follow(ctx context.Context, g *store.Game) {
	s.observe(g)
	if flow(g).turnStarted {
		flow(g).turnStarted = false
		s.turnNotice(ctx, g)
	}
	if g.Status == store.Finished || flow(g).Challenge || flow(g).Paused || g.Players[g.State.ToMove()].Kind != store.Bot {
		return
	}
	if _, err := s.store.EnqueueBotTurn(ctx, g); err != nil {
		s.log.Error("queue bot turn failed; the clock will retry", "channel", g.Channel, "err", err)
	}
}

// scoreOutcome decides an unfinished game by its own scoring, where it has
// one (a rules.Scorer); false for a game without scoring (Hi-Ya!).
func scoreOutcome(g rules.Game, why string) (rules.Outcome, bool) {
	scorer, ok := g.(rules.Scorer)
	if !ok {
		return rules.Outcome{}, false
	}
	sc, what := scorer.Standing()
	return rules.Outcome{Result: rules.ByScore(sc[0], sc[1]), Scores: sc, HasScores: true,
		Reason: fmt.Sprintf("%s, decided by %s %d to %d", why, what, sc[0], sc[1])}, true
}

// challenger is the person who made the challenge waiting in g; the seats
// of a challenge are kept challenger first until it is accepted.
func challenger(g *store.Game) store.Player { return g.Players[rules.P1] }

// challenged is the person a challenge waits for.
func challenged(g *store.Game) store.Player { return g.Players[rules.P2] }
