package bot_test

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"arbiter/bot/discordtest"
	"arbiter/commands"
	"arbiter/store"
)

// TestStudentsPlayWholeGame: a challenge accepted by button, a whole game
// of Sixes by /move, stale buttons refused privately, and every answer
// within Discord's rules.
func TestStudentsPlayWholeGame(t *testing.T) {
	w := newWorld(t, false)
	p := w.start(procOptions{gateway: true})
	ann, bob, cat := w.srv.AddUser("Ann"), w.srv.AddUser("Bob"), w.srv.AddUser("Cat")
	ch := w.general
	rng := rand.New(rand.NewPCG(1, 2))

	challenge := w.public(w.do(ann.ID, ch, "play", opt("game", "sixes"), opt("opponent", bob.ID), opt("options", "turns=24")))
	if !strings.Contains(challenge.Content, "challenges") || !strings.Contains(challenge.Content, "<@"+bob.ID+">") {
		t.Fatalf("challenge = %q", challenge.Content)
	}
	if !pinged(challenge, ann.ID, bob.ID) {
		t.Errorf("challenge pinged %+v, want Ann and Bob only", challenge.Pings)
	}
	if !strings.Contains(challenge.Content, "```") {
		t.Errorf("the board is not in a code block: %q", challenge.Content)
	}
	accept := button(t, challenge, "Accept")
	button(t, challenge, "Decline")

	// Cat may not accept; Bob accepts by button.
	w.private(w.press(cat.ID, challenge.ID, accept), "only they can accept it")
	accepted := w.public(w.press(bob.ID, challenge.ID, accept))
	if !strings.Contains(accepted.Content, "accepts") || len(accepted.Buttons()) < 2 {
		t.Fatalf("acceptance = %q with buttons %+v", accepted.Content, accepted.Buttons())
	}
	g := p.game(ch)
	if g == nil || commands.FlowOf(g).Challenge {
		t.Fatalf("after the button the game is %+v, want it going on", g)
	}
	// The challenge's Accept button is stale now: refused, privately, with
	// the board as it is.
	w.private(w.press(bob.ID, challenge.ID, accept), "older state of the game")
	staleResign := button(t, accepted, "Resign")

	var last discordtest.Message
	users := map[string]discordtest.User{ann.ID: ann, bob.ID: bob}
	for moves := 0; ; moves++ {
		g := p.game(ch)
		if g == nil {
			break
		}
		if moves > 200 {
			t.Fatal("no end after 200 moves with turns=24")
		}
		mover := users[g.Players[g.State.ToMove()].UserID]
		last = w.public(w.do(mover.ID, ch, "move", opt("move", randomMove(t, g, rng))))
		if !strings.Contains(last.Content, "played **") {
			t.Fatalf("move answer = %q", last.Content)
		}
		if next := p.game(ch); next != nil && !pinged(last, next.Players[next.State.ToMove()].UserID) {
			t.Fatalf("move answer pinged %+v, want the next player only", last.Pings)
		}
		if moves == 3 {
			// A Resign button from before these moves is stale.
			w.private(w.press(ann.ID, accepted.ID, staleResign), "older state of the game")
		}
	}
	if !strings.Contains(last.Content, "wins") && !strings.Contains(last.Content, "Draw") {
		t.Errorf("the last move's answer does not say the result: %q", last.Content)
	}
	if len(last.Pings.Roles) != 0 || last.Pings.Everyone {
		t.Errorf("the result pinged %+v", last.Pings)
	}
	if b := last.Buttons(); len(b) != 1 || b[0].Label != "Rematch" {
		t.Errorf("a finished game's board has buttons %+v, want Rematch only", b)
	}
	// Pressed after the game: nothing to act on, said privately.
	w.private(w.press(bob.ID, accepted.ID, staleResign), "no game in this channel")
	history := w.public(w.do(ann.ID, ch, "history", opt("game", "1")))
	if len(history.Attachments) == 0 {
		t.Errorf("/history attached nothing: %+v", history)
	}
	w.noViolations()
}

