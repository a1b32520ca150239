package store

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"time"

	"arbiter/rules"
)

// SchemaVersion is the version of the game record this build writes. It
// reads every version from 1 up to this one; see MIGRATIONS.md for how a
// future version migrates.
//
// Schema 2 has the fields of schema 1; what changed is where a running
// game's moves live: beside the record, in the channel's move list (one
// JSON move an element), so that a move appends one element and rewrites
// only the small record. A schema 2 record in a channel's hash has no
// "moves"; one in the archive (or anywhere else) has them inline, as
// schema 1 always has.
const SchemaVersion = 2

// PlayerKind says who sits in a seat.
type PlayerKind string

// The kinds of player.
const (
	Human   PlayerKind = "human"   // a Discord user (or the console's person)
	Bot     PlayerKind = "bot"     // Arbiter's own engine at some level
	Program PlayerKind = "program" // an outside program speaking the engine protocol
)

// Player is one seat of a game.
type Player struct {
	Kind    PlayerKind `json:"kind"`
	UserID  string     `json:"user,omitempty"`    // the Discord user id of a human
	Name    string     `json:"name"`              // the display name when the game began
	Level   int        `json:"level,omitempty"`   // the level of a bot
	Program string     `json:"program,omitempty"` // the name of an outside program
}

// Move is one move of a game's move list: its text in the game's notation,
// the seat that played it, who sent it and when.
type Move struct {
	Text string       `json:"text"`
	Seat rules.Player `json:"seat"`
	By   string       `json:"by,omitempty"` // the user id who sent it; empty for a bot or program
	At   time.Time    `json:"at"`
}

// Status is where a game is in its life.
type Status string

// The statuses of a game.
const (
	// Active: the game goes on in its channel.
	Active Status = "active"
	// Finished: the game is over (won, drawn, resigned, timed out or
	// abandoned: Result and Reason say which). Saving a finished game
	// archives it and frees its channel; a finished game cannot change.
	Finished Status = "finished"
)

// Game is the record of one game: the game in its channel while it is
// going on, and in its guild's archive once it is finished.
type Game struct {
	Channel string        // the channel (or thread) the game is played in
	Guild   string        // the guild the channel belongs to
	ID      string        // the archive id, unique within the guild; given by Create
	Name    string        // the game's registry name, e.g. "hique"
	Options rules.Options // the options the game was created with, complete: its State's, which a save stores
	Players [2]Player     // the seats, in turn order (rules.P1, rules.P2)
	State   rules.Game    // the position, stored in the rules encoding
	Moves   []Move        // every move played, oldest first; len(Moves) == State.Ply()
	Version int64         // 1 at Create, one more at every Save
	Status  Status
	Result  rules.Result // the result of a finished game (Ongoing for one abandoned without a result)
	Reason  string       // the result in words, e.g. "White resigned"
	// Deadline is when the player to move must have moved; zero for none.
	Deadline time.Time
	// RemindAt is when to remind the player to move; zero for none (or
	// after the reminder went out).
	RemindAt time.Time
	Created  time.Time
	Updated  time.Time
	Finished time.Time // when it finished; zero while it goes on
	// Flow is the state of the game flow that the commands keep with the
	// game: a pending challenge, offers, the clock's settings.
	Flow Flow

	// stored is the channel's move list as Load read it (or Save wrote
	// it): Save appends what Moves has beyond it and trims what it lost.
	// nil when unknown (a record of schema 1, a game built by hand): Save
	// then writes the whole list.
	stored []Move
}

// StoredMoves returns the move list a backend last read or wrote for g
// (nil when unknown), for the backend's next Save to append to.
func (g *Game) StoredMoves() []Move { return g.stored }

// SetStoredMoves records moves as g's move list as stored, after a Load
// or Save; nil makes the next Save write the whole list. Only backends
// call it.
func (g *Game) SetStoredMoves(moves []Move) { g.stored = moves }

// Flow is the state the game flow (package commands) keeps with a game
// beyond its moves: a pending challenge, offers, the clock's settings.
// To the store it is the caller's bytes (JSON, versioned by the caller),
// kept and handed back unread, so a new flow field is a change in the
// flow alone. A game read back has a RawFlow; the flow replaces it with
// its own type.
type Flow interface {
	// FlowBytes returns the state as JSON to keep with the game.
	FlowBytes() ([]byte, error)
}

// RawFlow is a Flow as the store read it back: the caller's bytes.
type RawFlow []byte

// FlowBytes returns the bytes as they were kept.
func (r RawFlow) FlowBytes() ([]byte, error) { return r, nil }

