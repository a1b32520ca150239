package commands

import (
	"encoding/json"
	"fmt"
	"time"

	"arbiter/store"
)

// FlowVersion is the layout of Flow this build writes; it reads every
// layout up to it (0, before layouts were numbered, is 1).
const FlowVersion = 1

// Flow is what the game flow keeps with a game beyond its moves. The store
// keeps it as bytes (store.Flow) and gives it no meaning: a new field here
// is a change in this package alone.
type Flow struct {
	// V is the version of this state's layout (FlowVersion when written).
	V int `json:"v,omitempty"`
	// Challenge: the game waits for the second seat to accept.
	Challenge bool `json:"challenge,omitempty"`
	// ChallengerSecond: the challenger chose to move second; the seats
	// are swapped when the challenge is accepted.
	ChallengerSecond bool `json:"challenger_second,omitempty"`
	// Rated: the result counts for the players' ratings.
	Rated bool `json:"rated,omitempty"`
	// TurnTime is a person's time per move; zero for the default.
	TurnTime time.Duration `json:"turn_time,omitempty"`
	// Adjudicate: a missed deadline is decided by the game's scoring
	// instead of losing the game.
	Adjudicate bool `json:"adjudicate,omitempty"`
	// Paused: a referee stopped the clock, with PausedLeft of the turn's
	// time left.
	Paused     bool          `json:"paused,omitempty"`
	PausedLeft time.Duration `json:"paused_left,omitempty"`
	// PausedWhy says why a game paused by itself waits (the bot cannot
	// post in its channel); empty for a referee's pause.
	PausedWhy string `json:"paused_why,omitempty"`
	// DrawOffer and UndoOffer are the seat (1 or 2) that made an offer
	// standing now, or 0.
	DrawOffer int `json:"draw_offer,omitempty"`
	UndoOffer int `json:"undo_offer,omitempty"`
	// Reminders counts the reminders sent in this turn.
	Reminders int `json:"reminders,omitempty"`
	// Style is how the game's board is drawn in messages (text, emoji or
	// image), from the channel's setting when the game began.
	Style string `json:"style,omitempty"`
	// Takebacks records each move taken back, in words, for the game's
	// record.
	Takebacks []string `json:"takebacks,omitempty"`
	// TurnFrom is when the clock of the current turn started (store
	// time); Outage is the end (Unix ms) of the last outage whose time
	// was given back to this game.
	TurnFrom time.Time `json:"turn_from,omitzero"`
	Outage   int64     `json:"outage,omitempty"`
	// Premoves are each seat's conditional premoves: lines of moves
	// (canonical texts), the opponent's then the answer, alternately.
	// They are the seat's own: no message shows them to anyone else.
	Premoves [2][][]string `json:"premoves,omitzero"`
	// Premoved lists the moves (numbered from 1) that were played by a
	// conditional premove, for the record.
	Premoved []int `json:"premoved,omitempty"`
	// NoPremoves: the game was started with premoves=off.
	NoPremoves bool `json:"no_premoves,omitempty"`
	// VacationUntil is, for each seat, the end of its player's vacation
	// at the latest, while they are on one: a turn of theirs that starts
	// meanwhile starts its clock then.
	VacationUntil [2]time.Time `json:"vacation_until,omitzero"`
	// NoVacation: the game's tournament allows no vacation.
	NoVacation bool `json:"no_vacation,omitempty"`
	// DM says, for each seat, that its player asked for a direct message
	// at each turn (/notify dm:on), so that a turn of someone who did not
	// costs no read of their settings.
	DM [2]bool `json:"dm,omitzero"`
	// announce is what a change of the game made by changeGames says in
	// its channel; never stored.
	announce string
	// turnStarted says that a turn started in this change of the game,
	// so that the save that keeps it tells the person to move (follow);
	// it is never stored, so no later save tells them again.
	turnStarted bool
}

// FlowBytes returns f as kept with its game (JSON, with its layout).
func (f *Flow) FlowBytes() ([]byte, error) {
	f.V = FlowVersion
	if b, ok := appendFlow(make([]byte, 0, 128), f); ok {
		return b, nil
	}
	return json.Marshal(f)
}

// flow returns the flow state of g, reading it from the bytes the store
// handed back the first time it is asked for (and giving a game made
// here an empty one). State that does not read, or of a layout newer than
// this build's, pauses the game and says why, so that nobody loses on
// time for it and a referee sees it in /games (and can /referee abort).
func flow(g *store.Game) *Flow {
	switch f := g.Flow.(type) {
	case *Flow:
		return f
	case nil:
		fl := &Flow{}
		g.Flow = fl
		return fl
	}
	fl := &Flow{}
	raw, err := g.Flow.FlowBytes()
	if err == nil {
		err = json.Unmarshal(raw, fl)
	}
	if err == nil && fl.V > FlowVersion {
		err = fmt.Errorf("layout %d is newer than this build's %d", fl.V, FlowVersion)
	}
	if err != nil {
		fl = &Flow{Paused: true, PausedWhy: fmt.Sprintf("its game-flow state does not read (%v)", err)}
	}
	g.Flow = fl
	return fl
}

// FlowOf returns the game flow's state of g (see Flow), for the packages
// that show games (the API, the wall) and for tests.
func FlowOf(g *store.Game) *Flow { return flow(g) }
