package engine

import (
	"arbiter/sandbox"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"time"

	"arbiter/rules"
)

// OpeningPlies is the number of random plies that start each pair of match
// games. An opening after which a 4-ply search already sees a forced result,
// or a side more than 1.50 pieces ahead, is drawn again.
const OpeningPlies = 4

// MatchConfig sets up a match between two player specs.
type MatchConfig struct {
	Registry *rules.Registry // where Game is found
	Game     string          // the game's name
	Options  rules.Options   // the game's options (for Upthrust, colours=gb unless colours or seed is given)
	P1, P2   string          // the player specs; wins and losses are counted for P1
	Games    int             // games to play; sides swap every game
	MoveTime time.Duration   // per move (0: the class's time of the game)
	Seed     uint64          // the openings and the players' random choices
	Stderr   io.Writer       // outside programs' standard error, when set
	// Grace is the time an outside program may take beyond its move time
	// before it loses on time (DefaultGrace when 0).
	Grace time.Duration
	// NewPlayer, when set, makes the players from their specs (default
	// NewPlayer), for specs beyond the engine's own (class programs).
	NewPlayer func(spec string, opt PlayerOptions) (Player, error)
	// Sandboxes are the boxes P1's and P2's programs run in (nil: the
	// default box).
	Sandboxes [2]*sandbox.Sandbox
	// FromStart, when set, reports the specs whose players cannot be told
	// an opening: games with them start at the start position. When
	// OpeningPlies is above 0, their openings are played live: the other
	// player's moves among the first OpeningPlies plies are random among
	// those that a 10-ply search rates balanced, the program's own are its
	// choice.
	FromStart func(spec string) bool
	// OpeningPlies is the length of the random opening that starts each
	// pair of games: 0 means the package's OpeningPlies (and none against
	// a program from the start), a negative number none.
	OpeningPlies int
	// Until, when set, is asked after each game with the match so far and
	// ends the match early when it returns true (an SPRT's decision).
	Until func(wins, draws, losses int) bool
}

// GameRecord is how one game of a match went.
type GameRecord struct {
	Number  int           // from 1
	First   string        // the spec that moved first
	Second  string        // the spec that moved second
	Names   [2]string     // the game's words for player 1 and player 2
	Options rules.Options // the game's options, complete (Upthrust's drawn seed included)
	Result  rules.Result  // by turn order
	Reason  string        // the game's reason, or the forfeit's
	Plies   int           // moves played, the opening's included
	Score   float64       // for the match's P1: 1, 1/2 or 0
	Opening []string      // the opening's moves in canonical text
	Moves   []string      // the moves played after the opening, in canonical text
}

// MatchResult sums a match up.
type MatchResult struct {
	Game     string  `json:"game"`
	P1       string  `json:"p1"`
	P2       string  `json:"p2"`
	Games    int     `json:"games"`
	Wins     int     `json:"wins"`
	Draws    int     `json:"draws"`
	Losses   int     `json:"losses"`
	Score    float64 `json:"score"`
	Elo      float64 `json:"elo"`
	EloError float64 `json:"elo_error"`
	// The longest a move took, for P1 and P2.
	LongestMove [2]time.Duration `json:"-"`
	MoveTime    time.Duration    `json:"-"`
	Seed        uint64           `json:"-"`
}

