package commands

import (
	"arbiter/analyst"
	"context"
	"errors"
	"fmt"
	"log/slog"

	"slices"
	"strings"
	"sync/atomic"
	"time"

	"arbiter/engine"
	"arbiter/render"
	"arbiter/rules"
	"arbiter/store"
)

// Config is what the game flow is told at start.
type Config struct {
	// RefereeRole is the name of the role whose members may use /referee
	// (as may anyone with the manage-server right).
	RefereeRole string
	// TurnTime is a person's time per move when /play does not say;
	// default 2 days.
	TurnTime time.Duration
	// BotLevel is the bot's level when /play does not say; default 3.
	BotLevel int
	// BotMoveTime, when set, replaces each game's class move time as the
	// bot's time at level 5 (tests and demos use a short one).
	BotMoveTime time.Duration
	// Workers is how many bot turns are thought about at once (RunWorkers).
	Workers int
	// WorkerName names this process's workers in the bot-turn queue; keep
	// it the same across restarts so a restarted worker picks up the turns
	// it was thinking about at once. Default "arbiter".
	WorkerName string
	// ClockTick is how often the deadline clock looks for due games;
	// default 1s.
	ClockTick time.Duration
	// Colour asks for ANSI colour in text boards (a terminal).
	Colour bool
	// TableMB is the engine's transposition table size per worker and
	// level; default 32.
	TableMB int
	// TakesCommands says that this process takes players' commands (the
	// bot, the console): its clock loop beats the store's heartbeat, and
	// no one is timed out while no such process beats.
	TakesCommands bool
	// OutboxGrace is how long after a save the sweep leaves its outbox
	// entry to the saver; default 10s, well past the store's refusal of
	// late writes.
	OutboxGrace time.Duration
	// Deadlines writes a deadline (a non-zero time) into a message; the
	// default is LocalTime. A chat platform that shows each reader times
	// in their own zone sets its own (Discord's timestamp markup).
	Deadlines func(time.Time) string
	// CachedGames is how many games the service keeps as it last saved
	// them, so that a /move needs no read of the store (see move);
	// default 2048, negative for none.
	CachedGames int
	// Meter hears of commands, moves and bot turns, for metrics; nil for
	// none.
	Meter Meter
	// Limits bound the games one person and one server start at once;
	// zero fields take DefaultLimits.
	Limits Limits
	// PublicURL is the address people reach the API and the live wall at
	// (e.g. https://arbiter.example.org), for the links /wall gives.
	PublicURL string
	// AnalysisLimits bound the search of each position of an /analyse
	// (default a second a position).
	AnalysisLimits engine.Limits
	// AnalysisQueue is the most games waiting for /analyse or being
	// analysed; default 8.
	AnalysisQueue int
	// AnalysisServerShare is the most of them one server may have in
	// line; default half of AnalysisQueue (at least 1).
	AnalysisServerShare int
	// AnalysisPersonShare is the most of them one person may have put in
	// line; default 2.
	AnalysisPersonShare int
	// AnalysisLease is how long the workers of a process that stopped
	// keep a game of the analysis line from the others; default
	// analyst.DefaultLease.
	AnalysisLease time.Duration
	// Terms closes a server's term for /referee term-close; nil: it is
	// refused, pointing at the command line.
	Terms TermCloser
}

// Service runs the game flow over a store. It is safe for concurrent use.
type Service struct {
	store  store.Store
	reg    *rules.Registry
	notify Notifier
	cfg    Config
	log    *slog.Logger
	now    func() time.Time
	// inFlight counts the bot turns being thought about or posted.
	inFlight atomic.Int64
	hooks    hooks // observers and program presence (programs.go)
	// skew is the store's clock minus this host's (ns), from SyncClock;
	// skewLogged says a large skew was logged.
	skew       atomic.Int64
	skewLogged atomic.Bool
	// replays keeps the replays drawn for /history.
	replays *replays
	// cached keeps the games /move saved last (gamecache.go).
	cached *gameCache
	// routes maps command names to their handlers; specs is the command
	// set of the registry's games (a registry does not change).
	// analyst makes the analyses of the store's line beside the workers
	// (analyse.go).
	analyst *analyst.Analyst
	// workersRun counts the RunWorkers under way.
	workersRun atomic.Int64
	gate       analyst.Gate // analyses run only while no worker has a bot turn
	routes     map[string]handler
	specs      []CommandSpec
	// direct writes to people directly, when the notifier can (nil when
	// not).
	direct DirectMessenger
	// digestMinute is the minute (Unix) the clock last sent digests for.
	digestMinute atomic.Int64
	// drawings are the memory replies are written in.
	drawings drawings
}

