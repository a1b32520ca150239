package render

import (
	"fmt"
	"strconv"
	"strings"

	"arbiter/rules"
)

// Tag is a further header line of a record: a key without ":" and a value
// on one line.
type Tag struct {
	Key, Value string
}

// GameRecord is a game record read back: the game replayed to its last
// move, the players, the result as recorded, and the other tags in their
// order.
//
// A game record is a whole game as text, for people and for the rules:
//
//	# Arbiter game record
//	Game: hique
//	Options: turns=300
//	Black: alice
//	White: bob
//	Result: p1 (Black wins)
//	Reason: runner reached the far side
//	Plies: 57
//	Event: CS405 round 2
//
//	 1. 4 2 4 8    | 4 12 4 10
//	 2. 3 1 3 3    | 5 13 5 11
//	...
//
// The header names the game (its registry name), its complete options, the
// players under the game's own names for them (Black, White; South, North;
// X, O; Player 1, Player 2), the result (ongoing, p1, p2 or draw, as
// rules.Result writes it, with the winner in words), its reason, the scores
// where the game has them ("Score: 14 to 11"), the number of single moves,
// and any further tags. Then the moves in canonical notation, numbered by
// turn, player 1's move and player 2's on one line separated by "|". A move
// the rules announce is followed by its announcement ("E2B5 Hi-YA!").
// Lines starting with "#" are comments.
//
// A record replays from the game's start position, so it suits games begun
// with New (or the registry), not positions made with a game's Setup.
type GameRecord struct {
	Game    rules.Game
	Players [2]string
	// Outcome is the recorded result: the game's own Outcome when its moves
	// end it, otherwise how it ended outside the rules (or ongoing).
	Outcome rules.Outcome
	Tags    []Tag
}

// String writes the record again, as Record does.
func (r *GameRecord) String() string {
	return Record(r.Game, Options{Players: r.Players, Result: &r.Outcome}, r.Tags...)
}

// Record writes g as a game record, with opt.Players as the players and
// opt.Result (or g's own Outcome) as the result, followed by tags. Keys and
// values are kept to one line; a tag whose key the header or an earlier tag
// already uses is left out, so that ParseRecord reads the record back.
func Record(g rules.Game, opt Options, tags ...Tag) string {
	var b strings.Builder
	out := outcome(g, opt)
	line := func(k, v string) {
		b.WriteString(oneLine(k) + ": " + oneLine(v) + "\n")
	}
	b.WriteString("# Arbiter game record\n")
	line("Game", g.Name())
	line("Options", g.Options().String())
	for _, p := range []rules.Player{rules.P1, rules.P2} {
		if opt.Players[p] != "" {
			line(g.PlayerName(p), opt.Players[p])
		}
	}
	line("Result", resultWords(g, out.Result))
	if out.Reason != "" {
		line("Reason", out.Reason)
	}
	if out.HasScores {
		line("Score", fmt.Sprintf("%d to %d", out.Scores[0], out.Scores[1]))
	}
	line("Plies", strconv.Itoa(g.Ply()))
	written := map[string]bool{} // tag keys in lower case, as ParseRecord finds twice-given keys
	for _, t := range tags {
		k := oneLine(t.Key)
		if !tagKeyOK(k) || reservedKey(g, k) || written[strings.ToLower(k)] {
			continue
		}
		written[strings.ToLower(k)] = true
		line(k, t.Value)
	}
	b.WriteByte('\n')
	writeMoves(&b, g)
	return b.String()
}

// resultWords writes a result as "p1 (Black wins)", "draw" or "ongoing".
func resultWords(g rules.Game, r rules.Result) string {
	if w, ok := r.Winner(); ok {
		return r.String() + " (" + g.PlayerName(w) + " wins)"
	}
	return r.String()
}

// reservedKey reports whether k is a header key the record itself writes,
// compared as ParseRecord compares them (strings.EqualFold).
func reservedKey(g rules.Game, k string) bool {
	for _, r := range []string{"Game", "Options", "Result", "Reason", "Score", "Plies",
		g.PlayerName(rules.P1), g.PlayerName(rules.P2)} {
		if strings.EqualFold(k, r) {
			return true
		}
	}
	return false
}

// tagKeyOK reports whether k can be a tag's key: a header line with it must
// not read as a comment or a turn.
func tagKeyOK(k string) bool {
	if _, _, turn := turnLine(k); turn {
		return false
	}
	return k != "" && !strings.Contains(k, ":") && !strings.HasPrefix(k, "#")
}

// oneLine keeps s to one line of valid UTF-8 text, trimmed.
func oneLine(s string) string {
	return strings.TrimSpace(strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' {
			return ' '
		}
		return r
	}, s))
}

