package commands

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"arbiter/rules"
	"arbiter/store"
	"arbiter/tournament"
)

// This file is /tournament: a correspondence tournament between a class's
// members, each game in its own thread (or channel) with the usual
// deadlines, rated as usual, its standings posted in the tournament's
// channel as rounds finish. Pairings and standings are package
// tournament's. The record is kept as the tournament channel's setting
// tournamentKey (JSON), each game's channel pointing back to it by its
// setting tournamentOfKey; changes to a record hold the store lock
// tournamentLock(channel).

const (
	tournamentKey   = "tournament"
	tournamentOfKey = "tournament-of"
	// maxEntrants bounds a tournament (a round robin of 24 is 276 games).
	maxEntrants = 24
)

// ThreadOpener opens a public thread of a channel for a game and returns
// its channel id. A Notifier that is also a ThreadOpener (the Discord
// one) gets a thread for every tournament game; without one, each game is
// played in a channel named after the tournament's.
type ThreadOpener interface {
	OpenThread(ctx context.Context, parent, name string) (string, error)
}

// tourney is a tournament's record.
type tourney struct {
	// Guild is the server it was created in (absent in records made
	// before it was kept).
	Guild   string        `json:"guild,omitempty"`
	Game    string        `json:"game"`
	Format  string        `json:"format"`
	Cycles  int           `json:"rounds"`
	Time    string        `json:"time,omitempty"`
	Referee User          `json:"referee"`
	Players []User        `json:"players"`
	Games   []tourneyGame `json:"games,omitempty"` // scheduled at start, or a round at a time (Swiss, knockout)
	Round   int           `json:"round"`           // the round being played, 0 before start
	Done    bool          `json:"done,omitempty"`
	// Bracket is a knockout's slots round by round (indices into
	// Players, seeds in order, -1 for a bye): tournament.KnockoutSlots,
	// then each round's winners.
	Bracket [][]int `json:"bracket,omitempty"`
	// NoVacation: the tournament's games allow no vacation (vacation:off).
	NoVacation bool `json:"no_vacation,omitempty"`
}

// tourneyGame is one scheduled game of a tournament.
type tourneyGame struct {
	Round   int    `json:"round"`
	First   int    `json:"first"`             // index into Players, moving first
	Second  int    `json:"second"`            // -1 for a bye (Result "bye")
	Playoff int    `json:"playoff,omitempty"` // a knockout tie's play-off pair, 0 for its first games
	Channel string `json:"channel,omitempty"` // where it is played, once started
	ID      string `json:"id,omitempty"`      // its archive id, once finished
	Result  string `json:"result,omitempty"`  // p1, p2, draw or aborted, once finished
	Reason  string `json:"reason,omitempty"`
}

// lastRound is the tournament's number of rounds.
func (t *tourney) lastRound() int {
	last := 0
	for _, g := range t.Games {
		last = max(last, g.Round)
	}
	return last
}

// roundOver reports whether every game of the round has a result.
func (t *tourney) roundOver(round int) bool {
	for _, g := range t.Games {
		if g.Round == round && g.Result == "" {
			return false
		}
	}
	return true
}

// tournamentLock names the lock that guards channel's tournament record.
func tournamentLock(channel string) string { return "tournament." + channel }

// tournamentCmd is /tournament create, join, start and standings.
func (s *Service) tournamentCmd(ctx context.Context, inv Invocation) Reply {
	channel := inv.Channel
	switch inv.Sub {
	case "create", "start":
		if !s.isReferee(inv) {
			who := "people with Manage Server"
			if s.cfg.RefereeRole != "" {
				who = "the " + s.cfg.RefereeRole + " role, or Manage Server"
			}
			return refuse("only referees (%s) can /tournament %s", who, inv.Sub)
		}
	case "join":
	case "standings":
		// In a tournament game's thread: the tournament's standings.
		parent, err := s.store.ChannelSetting(ctx, channel, tournamentOfKey)
		if err != nil {
			return s.storeRefusal(inv, err)
		}
		channel = cmp.Or(parent, channel)
	default:
		return refuse("/tournament takes create, join, start or standings")
	}
	var reply Reply
	err := s.withTourney(ctx, channel, func(t *tourney) (bool, error) {
		var change bool
		reply, change = s.tourneyAct(ctx, inv, t)
		return change, nil
	})
	if err != nil {
		return s.storeRefusal(inv, err)
	}
	return reply
}