// New returns the game flow over st, posting later messages through
// notify. now may be nil for the store's time (this host's clock
// corrected by SyncClock).
func New(cfg Config, st store.Store, reg *rules.Registry, notify Notifier, log *slog.Logger, now func() time.Time) *Service {
	if cfg.TurnTime <= 0 {
		cfg.TurnTime = 48 * time.Hour
	}
	if cfg.BotLevel < 1 || cfg.BotLevel > 5 {
		cfg.BotLevel = 3
	}
	if cfg.Workers < 1 {
		cfg.Workers = 1
	}
	if cfg.WorkerName == "" {
		cfg.WorkerName = "arbiter"
	}
	if cfg.ClockTick <= 0 {
		cfg.ClockTick = time.Second
	}
	if cfg.OutboxGrace <= 0 {
		cfg.OutboxGrace = 10 * time.Second
	}
	if cfg.TableMB <= 0 {
		cfg.TableMB = 32
	}
	cfg.Limits = cfg.Limits.withDefaults()
	if log == nil {
		log = slog.Default()
	}
	if cfg.Meter == nil {
		cfg.Meter = nopMeter{}
	}
	if cfg.CachedGames == 0 {
		cfg.CachedGames = defaultCachedGames
	}
	cached := newGameCache(cfg.CachedGames)
	s := &Service{store: forgetfulStore{Store: st, games: cached}, reg: reg, notify: notify, cfg: cfg, log: log, now: now,
		replays: newReplays(), cached: cached}
	if now == nil {
		s.now = s.storeNow
	}
	s.notify = pausingNotifier{Notifier: notify, s: s}
	s.direct, _ = notify.(DirectMessenger)
	s.routes, s.specs = s.handlers(), CommandSet(reg.Names())
	s.analyst = s.newAnalyst()
	return s
}

// BotTurnsInFlight returns how many bot turns this process's workers are
// thinking about or posting right now.
func (s *Service) BotTurnsInFlight() int64 { return s.inFlight.Load() }

// Registry returns the games the service knows.
func (s *Service) Registry() *rules.Registry { return s.reg }

// handler answers one command.
type handler func(ctx context.Context, inv Invocation) Reply

// handlers maps command names to their handlers.
func (s *Service) handlers() map[string]handler {
	return map[string]handler{
		"play":        s.play,
		"accept":      s.accept,
		"decline":     s.decline,
		"move":        s.move,
		"board":       s.board,
		"moves":       s.moves,
		"resign":      s.resign,
		"draw":        s.draw,
		"undo":        s.undo,
		"history":     s.history,
		"analyse":     s.analyse,
		"rules":       s.rules,
		"help":        s.help,
		"games":       s.games,
		"stats":       s.stats,
		"leaderboard": s.leaderboard,
		"referee":     s.referee,
		"settings":    s.settings,
		"rematch":     s.rematch,
		// Buttons only: the resignation's confirmation.
		"resign-confirm": s.resignConfirmed,
		"cancel":         s.cancel,
		"playboard":      s.playBoard,
		"token":          s.token,
		"tournament":     s.tournamentCmd,
		"wall":           s.wall,
		// The move picker's button and menus.
		"pick":     s.pick,
		"notify":   s.notifyCmd,
		"premove":  s.premoveCmd,
		"vacation": s.vacationCmd,
	}
}

// Handle answers an invocation. It never panics on bad input; every
// refusal is private and says why. A typed command's options (not a
// button's) are checked first, as CheckOptions does.
func (s *Service) Handle(ctx context.Context, inv Invocation) Reply {
	name := strings.ToLower(inv.Command)
	h, ok := s.routes[name]
	if !ok {
		return refuse("there is no command /%s; /help lists them", clip(inv.Command, 30))
	}
	defer func(begun time.Time) { s.cfg.Meter.Command(name, time.Since(begun)) }(time.Now())
	if inv.Version == 0 { // a typed command, not a button
		if inv.Options == nil {
			inv.Options = map[string]string{}
		}
		if err := CheckOptions(s.specs, &inv); err != nil {
			var missing *MissingOptionError
			if !errors.As(err, &missing) || missing.Command != "move" {
				return refuse("%v", err)
			} // else /move's own refusal gives an example in the game's notation
		}
	}
	return h(ctx, inv)
}

