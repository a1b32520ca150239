package tournament

import (
	"arbiter/sandbox"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"arbiter/engine"
	"arbiter/rules"
)

// Entrant is a player of the tournament: a name unique in it and a player
// spec (see NewPlayer).
type Entrant struct {
	Name string `json:"name"`
	Spec string `json:"spec"`
}

// Config sets a tournament up.
type Config struct {
	Registry *rules.Registry `json:"-"`
	Game     string          `json:"game"`
	Options  rules.Options   `json:"options,omitempty"`
	Players  []Entrant       `json:"players"`
	Format   Format          `json:"format"`
	// Rounds: the cycles of a round robin or gauntlet (default 1), the
	// rounds of a Swiss tournament (default SwissRounds of the players,
	// as in Discord's /tournament); a knockout ignores it.
	Rounds int `json:"rounds"`
	// Games is the number of games a pairing plays (default 2), half with
	// each side first, each pair from the same opening.
	Games int `json:"games"`
	// MoveTime is the time a move (0: the class's time of the game).
	MoveTime time.Duration `json:"movetime"`
	// Concurrency is the games played at once (default 1).
	Concurrency int `json:"-"`
	// OpeningPlies random plies start each pair of games (balanced as
	// match's are), unless Openings are given; 0 means none.
	OpeningPlies int `json:"opening_plies,omitempty"`
	// Openings, when given, are the openings (moves in canonical text);
	// each pair of games takes one of them, chosen by the seed.
	Openings [][]string `json:"openings,omitempty"`
	// Seed decides the openings and the players' random choices.
	Seed uint64 `json:"seed"`
	// OutDir, when set, keeps the tournament's files (see the package
	// doc); Resume continues the tournament found there.
	OutDir string `json:"-"`
	Resume bool   `json:"-"`
	// NoGIF leaves the GIF replays out (they cost about a second of CPU
	// for a long game).
	NoGIF bool `json:"-"`
	// NewPlayer makes a player from a spec for one game (default:
	// NewPlayer of this package).
	NewPlayer func(spec string, opt engine.PlayerOptions) (engine.Player, error) `json:"-"`
	// OnEvent, when set, is told of every game started and finished,
	// with the standings after each finished game. Calls are serialised.
	OnEvent func(Event) `json:"-"`
	// Stderr receives outside programs' standard error, when set.
	Stderr io.Writer `json:"-"`
	// Sandbox is the box the players' programs run in (nil: the default
	// box); Sandboxes, by player name, the boxes of players with their own
	// limits or variables.
	Sandbox   *sandbox.Sandbox            `json:"-"`
	Sandboxes map[string]*sandbox.Sandbox `json:"-"`
}

// EventKind says what happened.
type EventKind string

// The events.
const (
	GameStarted  EventKind = "game_started"
	GameFinished EventKind = "game_finished"
	Moved        EventKind = "moved" // a move of a running game, Position after it
	Finished     EventKind = "finished"
)

// Event is a step of a running tournament, for progress displays and live
// walls.
type Event struct {
	Kind      EventKind
	Game      GameResult // the game started (players and sides only) or finished
	Done      int        // games finished, the resumed ones included
	Running   int        // games being played now
	Total     int        // games known so far (Swiss and knockout add rounds as they go)
	Standings []Standing // after a finished game, and at the end
	// Cross is the cross table in the order of Standings: Cross[i][j] is
	// what Standings[i] scored against Standings[j], game by game ("1 ½"),
	// "" before they met.
	Cross [][]string
	// Position is the game after the move (Moved only): a copy the
	// receiver may keep.
	Position rules.Game
}

// GameResult is one finished game (or a bye) in results.json.
type GameResult struct {
	ID        string   `json:"id"`
	Round     int      `json:"round"`
	First     string   `json:"first"`  // the player who moved first
	Second    string   `json:"second"` // the player who moved second ("" for a bye)
	Sides     []string `json:"sides"`  // the game's names for the first and second player
	Result    string   `json:"result"` // p1, p2 or draw (by turn order)
	Winner    string   `json:"winner"` // the winning player's name, "" for a draw
	Reason    string   `json:"reason"`
	Opening   []string `json:"opening"`
	Moves     []string `json:"moves"` // after the opening
	Plies     int      `json:"plies"`
	Record    string   `json:"record,omitempty"` // the record's file, under OutDir
	GIF       string   `json:"gif,omitempty"`
	Bye       bool     `json:"bye,omitempty"`
	ByePoints float64  `json:"bye_points,omitempty"`
}