// RunMatch plays the match, calling report after each game, and sums it up.
// It stops early, with what it has and ctx's error, when ctx is done.
func RunMatch(ctx context.Context, cfg MatchConfig, report func(GameRecord)) (res MatchResult, err error) {
	res = MatchResult{Game: cfg.Game, P1: cfg.P1, P2: cfg.P2, Seed: cfg.Seed}
	defer res.sum()
	def, err := cfg.Registry.Lookup(cfg.Game)
	if err != nil {
		return res, err
	}
	res.Game = def.Name
	opts := cfg.Options.Clone()
	if opts == nil {
		opts = rules.Options{}
	}
	if def.Name == "upthrust" && opts["colours"] == "" && opts["seed"] == "" {
		opts["colours"] = "gb"
	}
	if _, err := cfg.Registry.New(def.Name, opts); err != nil {
		return res, err
	}
	moveTime := cfg.MoveTime
	if moveTime <= 0 {
		moveTime = def.MoveTime
	}
	res.MoveTime = moveTime
	if cfg.Games < 1 {
		return res, errors.New("a match needs at least one game")
	}
	newPlayer := cfg.NewPlayer
	if newPlayer == nil {
		newPlayer = NewPlayer
	}
	noOpening := cfg.FromStart != nil && (cfg.FromStart(cfg.P1) || cfg.FromStart(cfg.P2))
	plies := max(cfg.OpeningPlies, 0)
	if cfg.OpeningPlies == 0 && !noOpening {
		plies = OpeningPlies
	}
	judge := NewEngine(1)
	var players [2]Player
	for i, spec := range []string{cfg.P1, cfg.P2} {
		p, err := newPlayer(spec, PlayerOptions{Registry: cfg.Registry, Seed: cfg.Seed*4 + uint64(i) + 1, Stderr: cfg.Stderr, Grace: cfg.Grace, Sandbox: cfg.Sandboxes[i]})
		if err != nil {
			return res, err
		}
		if noOpening && plies > 0 && !cfg.FromStart(spec) {
			p = &randomStart{Player: p, plies: plies, rng: rand.New(rand.NewPCG(cfg.Seed, 0x5e1f+uint64(i))), judge: judge}
		}
		players[i] = p
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x09e1))
	var opening []rules.Move
	for n := 0; n < cfg.Games; n++ {
		if n%2 == 0 && !noOpening {
			opening, err = RandomOpening(cfg.Registry, def.Name, opts, plies, rng, judge)
			if err != nil {
				return res, err
			}
		}
		// Game n: the match's P1 moves first in even games.
		first := n % 2
		seats := [2]Player{players[first], players[1-first]}
		g, err := cfg.Registry.New(def.Name, opts)
		if err != nil {
			return res, err
		}
		rec, longest, err := PlayGame(ctx, g, opening, seats, moveTime)
		if err != nil {
			return res, err
		}
		rec.Number = n + 1
		if noOpening {
			// The live opening: the first plies, as an opening told.
			k := min(plies, len(rec.Moves))
			rec.Opening, rec.Moves = rec.Moves[:k], rec.Moves[k:]
		}
		for side := range 2 {
			who := (side + first) % 2 // which match player sat on this side
			res.LongestMove[who] = max(res.LongestMove[who], longest[side])
		}
		if w, ok := rec.Result.Winner(); ok {
			if int(w) == first {
				rec.Score = 1
				res.Wins++
			} else {
				res.Losses++
			}
		} else {
			rec.Score = 0.5
			res.Draws++
		}
		res.Games++
		if report != nil {
			report(rec)
		}
		if cfg.Until != nil && cfg.Until(res.Wins, res.Draws, res.Losses) {
			break
		}
	}
	return res, nil
}

// sum sets the score and the Elo estimate from the games played, if any.
func (r *MatchResult) sum() {
	if r.Games == 0 {
		return
	}
	r.Score = math.Round((float64(r.Wins)+float64(r.Draws)/2)/float64(r.Games)*10000) / 10000
	elo, e := Elo(r.Wins, r.Draws, r.Losses)
	r.Elo, r.EloError = math.Round(elo*10)/10, math.Round(e*10)/10
}

// randomStart is a player whose moves among a game's first plies plies are
// random among those that fairLive accepts: the opening, played live
// against a program that cannot be told one. When no move keeps the player
// in the game, the player chooses its own.
type randomStart struct {
	Player
	plies int
	rng   *rand.Rand
	judge *Engine         // rates the position after each candidate
	rated map[uint64]bool // keepsInGame's answers, by position hash
}

// Choose plays at random within the opening, else as the player.
func (p *randomStart) Choose(ctx context.Context, g rules.Game, lim Limits) (rules.Move, Info, error) {
	if g.Ply() >= p.plies {
		return p.Player.Choose(ctx, g, lim)
	}
	var list rules.MoveList
	g.Moves(&list)
	for _, i := range p.rng.Perm(list.N) {
		m := list.Moves[i]
		after := g.Clone()
		after.Play(m)
		if after.Status() == rules.Ongoing && p.keepsInGame(ctx, after, g.ToMove()) {
			return m, Info{Move: m, Nodes: 1, Drawn: true}, nil
		}
	}
	return p.Player.Choose(ctx, g, lim)
}

// keepsInGame reports whether fairLive accepts after, a game going on after
// a random move by mover, searching each position once: every game of a
// match rates the same few.
func (p *randomStart) keepsInGame(ctx context.Context, after rules.Game, mover rules.Player) bool {
	h := after.Hash()
	ok, seen := p.rated[h]
	if !seen {
		if p.rated == nil {
			p.rated = map[uint64]bool{}
		}
		ok = fairLive(ctx, p.judge, after, mover)
		p.rated[h] = ok
	}
	return ok
}

