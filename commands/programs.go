package commands

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"arbiter/render"
	"arbiter/rules"
	"arbiter/store"
)

// This file is the game flow's side of students' programs playing through
// the programs' API (package api): program tokens (/token), program seats
// in /play, the actions a program takes, and the hooks by which the API
// and the live wall hear of every saved change.

// TokenGap is the least time between two tokens given to one person.
const TokenGap = time.Minute

// TokenPrefix begins every program token, so that one pasted in the wrong
// place is recognised.
const TokenPrefix = "arb_"

// Observer hears of every change to a game that the flow saves: a new
// game, a move, a result. It is called synchronously and must not block;
// the game it gets is its own copy.
type Observer interface {
	GameSaved(g *store.Game)
}

// Presence says whether a person's program is connected now in a guild
// (its bridge is online with that guild's token), so that a challenge to
// it says when it is not.
type Presence interface {
	Online(guild, userID string) bool
}

// hooks are the observers and the presence a Service was given.
type hooks struct {
	mu        sync.RWMutex
	observers []Observer
	presence  Presence
	audience  Audience
	page      PlayPage
}

// AddObserver has o hear of every game change saved from now on.
func (s *Service) AddObserver(o Observer) {
	s.hooks.mu.Lock()
	defer s.hooks.mu.Unlock()
	s.hooks.observers = append(s.hooks.observers, o)
}

// SetPresence tells the flow which programs are connected.
func (s *Service) SetPresence(p Presence) {
	s.hooks.mu.Lock()
	defer s.hooks.mu.Unlock()
	s.hooks.presence = p
}

// observe gives each observer a copy of the saved g.
func (s *Service) observe(g *store.Game) {
	s.hooks.mu.RLock()
	obs := s.hooks.observers
	s.hooks.mu.RUnlock()
	for _, o := range obs {
		c := *g
		c.State = g.State.Clone()
		c.Moves = slices.Clone(g.Moves)
		o.GameSaved(&c)
	}
}

// programOnline reports whether userID's program is connected in guild.
func (s *Service) programOnline(guild, userID string) bool {
	s.hooks.mu.RLock()
	defer s.hooks.mu.RUnlock()
	return s.hooks.presence != nil && s.hooks.presence.Online(guild, userID)
}

// programPlayer is the seat of u's program: rated apart from u, and shown
// as "NAME (program)".
func programPlayer(u User) store.Player {
	return store.Player{Kind: store.Program, UserID: u.ID, Name: u.Name, Program: u.Name + " (program)"}
}

// programNote is added to a challenge to a program whose bridge is not
// connected.
func (s *Service) programNote(g *store.Game) string {
	p := challenged(g)
	if p.Kind != store.Program || s.programOnline(g.Guild, p.UserID) {
		return ""
	}
	return fmt.Sprintf(" %s is offline: the challenge waits until %s's bridge connects.", EscapeMarkdown(p.Program), EscapeMarkdown(p.Name))
}

// HashToken is the SHA-256 of a program token, in hex: what the store keeps.
func HashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// token is /token (or /token new): a new program token, shown once and
// only to its owner; /token revoke ends it.
func (s *Service) token(ctx context.Context, inv Invocation) Reply {
	if inv.Guild == "" {
		return refuse("a program token belongs to one server: use /token in a channel of your class's server")
	}
	switch inv.Sub {
	case "revoke":
		had, err := s.store.RevokeToken(ctx, inv.Guild, inv.User.ID)
		if err != nil {
			return s.storeRefusal(inv, err)
		}
		if !had {
			return refuse("you have no program token; /token gives one")
		}
		return Reply{Message: Message{Text: "Your program token for this server is revoked: a bridge using it is disconnected and refused from now on (your tokens for other servers still work)."}, Private: true}
	case "", "new":
	default:
		return refuse("/token gives a program token and /token revoke ends it; there is no /token %s", inv.Sub)
	}
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return refuse("no token could be made: %v", err)
	}
	tok := TokenPrefix + base64.RawURLEncoding.EncodeToString(raw)
	owner := store.TokenOwner{User: inv.User.ID, Name: inv.User.Name, Guild: inv.Guild}
	if err := s.store.IssueToken(ctx, HashToken(tok), owner, TokenGap); err != nil {
		if errors.Is(err, store.ErrRateLimited) {
			return refuse("you were given a token less than %s ago (%v)", FormatDuration(TokenGap), err)
		}
		return s.storeRefusal(inv, err)
	}
	text := fmt.Sprintf("Your program token for this server (shown this once; it replaces your earlier one here, not those of other servers, and /token revoke ends it):\n`%s`\n"+
		"Run your program with: `ARBITER_TOKEN=TOKEN arbiter bridge --server URL -- ./yourprogram` (the variable keeps the token out of the process list; on Windows set it first). Keep the token secret: it plays for you.", tok)
	return Reply{Message: Message{Text: text}, Private: true}
}

