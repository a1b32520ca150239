package bot_test

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"arbiter/bot/discordtest"
	"arbiter/commands"
	"arbiter/store"
)

// onlyForbidden checks that the only rules the bot broke are the posts
// Discord refused for want of a permission (which the bot cannot know
// before trying), at most max of them.
func (w *world) onlyForbidden(max int) {
	w.t.Helper()
	v := w.srv.Violations()
	for _, s := range v {
		if !strings.HasPrefix(s, "forbidden:") {
			w.t.Fatalf("Discord's rules broken:\n%s", strings.Join(v, "\n"))
		}
	}
	if len(v) > max {
		w.t.Fatalf("%d refused requests, want at most %d:\n%s", len(v), max, strings.Join(v, "\n"))
	}
}

// TestPrivateChannelWithoutViewChannel: a course channel made private
// mid-game, without View Channel for the bot's role. The bot's next move
// cannot be posted: the game is paused (not forfeited), with why. The
// student's /move is refused privately, saying exactly what to grant and
// where. Once an admin grants it and a referee resumes, the game goes on
// with every move kept.
func TestPrivateChannelWithoutViewChannel(t *testing.T) {
	w := newWorld(t, true)
	p := w.start(procOptions{gateway: true})
	ref, _ := w.srv.AddRole("", "referee", 0)
	ann, cat := w.srv.AddUser("Ann"), w.srv.AddUser("Cat", ref.ID)
	course, err := w.srv.AddChannel("", "ai-games")
	if err != nil {
		t.Fatal(err)
	}
	ch := course.ID
	rng := rand.New(rand.NewPCG(5, 6))
	w.public(w.do(ann.ID, ch, "play", opt("game", "sixes"), opt("level", 1)))
	w.public(w.do(ann.ID, ch, "move", opt("move", randomMove(t, p.game(ch), rng))))

	// The admin makes the channel private to @everyone, with Ann and Cat
	// let in by name, but forgets the bot's role.
	g := w.srv.Guild()
	private := []discordtest.Overwrite{
		{ID: g.ID, Deny: discordtest.PermViewChannel},
		{ID: ann.ID, Member: true, Allow: discordtest.PermViewChannel},
		{ID: cat.ID, Member: true, Allow: discordtest.PermViewChannel},
	}
	if err := w.srv.SetOverwrites(ch, private...); err != nil {
		t.Fatal(err)
	}
	before := p.game(ch)
	// The bot's turn, thought by a worker that starts now: its move is
	// saved, its post refused with 50001, and the game paused.
	w.start(procOptions{workers: 1, workerName: "worker"})
	var paused *store.Game
	waitFor(t, "the game paused", func() bool {
		paused = p.game(ch)
		return paused != nil && commands.FlowOf(paused).Paused
	})
	if len(paused.Moves) != len(before.Moves)+1 || !strings.Contains(commands.FlowOf(paused).PausedWhy, "View Channel") {
		t.Fatalf("paused game: %d moves (before %d), why %q", len(paused.Moves), len(before.Moves), commands.FlowOf(paused).PausedWhy)
	}
	if len(w.botMoves(ch)) != 0 {
		t.Fatal("a bot move was posted in a channel the bot cannot see")
	}

	told := w.do(ann.ID, ch, "move", opt("move", randomMove(t, paused, rng)))
	w.private(told, "I can't post in <#"+ch+">: I need View Channel")
	if !strings.Contains(told.Content, "Arbiter's role") {
		t.Errorf("the refusal does not say where to grant it: %q", told.Content)
	}
	if g := p.game(ch); len(g.Moves) != len(paused.Moves) || !commands.FlowOf(g).Paused {
		t.Fatalf("a refused move changed the game: %+v", commands.FlowOf(g))
	}
	games := w.do(ann.ID, ch, "games")
	w.private(games, "paused")
	if !strings.Contains(games.Content, "View Channel") {
		t.Errorf("/games does not say why the game waits: %q", games.Content)
	}

	// Fixed: the bot's role may see the channel; a referee resumes.
	bot, _ := w.srv.BotRole("")
	if err := w.srv.SetOverwrites(ch, append(private, discordtest.Overwrite{ID: bot.ID, Allow: discordtest.PermViewChannel})...); err != nil {
		t.Fatal(err)
	}
	w.public(w.do(cat.ID, ch, "referee", discordtest.Option{Name: "resume"}))
	resumed := p.game(ch)
	if resumed == nil || commands.FlowOf(resumed).Paused || commands.FlowOf(resumed).PausedWhy != "" || len(resumed.Moves) != len(paused.Moves) {
		t.Fatalf("after resume: %+v", resumed)
	}
	w.public(w.do(ann.ID, ch, "move", opt("move", randomMove(t, resumed, rng))))
	waitFor(t, "the bot's move after the fix", func() bool { return len(w.botMoves(ch)) == 1 })
	w.onlyForbidden(1)
}