// tourneyAct does one /tournament subcommand on the channel's record t
// (zero when there is none) and says whether t changed.
func (s *Service) tourneyAct(ctx context.Context, inv Invocation, t *tourney) (Reply, bool) {
	exists := t.Game != ""
	if inv.Sub != "create" && !exists {
		return refuse("there is no tournament in this channel; a referee opens one with /tournament create"), false
	}
	switch inv.Sub {
	case "create":
		if exists && !t.Done {
			return refuse("this channel already has a %s tournament going on; /tournament standings shows it", s.title(t.Game)), false
		}
		req, err := s.readGameOptions(inv.Options["game"], "", inv.Options["time"])
		if err != nil {
			return refuse("%v", err), false
		}
		format, err := tournament.ParseFormat(strings.ToLower(cmp.Or(inv.Options["format"], "roundrobin")))
		if err != nil {
			return refuse("format: %v", err), false
		}
		cycles, err := tourneyRounds(format, inv.Options["rounds"])
		if err != nil {
			return refuse("%v", err), false
		}
		*t = tourney{Guild: inv.Guild, Game: req.name, Format: string(format), Cycles: cycles, Time: inv.Options["time"], Referee: inv.User,
			NoVacation: inv.Options["vacation"] == "off"}
		return Reply{Message: Message{Text: fmt.Sprintf("%s opens a %s tournament here (%s, %s a move). /tournament join to enter; a referee starts it with /tournament start.",
			EscapeMarkdown(inv.User.Name), s.title(t.Game), formatRules(format, cycles), FormatDuration(s.tourneyTurnTime(t)))}}, true
	case "join":
		if t.Round > 0 || t.Done {
			return refuse("the tournament has started; entries are closed"), false
		}
		if slices.ContainsFunc(t.Players, func(u User) bool { return u.ID == inv.User.ID }) {
			return refuse("you are in the tournament already (%s)", playerCount(len(t.Players))), false
		}
		if len(t.Players) >= maxEntrants {
			return refuse("the tournament is full (%d players)", maxEntrants), false
		}
		t.Players = append(t.Players, inv.User)
		return Reply{Message: Message{Text: fmt.Sprintf("%s joins the %s tournament (%s).", EscapeMarkdown(inv.User.Name), s.title(t.Game), playerCount(len(t.Players)))}}, true
	case "start":
		if t.Done {
			return refuse("the tournament is over; /tournament standings shows how it ended"), false
		}
		if t.Round == 0 {
			if len(t.Players) < 2 {
				return refuse("a tournament needs at least 2 players; %d joined", len(t.Players)), false
			}
			if most := len(t.Players) - 1 + len(t.Players)%2; t.Format == string(tournament.Swiss) && t.Cycles > most {
				return refuse("%d players can play at most %d Swiss rounds without meeting twice, not %d; a referee creates it again with fewer rounds",
					len(t.Players), most, t.Cycles), false
			}
			if err := s.pairFirstRound(ctx, inv.Guild, t); err != nil {
				return s.storeRefusal(inv, err), false
			}
			t.Round = 1
		}
		// Starting again retries the games of the round that could not be
		// started before.
		started, err := s.startRound(ctx, inv.Guild, inv.Channel, t)
		text := fmt.Sprintf("The %s tournament starts: %d players, %d rounds. Round %d:\n%s",
			s.title(t.Game), len(t.Players), t.rounds(), t.Round, started)
		if err != nil {
			id := ErrorID()
			s.log.Error("tournament games not started", "error_id", id, "channel", inv.Channel, "err", err)
			text += fmt.Sprintf("\nSome games could not be started (error id %s); /tournament start again starts them.", id)
		}
		return Reply{Message: Message{Text: text}}, true
	}
	return Reply{Message: Message{Text: s.standingsText(ctx, inv.Guild, t)}}, false
}

// tourneyTurnTime is a tournament game's time a move.
func (s *Service) tourneyTurnTime(t *tourney) time.Duration {
	if d, err := ParseDuration(t.Time); err == nil && t.Time != "" {
		return d
	}
	return s.cfg.TurnTime
}