// writeMoves writes the moves numbered by turn, replaying them on a copy of
// g from its start to format each in its position.
func writeMoves(b *strings.Builder, g rules.Game) {
	hist := g.History()
	replay := g.Clone()
	for replay.Ply() > 0 {
		replay.Undo()
	}
	texts := make([]string, len(hist))
	for i, m := range hist {
		t := replay.FormatMove(m)
		if a := replay.Announce(m); a != "" {
			t += " " + a
		}
		texts[i] = t
		replay.Play(m)
	}
	width, numWidth := 0, len(strconv.Itoa((len(hist)+1)/2))
	for i := 0; i < len(texts); i += 2 {
		width = max(width, len(texts[i]))
	}
	for i := 0; i < len(texts); i += 2 {
		fmt.Fprintf(b, "%*d. ", numWidth, i/2+1)
		if i+1 < len(texts) {
			fmt.Fprintf(b, "%-*s | %s\n", width, texts[i], texts[i+1])
		} else {
			b.WriteString(texts[i] + "\n")
		}
	}
}

// Limits on what ParseRecord reads.
const (
	maxRecordLen   = 1 << 20
	maxRecordPlies = 1 << 16
)

// ParseRecord reads a game record and replays its moves with the rules of
// reg, checking each. Where the moves end the game, the recorded result and
// reason must be the ones the rules give; where they do not, the record may
// give any result (a resignation, a loss on time, an adjudication). The
// errors say which line is wrong and why.
func ParseRecord(reg *rules.Registry, text string) (*GameRecord, error) {
	if len(text) > maxRecordLen {
		return nil, fmt.Errorf("record: %d bytes is longer than the %d a record may have", len(text), maxRecordLen)
	}
	var (
		headers recordHeaders
		seen    = map[string]int{} // header keys in lower case, and their lines
		moves   []string
		moveAt  []int // the line of each move
		inMoves bool
	)
	for i, raw := range strings.Split(text, "\n") {
		n := i + 1
		ln := strings.TrimSpace(strings.TrimSuffix(raw, "\r"))
		if ln == "" || strings.HasPrefix(ln, "#") {
			continue
		}
		if turn, rest, ok := turnLine(ln); ok {
			inMoves = true
			want := len(moves)/2 + 1
			if len(moves)%2 == 1 {
				return nil, fmt.Errorf("record line %d: turn %d has only player 1's move, so no turn can follow it",
					moveAt[len(moveAt)-1], want)
			}
			if turn != want {
				return nil, fmt.Errorf("record line %d: turn %d where turn %d should come", n, turn, want)
			}
			first, second, two := strings.Cut(rest, "|")
			first, second = strings.TrimSpace(first), strings.TrimSpace(second)
			if first == "" || two && second == "" {
				return nil, fmt.Errorf("record line %d: write a turn as %d. MOVE | MOVE (the second move may be left out on the last turn)", n, turn)
			}
			moves, moveAt = append(moves, first), append(moveAt, n)
			if two {
				moves, moveAt = append(moves, second), append(moveAt, n)
			}
			if len(moves) > maxRecordPlies {
				return nil, fmt.Errorf("record line %d: more than %d moves", n, maxRecordPlies)
			}
			continue
		}
		if inMoves {
			return nil, fmt.Errorf("record line %d: %q is not a numbered turn, and the header ended before the moves", n, short(ln))
		}
		key, value, ok := strings.Cut(ln, ":")
		key, value = oneLine(key), oneLine(value)
		if !ok || key == "" {
			return nil, fmt.Errorf("record line %d: %q is neither a header line (Key: value) nor a numbered turn", n, short(ln))
		}
		if first, dup := seen[strings.ToLower(key)]; dup {
			return nil, fmt.Errorf("record line %d: %s is given twice (first on line %d)", n, key, first)
		}
		seen[strings.ToLower(key)] = n
		headers = append(headers, recordHeader{n, key, value})
	}

	gameLine, ok := headers.get("Game")
	if !ok {
		return nil, fmt.Errorf("record: no Game line (e.g. Game: hique)")
	}
	opts := rules.Options{}
	if h, ok := headers.get("Options"); ok {
		o, err := rules.ParseOptions(h.value)
		if err != nil {
			return nil, fmt.Errorf("record line %d: %w", h.line, err)
		}
		opts = o
	}
	if _, err := reg.Lookup(gameLine.value); err != nil {
		return nil, fmt.Errorf("record line %d: %w", gameLine.line, err)
	}
	g, err := reg.New(gameLine.value, opts)
	if err != nil {
		// The game is known, so its options are wrong.
		line := gameLine.line
		if h, ok := headers.get("Options"); ok {
			line = h.line
		}
		return nil, fmt.Errorf("record line %d: %w", line, err)
	}
	for i, text := range moves {
		m, err := parseRecordMove(g, text)
		if err != nil {
			return nil, fmt.Errorf("record line %d, move %d (%s): %w", moveAt[i], i+1, short(text), err)
		}
		g.Play(m)
	}

	rec := &GameRecord{Game: g, Outcome: g.Outcome()}
	for _, h := range headers {
		k := h.key
		switch {
		case strings.EqualFold(k, "game"), strings.EqualFold(k, "options"):
		case strings.EqualFold(k, "result"), strings.EqualFold(k, "reason"), strings.EqualFold(k, "score"):
		case strings.EqualFold(k, "plies"):
			n, err := strconv.Atoi(h.value)
			if err != nil || n != len(moves) {
				return nil, fmt.Errorf("record line %d: Plies says %q but the record has %d moves", h.line, h.value, len(moves))
			}
		case strings.EqualFold(k, g.PlayerName(rules.P1)):
			rec.Players[rules.P1] = h.value
		case strings.EqualFold(k, g.PlayerName(rules.P2)):
			rec.Players[rules.P2] = h.value
		default:
			rec.Tags = append(rec.Tags, Tag{h.key, h.value})
		}
	}
	if err := headers.outcome(g, &rec.Outcome); err != nil {
		return nil, err
	}
	return rec, nil
}

