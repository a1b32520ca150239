package store

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Analysis is a finished analysis as kept: the summary posted, its
// evaluation graph (PNG) and its review page (HTML); either may be empty.
type Analysis struct {
	Text  string `json:"text"`
	Graph []byte `json:"graph,omitempty"`
	Page  []byte `json:"page,omitempty"`
}

// AnalysisAsk asks for the analysis of a guild's finished game.
type AnalysisAsk struct {
	Guild string
	Game  string // the archive id
	// Asker is the person who asked; "" for none (the wall, the page).
	Asker string
	// Channel is where the analysis is posted when done; "" for nowhere
	// (it is only kept).
	Channel string
}

// AnalysisShares bound the analysis line: the most games in line (being
// analysed included), of them the most of one server, and the most one
// person put there.
type AnalysisShares struct {
	Line, Server, Person int
}

// AnalysisJob is an analysis in line, taken by a worker until its lease
// ends.
type AnalysisJob struct {
	Guild  string
	Game   string
	Worker string        // the worker that holds it
	Lease  time.Duration // how long it holds it without ExtendAnalysis
	// Progress is what a worker recorded with its last ExtendAnalysis
	// (nil at first), for the one that takes the job over to go on from.
	Progress []byte
	// Kept says its result is kept already: only the posts remain.
	Kept bool
	// Deliveries counts the takes of the job so far, this one included.
	Deliveries int
}

// KeptAnalyses is how many finished analyses a store keeps: past it, the
// analysis kept longest ago is forgotten.
const KeptAnalyses = 64

// The answers of AskAnalysis when the game cannot be put in line.
var (
	// ErrLineFull: the line holds AnalysisShares.Line games.
	ErrLineFull = errors.New("the analysis line is full")
	// ErrServerShare: the game's server has its share of the line.
	ErrServerShare = errors.New("the server's share of the analysis line is in line")
	// ErrPersonShare: the asker has their share of the line.
	ErrPersonShare = errors.New("the person's share of the analysis line is in line")
	// ErrAnalysisKept: the game's analysis is kept, and out of line.
	ErrAnalysisKept = errors.New("the analysis is kept")
)

// Analyses is the line of analyses asked for (with /analyse, the wall or
// a review page) and the analyses kept, shared by every process on the
// store. A job is taken by one worker at a time, with a lease it renews;
// one whose worker stops renewing it is taken by the next claim after the
// lease. A job stays in line until its result is kept and posted to every
// channel that asked, even one that asked while the posts went out.
type Analyses interface {
	// AskAnalysis puts ask's game in line, or, when it is in line already
	// (its posts going out included), adds ask's channel to those it is
	// posted to, once each. It returns the game's place in line (from 1)
	// and whether it was put in line now. When its analysis is kept and
	// out of line the error is ErrAnalysisKept (read it with KeptAnalysis); when
	// shares forbid it, ErrLineFull, ErrServerShare or ErrPersonShare with
	// place the bound reached.
	AskAnalysis(ctx context.Context, ask AnalysisAsk, shares AnalysisShares) (place int, added bool, err error)
	// ClaimAnalysis gives worker, for lease, the oldest job in line that
	// no worker holds or whose lease ran out; ErrNoJob when there is none.
	ClaimAnalysis(ctx context.Context, worker string, lease time.Duration) (*AnalysisJob, error)
	// ExtendAnalysis renews job's lease for job.Lease from now and
	// records progress (nil keeps what was recorded); ErrStaleJob when
	// job is no longer its worker's (out of line, or taken by another).
	ExtendAnalysis(ctx context.Context, job *AnalysisJob, progress []byte) error
	// KeepAnalysis keeps job's result, as its worker's; the job stays in
	// line until NextAnalysisPost finds no channel left. ErrStaleJob as
	// for ExtendAnalysis.
	KeepAnalysis(ctx context.Context, job *AnalysisJob, a Analysis) error
	// NextAnalysisPost records that channel posted (unless "") has its
	// post, and returns the next channel that asked and has none. When
	// none is left it takes the job out of line, in the same step, and
	// returns ok false. ErrStaleJob as for ExtendAnalysis.
	NextAnalysisPost(ctx context.Context, job *AnalysisJob, posted string) (channel string, ok bool, err error)
	// DropAnalysis takes job out of line without a result (it failed);
	// ErrStaleJob as for ExtendAnalysis.
	DropAnalysis(ctx context.Context, job *AnalysisJob) error
	// KeptAnalysis returns the kept analysis of guild's game; ErrNotFound
	// when there is none (never made, or forgotten).
	KeptAnalysis(ctx context.Context, guild, game string) (Analysis, error)
	// AnalysesInLine counts the jobs in line.
	AnalysesInLine(ctx context.Context) (int, error)
}

// AnalysisKey is the key of guild's game in the line and among the kept.
func AnalysisKey(guild, game string) string { return guild + "/" + game }

// CheckAnalysisAsk checks an ask's ids and shares, defaulting none.
func CheckAnalysisAsk(ask AnalysisAsk, shares AnalysisShares) error {
	if err := CheckID("guild", ask.Guild); err != nil {
		return fmt.Errorf("ask for an analysis: %w", err)
	}
	if err := CheckID("archive", ask.Game); err != nil {
		return fmt.Errorf("ask for an analysis: %w", err)
	}
	if ask.Asker != "" {
		if err := CheckID("user", ask.Asker); err != nil {
			return fmt.Errorf("ask for an analysis: %w", err)
		}
	}
	if ask.Channel != "" {
		if err := CheckID("channel", ask.Channel); err != nil {
			return fmt.Errorf("ask for an analysis: %w", err)
		}
	}
	if shares.Line < 1 || shares.Server < 1 || shares.Person < 1 {
		return fmt.Errorf("ask for an analysis: %w: shares %+v must each be 1 or more", ErrInvalid, shares)
	}
	return nil
}

// CheckAnalysisJob checks a job handed back to the store.
func CheckAnalysisJob(what string, job *AnalysisJob) error {
	if job == nil {
		return fmt.Errorf("%s: %w: no job", what, ErrInvalid)
	}
	if err := CheckID("worker", job.Worker); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if CheckID("guild", job.Guild) != nil || CheckID("archive", job.Game) != nil {
		return fmt.Errorf("%s: %w: job of %q/%q", what, ErrInvalid, job.Guild, job.Game)
	}
	return nil
}