// startRound starts every game of t's current round not started yet, each
// in a thread of parent, and lists them with the round's byes.
func (s *Service) startRound(ctx context.Context, guild, parent string, t *tourney) (string, error) {
	var list strings.Builder
	// A knockout's play-offs list only themselves.
	playoffs := slices.ContainsFunc(t.Games, func(g tourneyGame) bool { return g.Round == t.Round && g.Playoff > 0 })
	for i := range t.Games {
		tg := &t.Games[i]
		if tg.Round == t.Round && tg.Second < 0 && !playoffs {
			fmt.Fprintf(&list, "- %s has a bye\n", EscapeMarkdown(t.Players[tg.First].Name))
		}
		if tg.Round != t.Round || tg.Result != "" {
			continue
		}
		first, second := t.Players[tg.First], t.Players[tg.Second]
		if tg.Channel == "" {
			ch, err := s.startTourneyGame(ctx, guild, parent, t, i)
			if err != nil {
				return list.String(), fmt.Errorf("%s against %s: %w", first.Name, second.Name, err)
			}
			tg.Channel = ch
		}
		fmt.Fprintf(&list, "- %s against %s in <#%s>\n", first.Name, second.Name, tg.Channel)
	}
	return strings.TrimSuffix(list.String(), "\n"), nil
}

// startTourneyGame opens the thread of t's game i and starts the game in it.
func (s *Service) startTourneyGame(ctx context.Context, guild, parent string, t *tourney, i int) (string, error) {
	tg := t.Games[i]
	first, second := t.Players[tg.First], t.Players[tg.Second]
	ch := fmt.Sprintf("%s-g%d", parent, i+1)
	pn, _ := s.notify.(pausingNotifier)
	if opener, ok := pn.Notifier.(ThreadOpener); ok {
		name := fmt.Sprintf("%s round %d: %s vs %s", t.Game, tg.Round, first.Name, second.Name)
		var err error
		if ch, err = opener.OpenThread(ctx, parent, clip(name, 100)); err != nil {
			return "", fmt.Errorf("open its thread: %w", err)
		}
	}
	if err := s.store.SetChannelSetting(ctx, ch, tournamentOfKey, parent); err != nil {
		return "", err
	}
	req, err := s.readGameOptions(t.Game, "", t.Time)
	if err != nil {
		return "", err
	}
	req.refereed = true
	req.flow.NoVacation = t.NoVacation
	for seat, u := range []User{first, second} {
		req.players[seat] = store.Player{Kind: store.Human, UserID: u.ID, Name: u.Name}
	}
	r := s.start(ctx, Invocation{Guild: guild, Channel: ch, User: t.Referee}, req)
	if r.Private {
		return "", errors.New(r.Text)
	}
	// Both players are pinged: each learns where their game is.
	r.Text = fmt.Sprintf("Round %d of the tournament in <#%s>: %s against %s.\n%s", tg.Round, parent, Mention(first.ID), Mention(second.ID), r.Text)
	r.Mentions = []string{first.ID, second.ID}
	if err := s.notify.Post(ctx, ch, r.Message); err != nil {
		s.log.Warn("tournament game's announcement not posted", "channel", ch, "err", err)
	}
	return ch, nil
}

// tournamentGameOver records a finished game of a tournament, if g is
// one; when its round is over, posts the standings in the tournament's
// channel and starts the next round. It is part of a finished game's
// outbox delivery (commit), so a crash before it is made good by the
// sweep; told twice about a game, it does nothing the second time. An
// error means nothing was recorded.
func (s *Service) tournamentGameOver(ctx context.Context, g *store.Game) error {
	if g.Status != store.Finished || g.Channel == "" {
		return nil
	}
	parent, err := s.store.ChannelSetting(ctx, g.Channel, tournamentOfKey)
	if err != nil || parent == "" {
		return err
	}
	var posts []string
	err = s.withTourney(ctx, parent, func(t *tourney) (bool, error) {
		i := slices.IndexFunc(t.Games, func(tg tourneyGame) bool { return tg.Channel == g.Channel && tg.Result == "" })
		if i < 0 {
			return false, nil // another game in a tournament game's thread, or told twice
		}
		tg := &t.Games[i]
		tg.ID, tg.Reason, tg.Result = g.ID, g.Reason, g.Result.String()
		if g.Result == rules.Ongoing {
			tg.Result = "aborted" // left out of the standings
		}
		if !t.roundOver(tg.Round) || tg.Round != t.Round {
			return true, nil
		}
		posts = append(posts, s.advance(ctx, g.Guild, t)...)
		if t.Done {
			return true, nil
		}
		started, err := s.startRound(ctx, g.Guild, parent, t)
		text := fmt.Sprintf("Round %d:\n%s", t.Round, started)
		if err != nil {
			id := ErrorID()
			s.log.Error("tournament games not started", "error_id", id, "channel", parent, "err", err)
			text += fmt.Sprintf("\nSome games could not be started (error id %s); a referee's /tournament start starts them.", id)
		}
		posts = append(posts, text)
		return true, nil
	})
	if err != nil {
		return fmt.Errorf("tournament %s: %w", parent, err)
	}
	for _, text := range posts {
		if err := s.notify.Post(ctx, parent, Message{Text: text}); err != nil {
			s.log.Warn("tournament standings not posted", "channel", parent, "err", err)
		}
	}
	return nil
}