// TestStudentPlaysBot: a student plays the bot to the end; the bot's moves
// come from a separate worker process (REST only, no gateway) over the
// shared Redis, as ordinary channel messages.
func TestStudentPlaysBot(t *testing.T) {
	w := newWorld(t, true)
	p := w.start(procOptions{gateway: true})
	w.start(procOptions{workers: 1, workerName: "worker"})
	ann := w.srv.AddUser("Ann")
	ch := w.general
	rng := rand.New(rand.NewPCG(3, 4))

	start := w.public(w.do(ann.ID, ch, "play", opt("game", "sixes"), opt("level", 1), opt("side", "second"), opt("options", "turns=16")))
	if !strings.Contains(start.Content, "Arbiter, level 1") {
		t.Fatalf("start = %q", start.Content)
	}
	for {
		// Ann's turn comes when the bot's move is saved; its message is
		// posted after that: wait for both. The game ends on Ann's move
		// (the bot plays turns 1, 3, ..., 15), with no post pending.
		g := awaitHumanTurn(t, w, p, ch)
		if g == nil {
			break
		}
		moves := w.botMoves(ch)
		m := moves[len(moves)-1]
		if !pinged(m, ann.ID) {
			t.Fatalf("the bot's move pinged %+v, want Ann", m.Pings)
		}
		if !strings.Contains(m.Content, "```") || len(m.Buttons()) == 0 {
			t.Fatalf("the bot's move has no board or no buttons: %q", m.Content)
		}
		w.public(w.do(ann.ID, ch, "move", opt("move", randomMove(t, g, rng))))
	}
	if posted := len(w.botMoves(ch)); posted != 8 {
		t.Errorf("the bot posted %d moves, want 8 of the 16 turns", posted)
	}
	// The moves went out as channel messages, never as followups.
	for _, c := range w.srv.Calls() {
		if c.Route == discordtest.RouteFollowupCreate {
			t.Errorf("a followup was sent: %s", c.Path)
		}
	}
	w.noViolations()
}

// awaitHumanTurn waits until it is a person's move in ch's game and every
// move of the bot's there is posted, and returns the game; nil when the
// game has ended.
func awaitHumanTurn(t *testing.T, w *world, p *proc, ch string) *store.Game {
	t.Helper()
	var g *store.Game
	waitFor(t, "the bot's move", func() bool {
		g = p.game(ch)
		return g == nil || g.Players[g.State.ToMove()].Kind == store.Human && len(w.botMoves(ch)) == botPlies(g)
	})
	return g
}

// botPlies counts the bot's moves in g.
func botPlies(g *store.Game) int {
	n := 0
	for _, m := range g.Moves {
		if g.Players[m.Seat].Kind != store.Human {
			n++
		}
	}
	return n
}

// TestBotRestartMidThink stops the process while the bot thinks, starts it
// again under the same worker name, and the bot's move arrives once.
func TestBotRestartMidThink(t *testing.T) {
	w := newWorld(t, true)
	// The first process's bot would think for ten hang bounds: a stop that
	// waited for the think would reach the bound.
	first := w.start(procOptions{gateway: true, workers: 1, workerName: "arbiter", moveTime: 10 * hang, claimTimeout: time.Second})
	ann := w.srv.AddUser("Ann")
	ch := w.general
	w.public(w.do(ann.ID, ch, "play", opt("game", "sixes"), opt("level", 5), opt("side", "second")))
	waitFor(t, "the bot to think", func() bool { return first.svc.BotTurnsInFlight() == 1 })
	stopped := time.Now()
	first.stop()
	if took := time.Since(stopped); took > hang {
		t.Errorf("stopping took %v", took)
	}
	if n := len(w.botMoves(ch)); n != 0 {
		t.Fatalf("%d bot moves before the restart, want 0", n)
	}

	second := w.start(procOptions{gateway: true, workers: 1, workerName: "arbiter", moveTime: 200 * time.Millisecond, claimTimeout: time.Second})
	waitFor(t, "the bot's move after the restart", func() bool { return len(w.botMoves(ch)) == 1 })
	// Long enough for any second claim to have happened.
	time.Sleep(2500 * time.Millisecond)
	if n := len(w.botMoves(ch)); n != 1 {
		t.Errorf("%d bot moves, want exactly 1", n)
	}
	g := second.game(ch)
	if g == nil || len(g.Moves) != 1 || g.Players[g.State.ToMove()].Kind != store.Human {
		t.Fatalf("the game after the restart: %+v", g)
	}
	// And the game goes on.
	rng := rand.New(rand.NewPCG(5, 6))
	w.public(w.do(ann.ID, ch, "move", opt("move", randomMove(t, g, rng))))
	waitFor(t, "the bot's second move", func() bool { return len(w.botMoves(ch)) == 2 })
	w.noViolations()
}