// fairLive reports whether g, after a random move by mover played live,
// leaves mover neither lost nor more than openingMargin behind, by a
// 10-ply search: deeper than RandomOpening's, since the program is in the
// game to punish a move that a short search rates balanced. Unlike an
// opening drawn before the game, the move may keep an advantage: what the
// program's own moves gave away is the program's play, not the dice. A
// 10-ply search of a Hi-Ya! opening takes about a million positions.
func fairLive(ctx context.Context, judge *Engine, g rules.Game, mover rules.Player) bool {
	score := judge.Search(ctx, g, Limits{Depth: 10, Nodes: 4_000_000}).Score
	if g.ToMove() != mover {
		score = -score
	}
	if n, decided := MateIn(score); decided {
		return n > 0
	}
	return score >= -openingMargin
}

// RandomOpening draws plies random moves that leave the game going and
// balanced: an opening after which a short search (4 plies) already sees a
// forced result, or one side more than 1.50 pieces ahead, is drawn again,
// so that a pair of games measures the players rather than the dice. judge
// is the engine that searches (nil: a small one of its own).
func RandomOpening(reg *rules.Registry, name string, opts rules.Options, plies int, rng *rand.Rand, judge *Engine) ([]rules.Move, error) {
	if judge == nil {
		judge = NewEngine(1)
	}
	var list rules.MoveList
	for try := 0; ; try++ {
		g, err := reg.New(name, opts)
		if err != nil {
			return nil, err
		}
		n := plies
		if try > 200 {
			n = 0 // no opening keeps the game balanced: start from the start
		}
		var moves []rules.Move
		for len(moves) < n && g.Status() == rules.Ongoing {
			g.Moves(&list)
			m := list.Moves[rng.IntN(list.N)]
			g.Play(m)
			moves = append(moves, m)
		}
		if n == 0 {
			return moves, nil
		}
		if g.Status() != rules.Ongoing {
			continue
		}
		if balanced(context.Background(), judge, g, Limits{Depth: 4, Nodes: 200_000}) {
			return moves, nil
		}
	}
}

// balanced reports whether the search lim of g, a game going on, sees no
// forced result and neither side more than openingMargin ahead.
func balanced(ctx context.Context, judge *Engine, g rules.Game, lim Limits) bool {
	info := judge.Search(ctx, g, lim)
	_, decided := MateIn(info.Score)
	return !decided && abs(info.Score) <= openingMargin
}

// openingMargin is the largest advantage, in hundredths of a piece, that a
// match opening may leave.
const openingMargin = 150

// PlayGame plays one game between seats[0] (moving first) and seats[1]
// on g, a game at its start: first the opening's moves, then the players'
// moves until the game ends or a player forfeits (a failing player loses,
// with the reason). g is left at the last move played. It returns the
// record (without number or score) and the longest time each side took for
// a move of its own (a move drawn for the opening is not timed); its error
// is ctx's when ctx ends the game.
func PlayGame(ctx context.Context, g rules.Game, opening []rules.Move,
	seats [2]Player, moveTime time.Duration) (GameRecord, [2]time.Duration, error) {
	var longest [2]time.Duration
	rec := GameRecord{First: seats[0].String(), Second: seats[1].String(),
		Names: [2]string{g.PlayerName(rules.P1), g.PlayerName(rules.P2)}, Options: g.Options()}
	for _, m := range opening {
		rec.Opening = append(rec.Opening, g.FormatMove(m))
		g.Play(m)
	}
	defer func() {
		seats[0].End(g)
		seats[1].End(g)
	}()
	var list rules.MoveList
	for g.Status() == rules.Ongoing {
		side := g.ToMove()
		start := time.Now()
		m, info, err := seats[side].Choose(ctx, g, Limits{MoveTime: moveTime})
		if !info.Drawn {
			longest[side] = max(longest[side], time.Since(start))
		}

		if ctx.Err() != nil {
			return rec, longest, ctx.Err()
		}
		var forfeit *ForfeitError
		if err == nil {
			g.Moves(&list)
			if !list.Contains(m) {
				forfeit = &ForfeitError{Reason: "played an illegal move"}
			}
		} else if !errors.As(err, &forfeit) {
			forfeit = &ForfeitError{Reason: err.Error()}
		}
		if forfeit != nil {
			rec.Result = rules.Win(side.Other())
			rec.Reason = fmt.Sprintf("%s (%s) %s", g.PlayerName(side), seats[side], forfeit.Reason)
			rec.Plies = g.Ply()
			return rec, longest, nil
		}
		rec.Moves = append(rec.Moves, g.FormatMove(m))
		g.Play(m)
	}
	out := g.Outcome()
	rec.Result, rec.Reason, rec.Plies = out.Result, out.Reason, g.Ply()
	return rec, longest, nil
}
