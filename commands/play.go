package commands

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"arbiter/rules"
	"arbiter/store"
)

// newGameRequest is a game to start, read from /play or /referee start.
type newGameRequest struct {
	name     string
	state    rules.Game // the game at its start, options checked
	flow     Flow
	players  [2]store.Player
	refereed bool
}

// flowOptions are the options Arbiter itself takes beside a game's own.
func flowOptions() []rules.OptionSpec {
	return []rules.OptionSpec{
		{Key: "timeout", Default: "loss", Values: []string{"loss", "adjudicate"}, Help: "what a missed deadline does: the player loses, or the game is decided by its scoring"},
		{Key: "rated", Default: "on", Values: []string{"on", "off"}, Help: "whether the game counts for ratings (takebacks against the bot need off)"},
		{Key: "premoves", Default: "on", Values: []string{"on", "off"}, Help: "whether players may leave conditional premoves (/premove)"},
	}
}

// readGameOptions splits the options text into the game's own and
// Arbiter's, checks both, and starts the game.
func (s *Service) readGameOptions(name, text, turnTime string) (newGameRequest, error) {
	def, err := s.reg.Lookup(name)
	if err != nil {
		return newGameRequest{}, err
	}
	all, err := rules.ParseOptions(text)
	if err != nil {
		return newGameRequest{}, err
	}
	req := newGameRequest{name: def.Name}
	opts := rules.Options{}
	own := rules.Options{}
	for k, v := range all {
		if k == "timeout" || k == "rated" || k == "premoves" {
			own[k] = v
		} else {
			opts[k] = v
		}
	}
	if req.state, err = s.reg.New(req.name, opts); err != nil {
		return newGameRequest{}, err
	}
	flow, err := rules.Resolve("Arbiter", flowOptions(), own)
	if err != nil {
		return newGameRequest{}, err
	}
	req.flow.Adjudicate = flow["timeout"] == "adjudicate"
	req.flow.Rated = flow["rated"] == "on"
	req.flow.NoPremoves = flow["premoves"] == "off"
	if turnTime != "" {
		d, err := ParseDuration(turnTime)
		if err != nil {
			return newGameRequest{}, fmt.Errorf("time: %w", err)
		}
		if d < 10*time.Second || d > 30*24*time.Hour {
			return newGameRequest{}, fmt.Errorf("time: give between 10s and 30d per move")
		}
		req.flow.TurnTime = d
	}
	return req, nil
}

// play is /play: a game against the bot, or a challenge.
func (s *Service) play(ctx context.Context, inv Invocation) Reply {
	req, r := s.playRequest(inv)
	if r != nil {
		return *r
	}
	return s.underLimits(ctx, inv, func() Reply {
		if r := s.checkLimits(ctx, inv, req); r != nil {
			return *r
		}
		return s.start(ctx, inv, req)
	})
}

// CheckPlay checks a /play invocation as far as it can without the store
// (the game, its options, the opponent, level, side and time) and returns
// the refusal /play would give, or nil. The platform layer checks before it
// opens a thread for the game.
func (s *Service) CheckPlay(inv Invocation) *Reply {
	_, r := s.playRequest(inv)
	return r
}

// playRequest reads the game a /play invocation asks for, or a refusal.
func (s *Service) playRequest(inv Invocation) (newGameRequest, *Reply) {
	no := func(format string, args ...any) (newGameRequest, *Reply) {
		r := refuse(format, args...)
		return newGameRequest{}, &r
	}
	req, err := s.readGameOptions(inv.Options["game"], inv.Options["options"], inv.Options["time"])
	if err != nil {
		return no("%v", err)
	}
	me := store.Player{Kind: store.Human, UserID: inv.User.ID, Name: inv.User.Name}
	var other store.Player
	if oppID := inv.Options["opponent"]; oppID != "" {
		opp := inv.Users["opponent"]
		if opp.ID == "" {
			opp = User{ID: oppID, Name: oppID}
		}
		if opp.ID == inv.User.ID {
			return no("you cannot challenge yourself; leave out opponent to play the bot")
		}
		if inv.Options["level"] != "" {
			return no("level is for games against the bot; leave it out when you challenge someone")
		}
		other = store.Player{Kind: store.Human, UserID: opp.ID, Name: opp.Name}
		req.flow.Challenge = true
	} else {
		level := s.cfg.BotLevel
		if l := inv.Options["level"]; l != "" {
			n, err := strconv.Atoi(l)
			if err != nil || n < 1 || n > 5 {
				return no("level must be 1 (beginner) to 5 (full strength), not %q", l)
			}
			level = n
		}
		other = store.Player{Kind: store.Bot, Name: "Arbiter", Level: level}
	}
	me, other = programSeats(inv, me, other)
	switch side := strings.ToLower(inv.Options["side"]); side {
	case "", "first":
		req.players = [2]store.Player{me, other}
	case "second":
		req.players = [2]store.Player{other, me}
	case "random":
		req.players = [2]store.Player{me, other}
		if rand.IntN(2) == 1 {
			req.players = [2]store.Player{other, me}
		}
	default:
		return no("side must be first, second or random, not %q", side)
	}
	if req.flow.Challenge && req.players[rules.P2].UserID == inv.User.ID {
		// The challenged person is always seat 2 in the record of who must
		// accept; swap the seats back after acceptance if needed.
		req.flow.ChallengerSecond = true
		req.players[0], req.players[1] = req.players[1], req.players[0]
	}
	return req, nil
}

