// Package rules is the contract every game of Arbiter meets, the registry
// that finds a game by name, and the types the games share: players, moves,
// move lists, outcomes, options and move errors.
//
// A game lives in its own package below this one (rules/hique,
// rules/upthrust, rules/hiya, rules/sixes). Each keeps its position in fixed
// arrays or bitboards and generates and plays moves without allocating, so
// the same code serves the referee and the engine's inner loop.
//
// Invariants a change must keep: rules imports nothing of Arbiter's; each
// game's rules text (and the perft counts it states) is the authority, so a
// change that alters a count is a bug; game names, option names and
// notations are contracts with players, records and stored games; Play and
// Undo allocate nothing in steady state (see Game).
package rules

// Player names a side by turn order: P1 is the side that moves first.
type Player uint8

// The two players, by turn order.
const (
	P1 Player = 0
	P2 Player = 1
)

// Other returns the opponent of p.
func (p Player) Other() Player { return p ^ 1 }

// String returns "p1" or "p2".
func (p Player) String() string {
	if p == P1 {
		return "p1"
	}
	return "p2"
}

// Move is a move packed by its game into 32 bits. Its layout is the game's
// own business; FormatMove and ParseMove translate it to and from text.
// A game keeps its packing stable, because encoded games store moves packed.
type Move uint32

// NoMove is a Move value that no game uses for a real move.
const NoMove Move = 0xFFFFFFFF

// MaxMoves bounds the number of legal moves in any position of any game.
const MaxMoves = 4096

// MoveList is a fixed-capacity list of moves that move generation fills
// without allocating. Reuse one per search ply.
type MoveList struct {
	N     int
	Moves [MaxMoves]Move
}

// Reset empties the list.
func (l *MoveList) Reset() { l.N = 0 }

// Add appends m.
func (l *MoveList) Add(m Move) {
	l.Moves[l.N] = m
	l.N++
}

// Slice returns the moves held, sharing the list's storage.
func (l *MoveList) Slice() []Move { return l.Moves[:l.N] }

// Contains reports whether m is in the list.
func (l *MoveList) Contains(m Move) bool {
	for _, x := range l.Moves[:l.N] {
		if x == m {
			return true
		}
	}
	return false
}

// Game is one game in progress: its options, its position and the moves
// that led there. Implementations are pointers to concrete types (for example
// *hique.Game); the engine is generic over them so that its hot path makes no
// interface call.
//
// Play and Undo take no allocation in steady state: a game keeps its history
// in storage it reserved at creation.
type Game interface {
	// Name is the game's registry name, e.g. "hique".
	Name() string
	// Options returns the game's options, complete with defaults and with
	// anything drawn at random (Upthrust's colours and seed) resolved, so
	// that New(Options()) starts the same game again.
	Options() Options
	// ToMove returns the player whose turn it is.
	ToMove() Player
	// PlayerName names a player in the game's own words (Black, South, X...).
	PlayerName(p Player) string
	// Ply returns the number of moves played since the start.
	Ply() int
	// History returns the moves played since the start, oldest first. The
	// slice is the game's own; callers must not change it.
	History() []Move

	// Moves fills list with every legal move of the player to move; a
	// finished game has none. A forced pass is a move where the rules have
	// passes (Upthrust).
	Moves(list *MoveList)
	// Play plays m, which must be one of the moves Moves returns.
	Play(m Move)
	// Undo takes back the last move played. It panics if none was played.
	Undo()
	// Status is the result so far, cheaply: Ongoing until the game ends.
	Status() Result
	// Outcome is the result with its reason in words and the scores where
	// the game has them.
	Outcome() Outcome
	// Hash identifies the position (pieces, side to move and any state that
	// changes the legal moves) for repetition and transposition tables.
	Hash() uint64

	// ParseMove reads move text in the canonical form or a tolerated
	// variant and checks it against the current position. Its errors are
	// *MoveError values that say what is wrong.
	ParseMove(text string) (Move, error)
	// FormatMove writes m in canonical text.
	FormatMove(m Move) string
	// Announce returns what the rules have a player say with m (Hi-Ya!'s
	// "Hi-YA!" on an attack), or "" for nothing. m is a legal move in the
	// current position.
	Announce(m Move) string
	// Tactical reports whether m, legal in the current position, removes or
	// hurts a piece (a HiQUE removal, a Hi-Ya! attack, a Sixes surround) or,
	// where the rules say, wins at once (a described game's goal row or
	// winning line).
	// The engine searches such moves first and in quiescence.
	Tactical(m Move) bool

	// Evaluate scores the position for the player to move, in hundredths of
	// a piece; positive is good for the player to move. Each game documents
	// its features.
	Evaluate() int
	// Material scores only material for the player to move, on the same
	// scale as Evaluate (for the yardstick alpha-beta player).
	Material() int

	// Clone returns an independent copy of the game.
	Clone() Game
}

// Scorer is a game with scoring of its own that can decide an unfinished
// game, as a timeout with adjudication does: HiQUE's timing option,
// Upthrust's points, Sixes' pieces.
type Scorer interface {
	// Standing returns each player's score now (player 1 first) and what
	// it counts, e.g. "timing option".
	Standing() (scores [2]int, what string)
}

// Pruner is a game whose evaluation's scale calls for its own margin of
// reverse futility pruning; the engine uses its default for other games.
type Pruner interface {
	// FutilityMargin returns, in the evaluation's hundredths of a piece, how
	// far a position's evaluation must stand above the score the search
	// needs, for each ply left to search, for the search to take it as
	// good enough without searching it.
	FutilityMargin() int
}

// Calm is a game none of whose moves is ever tactical: no captures and no
// wins in one move, so that Tactical is false in every position. A search
// stands pat at its leaves without generating the moves to look for any.
type Calm interface {
	// Calm reports whether Tactical is false for every move of every
	// position of the game.
	Calm() bool
}

// Finisher is a calm game that can find a win in one move without
// listing its moves: Pentago, whose lines are judged after a block turns.
// A search asks it at its leaves, where a calm game's moves go unlisted.
type Finisher interface {
	// WinningMove returns a legal move with which the player to move wins
	// at once, or NoMove. It may miss such a move, looking only where one
	// is likeliest; a move it returns wins.
	WinningMove() Move
	// Finishes reports whether WinningMove can find a move in this game at
	// all: false where no line ends it anywhere, so that a search need not
	// ask.
	Finishes() bool
}

// Narrower is a game whose search need not look at every legal move:
// Gomoku's stones far from all the others, say. The game's legal moves
// are unchanged; only a search looks at fewer.
type Narrower interface {
	// Narrow removes from list, the position's legal moves, those that a
	// search need not look at, keeping at least one when list has any.
	Narrow(list *MoveList)
}

// Passer is a game whose rules have passes (Upthrust): a player without
// another legal move passes, and Moves returns the pass as the only move.
type Passer interface {
	// IsPass reports whether m is a pass, in any position of the game.
	IsPass(m Move) bool
}

// IsPass reports whether m is a pass in g; false in a game without passes.
func IsPass(g Game, m Move) bool {
	p, ok := g.(Passer)
	return ok && p.IsPass(m)
}
