package commands_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"arbiter/commands"
	"arbiter/rules"
	"arbiter/store"
	"arbiter/store/redistest"

	"github.com/redis/go-redis/v9"
)

// TestStudentsPlayWholeGames plays every game to its natural end between
// two students, through /play, /accept and /move, and checks the archive,
// the result and the ratings.
func TestStudentsPlayWholeGames(t *testing.T) {
	e := newEnv(t, false)
	rng := rand.New(rand.NewPCG(7, 8))
	for i, name := range e.reg.Names() {
		ch := fmt.Sprintf("students-%d", i)
		r := e.ok(ann, ch, "/play game:"+name+" opponent:@bob")
		if !strings.Contains(r.Text, "challenges") || len(r.Buttons) != 2 {
			t.Fatalf("%s: challenge reply %q with %d buttons", name, r.Text, len(r.Buttons))
		}
		e.refused(ann, ch, "/move "+e.randomMove(ch, rng), "has not been accepted yet")
		e.refused(cat, ch, "/accept", "only they can accept it")
		e.ok(bob, ch, "/accept")
		var last commands.Reply
		for moves := 0; ; moves++ {
			g := e.going(ch)
			if g == nil {
				break // finished
			}
			if moves > 2000 {
				t.Fatalf("%s: no end after 2000 moves", name)
			}
			user := ann
			if g.Players[g.State.ToMove()].UserID == bob.ID {
				user = bob
			}
			last = e.ok(user, ch, "/move "+e.randomMove(ch, rng))
		}
		if !strings.Contains(last.Text, "wins") && !strings.Contains(last.Text, "Draw") {
			t.Errorf("%s: last move's reply does not give the result: %q", name, last.Text)
		}
		// Every game here finishes at the same instant of the test's clock,
		// so the archive's newest-first order does not tell them apart:
		// the game just played is found by its name.
		list, _, err := e.st.Archived(context.Background(), "guild1", 0, 50)
		at := slices.IndexFunc(list, func(s store.Summary) bool { return s.Name == name })
		if err != nil || len(list) != i+1 || at < 0 {
			t.Fatalf("%s: archive %+v, %v", name, list, err)
		}
		g, err := e.st.LoadArchived(context.Background(), "guild1", list[at].ID)
		if err != nil {
			t.Fatal(err)
		}
		own := g.State.Outcome()
		if g.Result != own.Result || g.Reason != own.Reason || own.Result == rules.Ongoing {
			t.Errorf("%s: archived result %v %q, rules say %v %q", name, g.Result, g.Reason, own.Result, own.Reason)
		}
		if len(g.Moves) != g.State.Ply() {
			t.Errorf("%s: %d moves recorded, state has %d", name, len(g.Moves), g.State.Ply())
		}
	}
	stats := e.do(ann, "x", "/stats").Text
	if n := len(e.reg.Names()); strings.Count(stats, "1 game ") != n {
		t.Errorf("ann's stats after %d games: %q", n, stats)
	}
	board := e.ok(bob, "x", "/leaderboard game:sixes").Text
	if !strings.Contains(board, "ann") || !strings.Contains(board, "bob") {
		t.Errorf("leaderboard: %q", board)
	}
}

// TestStudentPlaysBot plays Sixes against the bot to the end and a few
// moves of each other game: the bot answers every move, in the channel,
// by a posted message.
func TestStudentPlaysBot(t *testing.T) {
	e := newEnv(t, true)
	rng := rand.New(rand.NewPCG(9, 10))
	for _, name := range e.reg.Names() {
		ch := "bot-" + name
		e.ok(ann, ch, "/play game:"+name+" level:1 side:second")
		for moves := 0; moves < 400; moves++ {
			waitFor(t, "the bot's move", func() bool { return e.humanToMove(ch) })
			if e.going(ch) == nil {
				break // finished
			}
			if name != "sixes" && moves == 6 {
				e.ok(ann, ch, "/resign")
				break
			}
			e.ok(ann, ch, "/move "+e.randomMove(ch, rng))
		}
		waitFor(t, name+" archived", func() bool {
			_, err := e.st.Load(context.Background(), ch)
			return err != nil
		})
		// Every move the bot thought about was posted, once, in the channel.
		g := e.archived(ch)
		botMoves := 0
		for _, m := range g.Moves {
			if g.Players[m.Seat].Kind == store.Bot && m.Text != "pass" {
				botMoves++
			}
		}
		waitFor(t, name+" posts", func() bool { return len(e.posts.all(ch)) >= botMoves })
		posted := e.posts.all(ch)
		if botMoves == 0 || len(posted) != botMoves || !strings.Contains(posted[0], "(Arbiter, level 1) plays") {
			t.Errorf("%s: %d bot moves, %d posts, first %q", name, botMoves, len(posted), first(posted))
		}
	}
	stats := e.ok(ann, "x", "/leaderboard game:hique").Text
	if !strings.Contains(stats, "Arbiter (level 1)") {
		t.Errorf("the bot level is not rated: %q", stats)
	}
}