// firstScore is the first player's score: 1, 1/2 or 0.
func (r GameResult) firstScore() float64 {
	switch r.Result {
	case rules.P1Wins.String():
		return 1
	case rules.P2Wins.String():
		return 0
	}
	return 0.5
}

// Summary is a finished tournament.
type Summary struct {
	Config    Config
	Results   []GameResult
	Standings []Standing
	Played    int // games played by this run (not resumed)
}

// job is one game to play.
type job struct {
	id            string
	round         int
	first, second int
	opening       []rules.Move
}

// runner is a tournament in progress.
type runner struct {
	cfg     Config
	def     rules.Definition
	opts    rules.Options
	results []GameResult
	done    map[string]bool
	mu      sync.Mutex // guards results, done, running, total and the files
	running int
	total   int
	played  int
}

// Run plays the tournament and returns its summary. It stops early, with
// what it has and ctx's error, when ctx is done; games then unfinished are
// not recorded and are played again on resume.
func Run(ctx context.Context, cfg Config) (*Summary, error) {
	r, err := newRunner(cfg)
	if err != nil {
		return nil, err
	}
	sched := newScheduler(r.cfg)
	for {
		batch := sched.next(r.snapshot())
		if len(batch) == 0 {
			break
		}
		var jobs []job
		for _, p := range batch {
			if p.b < 0 {
				if err := r.bye(p); err != nil {
					return nil, err
				}
				continue
			}
			js, err := r.expand(p)
			if err != nil {
				return nil, err
			}
			jobs = append(jobs, js...)
		}
		if err := r.play(ctx, jobs); err != nil {
			return r.summary(), err
		}
	}
	sum := r.summary()
	if r.cfg.OnEvent != nil {
		r.cfg.OnEvent(Event{Kind: Finished, Done: len(r.results), Total: r.total, Standings: sum.Standings,
			Cross: Cross(sum.Standings, sum.Results)})
	}
	return sum, nil
}