// ProgramOwner returns whose program a token is; an error wrapping
// store.ErrNotFound when it is unknown or revoked.
func (s *Service) ProgramOwner(ctx context.Context, token string) (store.TokenOwner, error) {
	if !strings.HasPrefix(token, TokenPrefix) || len(token) > 100 {
		return store.TokenOwner{}, fmt.Errorf("not a program token: %w", store.ErrNotFound)
	}
	return s.store.LookupToken(ctx, HashToken(token))
}

// ProgramOwnerByHash is ProgramOwner for a token known by its hash.
func (s *Service) ProgramOwnerByHash(ctx context.Context, hash string) (store.TokenOwner, error) {
	return s.store.LookupToken(ctx, hash)
}

// ProgramGames returns the running games in guild where user's program
// has a seat, a challenge to it included.
func (s *Service) ProgramGames(ctx context.Context, guild, user string) ([]*store.Game, error) {
	all, err := s.store.Running(ctx, guild)
	if err != nil {
		return nil, err
	}
	var mine []*store.Game
	for _, g := range all {
		if _, ok := ProgramSeat(g, user); ok {
			mine = append(mine, g)
		}
	}
	return mine, nil
}

// RunningGames returns the guild's games in progress, for the live wall.
func (s *Service) RunningGames(ctx context.Context, guild string) ([]*store.Game, error) {
	return s.store.Running(ctx, guild)
}

// BoardPNG draws g as a PNG, as a channel shows it.
func (s *Service) BoardPNG(g *store.Game) ([]byte, error) {
	return render.PNG(g.State, s.renderOptions(g, render.Standard))
}

// Title is the name of the game (a registry name) as people write it.
func (s *Service) Title(game string) string { return s.title(game) }

// PlayerName names a seat for people: "alice", "bob (program)",
// "Arbiter (level 3)".
func PlayerName(p store.Player) string { return rawName(p) }

// ProgramSeat returns the seat of user's program in g.
func ProgramSeat(g *store.Game, user string) (rules.Player, bool) {
	for i, p := range g.Players {
		if p.Kind == store.Program && p.UserID == user {
			return rules.Player(i), true
		}
	}
	return rules.P1, false
}

// ProgramAction is one thing a program does through the API: accept or
// decline a challenge to it, move, or resign.
type ProgramAction struct {
	Owner   string // the user whose program acts (from its token)
	Guild   string // the guild of its token: the only one it acts in
	Channel string
	Game    string // the game's archive id
	Version int64  // for a move: the version the program saw; 0 for any
	Kind    string // "accept", "decline", "move" or "resign"
	Move    string // the move's text, for "move"
	Reason  string // why, for "decline": shown to the challenger, made inert
}

// ProgramError is a refused program action, in words for the program's
// author. Nothing was changed.
type ProgramError struct {
	Code string // a stable word: "not_found", "not_yours", "not_your_turn", "stale", "illegal", "bad_request", "unavailable"
	Text string
}

// Error returns the text.
func (e *ProgramError) Error() string { return e.Code + ": " + e.Text }