// refereeStart is /referee start: a match between two students with no
// acceptance step.
func (s *Service) refereeStart(ctx context.Context, inv Invocation) Reply {
	req, err := s.readGameOptions(inv.Options["game"], inv.Options["options"], inv.Options["time"])
	if err != nil {
		return refuse("%v", err)
	}
	for i, key := range []string{"p1", "p2"} {
		u := inv.Users[key]
		if u.ID == "" {
			u = User{ID: inv.Options[key], Name: inv.Options[key]}
		}
		if u.ID == "" {
			return refuse("/referee start needs both p1 and p2")
		}
		req.players[i] = store.Player{Kind: store.Human, UserID: u.ID, Name: u.Name}
	}
	req.refereed = true
	return s.start(ctx, inv, req)
}

// start creates the game of req in the channel and announces it.
func (s *Service) start(ctx context.Context, inv Invocation, req newGameRequest) Reply {
	state := req.state
	style, err := s.store.ChannelSetting(ctx, inv.Channel, "board")
	if err != nil {
		return s.storeRefusal(inv, err)
	}
	req.flow.Style = style
	now := s.now()
	g := &store.Game{
		Channel: inv.Channel,
		Guild:   inv.Guild,
		Name:    req.name,
		Options: state.Options(),
		Players: req.players,
		State:   state,
		Flow:    &req.flow,
		Status:  store.Active,
	}
	if flow(g).Challenge {
		turn := flow(g).TurnTime
		if turn <= 0 {
			turn = s.cfg.TurnTime
		}
		g.Deadline = now.Add(turn) // the challenge lapses unanswered
	} else {
		s.afterMove(g, now)
	}
	s.markNewGame(ctx, g)
	if err := s.store.Create(ctx, g); err != nil {
		return s.storeRefusal(inv, err)
	}
	s.follow(ctx, g)
	title := s.title(g.Name)
	opts := ""
	if o := g.Options.String(); o != "" {
		opts = " (" + o + ")"
	}
	var header string
	switch {
	case flow(g).Challenge:
		header = fmt.Sprintf("%s challenges %s to %s%s.", label(challenger(g)), label(challenged(g)), title, opts) + s.programNote(g)
	case req.refereed:
		header = fmt.Sprintf("%s: %s against %s, refereed by %s%s.", title, seatTitle(g, rules.P1), seatTitle(g, rules.P2), EscapeMarkdown(inv.User.Name), opts)
	default:
		header = fmt.Sprintf("%s: %s against %s%s.", title, seatTitle(g, rules.P1), seatTitle(g, rules.P2), opts)
	}
	msg := s.boardMessage(g, publicView, header+"\n"+s.turnNote(g))
	msg.Mentions = mentionsFor(g)
	s.keep(g)
	return Reply{Message: msg}
}

// accept is /accept: the challenged person takes the challenge.
func (s *Service) accept(ctx context.Context, inv Invocation) Reply {
	g, r := s.load(ctx, inv)
	if r != nil {
		return *r
	}
	if !flow(g).Challenge {
		return refuse("there is no challenge waiting here: the game is already going on")
	}
	if challenged(g).UserID != inv.User.ID {
		return refuse("this challenge is for %s; only they can accept it", label(challenged(g)))
	}
	return s.underLimits(ctx, inv, func() Reply {
		if r := s.checkAccept(ctx, inv, g); r != nil {
			return *r
		}
		return s.accepted(ctx, inv, g)
	})
}

// accepted starts the challenge g that the invoker accepted.
func (s *Service) accepted(ctx context.Context, inv Invocation, g *store.Game) Reply {
	accepter := challenged(g) // before the seats are swapped back
	flow(g).Challenge = false
	if flow(g).ChallengerSecond {
		g.Players[0], g.Players[1] = g.Players[1], g.Players[0]
		flow(g).DM[0], flow(g).DM[1] = flow(g).DM[1], flow(g).DM[0]
		flow(g).ChallengerSecond = false
	}
	g.Deadline = time.Time{}
	s.afterMove(g, s.now())
	if err := s.saveAndFollow(ctx, g); err != nil {
		return s.storeRefusal(inv, err)
	}
	msg := s.boardMessage(g, publicView, fmt.Sprintf("%s accepts. %s: %s against %s.\n%s",
		label(accepter), s.title(g.Name), seatTitle(g, rules.P1), seatTitle(g, rules.P2), s.turnNote(g)))
	msg.Mentions = mentionsFor(g)
	s.keep(g)
	return Reply{Message: msg}
}

// decline is /decline: the challenged person declines, or the challenger
// withdraws.
func (s *Service) decline(ctx context.Context, inv Invocation) Reply {
	g, r := s.load(ctx, inv)
	if r != nil {
		return *r
	}
	if !flow(g).Challenge {
		return refuse("there is no challenge waiting here; to give up a game going on, /resign")
	}
	var reason string
	switch inv.User.ID {
	case challenged(g).UserID:
		reason = fmt.Sprintf("%s declined the challenge", EscapeMarkdown(challenged(g).Name))
	case challenger(g).UserID:
		reason = fmt.Sprintf("%s withdrew the challenge", EscapeMarkdown(challenger(g).Name))
	default:
		return refuse("this challenge is between %s and %s", label(challenger(g)), label(challenged(g)))
	}
	flow(g).Rated = false
	s.finish(g, rules.Ongoing, reason)
	if err := s.saveAndFollow(ctx, g); err != nil {
		return s.storeRefusal(inv, err)
	}
	return Reply{Message: Message{Text: strings.ToUpper(reason[:1]) + reason[1:] + "; the channel is free for a new game."}}
}
