package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"arbiter/rules"
	"arbiter/rules/games"
	"arbiter/store"
	"arbiter/store/open"
)

// TestCrashKeepsAcknowledgedMoves plays games in the console binary on the
// embedded store and kills it with SIGKILL immediately after each
// acknowledgement it prints (one process per move, never waiting for a
// file), then checks the store with the process gone:
//   - every acknowledged move is there, in order;
//   - nothing else is, but for the one move sent after it (in flight when
//     the process died) or the bot's reply;
//   - a bot turn in flight at the kill is played once after the restart,
//     and a bot move the console announced is the move in the game.
//
// Half the games are person against person (with the next person's move
// sent before the kill), half against the bot. -short plays 3 games of 20
// moves; the full run 20 games of 200 moves (a game that ends is followed
// by a new one in its channel): go test -run TestCrashKeepsAcknowledgedMoves -timeout 60m .
func TestCrashKeepsAcknowledgedMoves(t *testing.T) {
	nGames, nMoves := 20, 200
	if testing.Short() {
		nGames, nMoves = 3, 20
	}
	c := &crashRun{t: t, bin: buildArbiter(t), data: t.TempDir(), reg: games.Registry(), rng: rand.New(rand.NewPCG(5, 7)),
		games: map[string]*crashGame{}}
	chans := make([]*crashGame, nGames)
	for i := range chans {
		chans[i] = &crashGame{channel: fmt.Sprintf("c%d", i), bot: i%2 == 1}
		c.games[chans[i].channel] = chans[i]
	}
	for range nMoves {
		for _, g := range chans {
			c.check(g)
			if g.state == nil {
				c.life(g, g.createScript(), regexp.MustCompile(`Sixes: X \(alice\) against|accepts\.`))
				g.acked = nil
				c.check(g)
				if g.state == nil {
					t.Fatalf("channel %s: the game whose start was acknowledged is not in the store after the kill", g.channel)
				}
			}
			script, ack, move, next := c.moveScript(g)
			acked, replies := c.life(g, script, ack)
			if acked && move != "" {
				g.acked = append(g.acked, move)
			}
			// The bot's reply may be printed before the reply to the move
			// it answers: the worker and the command run side by side.
			g.acked = append(g.acked, replies...)
			g.inflight = next
		}
	}
	for _, g := range chans {
		c.check(g)
	}
	t.Logf("%d process lives, each killed right after an acknowledgement; a move sent after it was kept %d times; "+
		"bot turns queued by a killed process and played by a later one: %d; bot moves stored but not shown before a kill: %d",
		c.lives, c.inflightKept, c.botAfterRestart, c.botUnshown)
}

// crashRun is the state of TestCrashKeepsAcknowledgedMoves.
type crashRun struct {
	t     *testing.T
	bin   string
	data  string
	reg   *rules.Registry
	rng   *rand.Rand
	games map[string]*crashGame // by channel

	lives, inflightKept, botAfterRestart, botUnshown int
}

// crashGame is one channel's game as the test knows it.
type crashGame struct {
	channel  string
	bot      bool        // against the bot, else alice against bob
	acked    []string    // the moves the channel was shown: acknowledged, announced, or seen stored
	inflight string      // a move sent after the last acknowledgement, or ""
	state    *store.Game // the game as last loaded, nil when there is none
}

// createScript starts a new game in g's channel.
func (g *crashGame) createScript() string {
	if g.bot {
		return "/channel " + g.channel + "\n/as alice\n/play game:sixes level:1\n"
	}
	return "/channel " + g.channel + "\n/as alice\n/play game:sixes opponent:bob\n/as bob\n/accept\n"
}