// recordHeader is one header line of a record.
type recordHeader struct {
	line       int
	key, value string
}

// recordHeaders are a record's header lines in order.
type recordHeaders []recordHeader

// get returns the line with the key, whatever its case.
func (hs recordHeaders) get(key string) (recordHeader, bool) {
	for _, h := range hs {
		if strings.EqualFold(h.key, key) {
			return h, true
		}
	}
	return recordHeader{}, false
}

// outcome reads the Result, Reason and Score lines into out, which holds
// the game's own outcome, and checks them against it: a game its moves end
// must be recorded with the rules' result, reason and scores. Without a
// Result line out stays the game's own.
func (hs recordHeaders) outcome(g rules.Game, out *rules.Outcome) error {
	res, ok := hs.get("Result")
	if !ok {
		for _, k := range []string{"Reason", "Score"} {
			if h, ok := hs.get(k); ok {
				return fmt.Errorf("record line %d: a %s without a Result line", h.line, k)
			}
		}
		return nil
	}
	var rec rules.Outcome
	word, _, _ := strings.Cut(res.value, " ")
	switch strings.ToLower(word) {
	case "ongoing":
		rec.Result = rules.Ongoing
	case "p1":
		rec.Result = rules.P1Wins
	case "p2":
		rec.Result = rules.P2Wins
	case "draw":
		rec.Result = rules.Draw
	default:
		return fmt.Errorf("record line %d: result %q: write ongoing, p1, p2 or draw", res.line, short(res.value))
	}
	if h, ok := hs.get("Reason"); ok {
		rec.Reason = h.value
	}
	if h, ok := hs.get("Score"); ok {
		a, b, found := strings.Cut(h.value, " to ")
		x, errA := strconv.Atoi(strings.TrimSpace(a))
		y, errB := strconv.Atoi(strings.TrimSpace(b))
		if !found || errA != nil || errB != nil {
			return fmt.Errorf("record line %d: score %q: write it as 14 to 11, player 1 first", h.line, short(h.value))
		}
		rec.Scores, rec.HasScores = [2]int{x, y}, true
	}
	if own := *out; own.Result != rules.Ongoing {
		if rec.Result != own.Result || rec.Reason != own.Reason {
			return fmt.Errorf("record line %d: the record says %s (%s) but its moves end the game %s (%s)",
				res.line, resultWords(g, rec.Result), rec.Reason, resultWords(g, own.Result), own.Reason)
		}
		if rec.HasScores != own.HasScores || rec.Scores != own.Scores {
			return fmt.Errorf("record line %d: the record's score does not match the game's, %d to %d",
				res.line, own.Scores[0], own.Scores[1])
		}
		return nil
	}
	*out = rec
	return nil
}

// parseRecordMove reads one move of a record: the move's text, perhaps
// followed by the announcement the rules make with it.
func parseRecordMove(g rules.Game, text string) (rules.Move, error) {
	m, err := g.ParseMove(text)
	if err == nil {
		return m, nil
	}
	words := strings.Fields(text)
	for k := 1; k < len(words); k++ {
		move, said := strings.Join(words[:len(words)-k], " "), strings.Join(words[len(words)-k:], " ")
		if m2, err2 := g.ParseMove(move); err2 == nil && g.Announce(m2) == said {
			return m2, nil
		}
	}
	return rules.NoMove, err
}

// turnLine splits "12. 4 2 4 8 | 4 12 4 10" into the turn number and the
// rest.
func turnLine(ln string) (int, string, bool) {
	digits := 0
	for digits < len(ln) && ln[digits] >= '0' && ln[digits] <= '9' {
		digits++
	}
	if digits == 0 || digits > 6 || digits >= len(ln) || ln[digits] != '.' {
		return 0, "", false
	}
	n, err := strconv.Atoi(ln[:digits])
	if err != nil {
		return 0, "", false
	}
	return n, ln[digits+1:], true
}

// short cuts s for an error message.
func short(s string) string {
	const limit = 60
	if len(s) <= limit {
		return s
	}
	return s[:limit] + "..."
}
