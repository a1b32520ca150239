package commands

import (
	"context"
	"errors"
	"fmt"
	"time"

	"arbiter/render"
	"arbiter/rules"
	"arbiter/store"
)

// The play page (served by package api) shows a game's board in a
// browser, or inside Discord as an Activity, and plays it by clicking.
// Everything it does comes here as an Invocation, exactly like a slash
// command or a button: Act handles it and posts a public answer to the
// game's channel, where a slash command's answer would appear.

// BoardLinks makes the links that open the play page: the API server.
type BoardLinks interface {
	// BoardLink returns a link that opens game g's play page for user: it
	// works once, within ten minutes.
	BoardLink(ctx context.Context, user User, g *store.Game) (string, error)
}

// PlayPage is how players reach the play page.
type PlayPage struct {
	// Links makes one-time links; nil: the page is not served.
	Links BoardLinks
	// Activity says the application has a Discord Activity (or another
	// platform's embedded app) showing the page: the "Play on the board"
	// button launches it instead of sending a link.
	Activity bool
}

// SetPlayPage tells the flow how players reach the play page; from then
// on boards of games going on carry a "Play on the board" button.
func (s *Service) SetPlayPage(p PlayPage) {
	s.hooks.mu.Lock()
	defer s.hooks.mu.Unlock()
	s.hooks.page = p
}

// playPage returns how players reach the play page.
func (s *Service) playPage() PlayPage {
	s.hooks.mu.RLock()
	defer s.hooks.mu.RUnlock()
	return s.hooks.page
}

// Act handles an invocation made on the play page as Handle does, and
// posts a public answer to the channel as the platform posts a slash
// command's answer. A private answer (a refusal) is only returned.
func (s *Service) Act(ctx context.Context, inv Invocation) Reply {
	r := s.Handle(ctx, inv)
	if r.Private || r.Text == "" && len(r.Files) == 0 {
		return r
	}
	postCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if err := s.notify.Post(postCtx, inv.Channel, r.Message); err != nil {
		s.log.Error("posting a play page action failed", "channel", inv.Channel, "command", inv.Command, "err", err)
	}
	return r
}

// PlayCredentials returns where the play page keeps its one-time links
// and sessions: the store, so that every process serving the page shares
// them and they outlive a restart.
func (s *Service) PlayCredentials() store.PlayCredentials { return s.store }

// GameIn returns the game going on in channel; store.ErrNotFound when
// there is none.
func (s *Service) GameIn(ctx context.Context, channel string) (*store.Game, error) {
	return s.store.Load(ctx, channel)
}

// PlayGame returns game id, played in channel: as it is going on, or as
// archived once it is over; store.ErrNotFound when it is neither.
func (s *Service) PlayGame(ctx context.Context, guild, channel, id string) (*store.Game, error) {
	g, err := s.store.Load(ctx, channel)
	if err == nil && g.ID == id {
		return g, nil
	}
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return nil, err
	}
	return s.store.LoadArchived(ctx, guild, id)
}

// playBoard is the "Play on the board" button: the Activity is launched,
// or a one-time link to the play page is sent to the one who pressed.
func (s *Service) playBoard(ctx context.Context, inv Invocation) Reply {
	g, err := s.store.Load(ctx, inv.Channel)
	if err != nil {
		return s.storeRefusal(inv, err)
	}
	if inv.Game != "" && inv.Game != g.ID {
		return refuse("that board belongs to a game that is over; /board shows the one going on")
	}
	if s.playPage().Activity {
		return Reply{LaunchActivity: true, Private: true, Message: Message{Text: "Open the board with the Activity in this channel."}}
	}
	return s.boardLink(ctx, inv, g)
}

// boardLink is /board link:true: a one-time link to the play page, only
// to a player of the game.
func (s *Service) boardLink(ctx context.Context, inv Invocation, g *store.Game) Reply {
	links := s.playPage().Links
	if links == nil {
		return refuse("the play page is not served here (the host has not set API_ADDR); /move plays by text")
	}
	if _, ok := seatOf(g, inv.User.ID); !ok {
		return refuse("you are not playing in this game; the live wall shows it to everyone")
	}
	url, err := links.BoardLink(ctx, inv.User, g)
	if err != nil {
		if errors.Is(err, store.ErrUnavailable) {
			return refuse("storage is not reachable right now; try again")
		}
		s.log.Error("board link not made", "channel", inv.Channel, "err", err)
		return refuse("the link could not be made: %v", err)
	}
	return Reply{Private: true, Message: Message{Text: "Your board for this game (the link works once, for ten minutes; do not share it): " + url}}
}