func first(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[0]
}

func TestResignDrawUndo(t *testing.T) {
	e := newEnv(t, true)
	// Resign.
	e.ok(ann, "r", "/play game:hique opponent:@bob")
	e.ok(bob, "r", "/accept")
	e.refused(cat, "r", "/resign", "you are not playing in this game")
	r := e.ok(bob, "r", "/resign")
	if !strings.Contains(r.Text, "White resigned") || !strings.Contains(r.Text, "Black (ann) wins") {
		t.Errorf("resign reply %q", r.Text)
	}
	e.refused(ann, "r", "/board", "there is no game in this channel")

	// Draw: offered, a move declines it, offered again and accepted.
	e.ok(ann, "d", "/play game:sixes opponent:@bob")
	e.ok(bob, "d", "/accept")
	if r := e.ok(ann, "d", "/draw"); !strings.Contains(r.Text, "offers a draw") {
		t.Errorf("draw offer %q", r.Text)
	}
	e.refused(ann, "d", "/draw", "offered a draw already")
	e.ok(ann, "d", "/move a1 c1")
	e.ok(bob, "d", "/move a5 a4")
	e.ok(ann, "d", "/draw")
	if r := e.ok(bob, "d", "/draw"); !strings.Contains(r.Text, "Draw") || !strings.Contains(r.Text, "draw agreed") {
		t.Errorf("draw accepted: %q", r.Text)
	}
	e.ok(ann, "h", "/play game:hiya opponent:@bob")
	e.ok(bob, "h", "/accept")
	e.refused(ann, "h", "/draw", "Hi-Ya! has no draws")

	// The bot declines a draw in the start position.
	e.ok(ann, "bd", "/play game:sixes level:1")
	if r := e.ok(ann, "bd", "/draw"); !strings.Contains(r.Text, "declines the draw") {
		t.Errorf("bot draw: %q", r.Text)
	}

	// Undo: refused in a rated game; against the bot in an unrated one it
	// takes back the move and the bot's answer.
	e.refused(ann, "bd", "/undo", "this game is rated")
	e.ok(ann, "u", `/play game:sixes level:1 options:"rated=off"`)
	e.ok(ann, "u", "/move a1 c1")
	waitFor(t, "the bot's answer", func() bool { return e.humanToMove("u") })
	if g := e.game("u"); len(g.Moves) != 2 {
		t.Fatalf("moves before undo: %d", len(g.Moves))
	}
	e.ok(ann, "u", "/undo")
	if g := e.game("u"); len(g.Moves) != 0 || g.State.Ply() != 0 {
		t.Errorf("after undo: %d moves, ply %d", len(g.Moves), g.State.Ply())
	}
	e.refused(ann, "u", "/undo", "no move to take back")

	// Undo between people needs the other's consent.
	e.ok(ann, "uu", `/play game:sixes opponent:@bob options:"rated=off"`)
	e.ok(bob, "uu", "/accept")
	e.ok(ann, "uu", "/move a1 c1")
	if r := e.ok(ann, "uu", "/undo"); !strings.Contains(r.Text, "asks to take back") {
		t.Errorf("undo request: %q", r.Text)
	}
	if g := e.game("uu"); len(g.Moves) != 1 {
		t.Fatal("the undo request took the move back without consent")
	}
	e.ok(bob, "uu", "/undo")
	if g := e.game("uu"); len(g.Moves) != 0 {
		t.Errorf("after consent: %d moves", len(g.Moves))
	}
}