// TestAutocomplete: /move suggests legal moves, at most 25, filtered by
// what was typed.
func TestAutocomplete(t *testing.T) {
	w := newWorld(t, false)
	p := w.start(procOptions{gateway: true})
	ann, bob := w.srv.AddUser("Ann"), w.srv.AddUser("Bob")
	ch := w.general
	suggest := func(typed string) []discordtest.Choice {
		t.Helper()
		in, err := w.srv.SendAutocomplete(ann.ID, ch, "move", discordtest.Option{Name: "move", Value: typed, Focused: true})
		if err != nil {
			t.Fatal(err)
		}
		resp, err := w.srv.WaitForResponse(w.ctx(), in.ID)
		if err != nil {
			t.Fatal(err)
		}
		if resp.Type != discordtest.CallbackAutocomplete || len(resp.Choices) > 25 {
			t.Fatalf("autocomplete answer %+v", resp)
		}
		return resp.Choices
	}
	if got := suggest(""); len(got) != 0 {
		t.Errorf("suggestions without a game: %+v", got)
	}
	w.public(w.do(ann.ID, ch, "play", opt("game", "hique"), opt("opponent", bob.ID)))
	w.public(w.do(bob.ID, ch, "accept"))
	g := p.game(ch)
	var list []string
	for _, c := range suggest("") {
		list = append(list, c.Value.(string))
	}
	if len(list) != 25 {
		t.Fatalf("%d suggestions at HiQUE's start, want 25 (of more legal moves)", len(list))
	}
	for _, m := range list {
		if _, err := g.State.ParseMove(m); err != nil {
			t.Errorf("suggestion %q is not legal: %v", m, err)
		}
	}
	prefix := strings.Fields(list[0])[0]
	for _, c := range suggest(prefix) {
		if !strings.HasPrefix(strings.ReplaceAll(c.Value.(string), " ", ""), strings.ReplaceAll(prefix, " ", "")) {
			t.Errorf("suggestion %q does not start with %q", c.Value, prefix)
		}
	}
	// A suggestion is a move the command takes.
	w.public(w.do(ann.ID, ch, "move", opt("move", list[0])))
	w.noViolations()
}

// TestReconnectMidGame: Discord asks the bot to reconnect (op 7) in the
// middle of a game; a command sent meanwhile is replayed on RESUME and
// answered in time, and the game goes on.
func TestReconnectMidGame(t *testing.T) {
	w, p, move := midGame(t, discordtest.Options{Token: token}, procOptions{})
	ch := w.general
	w.public(w.answerTo(move()))

	before := w.srv.Sessions()
	w.srv.RequestReconnect()
	in := move() // dispatched while the bot reconnects
	w.public(w.answerTo(in))
	if _, err := w.srv.WaitForGateway(w.ctx(), func(e discordtest.GatewayEvent) bool { return e.Type == "RESUMED" }); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		w.public(w.answerTo(move()))
	}
	if g := p.game(ch); g == nil || len(g.Moves) != 6 {
		t.Fatalf("after the reconnect the game is %+v, want 6 moves", g)
	}
	after := w.srv.Sessions()
	if len(after) != len(before) || after[len(after)-1].Resumes != 1 || len(w.srv.Identifies()) != 1 {
		t.Errorf("sessions %+v, identifies %d: want the session resumed, not a new one", after, len(w.srv.Identifies()))
	}
	w.noViolations()
}