// newRunner checks cfg, fills in its defaults and, with Resume, reads back
// the finished games.
func newRunner(cfg Config) (*runner, error) {
	if cfg.Registry == nil {
		return nil, errors.New("tournament: no registry of games")
	}
	def, err := cfg.Registry.Lookup(cfg.Game)
	if err != nil {
		return nil, err
	}
	cfg.Game = def.Name
	if cfg.Format == "" {
		cfg.Format = RoundRobin
	}
	if _, err := ParseFormat(string(cfg.Format)); err != nil {
		return nil, err
	}
	if len(cfg.Players) < 2 {
		return nil, errors.New("tournament: give at least two players")
	}
	seen := map[string]bool{}
	for _, p := range cfg.Players {
		if p.Name == "" || strings.ContainsAny(p.Name, ",\n\"") || seen[p.Name] {
			return nil, fmt.Errorf("tournament: player names must be unique, not empty, without commas or quotes: %q", p.Name)
		}
		seen[p.Name] = true
	}
	if cfg.Games <= 0 {
		cfg.Games = 2
	}
	if cfg.Rounds <= 0 {
		cfg.Rounds = 1
		if cfg.Format == Swiss {
			cfg.Rounds = SwissRounds(len(cfg.Players))
		}
	}
	if cfg.Concurrency <= 0 {
		cfg.Concurrency = 1
	}
	if cfg.MoveTime <= 0 {
		cfg.MoveTime = def.MoveTime
	}
	if cfg.NewPlayer == nil {
		cfg.NewPlayer = NewPlayer
	}
	for _, p := range cfg.Players {
		// A spec is read now, so that a mistake stops the tournament
		// before its first game (making a player starts no program).
		if _, err := cfg.NewPlayer(p.Spec, engine.PlayerOptions{Registry: cfg.Registry, TableMB: 1}); err != nil {
			return nil, fmt.Errorf("player %s: %w", p.Name, err)
		}
	}
	opts := cfg.Options.Clone()
	if opts == nil {
		opts = rules.Options{}
	}
	g, err := cfg.Registry.New(def.Name, opts)
	if err != nil {
		return nil, err
	}
	// The options complete, anything random drawn once for the whole
	// tournament (Upthrust's colours), so every game starts alike.
	cfg.Options = g.Options()
	for i, o := range cfg.Openings {
		c := g.Clone()
		for _, text := range o {
			m, err := c.ParseMove(text)
			if err != nil {
				return nil, fmt.Errorf("opening %d, move %q: %w", i+1, text, err)
			}
			c.Play(m)
		}
		if c.Status() != rules.Ongoing {
			return nil, fmt.Errorf("opening %d ends the game", i+1)
		}
	}
	r := &runner{cfg: cfg, def: def, opts: cfg.Options, done: map[string]bool{}}
	if cfg.OutDir != "" {
		if err := r.openOut(); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// snapshot returns the results so far.
func (r *runner) snapshot() []GameResult {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.results)
}

// summary returns the tournament so far.
func (r *runner) summary() *Summary {
	res := r.snapshot()
	return &Summary{Config: r.cfg, Results: res, Standings: Standings(r.cfg.Players, res), Played: r.played}
}

// bye records a bye, unless already recorded.
func (r *runner) bye(p pairing) error {
	id := fmt.Sprintf("r%02d-bye-%d", p.round, p.a)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.done[id] {
		return nil
	}
	res := GameResult{ID: id, Round: p.round, First: r.cfg.Players[p.a].Name, Result: "bye", Reason: "bye",
		Sides: []string{}, Opening: []string{}, Moves: []string{}, Bye: true, ByePoints: float64(r.cfg.Games)}
	return r.record(res)
}

// expand turns a pairing into its games: pairs from one opening with the
// sides swapped (a knockout play-off adds pairs after the first games).
func (r *runner) expand(p pairing) ([]job, error) {
	games := r.cfg.Games
	from := 0
	if p.extra > 0 {
		from, games = r.cfg.Games+2*(p.extra-1), 2
	}
	var jobs []job
	var opening []rules.Move
	// A class program cannot be told an opening: its games start at the start.
	noOpening := FromStart(r.cfg.Players[p.a].Spec, r.def.Name) || FromStart(r.cfg.Players[p.b].Spec, r.def.Name)
	for k := from; k < from+games; k++ {
		if (k-from)%2 == 0 && !noOpening {
			var err error
			opening, err = r.opening(fmt.Sprintf("r%d-%d-%d-o%d", p.round, p.a, p.b, k/2))
			if err != nil {
				return nil, err
			}
		}
		first, second := p.a, p.b
		if k%2 == 1 {
			first, second = second, first
		}
		jobs = append(jobs, job{id: fmt.Sprintf("r%02d-p%d-%d-g%d", p.round, p.a, p.b, k+1), round: p.round,
			first: first, second: second, opening: opening})
	}
	return jobs, nil
}

// opening returns the opening for the pair of games named by key.
func (r *runner) opening(key string) ([]rules.Move, error) {
	rng := rand.New(rand.NewPCG(r.cfg.Seed, hash(key)))
	if len(r.cfg.Openings) > 0 {
		g, err := r.cfg.Registry.New(r.def.Name, r.opts)
		if err != nil {
			return nil, err
		}
		var moves []rules.Move
		for _, text := range r.cfg.Openings[rng.IntN(len(r.cfg.Openings))] {
			m, err := g.ParseMove(text)
			if err != nil {
				return nil, err
			}
			g.Play(m)
			moves = append(moves, m)
		}
		return moves, nil
	}
	if r.cfg.OpeningPlies <= 0 {
		return nil, nil
	}
	return engine.RandomOpening(r.cfg.Registry, r.def.Name, r.opts, r.cfg.OpeningPlies, rng, nil)
}

// hash is a stable 64-bit hash of s.
func hash(s string) uint64 {
	h := fnv.New64a()
	_, _ = io.WriteString(h, s)
	return h.Sum64()
}

// play plays the jobs not finished yet, Concurrency at a time.
func (r *runner) play(ctx context.Context, jobs []job) error {
	r.mu.Lock()
	var todo []job
	for _, j := range jobs {
		if !r.done[j.id] {
			todo = append(todo, j)
		}
	}
	r.total += len(jobs)
	r.mu.Unlock()

	queue := make(chan job)
	errs := make(chan error, r.cfg.Concurrency)
	var wg sync.WaitGroup
	for range r.cfg.Concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range queue {
				if err := r.playOne(ctx, j); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	var err error
feed:
	for _, j := range todo {
		select {
		case queue <- j:
		case err = <-errs:
			break feed
		case <-ctx.Done():
			err = ctx.Err()
			break feed
		}
	}
	close(queue)
	wg.Wait()
	close(errs)
	if err == nil {
		err = <-errs
	}
	if err == nil {
		err = ctx.Err()
	}
	return err
}

// sandboxOf returns the box of a player's programs.
func (r *runner) sandboxOf(name string) *sandbox.Sandbox {
	if sb := r.cfg.Sandboxes[name]; sb != nil {
		return sb
	}
	return r.cfg.Sandbox
}

// playOne plays one game and records it.
func (r *runner) playOne(ctx context.Context, j job) error {
	names := [2]string{r.cfg.Players[j.first].Name, r.cfg.Players[j.second].Name}
	g, err := r.cfg.Registry.New(r.def.Name, r.opts)
	if err != nil {
		return err
	}
	started := GameResult{ID: j.id, Round: j.round, First: names[0], Second: names[1],
		Sides: []string{g.PlayerName(rules.P1), g.PlayerName(rules.P2)}}
	var seats [2]engine.Player
	for side, who := range []int{j.first, j.second} {
		p, err := r.cfg.NewPlayer(r.cfg.Players[who].Spec, engine.PlayerOptions{
			Registry: r.cfg.Registry, Seed: hash(strconv.FormatUint(r.cfg.Seed, 10) + "/" + j.id + "/" + strconv.Itoa(side)),
			TableMB: 8, Stderr: r.cfg.Stderr, Sandbox: r.sandboxOf(r.cfg.Players[who].Name)})
		if err != nil {
			return fmt.Errorf("player %s: %w", r.cfg.Players[who].Name, err)
		}
		seats[side] = p
	}
	r.event(GameStarted, started, 1)
	if r.cfg.OnEvent != nil {
		for i := range seats {
			seats[i] = &watched{Player: seats[i], r: r, game: started}
		}
	}
	rec, _, err := engine.PlayGame(ctx, g, j.opening, seats, r.cfg.MoveTime)
	if err != nil {
		r.mu.Lock()
		r.running-- // cut off: not finished, played again on resume
		r.mu.Unlock()
		return err
	}
	res := started
	res.Result, res.Reason, res.Opening, res.Moves, res.Plies = rec.Result.String(), rec.Reason, rec.Opening, rec.Moves, rec.Plies
	if res.Opening == nil {
		res.Opening = []string{}
	}
	if res.Moves == nil {
		res.Moves = []string{}
	}
	if w, ok := rec.Result.Winner(); ok {
		res.Winner = names[w]
	}
	if r.cfg.OutDir != "" {
		if err := r.writeGame(&res, g, names, seats); err != nil {
			return err
		}
	}
	r.mu.Lock()
	err = r.record(res)
	r.played++
	r.mu.Unlock()
	r.event(GameFinished, res, -1)
	return err
}

// record adds a finished game and saves the results; r.mu is held.
func (r *runner) record(res GameResult) error {
	r.results = append(r.results, res)
	r.done[res.ID] = true
	if r.cfg.OutDir != "" {
		return r.saveResults()
	}
	return nil
}

// event counts a game in or out of the running ones and tells OnEvent.
func (r *runner) event(kind EventKind, g GameResult, running int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.running += running
	if r.cfg.OnEvent == nil {
		return
	}
	e := Event{Kind: kind, Game: g, Done: len(r.results), Running: r.running, Total: r.total}
	if kind == GameFinished {
		e.Standings = Standings(r.cfg.Players, r.results)
		e.Cross = Cross(e.Standings, r.results)
	}
	r.cfg.OnEvent(e)
}

// watched is a player whose moves are told to OnEvent as Moved events.
type watched struct {
	engine.Player
	r    *runner
	game GameResult
}

func (w *watched) Choose(ctx context.Context, g rules.Game, lim engine.Limits) (rules.Move, engine.Info, error) {
	m, info, err := w.Player.Choose(ctx, g, lim)
	if err == nil && m != rules.NoMove {
		var list rules.MoveList
		g.Moves(&list)
		if list.Contains(m) {
			pos := g.Clone()
			pos.Play(m)
			w.r.mu.Lock()
			w.r.cfg.OnEvent(Event{Kind: Moved, Game: w.game, Done: len(w.r.results), Running: w.r.running, Total: w.r.total, Position: pos})
			w.r.mu.Unlock()
		}
	}
	return m, info, err
}

// Transcript passes on the transcript of a class program.
func (w *watched) Transcript() string {
	if t, ok := w.Player.(Transcripter); ok {
		return t.Transcript()
	}
	return ""
}