// TestDeadlines: reminders at half time and near the end, then a loss on
// time; with timeout=adjudicate, the game's scoring decides.
func TestDeadlines(t *testing.T) {
	e := newEnv(t, false)
	ctx := context.Background()
	e.ok(ann, "t", "/play game:sixes opponent:@bob time:10m")
	e.ok(bob, "t", "/accept")
	e.ok(ann, "t", "/move a1 c1")
	if err := e.svc.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	if n := len(e.posts.all("t")); n != 0 {
		t.Fatalf("%d posts before anything is due", n)
	}
	e.clock.Advance(5*time.Minute + time.Second)
	must(t, e.svc.Tick(ctx))
	if p := e.posts.all("t"); len(p) != 1 || !strings.Contains(p[0], "reminder") || !strings.Contains(p[0], "<@200>") {
		t.Fatalf("half-time reminder: %q", p)
	}
	must(t, e.svc.Tick(ctx)) // nothing more is due yet
	e.clock.Advance(4 * time.Minute)
	must(t, e.svc.Tick(ctx))
	if p := e.posts.all("t"); len(p) != 2 || !strings.Contains(p[1], "reminder") {
		t.Fatalf("second reminder: %q", p)
	}
	e.clock.Advance(time.Minute)
	must(t, e.svc.Tick(ctx))
	p := e.posts.all("t")
	if len(p) != 3 || !strings.Contains(p[2], "O ran out of time") || !strings.Contains(p[2], "X (ann) wins") {
		t.Fatalf("timeout: %q", p)
	}
	if _, err := e.st.Load(ctx, "t"); err == nil {
		t.Error("the timed-out game is still in its channel")
	}

	// Adjudicated by the game's scoring: HiQUE's timing option.
	e.ok(ann, "a", `/play game:hique opponent:@bob time:1h options:"timeout=adjudicate"`)
	e.ok(bob, "a", "/accept")
	e.ok(ann, "a", "/move 3 1 3 3")
	e.clock.Advance(2 * time.Hour)
	must(t, e.svc.Tick(ctx))
	must(t, e.svc.Tick(ctx))
	got := strings.Join(e.posts.all("a"), "\n")
	if !strings.Contains(got, "decided by timing option 6 to 5") || !strings.Contains(got, "Black (ann) wins") {
		t.Errorf("adjudicated timeout: %q", got)
	}

	// A challenge nobody answers lapses.
	e.ok(ann, "c", "/play game:hiya opponent:@bob time:1h")
	e.clock.Advance(2 * time.Hour)
	must(t, e.svc.Tick(ctx))
	if p := e.posts.all("c"); len(p) != 1 || !strings.Contains(p[0], "lapsed") {
		t.Errorf("lapsed challenge: %q", p)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestRefereeMatchAndAdjudication(t *testing.T) {
	e := newEnv(t, false)
	e.refused(ann, "m", "/referee start game:hique p1:@ann p2:@bob", "only referees")
	r := e.ok(cat, "m", "/referee start game:hique p1:@ann p2:@bob time:1d")
	if !strings.Contains(r.Text, "refereed by cat") {
		t.Errorf("referee start: %q", r.Text)
	}
	e.ok(ann, "m", "/move 4 2 4 10") // no acceptance step
	if r := e.do(bob, "m", "/games"); !strings.Contains(r.Text, "1 game going on") || !strings.Contains(r.Text, "HiQUE in <#m> (here): Black (ann) against White (bob), move 2") {
		t.Errorf("/games: %q", r.Text)
	}
	e.ok(cat, "m", "/referee pause")
	e.refused(bob, "m", "/move 4 12 4 4", "paused")
	e.ok(cat, "m", "/referee resume")
	e.ok(cat, "m", "/referee extend by:1d")
	if g := e.game("m"); g.Deadline.Sub(e.clock.Now()) < 47*time.Hour {
		t.Errorf("deadline after extend: %v", g.Deadline.Sub(e.clock.Now()))
	}
	r = e.ok(cat, "m", "/referee adjudicate result:p2 reason:Black left the course")
	if !strings.Contains(r.Text, "White (bob) wins") || !strings.Contains(r.Text, "adjudicated by cat: Black left the course") {
		t.Errorf("adjudication: %q", r.Text)
	}
	e.ok(cat, "m2", "/referee start game:sixes p1:@ann p2:@bob")
	e.ok(cat, "m2", "/referee abort")
	list, _, err := e.st.Archived(context.Background(), "guild1", 0, 5)
	if err != nil || len(list) != 2 || list[0].Result != rules.Ongoing || !strings.Contains(list[0].Reason, "aborted") {
		t.Errorf("archive after abort: %+v %v", list, err)
	}
}

// TestRefusals checks the message of every refusal path.
func TestRefusals(t *testing.T) {
	e := newEnv(t, false)
	e.refused(ann, "n", "/move a1 c1", "there is no game in this channel; /play starts one")
	e.refused(ann, "n", "/board", "there is no game in this channel")
	e.refused(ann, "n", "/play game:chess", `unknown game "chess"`)
	e.refused(ann, "n", `/play game:sixes options:"edges=maybe"`, "edges=maybe: edges must be on or off")
	e.refused(ann, "n", `/play game:sixes options:"colour=red"`, "sixes has no option colour")
	e.refused(ann, "n", `/play game:sixes options:"timeout=never"`, "timeout must be loss or adjudicate")
	e.refused(ann, "n", "/play game:sixes time:soon", "time:")
	e.refused(ann, "n", "/play game:sixes level:9", "level must be 1")
	e.refused(ann, "n", "/play game:sixes opponent:@ann", "cannot challenge yourself")
	e.ok(ann, "n", "/play game:sixes opponent:@bob")
	e.ok(bob, "n", "/accept")
	e.refused(bob, "n", "/play game:hiya", "a game is already going on in this channel")
	e.refused(bob, "n", "/move a5 a4", "it is <@100>'s turn, not yours")
	e.refused(cat, "n", "/move a1 c1", "you are not playing in this game; /board shows it")
	e.refused(ann, "n", "/move hello", `cannot read "hello"`)
	e.refused(ann, "n", "/move a1 a4", "a1 to a4 is not a move")
	e.refused(ann, "n", "/move a5 a4", "the piece on a5 is O's; you play X")
	e.refused(ann, "n", "/move c3 c4", "no piece")
	e.refused(ann, "n", "/move", "give a move")
	e.refused(ann, "n", "/accept", "no challenge waiting")
	e.refused(ann, "n", "/moves from:d4", "no legal move from d4")
	if r := e.do(ann, "n", "/moves from:a1"); !strings.Contains(r.Text, "a1 c1") || strings.Contains(r.Text, "b1") {
		t.Errorf("/moves from:a1: %q", r.Text)
	}
	// A stale button: drawn for an older version of the game.
	g := e.game("n")
	e.ok(ann, "n", "/move a1 c1")
	inv := invocation(ann, "n", "resign")
	inv.Game, inv.Version = g.ID, g.Version
	if r := e.svc.Handle(context.Background(), inv); !r.Private || !strings.Contains(r.Text, "older state of the game") {
		t.Errorf("stale button: %q", r.Text)
	}
	if _, err := e.st.Load(context.Background(), "n"); err != nil {
		t.Error("a stale resign button ended the game")
	}
}

func TestAutocomplete(t *testing.T) {
	e := newEnv(t, false)
	e.ok(ann, "ac", "/play game:hique opponent:@bob")
	e.ok(bob, "ac", "/accept")
	inv := invocation(ann, "ac", "move")
	inv.Focused, inv.Options = "move", map[string]string{"move": "4 2"}
	r := e.svc.Autocomplete(context.Background(), inv)
	if len(r.Choices) != 5 { // 4 2 down to 4, 6, 8, 10, and 4 2 2 2
		t.Errorf("choices for %q: %v", "4 2", r.Choices)
	}
	inv.Options["move"] = ""
	if r := e.svc.Autocomplete(context.Background(), inv); len(r.Choices) != 25 {
		t.Errorf("%d choices for nothing typed, want the first 25", len(r.Choices))
	}
}

func invocation(u commands.User, channel, cmd string) commands.Invocation {
	return commands.Invocation{Guild: "guild1", Channel: channel, User: u, Command: cmd, Options: map[string]string{}}
}

// TestStorageDown: with Redis gone, a move is refused with the clear
// message and nothing is lost when Redis is back.
func TestStorageDown(t *testing.T) {
	e := newEnv(t, false, redistest.Options{TCP: true, AppendOnly: true})
	e.ok(ann, "s", "/play game:sixes opponent:@bob")
	e.ok(bob, "s", "/accept")
	e.ok(ann, "s", "/move a1 c1")
	e.srv.Stop()
	// The move is played on the game as this process saved it last (no
	// read): its save gets no answer, which cannot say it was not applied.
	e.refused(bob, "s", "/move a5 a4", "whether that was recorded is unknown")
	// Sent again, the move reads the game first, and that read fails.
	e.refused(bob, "s", "/move a5 a4", "storage is not reachable right now; nothing was changed, try again")
	e.srv.Restart()
	var g *store.Game
	waitFor(t, "Redis back", func() bool {
		var err error
		g, err = e.st.Load(context.Background(), "s")
		return err == nil
	})
	if len(g.Moves) != 1 || g.Moves[0].Text != "a1 c1" {
		t.Fatalf("after the outage the game has moves %+v", g.Moves)
	}
	e.ok(bob, "s", "/move a5 a4")
}

// TestForcedPassIsPlayedAndAnnounced finds, by seeded random play, an
// Upthrust game where a move leaves the opponent with only a pass, plays it
// through /move, and checks that Arbiter passed for them and said so.
func TestForcedPassIsPlayedAndAnnounced(t *testing.T) {
	e := newEnv(t, false)
	var line []string
	for seed := uint64(1); line == nil && seed < 500; seed++ {
		g, _ := e.reg.New("upthrust", rules.Options{"colours": "gb"})
		rng := rand.New(rand.NewPCG(seed, 0))
		var list rules.MoveList
		var played []string
		for g.Status() == rules.Ongoing {
			g.Moves(&list)
			m := list.Moves[rng.IntN(list.N)]
			text := g.FormatMove(m)
			if text == "pass" {
				break // the line must reach the pass through real moves
			}
			played = append(played, text)
			g.Play(m)
			g.Moves(&list)
			if g.Status() == rules.Ongoing && list.N == 1 && g.FormatMove(list.Moves[0]) == "pass" {
				line = played
				break
			}
		}
	}
	if line == nil {
		t.Fatal("no forced pass in 500 seeded games")
	}
	e.ok(ann, "p", `/play game:upthrust opponent:@bob options:"colours=gb"`)
	e.ok(bob, "p", "/accept")
	var last commands.Reply
	for i, mv := range line {
		user := ann
		if g := e.game("p"); g.State.ToMove() == rules.P2 {
			user = bob
		}
		last = e.ok(user, "p", "/move "+mv)
		if i < len(line)-1 && strings.Contains(last.Text, "passes") {
			t.Fatalf("a pass before the end of the line, after %s", mv)
		}
	}
	if !strings.Contains(last.Text, "has no legal move and passes.") {
		t.Errorf("the forced pass was not announced: %q", last.Text)
	}
	g := e.game("p")
	if n := len(g.Moves); n != len(line)+1 || g.Moves[n-1].Text != "pass" || g.Moves[n-1].By != "" {
		t.Errorf("moves after the pass: %+v", g.Moves[len(g.Moves)-2:])
	}
}

// TestChannelBoardStyle: the channel's board setting, which only referees
// change, draws the boards of its games; a change never touches the game
// going on (its version stays, so the players' buttons stay good) and
// applies from the next game.
func TestChannelBoardStyle(t *testing.T) {
	e := newEnv(t, false)
	if r := e.do(ann, "st", "/settings"); !r.Private || !strings.Contains(r.Text, "drawn as text") {
		t.Errorf("default setting: %q", r.Text)
	}
	e.refused(ann, "st", "/settings board:emoji", "only referees")
	e.refused(cat, "st", "/settings board:ascii", "board must be text, emoji or image")
	e.ok(cat, "st", "/settings board:emoji")
	r := e.ok(ann, "st", "/play game:sixes opponent:@bob")
	if strings.Contains(r.Text, "```") || !strings.Contains(r.Text, "🔴") {
		t.Errorf("an emoji channel's challenge: %q", r.Text)
	}
	e.ok(bob, "st", "/accept")
	before := e.game("st").Version
	if r := e.ok(cat, "st", "/settings board:image"); !strings.Contains(r.Text, "next game") {
		t.Errorf("a change mid-game: %q", r.Text)
	}
	if after := e.game("st").Version; after != before {
		t.Fatalf("/settings bumped the game's version from %d to %d", before, after)
	}
	r = e.ok(ann, "st", "/move a1 c1")
	if len(r.Files) != 0 || !strings.Contains(r.Text, "🔴") {
		t.Errorf("the game going on changed style: %d files, %q", len(r.Files), r.Text)
	}
	if r := e.ok(bob, "st", "/board style:text"); !strings.Contains(r.Text, "```") || len(r.Files) != 0 {
		t.Errorf("/board style:text overrides the channel: %q", r.Text)
	}
	e.ok(cat, "st", "/referee abort")
	if r := e.ok(ann, "st", "/play game:sixes opponent:@bob"); len(r.Files) != 1 || r.Files[0].ContentType != "image/png" {
		t.Errorf("the next game in an image channel: %d files", len(r.Files))
	}
}

// TestDamagedRecord: a record that does not decode is reported with the
// channel's game only; a referee's abort moves it aside and frees the
// channel; the other games go on.
func TestDamagedRecord(t *testing.T) {
	e := newEnv(t, false)
	e.ok(ann, "ok", "/play game:sixes opponent:@bob")
	e.ok(ann, "bad", "/play game:hiya opponent:@bob")
	opt, err := redis.ParseURL(e.srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	rdb := redis.NewClient(opt)
	defer rdb.Close()
	if err := rdb.HSet(context.Background(), "{ch:bad}:game", "record", "not json").Err(); err != nil {
		t.Fatal(err)
	}
	e.refused(bob, "bad", "/accept", "the game record of this channel is damaged")
	e.refused(ann, "bad", "/referee abort", "only referees")
	if r := e.ok(cat, "bad", "/referee abort"); !strings.Contains(r.Text, "moved aside") {
		t.Errorf("abort of a damaged record: %q", r.Text)
	}
	e.ok(ann, "bad", "/play game:hiya opponent:@bob")
	e.ok(bob, "ok", "/accept")
}

// TestButtonOfAnotherGame: a button left under a finished game's board is
// refused in the next game of the channel, even at the same version.
func TestButtonOfAnotherGame(t *testing.T) {
	e := newEnv(t, false)
	r := e.ok(ann, "b", "/play game:sixes opponent:@bob")
	old := r.Buttons[0].ID // accept:GAME:1
	e.ok(bob, "b", "/decline")
	e.ok(ann, "b", "/play game:sixes opponent:@bob")
	cmd, game, version, err := commands.ParseButton(old)
	if err != nil || cmd != "accept" || version != 1 {
		t.Fatalf("ParseButton(%q) = %s %s %d %v", old, cmd, game, version, err)
	}
	inv := invocation(bob, "b", cmd)
	inv.Game, inv.Version = game, version
	if r := e.svc.Handle(context.Background(), inv); !r.Private || !strings.Contains(r.Text, "older state of the game") {
		t.Errorf("the old game's button: %q", r.Text)
	}
	g := e.game("b")
	inv.Game = g.ID
	if r := e.svc.Handle(context.Background(), inv); r.Private {
		t.Errorf("the new game's button refused: %q", r.Text)
	}
}

func TestParseButton(t *testing.T) {
	for _, bad := range []string{"", "resign", "resign:1", "resign::3", "resign:1:x", "resign:1:0", "dance:1:2", "a:b:c:d"} {
		if _, _, _, err := commands.ParseButton(bad); err == nil {
			t.Errorf("ParseButton(%q) accepted", bad)
		}
	}
}

// TestGamesShowsTheBotQueue: /games says how many bot turns wait for the
// engine, so that a class sees why the bot is slow when the workers
// cannot keep up.
func TestGamesShowsTheBotQueue(t *testing.T) {
	e := newEnv(t, false) // no workers: the bot's turns wait
	if r := e.do(ann, "q1", "/games"); strings.Contains(r.Text, "to think about") {
		t.Fatalf("/games with nothing queued: %q", r.Text)
	}
	e.ok(ann, "q1", "/play game:sixes level:1 side:second")
	e.ok(bob, "q2", "/play game:hiya level:1 side:second")
	if r := e.do(ann, "q1", "/games"); !strings.Contains(r.Text, "2 turns to think about") {
		t.Fatalf("/games with two bot turns queued: %q", r.Text)
	}
}

// TestHelpNamesEveryCommand: /help names every command of the command set
// and every subcommand, so a student finds each from /help.
func TestHelpNamesEveryCommand(t *testing.T) {
	e := newEnv(t, false)
	help := e.do(ann, "h", "/help").Text
	for _, c := range commands.CommandSet(e.reg.Names()) {
		if !strings.Contains(help, "/"+c.Name) {
			t.Errorf("/help does not name /%s", c.Name)
		}
		for _, sub := range c.Subcommands {
			if !strings.Contains(help, sub.Name) {
				t.Errorf("/help does not name /%s %s", c.Name, sub.Name)
			}
		}
	}
}