// ProgramAct does what a program asks in its game, posting what happens
// to the channel as the flow posts the bot's moves. A refusal is a
// *ProgramError and changes nothing.
func (s *Service) ProgramAct(ctx context.Context, a ProgramAction) error {
	no := func(code, format string, args ...any) error {
		return &ProgramError{Code: code, Text: fmt.Sprintf(format, args...)}
	}
	g, err := s.store.Load(ctx, a.Channel)
	switch {
	case errors.Is(err, store.ErrNotFound), err == nil && (g.ID != a.Game || g.Guild != a.Guild):
		return no("not_found", "game %s is not going on in channel %s (it may be over)", a.Game, a.Channel)
	case errors.Is(err, store.ErrUnavailable):
		return no("unavailable", "storage is not reachable right now; try again")
	case err != nil:
		id := ErrorID()
		s.log.Error("program's game not read", "error_id", id, "channel", a.Channel, "err", err)
		return no("unavailable", "game %s cannot be read right now (error id %s); try again", a.Game, id)
	}
	seat, ok := ProgramSeat(g, a.Owner)
	if !ok {
		return no("not_yours", "your program does not play in game %s", a.Game)
	}
	if a.Version != 0 && a.Version != g.Version {
		return no("stale", "game %s is at version %d, not %d: it changed since", a.Game, g.Version, a.Version)
	}
	inv := Invocation{Guild: g.Guild, Channel: g.Channel, User: User{ID: a.Owner, Name: g.Players[seat].Name}, Command: a.Kind}
	var msg Message
	switch a.Kind {
	case "accept", "decline":
		if !flow(g).Challenge || challenged(g).UserID != a.Owner || challenged(g).Kind != store.Program {
			return no("bad_request", "there is no challenge to your program in game %s", a.Game)
		}
		r := s.accept
		if a.Kind == "decline" {
			r = s.decline
		}
		reply := r(ctx, inv)
		if reply.Private {
			return no("bad_request", "%s", reply.Text)
		}
		msg = reply.Message
		if why := strings.TrimSpace(a.Reason); a.Kind == "decline" && why != "" {
			msg.Text += " Their bridge says: " + EscapeMarkdown(clip(why, 200))
		}
	case "move", "resign":
		if flow(g).Challenge {
			return no("bad_request", "the challenge in game %s has not been accepted", a.Game)
		}
		if flow(g).Paused {
			return no("bad_request", "game %s is paused by a referee", a.Game)
		}
		if a.Kind == "resign" {
			s.finish(g, rules.Win(seat.Other()), g.State.PlayerName(seat)+" resigned")
			if err := s.saveAndFollow(ctx, g); err != nil {
				return no("stale", "%s", s.storeRefusal(inv, err).Text)
			}
			msg = s.moveMessage(g, fmt.Sprintf("%s resigns.", seatTitle(g, seat)), nil)
			break
		}
		if g.State.ToMove() != seat {
			return no("not_your_turn", "it is %s's turn in game %s", plainName(g.Players[g.State.ToMove()]), a.Game)
		}
		m, err := g.State.ParseMove(strings.TrimSpace(a.Move))
		if err != nil {
			return no("illegal", "%v", err)
		}
		text, shown := moveTexts(g.State, m)
		now := s.now()
		g.State.Play(m)
		g.Moves = append(g.Moves, store.Move{Text: text, Seat: seat, At: now})
		notes := s.afterMove(g, now)
		if err := s.saveAndFollow(ctx, g); err != nil {
			return no("stale", "%s", s.storeRefusal(inv, err).Text)
		}
		msg = s.moveMessage(g, fmt.Sprintf("%s plays **%s**.", seatTitle(g, seat), shown), notes)
	default:
		return no("bad_request", "unknown action %q: give accept, decline, move or resign", a.Kind)
	}
	postCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if err := s.notify.Post(postCtx, g.Channel, msg); err != nil {
		s.log.Error("posting a program's action failed", "channel", g.Channel, "err", err)
	}
	return nil
}

// programSeats applies /play's program options: program:true with an
// opponent, their program plays instead of them; without one, the
// invoker's program plays the bot. myprogram:true, the invoker's program
// plays instead of the invoker (against a person, their program, or the
// bot).
func programSeats(inv Invocation, me, other store.Player) (store.Player, store.Player) {
	if inv.Options["myprogram"] == "true" || inv.Options["program"] == "true" && other.Kind == store.Bot {
		me = programPlayer(inv.User)
	}
	if inv.Options["program"] == "true" && other.Kind == store.Human {
		other = programPlayer(User{ID: other.UserID, Name: other.Name})
	}
	return me, other
}