// PlayView is a game as the play page shows it to one person.
type PlayView struct {
	Game     string    `json:"game"`  // the archive id
	Title    string    `json:"title"` // "HiQUE"
	Players  [2]string `json:"players"`
	Sides    [2]string `json:"sides"`    // the game's names for the seats: "Black"
	You      int       `json:"you"`      // the viewer's seat, 1 or 2; 0 for a spectator
	ToMove   int       `json:"toMove"`   // 1 or 2; 0 when the game is not going on
	Version  int64     `json:"version"`  // what an action must name (stale otherwise)
	Status   string    `json:"status"`   // "active", "challenge", "paused" or "finished"
	Result   string    `json:"result"`   // how it ended, in words
	Deadline time.Time `json:"deadline"` // when the player to move must have moved; zero for none
	Last     string    `json:"last"`     // the last move's text, "" before the first
	Ply      int       `json:"ply"`
	// DrawOffer and UndoOffer are the seat (1 or 2) asking, 0 for none.
	DrawOffer int  `json:"drawOffer"`
	UndoOffer int  `json:"undoOffer"`
	Drawable  bool `json:"drawable"` // the game has draws
	// Undoable says the viewer has a move of their own to take back.
	Undoable bool `json:"undoable"`
	// SVG is the board from the viewer's side (render.SVG); Moves the
	// viewer's legal moves as its cells, when it is their turn.
	SVG   string             `json:"svg"`
	Moves []render.BoardMove `json:"moves"`
}

// PlayView returns g as the play page shows it to user.
func (s *Service) PlayView(g *store.Game, user string) (PlayView, error) {
	return s.playView(g, user, nil)
}

// WallPlayView returns g as a spectator who came from the live wall sees
// it on the play page: the players named as the wall names them (see
// WallNames), the rules' own result, no moves.
func (s *Service) WallPlayView(g *store.Game, names [2]string) (PlayView, error) {
	return s.playView(g, "", &names)
}

// playView is g as user sees it; names, when set, replace the players'
// names (a wall's spectator).
func (s *Service) playView(g *store.Game, user string, names *[2]string) (PlayView, error) {
	v := PlayView{Game: g.ID, Title: s.title(g.Name), Version: g.Version, Ply: len(g.Moves),
		Deadline: g.Deadline, Drawable: s.drawable(g.Name), Moves: []render.BoardMove{}}
	for i, p := range g.Players {
		v.Players[i] = plainName(p)
		v.Sides[i] = g.State.PlayerName(rules.Player(i))
	}
	if n := len(g.Moves); n > 0 {
		v.Last = g.Moves[n-1].Text
	}
	f := flow(g)
	v.DrawOffer, v.UndoOffer = f.DrawOffer, f.UndoOffer
	view := publicView
	if seat, ok := seatOf(g, user); ok {
		v.You = int(seat) + 1
		view = render.ViewFrom(seat)
	}
	switch {
	case g.Status == store.Finished:
		v.Status, v.Result, v.Deadline = "finished", resultWords(g.Result, g.Players)+": "+g.Reason, time.Time{}
	case f.Challenge:
		v.Status = "challenge"
	case f.Paused:
		v.Status = "paused"
	default:
		v.Status, v.ToMove = "active", int(g.State.ToMove())+1
	}
	opt := s.renderOptions(g, view)
	if names != nil { // as the wall shows it: its names, the rules' own result
		v.Players, opt.Players = *names, *names
		if g.Status == store.Finished {
			v.Result = WallResult(g, *names)
			out := rules.Outcome{Result: g.Result}
			if own := g.State.Outcome(); own.Result == g.Result {
				out = own
			}
			opt.Result = &out
		}
	}
	svg, err := render.SVG(g.State, opt)
	if err != nil {
		return PlayView{}, fmt.Errorf("play view of game %s: %w", g.ID, err)
	}
	v.SVG = string(svg)
	v.Undoable = v.Status == "active" && v.You > 0 && (v.Ply >= 2 || v.Ply == 1 && v.ToMove != v.You)
	if v.Status == "active" && v.You == v.ToMove {
		if v.Moves, err = render.BoardMoves(g.State, opt); err != nil {
			return PlayView{}, fmt.Errorf("play view of game %s: %w", g.ID, err)
		}
	}
	return v, nil
}