// TestDeferredAnswers: while Redis stalls, commands are deferred within the
// three seconds and completed when it answers: a public reply edits the
// deferral, a private one on a public deferral replaces it with an
// ephemeral followup, a reply that pings is a new message, and a private
// command defers privately.
func TestDeferredAnswers(t *testing.T) {
	w := newWorld(t, true)
	p := w.start(procOptions{gateway: true, deferAfter: 300 * time.Millisecond, storeTimeout: 10 * time.Second})
	ann, bob, cy := w.srv.AddUser("Ann"), w.srv.AddUser("Bob"), w.srv.AddUser("Cy")
	ch := w.general
	w.public(w.do(ann.ID, ch, "play", opt("game", "sixes"), opt("opponent", bob.ID)))
	w.public(w.do(bob.ID, ch, "accept"))
	g := p.game(ch)
	mover, other := g.Players[g.State.ToMove()].UserID, g.Players[g.State.ToMove().Other()].UserID
	legal := randomMove(t, g, rand.New(rand.NewPCG(9, 10)))

	w.redis.Pause()
	send := func(user, name string, opts ...discordtest.Option) discordtest.Interaction {
		in, err := w.srv.SendCommand(user, ch, name, opts...)
		if err != nil {
			w.redis.Resume()
			t.Fatal(err)
		}
		return in
	}
	board := send(ann.ID, "board")
	moves := send(ann.ID, "moves")
	wrong := send(cy.ID, "move", opt("move", legal)) // a stranger: refused in any order
	move := send(mover, "move", opt("move", legal))
	time.Sleep(1500 * time.Millisecond)
	w.redis.Resume()

	for _, in := range []discordtest.Interaction{board, moves, wrong, move} {
		resp, err := w.srv.WaitForResponse(w.ctx(), in.ID)
		if err != nil {
			t.Fatal(err)
		}
		if resp.Type != discordtest.CallbackDeferredMessage {
			t.Fatalf("interaction %s answered with type %d, want a deferral", in.ID, resp.Type)
		}
	}
	// /board: public deferral edited into the board.
	b := w.public(w.answerTo(board))
	if resp, _ := w.srv.ResponseTo(board.ID); resp.MessageID != b.ID || !strings.Contains(b.Content, "```") {
		t.Errorf("/board's deferral was not completed in place: %+v", b)
	}
	// /moves: private by nature, deferred privately, edited.
	m := w.answerTo(moves)
	w.private(m, "legal moves")
	if resp, _ := w.srv.ResponseTo(moves.ID); !resp.Ephemeral() || resp.MessageID != m.ID {
		t.Errorf("/moves deferral %+v, want ephemeral and completed in place", resp)
	}
	// A stranger's /move: refused privately, the public deferral gone.
	w.private(w.answerTo(wrong), "not playing in this game")
	if resp, _ := w.srv.ResponseTo(wrong.ID); resp.Ephemeral() {
		t.Errorf("/move was deferred privately")
	} else {
		waitFor(t, "the public deferral of a private answer deleted", func() bool {
			orig, _ := w.srv.Message(resp.MessageID)
			return orig.Deleted
		})
	}
	// The right player's /move: a new public message that pings.
	played := w.public(w.answerTo(move))
	if !pinged(played, other) {
		t.Errorf("the deferred move pinged %+v, want %s", played.Pings, other)
	}
	for _, msg := range w.srv.Messages(ch) {
		if !msg.Ephemeral() && !msg.Deleted && (strings.Contains(msg.Content, "legal moves") || strings.Contains(msg.Content, "not yours")) {
			t.Errorf("private text shown in the channel: %q", msg.Content)
		}
	}
	w.noViolations()
}

