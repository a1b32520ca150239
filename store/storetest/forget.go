package storetest

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"arbiter/rules"
	"arbiter/store"
)

// The person a forget test forgets, and another who stays.
const (
	forgetID     = "731112223334445556"
	forgetName   = "Zelda Quinnfeather"
	forgetNick   = "Zee the Bold" // the name her token was given under
	stayID       = "742223334445556667"
	stayName     = "Oscar Otterly"
	forgetGuild  = "4100"
	forgetPerson = "person." + forgetID
)

// forgetFill stores, for the person and another, what a term leaves: a
// finished game between them, a running game of hers against the bot
// with a flow that names her, a match archived directly, ratings,
// tokens, play page credentials, settings, an outbox entry and a dead
// letter. It returns the running game as loaded.
func forgetFill(t *testing.T, e *env, s store.Store) *store.Game {
	t.Helper()
	ctx := Context(t)
	rng := rand.New(rand.NewPCG(44, 1))
	her := store.Player{Kind: store.Human, UserID: forgetID, Name: forgetName}
	him := store.Player{Kind: store.Human, UserID: stayID, Name: stayName}

	fin := NewGame(t, e.reg, "hique", "4201", forgetGuild)
	fin.Players = [2]store.Player{her, him}
	if err := s.Create(ctx, fin); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 4 && fin.Status == store.Active; i++ {
		PlayRandom(fin, rng, []string{forgetID, stayID}[i%2])
		if err := s.Save(ctx, fin); err != nil {
			t.Fatal(err)
		}
	}
	if fin.Status == store.Active {
		fin.Status, fin.Result, fin.Reason = store.Finished, rules.P2Wins, forgetName+" resigned"
		if err := s.Save(ctx, fin); err != nil {
			t.Fatal(err)
		}
	}

	run := NewGame(t, e.reg, "sixes", "4202", forgetGuild)
	run.Players[0] = her
	run.Flow = store.RawFlow(`{"challenger":"` + forgetID + `","note":"<@` + forgetID + `> (` + forgetName + `) asked","by":{"` + forgetID + `":1}}`)
	if err := s.Create(ctx, run); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		PlayRandom(run, rng, forgetID)
		run.Deadline = time.Now().Add(time.Hour).UTC()
		if err := s.Save(ctx, run); err != nil {
			t.Fatal(err)
		}
	}

	match := NewGame(t, e.reg, "upthrust", "4203", forgetGuild)
	match.Players = [2]store.Player{him, {Kind: store.Program, Name: "zq-bot", Program: "zq-bot"}}
	match.ID, match.Version, match.Status, match.Result, match.Reason = "m1", 1, store.Finished, rules.P1Wins, "won"
	match.Created, match.Updated, match.Finished = time.Now().UTC(), time.Now().UTC(), time.Now().UTC()
	if err := s.Archive(ctx, match); err != nil {
		t.Fatal(err)
	}

	players := []string{forgetID, stayID}
	if _, err := s.UpdateRatings(ctx, forgetGuild, "hique", fin.ID, players, func(cur []store.Rating) ([]store.Rating, error) {
		next := append([]store.Rating(nil), cur...)
		for i, n := range []string{forgetName, stayName} {
			next[i].Name, next[i].Rating, next[i].Deviation, next[i].Volatility, next[i].Games = n, 1500+float64(i), 300, 0.06, 1
		}
		return next, nil
	}); err != nil {
		t.Fatal(err)
	}

	for i, o := range []store.TokenOwner{{User: forgetID, Name: forgetNick, Guild: forgetGuild}, {User: stayID, Name: stayName, Guild: forgetGuild}} {
		if err := s.IssueToken(ctx, strings.Repeat(string(rune('a'+i)), 64), o, 0); err != nil {
			t.Fatal(err)
		}
	}
	grant := store.PlayGrant{User: forgetID, UserName: forgetName, Guild: forgetGuild, Channel: "4202", Game: run.ID}
	if err := s.PutPlayLink(ctx, strings.Repeat("c", 64), grant, time.Hour); err != nil {
		t.Fatal(err)
	}
	grant.CSRF = "x"
	if err := s.PutPlaySession(ctx, strings.Repeat("d", 64), grant, time.Hour); err != nil {
		t.Fatal(err)
	}

	for _, kv := range [][3]string{
		{forgetPerson, "notify.dm", "on"},
		{"guild." + forgetGuild, "vacation.used." + forgetID, "3"},
		{"guild." + forgetGuild, "vacation.used." + stayID, "2"},
		{"4202", "board", "emoji"},
	} {
		if err := s.SetChannelSetting(ctx, kv[0], kv[1], kv[2]); err != nil {
			t.Fatal(err)
		}
	}
	payload, _ := json.Marshal(map[string]string{"text": forgetName + " played", "user": forgetID})
	if err := s.OutboxPut(ctx, store.OutboxEntry{Key: "4202/" + run.ID + "/9", Channel: "4202", Guild: forgetGuild,
		Game: run.ID, Version: 9, Payload: payload, Due: time.Now().Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if err := s.AddDeadLetter(ctx, store.DeadLetter{Key: "job-1", Channel: "4202", Failure: "panic near " + forgetName,
		Record: `{"players":[{"user":"` + forgetID + `"}]}`, At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	// An analysis she asked for, kept with her name in its text and page,
	// and another still in line.
	shares := store.AnalysisShares{Line: 8, Server: 4, Person: 2}
	if _, _, err := s.AskAnalysis(ctx, store.AnalysisAsk{Guild: forgetGuild, Game: "kept-1", Asker: forgetID, Channel: "4202"}, shares); err != nil {
		t.Fatal(err)
	}
	job, err := s.ClaimAnalysis(ctx, "worker-1", time.Minute)
	if err != nil || job == nil {
		t.Fatalf("claim the analysis: %v, %v", job, err)
	}
	if err := s.KeepAnalysis(ctx, job, store.Analysis{Text: forgetName + ": accuracy 91.5", Page: []byte("<h1>" + forgetNick + "</h1>")}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.AskAnalysis(ctx, store.AnalysisAsk{Guild: forgetGuild, Game: "in-line-2", Asker: forgetID, Channel: "4202"}, shares); err != nil {
		t.Fatal(err)
	}
	// A finished game left in its channel by an interrupted save.
	left := NewGame(t, e.reg, "hiya", "4204", forgetGuild)
	left.Players[0] = her
	if err := s.Create(ctx, left); err != nil {
		t.Fatal(err)
	}
	left.Status, left.Result, left.Reason = store.Finished, rules.Draw, "agreed with "+forgetName
	left.Version++
	left.Finished = time.Now().UTC()
	data, err := store.EncodeRecord(left)
	if err != nil {
		t.Fatal(err)
	}
	e.putRecord(s, "4204", "2", "finished", data)

	g, err := s.Load(ctx, "4202")
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// testForget: after Forget, no byte of the person's id or of any of her
// names is left in what the backend keeps (its files, a backup made
// after, every key), nor in a fresh export; her seats read as the former
// student, her ratings, tokens, credentials and settings are gone, and
// everyone else's data is as it was. A save of her running game loaded
// before is a conflict; forgetting again changes nothing.
func testForget(t *testing.T, e *env) {
	ctx := Context(t)
	s := e.open()
	before := forgetFill(t, e, s)
	traces := func(what string, data []byte) {
		t.Helper()
		for _, needle := range []string{forgetID, forgetName, forgetNick} {
			if i := bytes.Index(data, []byte(needle)); i >= 0 {
				t.Errorf("%s still holds %q: …%q…", what, needle, data[max(i-60, 0):min(i+60, len(data))])
			}
		}
	}
	// The bytes are there before: the check can fail.
	rest, err := e.b.Raw.AtRest(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{forgetID, forgetName, forgetNick} {
		if !bytes.Contains(rest, []byte(n)) {
			t.Fatalf("before Forget the store does not hold %q: the check below cannot fail", n)
		}
	}

	rep, err := s.Forget(ctx, forgetID)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Rewritten == 0 || rep.Deleted == 0 {
		t.Errorf("Forget reports %+v", rep)
	}
	rest, err = e.b.Raw.AtRest(s)
	if err != nil {
		t.Fatal(err)
	}
	traces("the store at rest", rest)
	if p, ok := s.(store.Porter); ok {
		var buf bytes.Buffer
		if _, err := store.Export(ctx, p, &buf, time.Now()); err != nil {
			t.Fatal(err)
		}
		traces("an export", buf.Bytes())
		if !bytes.Contains(buf.Bytes(), []byte(stayName)) {
			t.Error("the export lost the other player")
		}
	}

	// Her running game goes on with the former student in her seat.
	g, err := s.Load(ctx, "4202")
	if err != nil {
		t.Fatal(err)
	}
	if p := g.Players[0]; p.UserID != store.FormerID || p.Name != store.FormerName || p.Kind != store.Human {
		t.Errorf("her seat reads %+v", p)
	}
	if len(g.Moves) != len(before.Moves) || g.Moves[0].By != store.FormerID || g.Moves[0].Text != before.Moves[0].Text {
		t.Errorf("the moves read %+v, were %+v", g.Moves, before.Moves)
	}
	if g.Version <= before.Version || !g.Deadline.Equal(before.Deadline) {
		t.Errorf("version %d deadline %v, were %d %v", g.Version, g.Deadline, before.Version, before.Deadline)
	}
	MustErr(t, s.Save(ctx, before), store.ErrConflict, "save the game as loaded before Forget")
	if PlayRandom(g, rand.New(rand.NewPCG(1, 1)), "") {
		if err := s.Save(ctx, g); err != nil {
			t.Errorf("the game does not go on: %v", err)
		}
	}
	due, err := s.Due(ctx, before.Deadline.Add(time.Minute), 10)
	if err != nil || len(due) != 1 || due[0].Channel != "4202" {
		t.Errorf("the game's deadline is lost: Due = %v, %v", due, err)
	}

	list, total, err := s.Archived(ctx, forgetGuild, 0, 10)
	if err != nil || total != 2 || len(list) != 2 {
		t.Fatalf("the archive: %d of %d, %v", len(list), total, err)
	}
	for _, sum := range list {
		if sum.Channel != "4201" {
			continue
		}
		fin, err := s.LoadArchived(ctx, forgetGuild, sum.ID)
		if err != nil {
			t.Fatal(err)
		}
		if fin.Players[0].Name != store.FormerName || fin.Players[1].Name != stayName || fin.Players[1].UserID != stayID {
			t.Errorf("the finished game's seats read %+v", fin.Players)
		}
	}

	board, err := s.Leaderboard(ctx, forgetGuild, "hique", 0, 10)
	if err != nil || len(board) != 1 || board[0].Player != stayID || board[0].Name != stayName {
		t.Errorf("the leaderboard: %+v, %v", board, err)
	}
	if _, err := s.LookupToken(ctx, strings.Repeat("a", 64)); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("her token still works: %v", err)
	}
	if o, err := s.LookupToken(ctx, strings.Repeat("b", 64)); err != nil || o.Name != stayName {
		t.Errorf("his token: %+v, %v", o, err)
	}
	if _, err := s.PlayLink(ctx, strings.Repeat("c", 64)); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("her play link still works: %v", err)
	}
	if _, err := s.PlaySession(ctx, strings.Repeat("d", 64)); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("her play session still works: %v", err)
	}
	for _, kv := range [][3]string{
		{forgetPerson, "notify.dm", ""},
		{"guild." + forgetGuild, "vacation.used." + forgetID, ""},
		{"guild." + forgetGuild, "vacation.used." + stayID, "2"},
		{"4202", "board", "emoji"},
	} {
		if v, err := s.ChannelSetting(ctx, kv[0], kv[1]); err != nil || v != kv[2] {
			t.Errorf("setting %s %s = %q, %v; want %q", kv[0], kv[1], v, err, kv[2])
		}
	}

	again, err := s.Forget(ctx, forgetID)
	if err != nil || again != (store.ForgetReport{}) {
		t.Errorf("forgetting again: %+v, %v", again, err)
	}
	_, err = s.Forget(ctx, "ab")
	MustErr(t, err, store.ErrInvalid, "forget an id of two characters")
}

// testForgetFinished: archived games that finished before the cutoff
// leave the archive (list, count, load); later ones and running games
// stay; a zero cutoff deletes nothing.
func testForgetFinished(t *testing.T, e *env) {
	ctx := Context(t)
	s := e.open()
	old := time.Date(2026, 1, 10, 12, 0, 0, 0, time.UTC)
	for i, at := range []time.Time{old, old.Add(time.Hour), old.AddDate(0, 3, 0)} {
		g := NewGame(t, e.reg, "hique", "4300", "4301")
		g.ID, g.Version, g.Status, g.Result, g.Reason = string(rune('a'+i)), 1, store.Finished, rules.P1Wins, "won"
		g.Created, g.Updated, g.Finished = at, at, at
		if err := s.Archive(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	run := NewGame(t, e.reg, "hique", "4302", "4301")
	if err := s.Create(ctx, run); err != nil {
		t.Fatal(err)
	}
	if n, err := s.ForgetFinished(ctx, time.Time{}); err != nil || n != 0 {
		t.Fatalf("a zero cutoff: %d, %v", n, err)
	}
	n, err := s.ForgetFinished(ctx, old.AddDate(0, 1, 0))
	if err != nil || n != 2 {
		t.Fatalf("ForgetFinished = %d, %v; want 2", n, err)
	}
	list, total, err := s.Archived(ctx, "4301", 0, 10)
	if err != nil || total != 1 || len(list) != 1 || list[0].ID != "c" {
		t.Fatalf("the archive after: %+v of %d, %v", list, total, err)
	}
	if _, err := s.LoadArchived(ctx, "4301", "a"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a forgotten game loads: %v", err)
	}
	if _, err := s.Load(ctx, "4302"); err != nil {
		t.Errorf("the running game: %v", err)
	}
	if n, err := s.ForgetFinished(ctx, old.AddDate(0, 1, 0)); err != nil || n != 0 {
		t.Errorf("again: %d, %v", n, err)
	}
}

// testClearRatings: a guild's ratings in every game go, another guild's
// stay, and a result rated before is not rated again.
func testClearRatings(t *testing.T, e *env) {
	ctx := Context(t)
	s := e.open()
	rate := func(guild, game, result string) bool {
		t.Helper()
		ok, err := s.UpdateRatings(ctx, guild, game, result, []string{"1001", "1002"}, func(cur []store.Rating) ([]store.Rating, error) {
			next := append([]store.Rating(nil), cur...)
			for i := range next {
				next[i].Rating, next[i].Deviation, next[i].Volatility, next[i].Games = 1500+float64(i), 300, 0.06, next[i].Games+1
			}
			return next, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	rate("4400", "hique", "1")
	rate("4400", "sixes", "2")
	rate("4401", "hique", "1")
	n, err := s.ClearRatings(ctx, "4400")
	if err != nil || n != 4 {
		t.Fatalf("ClearRatings = %d, %v; want 4", n, err)
	}
	for _, game := range []string{"hique", "sixes"} {
		if b, err := s.Leaderboard(ctx, "4400", game, 0, 10); err != nil || len(b) != 0 {
			t.Errorf("the %s leaderboard after: %+v, %v", game, b, err)
		}
		if r, err := s.Ratings(ctx, "4400", game, "1001"); err != nil || r[0].Games != 0 {
			t.Errorf("a %s rating after: %+v, %v", game, r, err)
		}
	}
	if b, err := s.Leaderboard(ctx, "4401", "hique", 0, 10); err != nil || len(b) != 2 {
		t.Errorf("another guild's leaderboard: %+v, %v", b, err)
	}
	if rate("4400", "hique", "1") {
		t.Error("a result rated before the clearing was rated again")
	}
	if !rate("4400", "hique", "3") {
		t.Error("a new result was not rated")
	}
	if n, err := s.ClearRatings(ctx, "4402"); err != nil || n != 0 {
		t.Errorf("a guild without ratings: %d, %v", n, err)
	}
}
