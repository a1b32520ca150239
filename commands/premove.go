package commands

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"arbiter/rules"
	"arbiter/store"
)

// Conditional premoves, as lichess has them: while the opponent is to
// move, a player leaves lines of "if the opponent plays X, answer Y"
// (chains allowed: "X1, Y1, X2, Y2"), alternatives separated by ";". When
// the opponent's move matches the first move of a line, its answer is
// played at once, in the same save as the opponent's move; lines that do
// not match are dropped. Premoves are kept with the game (Flow.Premoves),
// which no message shows. Leaving them saves the game: the opponent's
// Pick a move, tied to the position (pickID), still works; their other
// buttons of the moment before are answered with the board as it is, as
// any stale button.

// Limits of /premove's line.
const (
	maxPremoveLines = 10
	maxPremoveMoves = 20 // moves of one line, both players' together
	maxPremoveText  = 600
)

// premoveCmd is /premove: show (no option), clear (clear:true), or leave
// conditional premoves (line:"X1, Y1, X2, Y2; X, Y").
func (s *Service) premoveCmd(ctx context.Context, inv Invocation) Reply {
	g, seat, r := s.loadPlayable(ctx, inv)
	if r != nil {
		return *r
	}
	if why := premovesForbidden(g, seat); why != "" {
		return refuse("%s", why)
	}
	cur := flow(g).Premoves[seat]
	line, hasLine := inv.Options["line"]
	switch {
	case inv.Options["clear"] == "true" || strings.EqualFold(strings.TrimSpace(line), "clear"):
		if len(cur) == 0 {
			return Reply{Message: Message{Text: "You have no premoves in this game to clear."}, Private: true}
		}
		flow(g).Premoves[seat] = nil
		if err := s.store.Save(ctx, g); err != nil {
			return s.storeRefusal(inv, s.saveError(err))
		}
		return Reply{Message: Message{Text: fmt.Sprintf("Your premoves are cleared (%s were left).", plural(len(cur), "line"))}, Private: true}
	case !hasLine:
		if len(cur) == 0 {
			return Reply{Message: Message{Text: "You have no premoves in this game. While your opponent is to move, /premove line:\"X, Y; X2, Y2\" answers their move X with your Y (chains: \"X, Y, X2, Y2\")."}, Private: true}
		}
		return Reply{Message: Message{Text: "Your premoves (the opponent's move, then your answer):\n" + premoveText(cur) + "\n/premove clear:true clears them."}, Private: true}
	}
	if g.State.ToMove() == seat {
		return refuse("it is your move now: play it; premoves answer the opponent's next moves")
	}
	lines, err := readPremoves(g.State, line)
	if err != nil {
		return refuse("%v; nothing was changed", err)
	}
	flow(g).Premoves[seat] = lines
	if err := s.store.Save(ctx, g); err != nil {
		return s.storeRefusal(inv, s.saveError(err))
	}
	return Reply{Message: Message{Text: "Premoves kept (only you see them):\n" + premoveText(lines) + "\nA line whose first move the opponent does not play is dropped."}, Private: true}
}

// premovesForbidden says why seat may not premove in g, or "".
func premovesForbidden(g *store.Game, seat rules.Player) string {
	switch {
	case g.Players[seat.Other()].Kind != store.Human:
		return "premoves are for games against people, not against the bot or a program"
	case flow(g).NoPremoves:
		return "this game was started with premoves=off"
	}
	return ""
}

// premoveText writes lines for their owner, one a line.
func premoveText(lines [][]string) string {
	var b strings.Builder
	for i, l := range lines {
		var pairs []string
		for j := 0; j+1 < len(l); j += 2 {
			pairs = append(pairs, fmt.Sprintf("if %s then %s", l[j], l[j+1]))
		}
		fmt.Fprintf(&b, "%d. %s\n", i+1, strings.Join(pairs, ", "))
	}
	return strings.TrimSpace(b.String())
}

// readPremoves reads /premove's line text against g, whose opponent of
// the premover is to move: lines separated by ";", each the opponent's
// move and the answer, alternately, separated by ",". Every move must be
// legal where it would be played. It returns the moves' canonical texts.
func readPremoves(g rules.Game, text string) ([][]string, error) {
	if len(text) > maxPremoveText {
		return nil, fmt.Errorf("the premoves are over %d characters", maxPremoveText)
	}
	var lines [][]string
	for i, part := range strings.Split(text, ";") {
		if strings.TrimSpace(part) == "" {
			continue
		}
		moves := strings.Split(part, ",")
		if len(moves)%2 != 0 {
			return nil, fmt.Errorf("line %d has %d moves: give the opponent's move and your answer in pairs, like \"c4 d4, e5 e4\"", i+1, len(moves))
		}
		if len(moves) > maxPremoveMoves {
			return nil, fmt.Errorf("line %d has over %d moves", i+1, maxPremoveMoves)
		}
		play := g.Clone()
		var line []string
		for j, text := range moves {
			m, err := play.ParseMove(strings.TrimSpace(text))
			if err != nil {
				var me *rules.MoveError
				why := err.Error()
				if errors.As(err, &me) {
					why = me.Text
				}
				who := "the opponent's move"
				if j%2 == 1 {
					who = "your answer"
				}
				return nil, fmt.Errorf("line %d, %s %.30q: %s", i+1, who, strings.TrimSpace(text), why)
			}
			line = append(line, play.FormatMove(m))
			play.Play(m)
		}
		lines = append(lines, line)
	}
	if len(lines) == 0 {
		return nil, fmt.Errorf("give at least one line: the opponent's move, then your answer, like \"c4 d4, e5 e4\"")
	}
	if len(lines) > maxPremoveLines {
		return nil, fmt.Errorf("give at most %d lines", maxPremoveLines)
	}
	return lines, nil
}

// premoveAnswer plays the answer of the waiting player's premoves to the
// move just played in g (by seat, the opponent), when a line matches, and
// keeps what is left of the matching lines; the others are dropped. It
// returns the premove's header for the move's message, or "" when none
// was played.
func (s *Service) premoveAnswer(g *store.Game, seat rules.Player, now time.Time) string {
	waiting := seat.Other()
	lines := flow(g).Premoves[waiting]
	if len(lines) == 0 {
		return ""
	}
	flow(g).Premoves[waiting] = nil
	if g.Status != store.Active || g.State.ToMove() != waiting || premovesForbidden(g, waiting) != "" {
		return ""
	}
	played := g.Moves[len(g.Moves)-1].Text
	var answer string
	var left [][]string
	for _, l := range lines {
		if l[0] == played && (answer == "" || answer == l[1]) {
			answer = l[1]
			if len(l) > 2 {
				left = append(left, l[2:])
			}
		}
	}
	if answer == "" {
		return "" // no line matched: all dropped
	}
	m, err := g.State.ParseMove(answer)
	if err != nil {
		return "" // no longer legal (a forced pass came between): dropped
	}
	text, shown := moveTexts(g.State, m)
	g.State.Play(m)
	g.Moves = append(g.Moves, store.Move{Text: text, Seat: waiting, By: g.Players[waiting].UserID, At: now})
	flow(g).Premoved = append(flow(g).Premoved, len(g.Moves))
	flow(g).Premoves[waiting] = left
	return moveHeader(g, s.boardOf(g, publicView), waiting, "played by premove", shown)
}

// premovedList writes move numbers: "moves 12, 14" or "move 3".
func premovedList(ns []int) string {
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = fmt.Sprint(n)
	}
	if len(ns) == 1 {
		return "move " + parts[0]
	}
	return "moves " + strings.Join(parts, ", ")
}