// TestPlayInThread: /play thread:true opens a public thread for the game,
// which keeps the game; a thread archived by a week of silence is opened
// again for the bot's next message; a refused /play opens no thread.
func TestPlayInThread(t *testing.T) {
	w := newWorld(t, false)
	p := w.start(procOptions{gateway: true})
	ann, bob := w.srv.AddUser("Ann"), w.srv.AddUser("Bob")
	ch := w.general

	answer := w.public(w.do(ann.ID, ch, "play", opt("game", "sixes"), opt("opponent", bob.ID), opt("thread", true)))
	threads := w.srv.Threads(ch)
	if len(threads) != 1 {
		t.Fatalf("%d threads, want 1", len(threads))
	}
	th := threads[0]
	if th.Type != discordtest.ChannelPublicThread || th.AutoArchiveDuration != 10080 {
		t.Errorf("thread = %+v, want public, archived after a week", th)
	}
	if !strings.Contains(answer.Content, "<#"+th.ID+">") || len(answer.Pings.Users) != 0 {
		t.Errorf("the channel's answer = %q (pings %+v), want a link to the thread and no pings", answer.Content, answer.Pings)
	}
	var announce discordtest.Message
	for _, m := range w.srv.Messages(th.ID) {
		if strings.Contains(m.Content, "challenges") {
			announce = m
		}
	}
	if announce.ID == "" || !pinged(announce, ann.ID, bob.ID) {
		t.Fatalf("the thread's announcement = %+v", announce)
	}
	w.public(w.press(bob.ID, announce.ID, button(t, announce, "Accept")))
	if g := p.game(th.ID); g == nil || commands.FlowOf(g).Challenge {
		t.Fatalf("the thread's game = %+v, want it accepted", g)
	}
	if p.game(ch) != nil {
		t.Fatal("the game is in the channel, not the thread")
	}

	w.srv.Advance(7*24*time.Hour + time.Minute)
	if th, _ := w.srv.Channel(th.ID); !th.Archived {
		t.Fatal("a week of silence did not archive the thread")
	}
	if err := p.notifier.Post(context.Background(), th.ID, commands.Message{Text: "A reminder, <@" + ann.ID + ">.", Mentions: []string{ann.ID}}); err != nil {
		t.Fatalf("post into the archived thread: %v", err)
	}
	if th, _ := w.srv.Channel(th.ID); th.Archived {
		t.Error("the thread is still archived")
	}
	last := w.srv.Messages(th.ID)
	if m := last[len(last)-1]; !strings.Contains(m.Content, "A reminder") || !pinged(m, ann.ID) {
		t.Errorf("the reminder in the thread = %+v", m)
	}

	// A refused /play: a private refusal, and no thread opened for it.
	w.private(w.do(ann.ID, ch, "play", opt("game", "sixes"), opt("options", "bogus=1"), opt("thread", true)), "bogus")
	if threads = w.srv.Threads(ch); len(threads) != 1 {
		t.Errorf("threads after a refused /play: %+v, want only the game's", threads)
	}
	w.noViolations()
}

// TestRolesAndPermissions: role names from the guild (fetched when the
// gateway's state does not have them) and Manage Server make referees.
func TestRolesAndPermissions(t *testing.T) {
	w := newWorld(t, false)
	p := w.start(procOptions{gateway: true})
	role, err := w.srv.AddRole("", "referee", 0)
	if err != nil {
		t.Fatal(err)
	}
	ann, bob, cat := w.srv.AddUser("Ann"), w.srv.AddUser("Bob"), w.srv.AddUser("Cat", role.ID)
	owner := w.srv.Guild().OwnerID
	ch := w.general
	start := discordtest.Option{Name: "start", Options: []discordtest.Option{opt("game", "sixes"), opt("p1", ann.ID), opt("p2", bob.ID)}}
	w.private(w.do(ann.ID, ch, "referee", start), "only referees")
	started := w.public(w.do(cat.ID, ch, "referee", start))
	if !strings.Contains(started.Content, "refereed by Cat") || !strings.Contains(started.Content, "(Ann)") || !strings.Contains(started.Content, "(Bob)") {
		t.Errorf("refereed start = %q, want the players' and referee's names", started.Content)
	}
	w.private(w.do(ann.ID, ch, "referee", discordtest.Option{Name: "pause"}), "only referees")
	w.public(w.do(owner, ch, "referee", discordtest.Option{Name: "pause"})) // Manage Server
	if g := p.game(ch); g == nil || !commands.FlowOf(g).Paused {
		t.Fatalf("the owner's pause did not take: %+v", g)
	}
	w.public(w.do(cat.ID, ch, "referee", discordtest.Option{Name: "abort"}))
	if p.game(ch) != nil {
		t.Error("the game was not aborted")
	}
	w.noViolations()
}