// Wake returns when the clock should next look at the game: the earlier of
// RemindAt and Deadline, or zero when it has neither or is not active.
func (g *Game) Wake() time.Time {
	if g.Status != Active {
		return time.Time{}
	}
	w := g.Deadline
	if !g.RemindAt.IsZero() && (w.IsZero() || g.RemindAt.Before(w)) {
		w = g.RemindAt
	}
	return w
}

// Record is a game as stored: JSON of schema version 1. Field names are
// part of the format; add fields freely (old records read them as zero),
// but renaming or changing the meaning of one needs a new schema version.
type Record struct {
	Schema   int             `json:"schema"`
	Channel  string          `json:"channel"`
	Guild    string          `json:"guild"`
	ID       string          `json:"id"`
	Name     string          `json:"game"`
	Options  string          `json:"options"`
	Players  [2]Player       `json:"players"`
	State    []byte          `json:"state"` // rules.Encode, base64 in JSON
	Moves    []Move          `json:"moves,omitempty"`
	Version  int64           `json:"version"`
	Status   Status          `json:"status"`
	Result   string          `json:"result,omitempty"`
	Reason   string          `json:"reason,omitempty"`
	Deadline *time.Time      `json:"deadline,omitempty"`
	RemindAt *time.Time      `json:"remind_at,omitempty"`
	Created  time.Time       `json:"created"`
	Updated  time.Time       `json:"updated"`
	Finished *time.Time      `json:"finished,omitempty"`
	Flow     json.RawMessage `json:"flow,omitempty"`
}

// schemaProbe reads only the schema version, to choose the decoder.
type schemaProbe struct {
	Schema int `json:"schema"`
}

// TimePtr returns t as a record keeps an optional time: nil when zero.
func TimePtr(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}

// TimeOf reads an optional time of a record: zero when nil.
func TimeOf(p *time.Time) time.Time {
	if p == nil {
		return time.Time{}
	}
	return *p
}

// check reports what makes g unfit to store, as an error wrapping
// ErrInvalid.
func (g *Game) check() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, args...))
	}
	if err := CheckID("channel", g.Channel); err != nil {
		return err
	}
	if err := CheckID("guild", g.Guild); err != nil {
		return err
	}
	if g.State == nil {
		return bad("the game in channel %s has no state", g.Channel)
	}
	if g.Name != g.State.Name() {
		return bad("the game in channel %s is named %q but its state is %q", g.Channel, g.Name, g.State.Name())
	}
	if len(g.Moves) != g.State.Ply() {
		return bad("the game in channel %s lists %d moves but its state has %d", g.Channel, len(g.Moves), g.State.Ply())
	}
	for i := range g.Moves {
		if seat := g.Moves[i].Seat; seat != rules.P1 && seat != rules.P2 {
			return bad("move %d of the game in channel %s has seat %d", i+1, g.Channel, seat)
		}
	}
	switch g.Status {
	case Active, Finished:
	default:
		return bad("the game in channel %s has status %q", g.Channel, g.Status)
	}
	if g.Result > rules.Draw {
		return bad("the game in channel %s has result %d", g.Channel, g.Result)
	}
	return nil
}

// CheckID accepts the ids the store puts in keys: 1 to 64 letters, digits,
// '-', '_' or '.'. Discord snowflakes and console names fit; braces, which
// would change a key's hash slot, and '/', which separates index members,
// do not.
func CheckID(what, id string) error {
	if id == "" {
		return fmt.Errorf("%w: the %s id is empty", ErrInvalid, what)
	}
	if len(id) > 64 {
		return fmt.Errorf("%w: the %s id %.20q... is over 64 characters", ErrInvalid, what, id)
	}
	for _, r := range id {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.'
		if !ok {
			return fmt.Errorf("%w: the %s id %q may hold only letters, digits, '-', '_' and '.'", ErrInvalid, what, id)
		}
	}
	return nil
}

// EncodeRecord returns g's whole record, moves inline: as archived.
func EncodeRecord(g *Game) ([]byte, error) { return marshalRecord(g, true) }

// EncodeHead returns g's record without its moves: as kept in its
// channel's hash, beside the move list.
func EncodeHead(g *Game) ([]byte, error) { return marshalRecord(g, false) }

// EncodeMove returns one element of a channel's move list.
func EncodeMove(m Move) (string, error) {
	var buf [128]byte
	if b, ok := appendMove(buf[:0], m); ok {
		return string(b), nil
	}
	data, err := json.Marshal(m)
	if err != nil {
		return "", fmt.Errorf("%w: encode a move: %v", ErrInvalid, err)
	}
	return string(data), nil
}

