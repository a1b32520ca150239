package commands

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"arbiter/store"
)

// Limits bound what one person, and one server, can start at once, so
// that nobody occupies the bot's workers or a classmate's attention alone.
// The defaults are well above what a class does; each refusal says which
// limit was met and how to free it. Zero takes the default; a negative
// value turns the limit off.
type Limits struct {
	// PersonGames is how many games one person (or their program) plays at
	// once in a server, challenges they made or received included;
	// default 10.
	PersonGames int
	// PersonStrongBot is how many games at the bot's level 5 (a worker's
	// whole move time at every turn) one person plays at once in a server;
	// default 3.
	PersonStrongBot int
	// PersonChallenges is how many challenges one person has open
	// (waiting for an answer) at once in a server; default 5.
	PersonChallenges int
	// GuildStrongBot is how many games at the bot's level 5 a server has
	// going on at once: its share of the workers; default 40.
	GuildStrongBot int
}

// DefaultLimits are the limits a class never meets.
func DefaultLimits() Limits {
	return Limits{PersonGames: 10, PersonStrongBot: 3, PersonChallenges: 5, GuildStrongBot: 40}
}

// withDefaults fills l's zero fields.
func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	for _, f := range []struct{ v, d *int }{{&l.PersonGames, &d.PersonGames}, {&l.PersonStrongBot, &d.PersonStrongBot},
		{&l.PersonChallenges, &d.PersonChallenges}, {&l.GuildStrongBot, &d.GuildStrongBot}} {
		if *f.v == 0 {
			*f.v = *f.d
		}
	}
	return l
}

// strongLevel is the bot's level that thinks for the whole move time.
const strongLevel = 5

// checkLimits refuses a game req that the invoker starts when it would
// take them, or their server, past a limit; nil when it may start.
func (s *Service) checkLimits(ctx context.Context, inv Invocation, req newGameRequest) *Reply {
	l := s.cfg.Limits
	running, err := s.store.Running(ctx, inv.Guild)
	if err != nil {
		r := s.storeRefusal(inv, err)
		return &r
	}
	strong := func(g *store.Game) bool {
		for _, p := range g.Players {
			if p.Kind == store.Bot && p.Level >= strongLevel {
				return true
			}
		}
		return false
	}
	newStrong := strong(&store.Game{Players: req.players})
	var mine, myStrong, myChallenges, guildStrong int
	for _, g := range running {
		plays := g.Players[0].UserID == inv.User.ID || g.Players[1].UserID == inv.User.ID
		if plays {
			mine++
			if strong(g) {
				myStrong++
			}
			if flow(g).Challenge && challenger(g).UserID == inv.User.ID {
				myChallenges++
			}
		}
		if strong(g) {
			guildStrong++
		}
	}
	no := func(format string, args ...any) *Reply {
		r := refuse(format, args...)
		return &r
	}
	const how = " (the limit is set by the server's operator: docs/explanation/security.md)"
	switch {
	case l.PersonGames > 0 && mine >= l.PersonGames:
		return no("you already play %s at once in this server, the most one person may: finish or /resign one (/games lists them) before starting another%s", plural(mine, "game"), how)
	case req.flow.Challenge && l.PersonChallenges > 0 && myChallenges >= l.PersonChallenges:
		return no("you have %s waiting for an answer, the most one person may have open: wait for one to be answered or withdraw one (/decline in its channel)%s", plural(myChallenges, "challenge"), how)
	case newStrong && l.PersonStrongBot > 0 && myStrong >= l.PersonStrongBot:
		return no("you already play %s against the bot at level 5 at once, the most one person may: finish one, or play at level 4 or below%s", plural(myStrong, "game"), how)
	case newStrong && l.GuildStrongBot > 0 && guildStrong >= l.GuildStrongBot:
		return no("this server has %s against the bot at level 5 going on, its share of the bot's time: play at level 4 or below, or wait for one to end%s", plural(guildStrong, "game"), how)
	}
	return nil
}

// The server's limits lock: held while a game is counted and started (or
// a challenge counted and accepted), so that two commands at once, in one
// process or in several sharing the store, never both pass the count.
const (
	// limitsLockTTL frees the lock of a process that died holding it.
	limitsLockTTL = 15 * time.Second
	// limitsWait is how long a command waits for the lock before it is
	// refused as busy.
	limitsWait = 30 * time.Second
)

// limitsLockName is the store lock of guild's limits (a hash: a lock's
// name takes only letters, digits and a few signs).
func limitsLockName(guild string) string {
	sum := sha256.Sum256([]byte(guild))
	return "limits-" + hex.EncodeToString(sum[:16])
}

// underLimits runs do while holding the limits lock of inv's server, and
// returns its reply; a refusal when the lock is not had within limitsWait.
func (s *Service) underLimits(ctx context.Context, inv Invocation, do func() Reply) Reply {
	name := limitsLockName(inv.Guild)
	give := time.NewTimer(limitsWait)
	defer give.Stop()
	var lock store.Lock
	for {
		l, err := s.store.TryLock(ctx, name, limitsLockTTL)
		if err == nil {
			lock = l
			break
		}
		if !errors.Is(err, store.ErrLocked) {
			return s.storeRefusal(inv, err)
		}
		pause := time.NewTimer(time.Duration(2+rand.IntN(18)) * time.Millisecond)
		select {
		case <-ctx.Done():
			pause.Stop()
			return refuse("nothing was started: the command was cancelled while other games of this server were being started; try again")
		case <-give.C:
			pause.Stop()
			return refuse("nothing was started: this server's games are being started by many at once; try again in a moment")
		case <-pause.C:
		}
	}
	defer func() {
		if err := lock.Release(context.WithoutCancel(ctx)); err != nil {
			s.log.Warn("limits lock", "guild", inv.Guild, "err", err)
		}
	}()
	return do()
}

// checkAccept refuses the acceptance of the challenge g when it would take
// the one who accepts past their limit of games at once. Challenges
// waiting for their own answer do not count (they could accept none of
// them otherwise); games going on and challenges they made do.
func (s *Service) checkAccept(ctx context.Context, inv Invocation, g *store.Game) *Reply {
	l := s.cfg.Limits
	if l.PersonGames <= 0 {
		return nil
	}
	running, err := s.store.Running(ctx, inv.Guild)
	if err != nil {
		r := s.storeRefusal(inv, err)
		return &r
	}
	mine := 0
	for _, o := range running {
		if o.Channel == g.Channel || o.Players[0].UserID != inv.User.ID && o.Players[1].UserID != inv.User.ID {
			continue
		}
		if flow(o).Challenge && challenged(o).UserID == inv.User.ID {
			continue // waiting for this person's answer
		}
		mine++
	}
	if mine >= l.PersonGames {
		r := refuse("you already play %s at once in this server, the most one person may: finish or /resign one (/games lists them) before accepting; this challenge waits until it lapses (the limit is set by the server's operator: docs/explanation/security.md)", plural(mine, "game"))
		return &r
	}
	return nil
}

// String describes the limits in a line.
func (l Limits) String() string {
	return fmt.Sprintf("%d games per person, %d at level 5, %d open challenges; %d level-5 games per server",
		l.PersonGames, l.PersonStrongBot, l.PersonChallenges, l.GuildStrongBot)
}