// TestRegistration: the command set is registered with one bulk
// overwrite, in the development guild or globally.
func TestRegistration(t *testing.T) {
	w := newWorld(t, false)
	first := w.start(procOptions{})
	want := commands.CommandSet(w.reg.Names())
	check := func(got []discordtest.AppCommand, contexts []int) {
		t.Helper()
		if len(got) != len(want)+1 { // and the bot's own /diagnose
			t.Fatalf("%d commands registered, want %d", len(got), len(want)+1)
		}
		byName := map[string]discordtest.AppCommand{}
		for _, c := range got {
			byName[c.Name] = c
			if !slices.Equal(c.Contexts, contexts) {
				t.Errorf("/%s usable in %v, want %v (guilds only; a guild's commands say nothing)", c.Name, c.Contexts, contexts)
			}
		}
		play := byName["play"]
		if len(play.Options) != 9 || play.Options[0].Name != "game" || !play.Options[0].Required || len(play.Options[0].Choices) != len(w.reg.Names()) {
			t.Errorf("/play options = %+v", play.Options)
		}
		for _, o := range play.Options {
			if o.Name == "level" && (o.Type != discordtest.OptionInteger || o.MinValue == nil || *o.MinValue != 1 || o.MaxValue == nil || *o.MaxValue != 5) {
				t.Errorf("/play level = %+v", o)
			}
		}
		if ref := byName["referee"]; len(ref.Options) != 9 || ref.Options[0].Type != discordtest.OptionSubCommand {
			t.Errorf("/referee = %+v", ref.Options)
		}
		if mv := byName["move"]; !mv.Options[0].Autocomplete {
			t.Errorf("/move's option does not autocomplete")
		}
	}
	check(w.srv.Commands(w.srv.Guild().ID), nil)
	if n := len(w.srv.Commands("")); n != 0 {
		t.Errorf("%d global commands with a development guild", n)
	}
	first.stop() // one process at a time on an embedded store
	w.start(procOptions{global: true})
	check(w.srv.Commands(""), []int{0})
	puts := 0
	for _, c := range w.srv.Calls() {
		if c.Route == discordtest.RouteGuildCommandsPut || c.Route == discordtest.RouteGlobalCommandsPut {
			puts++
		}
	}
	if puts != 2 {
		t.Errorf("%d bulk overwrites, want one per start", puts)
	}
	w.noViolations()
}

// TestShards: two processes, one per gateway shard, each answer their
// guilds' interactions; they share one Redis.
func TestShards(t *testing.T) {
	w := newWorld(t, true)
	g0 := w.srv.Guild()
	var g1 discordtest.Guild
	for range 200 {
		w.srv.Advance(time.Millisecond)
		if g := w.srv.AddGuild("Other"); shardOf(g.ID) != shardOf(g0.ID) {
			g1 = g
			break
		}
	}
	if g1.ID == "" {
		t.Fatal("no guild on the other shard")
	}
	ann := w.srv.AddUser("Ann")
	if err := w.srv.Join(g1.ID, ann.ID); err != nil {
		t.Fatal(err)
	}
	procs := map[int]*proc{}
	for id := range 2 {
		procs[id] = w.start(procOptions{gateway: true, global: true, workers: 1, shard: [2]int{id, 2}})
	}
	for _, g := range []discordtest.Guild{g0, g1} {
		w.public(w.do(ann.ID, g.DefaultChannelID, "play", opt("game", "sixes"), opt("level", 1), opt("side", "second")))
		waitFor(t, "the bot's move", func() bool { return len(w.botMoves(g.DefaultChannelID)) == 1 })
	}
	shards := map[[2]int]bool{}
	for _, id := range w.srv.Identifies() {
		shards[id.Shard] = true
	}
	if !shards[[2]int{0, 2}] || !shards[[2]int{1, 2}] {
		t.Errorf("identified shards %v, want 0 and 1 of 2", shards)
	}
	for _, e := range w.srv.GatewayLog() {
		if e.Type != "INTERACTION_CREATE" {
			continue
		}
		var in struct {
			GuildID string `json:"guild_id"`
		}
		if err := json.Unmarshal(e.Data, &in); err != nil {
			t.Fatal(err)
		}
		for _, s := range w.srv.Sessions() {
			if s.ID == e.SessionID && s.Shard[0] != shardOf(in.GuildID) {
				t.Errorf("guild %s's interaction went to shard %d", in.GuildID, s.Shard[0])
			}
		}
	}
	w.noViolations()
}

