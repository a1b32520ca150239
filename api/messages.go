// Package api is the programs' API and the live wall, served on the bot
// process at API_ADDR.
//
// Programs: a student's program plays through `arbiter bridge`, which
// holds one websocket to /api/v1/stream authenticated by the student's
// program token (from /token). The server sends the state of every game
// the program has a seat in, whenever it changes; the bridge answers with
// actions (accept a challenge, move, resign). Every message is a JSON
// object with a "type"; docs/reference/api.md lists them all.
//
// The wall: /wall/KEY/ is a read-only page showing the games going on in
// the public channels of the server whose wall key (/wall on) is KEY,
// updated through server-sent events as moves land; TournamentWall serves
// the same page for a tournament.
//
// Invariants a change must keep: a program acts only on the games it has a
// seat in, with its own token; the message types and fields of
// docs/reference/api.md are a contract with students' bridges (add, never rename); the wall is
// off until a referee turns it on, read-only, and shows nothing private
// (no private channel's game, names as the server chose, no referee's
// words), and a wall exists in memory only for a valid key while watched; every action goes through package
// commands, so the game flow's rules and the store's records are the same
// as on Discord.
package api

import (
	"time"

	"arbiter/commands"
	"arbiter/rules"
	"arbiter/store"
)

// Version is the API's version, the N of /api/vN.
const Version = 1

// MaxMessage bounds one message from a program, in bytes.
const MaxMessage = 4096

// Message is one message on the stream, either way. Type says which
// fields matter; docs/reference/api.md describes each.
type Message struct {
	Type string `json:"type"`
	// ID, on a program's action, is echoed as Ref on its answer.
	ID  string `json:"id,omitempty"`
	Ref string `json:"ref,omitempty"`

	// hello
	User    string `json:"user,omitempty"`
	Name    string `json:"name,omitempty"`
	Program string `json:"program,omitempty"`
	API     int    `json:"api,omitempty"`

	// game (from the server), and the game an action is about.
	Game    *GameState `json:"game,omitempty"`
	Channel string     `json:"channel,omitempty"`
	GameID  string     `json:"gameId,omitempty"`
	Version int64      `json:"version,omitempty"`
	Move    string     `json:"move,omitempty"`
	// Reason, on a decline, says why; it is shown to the challenger.
	Reason string `json:"reason,omitempty"`

	// error
	Code  string `json:"code,omitempty"`
	Error string `json:"error,omitempty"`
}

// GameState is a game as its program sees it.
type GameState struct {
	ID      string    `json:"id"`
	Channel string    `json:"channel"`
	Name    string    `json:"name"`    // the game: hique, upthrust, hiya or sixes
	Options string    `json:"options"` // its options, complete, as key=value pairs
	Version int64     `json:"version"`
	Seat    int       `json:"seat"`    // the program's side: 1 moves first, 2 second
	Players [2]string `json:"players"` // names as shown in the server
	Moves   []string  `json:"moves"`   // every move so far, canonical text
	ToMove  int       `json:"toMove"`  // 1 or 2; 0 once over
	// Status is "challenge" (waiting for the program to accept), "active"
	// or "finished".
	Status string `json:"status"`
	// Result, once finished: "win", "loss" or "draw" for the program, or
	// "abandoned"; Reason says why.
	Result     string    `json:"result,omitempty"`
	Reason     string    `json:"reason,omitempty"`
	Deadline   time.Time `json:"deadline,omitzero"`
	MoveTimeMS int64     `json:"moveTimeMs"` // the class's time per move for a program
}

// gameState describes g for the program of the user in seat.
func gameState(g *store.Game, seat rules.Player, moveTime time.Duration) *GameState {
	st := &GameState{
		ID: g.ID, Channel: g.Channel, Name: g.Name, Options: g.Options.String(), Version: g.Version,
		Seat: int(seat) + 1, Status: "active", Deadline: g.Deadline, MoveTimeMS: moveTime.Milliseconds(),
	}
	for i, p := range g.Players {
		st.Players[i] = commands.PlayerName(p)
	}
	for _, m := range g.Moves {
		st.Moves = append(st.Moves, m.Text)
	}
	switch {
	case g.Status == store.Finished:
		st.Status = "finished"
		st.Reason = g.Reason
		switch w, ok := g.Result.Winner(); {
		case g.Result == rules.Draw:
			st.Result = "draw"
		case !ok:
			st.Result = "abandoned"
		case w == seat:
			st.Result = "win"
		default:
			st.Result = "loss"
		}
	case commands.FlowOf(g).Challenge:
		st.Status = "challenge"
	default:
		st.ToMove = int(g.State.ToMove()) + 1
	}
	return st
}