// moveScript returns the lines that play the next move in g, the
// acknowledgement to wait for, the person's move acknowledged (or "" for
// the bot's), and the move sent after it to be in flight at the kill.
func (c *crashRun) moveScript(g *crashGame) (script string, ack *regexp.Regexp, move, next string) {
	state := g.state.State.Clone()
	if g.state.Players[state.ToMove()].Kind == store.Bot {
		// The bot's turn was in flight at the last kill: the restarted
		// console plays it; its announcement is the acknowledgement.
		return "/channel " + g.channel + "\n", regexp.MustCompile(`^\[in ` + g.channel + `\] .*\) plays |^[^\[].*\) plays `), "", ""
	}
	move = c.randomMove(state)
	script = fmt.Sprintf("/channel %s\n/as %s\n/move %s\n", g.channel, g.state.Players[g.state.State.ToMove()].Name, move)
	ack = regexp.MustCompile(`^[^\[].*\) played ` + regexp.QuoteMeta(move) + `(?:, [^.]*)?\.`) // ", removing ..." after a capture
	if !g.bot {
		if next = c.randomMove(state); next != "" {
			script += fmt.Sprintf("/as %s\n/move %s\n", g.state.Players[state.ToMove()].Name, next)
		}
	}
	return script, ack, move, next
}

// randomMove plays a random legal move in state and returns its text, or
// "" when the game is over.
func (c *crashRun) randomMove(state rules.Game) string {
	if state.Status() != rules.Ongoing {
		return ""
	}
	var list rules.MoveList
	state.Moves(&list)
	if list.N == 0 {
		return ""
	}
	m := list.Moves[c.rng.IntN(list.N)]
	text := state.FormatMove(m)
	state.Play(m)
	return text
}

// announcement is a bot's move as the console prints it, in another
// channel than the console's ("[in CHANNEL] ") or in its own.
var announcement = regexp.MustCompile(`^(?:\[in ([^\]]+)\] )?.*\) plays ([^,]+)(?:, [^.]*)?\.$`)

// life runs the console on the data directory with script as its input,
// reads its output until a line matches ack and kills it with SIGKILL at
// once. Bot moves it announces are acknowledged to their channel; those of
// g's own channel are returned, to follow the move of this life. It
// reports whether the ack came (false: the game ended first).
func (c *crashRun) life(g *crashGame, script string, ack *regexp.Regexp) (bool, []string) {
	t := c.t
	t.Helper()
	c.lives++
	cmd := exec.Command(c.bin, "console", "--user", "alice")
	// alice plays in every channel: more games than a person may have by
	// default.
	cmd.Env = append(os.Environ(), "DISCORD_TOKEN=", "REDIS_URL=", "BOT_MOVE_TIME=30ms", "ENGINE_WORKERS=1", "DATA_DIR="+c.data,
		"LIMIT_PERSON_GAMES="+strconv.Itoa(len(c.games)))
	cmd.Dir = c.data
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	if _, err := io.WriteString(stdin, script); err != nil {
		t.Fatal(err)
	}
	_ = stdin.Close() // the console ends at the end of its input if no ack comes
	lines := make(chan string)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	var (
		transcript []string
		replies    []string
	)
	timeout := time.After(hangBound)
	for {
		select {
		case line, ok := <-lines:
			if !ok {
				_ = cmd.Wait()
				if strings.Contains(strings.Join(transcript, "\n"), " wins") || strings.Contains(strings.Join(transcript, "\n"), "draw") {
					return false, replies
				}
				t.Fatalf("the console ended before acknowledging (%s):\n%s\n%s", ack, strings.Join(transcript, "\n"), stderr.String())
			}
			transcript = append(transcript, line)
			if m := announcement.FindStringSubmatch(line); m != nil {
				ch := m[1]
				if ch == "" {
					ch = g.channel
				}
				switch other := c.games[ch]; {
				case other == g:
					replies = append(replies, m[2])
					if g.state != nil && g.state.Players[g.state.State.ToMove()].Kind == store.Bot {
						c.botAfterRestart++ // queued by an earlier process, played by this one
					}
				case other != nil:
					other.acked = append(other.acked, m[2])
					c.botAfterRestart++
				}
			}
			if ack.MatchString(line) {
				if err := cmd.Process.Signal(os.Kill); err != nil { // SIGKILL, at once
					t.Fatal(err)
				}
				_ = cmd.Wait()
				return true, replies
			}
		case <-timeout:
			t.Fatalf("no acknowledgement (%s) within %v:\n%s\n%s", ack, hangBound, strings.Join(transcript, "\n"), stderr.String())
		}
	}
}