// shardOf is Discord's shard of a guild among two.
func shardOf(guildID string) int {
	id, _ := strconv.ParseUint(guildID, 10, 64)
	return int((id >> 22) % 2)
}

// BenchmarkCommandRoundTrip measures a /move and a /board through the bot,
// from the fake's dispatch to the recorded first answer: the share of
// Discord's 3 seconds that discordgo, the bot, the game flow and the
// embedded store take.
func BenchmarkCommandRoundTrip(b *testing.B) {
	w := newWorld(b, false)
	p := w.start(procOptions{gateway: true})
	ann, bob := w.srv.AddUser("Ann"), w.srv.AddUser("Bob")
	ch := w.general
	rng := rand.New(rand.NewPCG(11, 12))
	var latency time.Duration
	for b.Loop() {
		g := p.game(ch)
		if g == nil {
			b.StopTimer()
			w.public(w.do(ann.ID, ch, "play", opt("game", "sixes"), opt("opponent", bob.ID), opt("options", "turns=1000")))
			w.public(w.do(bob.ID, ch, "accept"))
			g = p.game(ch)
			b.StartTimer()
		}
		resp, err := w.srv.Invoke(w.ctx(), g.Players[g.State.ToMove()].UserID, ch, "move", opt("move", randomMove(b, g, rng)))
		if err != nil || resp.Type != discordtest.CallbackMessage {
			b.Fatalf("/move: %+v, %v", resp, err)
		}
		latency += resp.Latency
	}
	b.ReportMetric(float64(latency.Microseconds())/float64(b.N), "µs-to-answer/op")
}

// TestGatewayAcksStopMidGame: mid-game the gateway connection turns
// zombie (heartbeats unacknowledged, nothing dispatched). The bot notices
// within an interval and a half, closes with a code that keeps the
// session, and resumes it: the move sent meanwhile is replayed and
// answered, and the game goes on, all in one session.
func TestGatewayAcksStopMidGame(t *testing.T) {
	w, p, move := midGame(t, discordtest.Options{Token: token, HeartbeatInterval: 200 * time.Millisecond}, procOptions{})
	ch := w.general
	// A few heartbeats in, so that the bot knows the interval.
	if _, err := w.srv.WaitForSession(w.ctx(), func(s discordtest.Session) bool { return s.Heartbeats >= 4 }); err != nil {
		t.Fatal(err)
	}

	w.srv.StopHeartbeatAcks()
	in := move() // dispatched into the dead connection
	w.public(w.answerTo(in))
	closed, err := w.srv.WaitForGateway(w.ctx(), func(e discordtest.GatewayEvent) bool { return e.FromClient && e.CloseCode != 0 })
	if err != nil || closed.CloseCode == 1000 || closed.CloseCode == 1001 {
		t.Fatalf("the dead connection was closed with %+v, %v; want a code that keeps the session", closed, err)
	}
	for range 3 {
		w.public(w.answerTo(move()))
	}
	if g := p.game(ch); g == nil || len(g.Moves) != 5 {
		t.Fatalf("after the reconnect the game is %+v, want 5 moves", g)
	}
	ss := w.srv.Sessions()
	if len(ss) != 1 || ss[0].Resumes != 1 || ss[0].ResumesOffURL != 0 || len(w.srv.Identifies()) != 1 {
		t.Errorf("sessions %+v, identifies %d: want the session resumed on resume_gateway_url, not a new one", ss, len(w.srv.Identifies()))
	}
	w.noViolations()
}

// sendMove sends a random legal /move by the player to move in channel's
// game, without waiting for its answer.
func (w *world) sendMove(p *proc, channel string, rng *rand.Rand) discordtest.Interaction {
	w.t.Helper()
	g := p.game(channel)
	in, err := w.srv.SendCommand(g.Players[g.State.ToMove()].UserID, channel, "move", opt("move", randomMove(w.t, g, rng)))
	if err != nil {
		w.t.Fatal(err)
	}
	return in
}