// DecodeMoves reads a channel's move list.
func DecodeMoves(list []string) ([]Move, error) {
	moves := make([]Move, len(list))
	for i, el := range list {
		if err := json.Unmarshal([]byte(el), &moves[i]); err != nil {
			return nil, fmt.Errorf("move %d of its move list does not read: %v", i+1, err)
		}
	}
	return moves, nil
}

// marshalRecord returns g's record, with its moves inline or not.
func marshalRecord(g *Game, withMoves bool) ([]byte, error) {
	if err := g.check(); err != nil {
		return nil, err
	}
	var flow json.RawMessage
	if g.Flow != nil {
		b, err := g.Flow.FlowBytes()
		if err == nil && len(b) > 0 {
			flow, err = compactJSON(b)
		}
		if err != nil {
			return nil, fmt.Errorf("%w: the game flow's state of channel %s is not JSON (%v)", ErrInvalid, g.Channel, err)
		}
	}
	r := Record{
		Schema:   SchemaVersion,
		Channel:  g.Channel,
		Guild:    g.Guild,
		ID:       g.ID,
		Name:     g.Name,
		Options:  rules.OptionsString(g.State),
		Players:  g.Players,
		State:    rules.Encode(g.State),
		Version:  g.Version,
		Status:   g.Status,
		Reason:   g.Reason,
		Deadline: TimePtr(g.Deadline),
		RemindAt: TimePtr(g.RemindAt),
		Flow:     flow,
		Created:  g.Created,
		Updated:  g.Updated,
		Finished: TimePtr(g.Finished),
	}
	if withMoves {
		r.Moves = g.Moves
	}
	if g.Result != rules.Ongoing {
		r.Result = g.Result.String()
	}
	if !withMoves {
		// Room for the head as appendHead writes it, so that it is written
		// in one allocation: the state in base64, the flow, and 1 KB for
		// the names, times and punctuation.
		size := 1024 + base64.StdEncoding.EncodedLen(len(r.State)) + len(r.Flow)
		if data, ok := appendHead(make([]byte, 0, size), &r); ok {
			return data, nil
		}
	}
	data, err := json.Marshal(r)
	if err != nil {
		return nil, fmt.Errorf("%w: encode the game in channel %s: %v", ErrInvalid, g.Channel, err)
	}
	return data, nil
}

// DecodeRecord reads a stored record without decoding its state. The
// error says what is wrong in words; callers wrap it in a *DamagedError.
// A record of the current schema is read in one pass; only one that does
// not read as such is read again for its schema version.
func DecodeRecord(data []byte) (*Record, error) {
	var r Record
	err := json.Unmarshal(data, &r)
	if err == nil && r.Schema >= 1 && r.Schema <= SchemaVersion {
		return &r, nil
	}
	var probe schemaProbe
	if perr := json.Unmarshal(data, &probe); perr != nil {
		return nil, fmt.Errorf("the record is not JSON: %v", perr)
	}
	switch {
	case probe.Schema >= 1 && probe.Schema <= SchemaVersion:
		return nil, fmt.Errorf("the record does not fit schema %d: %v", probe.Schema, err)
	case probe.Schema == 0:
		return nil, fmt.Errorf("the record has no schema version")
	case probe.Schema > SchemaVersion:
		return nil, fmt.Errorf("%w: the record has schema version %d and this build reads up to %d (a newer Arbiter wrote it)",
			ErrUnknownSchema, probe.Schema, SchemaVersion)
	}
	return nil, fmt.Errorf("%w: the record has schema version %d", ErrUnknownSchema, probe.Schema)
}