// tourneyLockTTL is how long a tournament's lock lasts when its holder
// dies before releasing it.
const tourneyLockTTL = time.Minute

// withTourney loads channel's tournament record under its lock, lets do
// change it, and saves it when do says it changed.
func (s *Service) withTourney(ctx context.Context, channel string, do func(t *tourney) (bool, error)) error {
	var lock store.Lock
	// Past the lock's time to live a holder that died has lost it, so a
	// wait that long is only reached by a hang, however busy the machine.
	giveUp := time.Now().Add(tourneyLockTTL)
	for {
		var err error
		lock, err = s.store.TryLock(ctx, tournamentLock(channel), tourneyLockTTL)
		if err == nil {
			break
		}
		if !errors.Is(err, store.ErrLocked) || time.Now().After(giveUp) {
			return fmt.Errorf("tournament of %s: %w", channel, err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(25 * time.Millisecond):
		}
	}
	defer func() {
		if err := lock.Release(context.WithoutCancel(ctx)); err != nil {
			s.log.Warn("tournament lock not released", "channel", channel, "err", err)
		}
	}()
	var t tourney
	raw, err := s.store.ChannelSetting(ctx, channel, tournamentKey)
	if err != nil {
		return err
	}
	if raw != "" {
		if err := json.Unmarshal([]byte(raw), &t); err != nil {
			return fmt.Errorf("tournament record of %s: %w", channel, err)
		}
	}
	changed, err := do(&t)
	if err != nil || !changed {
		return err
	}
	data, err := json.Marshal(&t)
	if err != nil {
		return err
	}
	return s.store.SetChannelSetting(ctx, channel, tournamentKey, string(data))
}

// standingsText is the tournament's standings, from package tournament
// (points, W/D/L, a maximum-likelihood Elo of its games), with each
// player's rating in the game; a Swiss tournament's ranked by points,
// then Buchholz, with its byes; a knockout's after its bracket.
func (s *Service) standingsText(ctx context.Context, guild string, t *tourney) string {
	results := t.gameResults()
	played, total := 0, 0
	for _, g := range t.Games {
		if g.Second >= 0 {
			total++
		}
	}
	for _, r := range results {
		if !r.Bye {
			played++
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s tournament (%s), %d of %d games played:\n", s.title(t.Game), t.Format, played, total)
	if t.Format == string(tournament.Knockout) && t.Round > 0 {
		b.WriteString(t.bracketText() + "\n")
	}
	names := map[string]string{}
	ids := make([]string, len(t.Players))
	for i, u := range t.Players {
		names[u.ID], ids[i] = EscapeMarkdown(u.Name), u.ID
	}
	rating := map[string]float64{}
	if rs, err := s.store.Ratings(ctx, guild, t.Game, ids...); err == nil {
		for _, r := range rs {
			if r.Games > 0 {
				rating[r.Player] = r.Rating
			}
		}
	}
	standings := tournament.Standings(t.entrants(), results)
	swiss := t.Format == string(tournament.Swiss)
	var buchholz map[string]float64
	if swiss { // ties on points broken by Buchholz, then Elo
		buchholz = tournament.Buchholz(t.entrants(), results)
		slices.SortStableFunc(standings, func(a, b tournament.Standing) int {
			return cmp.Or(cmp.Compare(b.Points, a.Points), cmp.Compare(buchholz[b.Player], buchholz[a.Player]))
		})
		for i := range standings {
			standings[i].Rank = i + 1
		}
	}
	b.WriteString("```\n")
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	if swiss {
		fmt.Fprintln(tw, "#\tplayer\tpoints\tBuchholz\tW-D-L\tbyes\tperf. Elo\trating")
	} else {
		fmt.Fprintln(tw, "#\tplayer\tpoints\tW-D-L\tperf. Elo\trating")
	}
	for _, st := range standings {
		r := "-"
		if x, ok := rating[st.Player]; ok {
			r = strconv.FormatFloat(x, 'f', 0, 64)
		}
		name, wdl := clip(names[st.Player], 24), fmt.Sprintf("%d-%d-%d", st.Wins, st.Draws, st.Losses)
		if swiss {
			fmt.Fprintf(tw, "%d\t%s\t%g\t%g\t%s\t%d\t%+.0f\t%s\n", st.Rank, name, st.Points, buchholz[st.Player], wdl, st.Byes, st.Elo, r)
		} else {
			fmt.Fprintf(tw, "%d\t%s\t%g\t%s\t%+.0f\t%s\n", st.Rank, name, st.Points, wdl, st.Elo, r)
		}
	}
	_ = tw.Flush()
	b.WriteString("```")
	return b.String()
}

// tourneyRounds reads /tournament create's rounds for format: how many
// times each pair meets in a round robin or gauntlet (1 to 4, default
// 1); a Swiss tournament's rounds (default 0: decided at the start by the
// number of players); nothing for a knockout, whose rounds follow from
// its players.
func tourneyRounds(format tournament.Format, text string) (int, error) {
	if text == "" {
		if format == tournament.Swiss || format == tournament.Knockout {
			return 0, nil
		}
		return 1, nil
	}
	n, err := strconv.Atoi(text)
	switch format {
	case tournament.Knockout:
		return 0, errors.New("rounds: a knockout has as many rounds as its bracket needs; leave rounds out")
	case tournament.Swiss:
		if err != nil || n < 1 || n > maxSwissRounds {
			return 0, fmt.Errorf("rounds (of a Swiss tournament) must be 1 to %d, not %q", maxSwissRounds, text)
		}
	default:
		if err != nil || n < 1 || n > 4 {
			return 0, fmt.Errorf("rounds (how many times each pair meets) must be 1 to 4, not %q", text)
		}
	}
	return n, nil
}

// formatRules says in a few words how a tournament of format pairs its
// players, cycles being its rounds setting.
func formatRules(format tournament.Format, cycles int) string {
	switch format {
	case tournament.Swiss:
		rounds := "ceil(log2 players) rounds"
		if cycles > 0 {
			rounds = fmt.Sprintf("%d rounds", cycles)
		}
		return "swiss, " + rounds + ", each paired by points once the one before has finished, nobody meeting twice, sides balanced; an odd player out has a bye worth a win, once at most; ties broken by Buchholz"
	case tournament.Knockout:
		return "knockout, a bracket seeded by rating, the top seeds having any byes; each tie is a pair of games, one with each side first; a level tie plays one more pair, then the higher seed goes through"
	}
	meets := map[int]string{1: "once", 2: "twice"}[cycles]
	if meets == "" {
		meets = fmt.Sprintf("%d times", cycles)
	}
	return fmt.Sprintf("%s, each pair meeting %s", format, meets)
}

// refereeExport is /referee export [from] [to]: the guild's grades over
// the period (days, UTC, both included) as CSV attachments: one row a
// player and game, one a game (Grades).
func (s *Service) refereeExport(ctx context.Context, inv Invocation) Reply {
	var bounds [2]time.Time
	for i, key := range []string{"from", "to"} {
		text := strings.TrimSpace(inv.Options[key])
		if text == "" {
			continue
		}
		d, err := time.Parse(time.DateOnly, text)
		if err != nil {
			return refuse("%s: write a day as YYYY-MM-DD, e.g. 2026-01-12, not %q", key, clip(text, 30))
		}
		if i == 1 {
			d = d.AddDate(0, 0, 1) // the last day is included
		}
		bounds[i] = d
	}
	rows, games, err := Grades(ctx, s.store, inv.Guild, bounds[0], bounds[1])
	if err != nil {
		return s.storeRefusal(inv, err)
	}
	var grades, list strings.Builder
	if err := WriteGradesCSV(&grades, rows); err != nil {
		return s.storeRefusal(inv, err)
	}
	if err := WriteGamesCSV(&list, games); err != nil {
		return s.storeRefusal(inv, err)
	}
	return Reply{Private: true, Message: Message{
		Text: fmt.Sprintf("Grades: %d finished games, %d player rows.", len(games), len(rows)),
		Files: []File{
			{Name: "grades.csv", ContentType: "text/csv", Data: []byte(grades.String())},
			{Name: "games.csv", ContentType: "text/csv", Data: []byte(list.String())},
		},
	}}
}

// playerCount counts players in words.
func playerCount(n int) string {
	if n == 1 {
		return "1 player"
	}
	return fmt.Sprintf("%d players", n)
}