// TestThreadOpenedByStudent: a student opens a thread from Discord's
// client and starts a game there; the bot joins it. The thread archives
// after a week of silence; the bot's move is posted straight into it
// (Discord unarchives it), with no look-up or edit first.
func TestThreadOpenedByStudent(t *testing.T) {
	w := newWorld(t, true)
	p := w.start(procOptions{gateway: true})
	ann := w.srv.AddUser("Ann")
	th, err := w.srv.StartThread(ann.ID, w.general, "ann vs the bot", false)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(9, 10))
	w.public(w.do(ann.ID, th.ID, "play", opt("game", "sixes"), opt("level", 1)))
	if got, _ := w.srv.Channel(th.ID); !slices.Contains(got.Members, w.srv.AppID()) {
		t.Fatalf("the bot did not join the student's thread: members %v", got.Members)
	}
	w.public(w.do(ann.ID, th.ID, "move", opt("move", randomMove(t, p.game(th.ID), rng))))
	w.srv.Advance(7*24*60*60e9 + 60e9)
	if got, _ := w.srv.Channel(th.ID); !got.Archived {
		t.Fatal("a week of silence did not archive the thread")
	}
	calls := len(w.srv.Calls())
	w.start(procOptions{workers: 1, workerName: "worker"})
	waitFor(t, "the bot's move in the thread", func() bool { return len(w.botMoves(th.ID)) == 1 })
	if got, _ := w.srv.Channel(th.ID); got.Archived {
		t.Error("the thread is still archived")
	}
	for _, c := range w.srv.Calls()[calls:] {
		if c.Route == discordtest.RouteChannelEdit {
			t.Errorf("the thread was edited before the post: %s", c.Path)
		}
	}
	w.noViolations()
}

// TestLockedThread: a moderator locks a game's thread. A move there is
// refused privately, saying the thread is locked and what to do, and the
// game is paused with nothing lost.
func TestLockedThread(t *testing.T) {
	w := newWorld(t, false)
	p := w.start(procOptions{gateway: true})
	ann, bob := w.srv.AddUser("Ann"), w.srv.AddUser("Bob")
	w.public(w.do(ann.ID, w.general, "play", opt("game", "sixes"), opt("opponent", bob.ID), opt("thread", true)))
	th := w.srv.Threads(w.general)[0]
	w.public(w.do(bob.ID, th.ID, "accept"))
	rng := rand.New(rand.NewPCG(11, 12))
	g := p.game(th.ID)
	mover := g.Players[g.State.ToMove()].UserID
	w.public(w.do(mover, th.ID, "move", opt("move", randomMove(t, g, rng))))

	if err := w.srv.SetThreadState(th.ID, false, true); err != nil {
		t.Fatal(err)
	}
	g = p.game(th.ID)
	mover = g.Players[g.State.ToMove()].UserID
	w.private(w.do(mover, th.ID, "move", opt("move", randomMove(t, g, rng))), "the thread is locked")
	if after := p.game(th.ID); after == nil || !commands.FlowOf(after).Paused || len(after.Moves) != len(g.Moves) || !strings.Contains(commands.FlowOf(after).PausedWhy, "locked") {
		t.Fatalf("after the refused move: %+v", after)
	}
	w.noViolations()
}

// TestDiagnose: /diagnose is for referees; it lists, privately, what the
// bot may and may not do in the channel, what to fix where, and which
// Arbiter runs.
func TestDiagnose(t *testing.T) {
	w := newWorld(t, false)
	w.start(procOptions{gateway: true})
	ref, _ := w.srv.AddRole("", "referee", 0)
	ann, cat := w.srv.AddUser("Ann"), w.srv.AddUser("Cat", ref.ID)
	w.private(w.do(ann.ID, w.general, "diagnose"), "for referees")
	w.private(w.do(cat.ID, w.general, "diagnose"), "Nothing to fix here.\nRunning arbiter v1.2.3 store layout 2.")

	bot, _ := w.srv.BotRole("")
	if err := w.srv.SetOverwrites(w.general, discordtest.Overwrite{ID: bot.ID, Deny: discordtest.PermAttachFiles | discordtest.PermCreatePublicThreads}); err != nil {
		t.Fatal(err)
	}
	got := w.do(cat.ID, w.general, "diagnose")
	w.private(got, "❌ Attach Files")
	if !strings.Contains(got.Content, "❌ Create Public Threads") || !strings.Contains(got.Content, "✅ Send Messages:") ||
		!strings.Contains(got.Content, "give Arbiter's role Create Public Threads, Attach Files in this channel's settings") {
		t.Errorf("/diagnose = %q", got.Content)
	}
	th, err := w.srv.StartThread(ann.ID, w.general, "a thread", false)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.srv.SetThreadState(th.ID, false, true); err != nil {
		t.Fatal(err)
	}
	w.private(w.do(cat.ID, th.ID, "diagnose"), "This thread is locked")
	w.noViolations()
}

// TestPlayInThreadWithoutCreateThreads: /play thread:true where the bot
// may post but not open threads is refused before anything is made,
// naming the permission.
func TestPlayInThreadWithoutCreateThreads(t *testing.T) {
	w := newWorld(t, false)
	p := w.start(procOptions{gateway: true})
	ann, bob := w.srv.AddUser("Ann"), w.srv.AddUser("Bob")
	bot, _ := w.srv.BotRole("")
	if err := w.srv.SetOverwrites(w.general, discordtest.Overwrite{ID: bot.ID, Deny: discordtest.PermCreatePublicThreads}); err != nil {
		t.Fatal(err)
	}
	w.private(w.do(ann.ID, w.general, "play", opt("game", "sixes"), opt("opponent", bob.ID), opt("thread", true)),
		"I need Create Public Threads there")
	if th := w.srv.Threads(w.general); len(th) != 0 || p.game(w.general) != nil {
		t.Fatalf("threads %v, game %v: want nothing made", th, p.game(w.general))
	}
	w.noViolations()
}