// Game turns a record into a Game, decoding its state with reg (or leaving
// State nil when reg is nil). The error says what is wrong in words.
func (r *Record) Game(reg *rules.Registry) (*Game, error) {
	opts, err := rules.ParseOptions(r.Options)
	if err != nil {
		return nil, fmt.Errorf("its options %q do not read: %v", r.Options, err)
	}
	g := &Game{
		Channel:  r.Channel,
		Guild:    r.Guild,
		ID:       r.ID,
		Name:     r.Name,
		Options:  opts,
		Players:  r.Players,
		Moves:    r.Moves,
		Version:  r.Version,
		Status:   r.Status,
		Reason:   r.Reason,
		Deadline: TimeOf(r.Deadline),
		RemindAt: TimeOf(r.RemindAt),
		Created:  r.Created,
		Updated:  r.Updated,
		Finished: TimeOf(r.Finished),
	}
	if len(r.Flow) > 0 {
		g.Flow = RawFlow(r.Flow)
	}
	switch r.Result {
	case "":
		g.Result = rules.Ongoing
	case "p1":
		g.Result = rules.P1Wins
	case "p2":
		g.Result = rules.P2Wins
	case "draw":
		g.Result = rules.Draw
	default:
		return nil, fmt.Errorf("its result %q is not p1, p2 or draw", r.Result)
	}
	switch r.Status {
	case Active, Finished:
	default:
		return nil, fmt.Errorf("its status %q is not active or finished", r.Status)
	}
	if r.Version < 1 {
		return nil, fmt.Errorf("its version %d is below 1", r.Version)
	}
	for i, m := range r.Moves {
		if m.Seat != rules.P1 && m.Seat != rules.P2 {
			return nil, fmt.Errorf("move %d has seat %d", i+1, m.Seat)
		}
	}
	if reg == nil {
		return g, nil
	}
	state, err := reg.Decode(r.State)
	if err != nil {
		return nil, fmt.Errorf("its state does not decode: %v", err)
	}
	if state.Name() != r.Name {
		return nil, fmt.Errorf("its state is a game of %s, not %s", state.Name(), r.Name)
	}
	if state.Ply() != len(r.Moves) {
		return nil, fmt.Errorf("its state has %d moves but its move list %d", state.Ply(), len(r.Moves))
	}
	g.State = state
	return g, nil
}

// CheckNew checks a game given to Create on any backend: a valid game,
// active (an empty Status becomes Active).
func CheckNew(g *Game) error {
	if g == nil {
		return fmt.Errorf("create game: %w: no game", ErrInvalid)
	}
	if g.Status == "" {
		g.Status = Active
	}
	if g.Status != Active {
		return fmt.Errorf("create game in channel %s: %w: a new game must be active", g.Channel, ErrInvalid)
	}
	if err := g.check(); err != nil {
		return fmt.Errorf("create game: %w", err)
	}
	return nil
}

// NextVersion returns g as a save stores it: the next version, updated
// at now, and a game just finished stamped with its end.
func NextVersion(g *Game, now time.Time) Game {
	n := *g
	n.Version = g.Version + 1
	n.Updated = now
	if n.Status == Finished && n.Finished.IsZero() {
		n.Finished = n.Updated
	}
	return n
}

// CheckCreated checks a game given to Save on any backend: one that
// Create gave an id and a version.
func CheckCreated(g *Game) error {
	if g == nil {
		return fmt.Errorf("save game: %w: no game", ErrInvalid)
	}
	if g.Version < 1 || g.ID == "" {
		return fmt.Errorf("save game in channel %s: %w: the game was never created (version %d, id %q)", g.Channel, ErrInvalid, g.Version, g.ID)
	}
	return nil
}

// DecodeArchived decodes an archive entry (its state too when reg is set).
func DecodeArchived(reg *rules.Registry, guild, id string, data []byte) (*Game, error) {
	r, err := DecodeRecord(data)
	if err != nil {
		return nil, &DamagedError{Guild: guild, ID: id, Err: err}
	}
	g, err := r.Game(reg)
	if err != nil {
		return nil, &DamagedError{Guild: guild, ID: id, Err: err}
	}
	if g.ID != id || g.Guild != guild {
		return nil, &DamagedError{Guild: guild, ID: id, Err: fmt.Errorf("its record is game %s of guild %s", g.ID, g.Guild)}
	}
	return g, nil
}

// CommonPrefix returns how many moves a and b share from the start.
func CommonPrefix(a, b []Move) int {
	n := min(len(a), len(b))
	for i := range n {
		if !sameMove(&a[i], &b[i]) {
			return i
		}
	}
	return n
}

// sameMove reports whether a and b are the same move, made at the same time.
func sameMove(a, b *Move) bool {
	return a.Seat == b.Seat && (a.At == b.At || a.At.Equal(b.At)) && a.Text == b.Text && a.By == b.By
}

// FinishedAt is when a finished record ended, for the archive's order.
func (r *Record) FinishedAt() time.Time {
	if r.Finished != nil {
		return *r.Finished
	}
	return r.Updated
}

// Wake is when the clock should look at the game next (see Game.Wake).
func (r *Record) Wake() time.Time {
	g := Game{Status: r.Status, Deadline: TimeOf(r.Deadline), RemindAt: TimeOf(r.RemindAt)}
	return g.Wake()
}

// compactJSON returns raw, checked to be JSON, without the spaces between
// its tokens: raw itself when it has none.
func compactJSON(raw []byte) ([]byte, error) {
	if !bytes.ContainsAny(raw, " \t\r\n") && json.Valid(raw) {
		return raw, nil
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, raw); err != nil {
		return nil, err
	}
	return compact.Bytes(), nil
}