// check opens the store with no process running and checks g's channel
// against what it was shown; then g knows the stored game.
func (c *crashRun) check(g *crashGame) {
	t := c.t
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hangBound)
	defer cancel()
	st, err := open.Store(ctx, store.Config{DataDir: c.data, Registry: c.reg, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatalf("open the store after the kill: %v", err)
	}
	defer st.Close(ctx)
	stored, err := st.Load(ctx, g.channel)
	if errors.Is(err, store.ErrNotFound) {
		if g.state != nil {
			a, err := st.LoadArchived(ctx, "console", g.state.ID)
			if err != nil {
				t.Fatalf("channel %s: its game %s is gone and not archived: %v", g.channel, g.state.ID, err)
			}
			c.checkGame(g, a)
		}
		g.state, g.inflight = nil, ""
		return
	}
	if err != nil {
		t.Fatalf("channel %s after the kill: %v", g.channel, err)
	}
	c.checkGame(g, stored)
	g.acked, g.state, g.inflight = nil, stored, ""
	for _, m := range stored.Moves {
		g.acked = append(g.acked, m.Text)
	}
}

// checkGame checks a stored game against what g's channel was shown: every
// move shown is there in order, and after them at most the move in flight
// at the kill or the bot's replies; the moves replay, each by the seat to
// move, to the stored position (no move was applied twice).
func (c *crashRun) checkGame(g *crashGame, stored *store.Game) {
	t := c.t
	t.Helper()
	var texts []string
	for _, m := range stored.Moves {
		texts = append(texts, m.Text)
	}
	if len(texts) < len(g.acked) || strings.Join(texts[:len(g.acked)], ",") != strings.Join(g.acked, ",") {
		t.Fatalf("channel %s: stored moves %v lack moves it was shown, %v", g.channel, texts, g.acked)
	}
	for i, m := range stored.Moves[len(g.acked):] {
		switch {
		case stored.Players[m.Seat].Kind == store.Bot:
			c.botUnshown++
		case i == 0 && m.Text == g.inflight:
			c.inflightKept++
		default:
			t.Fatalf("channel %s: stored moves %v hold %q at move %d, never acknowledged nor in flight (shown %v, in flight %q)",
				g.channel, texts, m.Text, len(g.acked)+i+1, g.acked, g.inflight)
		}
	}
	replayed, err := c.reg.New(stored.Name, stored.Options)
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range stored.Moves {
		if replayed.ToMove() != m.Seat {
			t.Fatalf("channel %s: move %d (%s) by seat %d, but seat %d was to move", g.channel, i+1, m.Text, m.Seat, replayed.ToMove())
		}
		mv, err := replayed.ParseMove(m.Text)
		if err != nil {
			t.Fatalf("channel %s: move %d (%s) does not replay: %v", g.channel, i+1, m.Text, err)
		}
		replayed.Play(mv)
	}
	if string(rules.Encode(replayed)) != string(rules.Encode(stored.State)) {
		t.Fatalf("channel %s: the moves replay to another position than the stored one", g.channel)
	}
}

// TestAnnouncementReadsCaptures: the crash test reads the bot's move out of
// its announcement, also when the line says what the move removed.
func TestAnnouncementReadsCaptures(t *testing.T) {
	for line, want := range map[string]string{
		"O (Arbiter, level 1) plays d3 d4.":                             "d3 d4",
		"O (Arbiter, level 1) plays d3 d4, removing X's piece at c4.":   "d3 d4",
		"[in c2] O (Arbiter, level 1) plays a1 c1, removing X's piece.": "a1 c1",
	} {
		m := announcement.FindStringSubmatch(line)
		if m == nil || m[2] != want {
			t.Errorf("%q: read %q, want %q", line, m, want)
		}
	}
}