// Autocomplete suggests values for the focused option: for /move, the
// legal moves that start with what was typed (at most 25).
func (s *Service) Autocomplete(ctx context.Context, inv Invocation) Reply {
	if inv.Command != "move" || inv.Focused != "move" {
		return Reply{}
	}
	g, err := s.store.Load(ctx, inv.Channel)
	if err != nil || g.Status != store.Active {
		return Reply{}
	}
	typed := normaliseMoveText(inv.Options["move"])
	var list rules.MoveList
	g.State.Moves(&list)
	var choices []Choice
	for _, m := range list.Slice() {
		text := g.State.FormatMove(m)
		if strings.HasPrefix(normaliseMoveText(text), typed) {
			choices = append(choices, Choice{Name: text, Value: text})
			if len(choices) == 25 {
				break
			}
		}
	}
	return Reply{Choices: choices}
}

// normaliseMoveText folds case and separators so that "4,2" matches "4 2".
func normaliseMoveText(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == ' ' || r == ',' || r == '-' || r == '\t':
			return -1
		case r >= 'A' && r <= 'Z':
			return r + 'a' - 'A'
		}
		return r
	}, s)
}

// refuse is a private refusal.
func refuse(format string, args ...any) Reply {
	return Reply{Message: Message{Text: fmt.Sprintf(format, args...)}, Private: true}
}

// storeRefusal turns a store error into words for the user, and logs what
// is not the user's doing.
func (s *Service) storeRefusal(inv Invocation, err error) Reply {
	var damaged *store.DamagedError
	var unknown *errOutcomeUnknown
	switch {
	case errors.As(err, &unknown):
		return s.unknownOutcome(inv, err)
	case errors.Is(err, store.ErrUnavailable):
		s.log.Warn("storage unreachable", "channel", inv.Channel, "err", err)
		return refuse("storage is not reachable right now; nothing was changed, try again")
	case errors.As(err, &damaged):
		s.log.Error("damaged game record", "channel", inv.Channel, "err", err)
		return refuse("the game record of this channel is damaged and cannot be read (%v); a referee can /referee abort it", damaged.Err)
	case errors.Is(err, store.ErrConflict):
		return refuse("the game moved on while you were acting; nothing was changed: look at /board and try again")
	case errors.Is(err, store.ErrBusy):
		return refuse("a game is already going on in this channel: /board shows it")
	case errors.Is(err, store.ErrNotFound):
		return refuse("there is no game in this channel; /play starts one")
	}
	return s.internalError(inv, "command", err)
}

// isReferee reports whether the invoker may use /referee.
func (s *Service) isReferee(inv Invocation) bool {
	return inv.ManageServer || (s.cfg.RefereeRole != "" && slices.Contains(inv.Roles, s.cfg.RefereeRole))
}

// Mention writes a mention of a user id as the adapters expect it.
func Mention(userID string) string { return string(appendMention(nil, userID)) }

// appendMention appends Mention(userID) to dst.
func appendMention(dst []byte, userID string) []byte {
	return append(append(append(dst, "<@"...), userID...), '>')
}

// unknownOutcome answers a command whose write got no answer from the
// store: it may or may not have been applied, so the person is shown the
// game as it is after a fresh read, never told that nothing changed.
func (s *Service) unknownOutcome(inv Invocation, err error) Reply {
	s.log.Warn("write outcome unknown", "channel", inv.Channel, "command", inv.Command, "err", err)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	const head = "The storage did not answer in time, so whether that was recorded is unknown."
	g, lerr := s.store.Load(ctx, inv.Channel)
	switch {
	case lerr == nil:
		return Reply{Message: s.boardMessage(g, render.Standard, head+" This is the game as it is now; look before you try again."), Private: true}
	case errors.Is(lerr, store.ErrNotFound):
		return refuse("%s The channel has no game going on now (it may have ended): /history shows finished games.", head)
	}
	return refuse("%s The storage is still not reachable: look at /board in a moment before you try again.", head)
}

// refereeRoleName names who may referee, for refusals.
func (s *Service) refereeRoleName() string {
	if s.cfg.RefereeRole == "" {
		return "referee"
	}
	return s.cfg.RefereeRole
}
