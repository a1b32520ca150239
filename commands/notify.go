package commands

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	_ "time/tzdata" // time zones by name wherever the binary runs

	"arbiter/rules"
	"arbiter/store"
)

// ErrDirectClosed is a DirectMessenger's error when the platform refuses a
// direct message to the person (they closed their direct messages).
var ErrDirectClosed = errors.New("the person takes no direct messages from Arbiter")

// DirectNote is a direct message to one person about a game of theirs.
type DirectNote struct {
	UserID string
	// Guild and Channel are where the game is; the platform links to it.
	Guild, Channel string
	// Game is the game's title, e.g. "Sixes".
	Game string
	// Text is what to say, e.g. "your move as X, due ...".
	Text string
	// Digest: the note is a daily digest, whose Text names its games
	// itself (Guild and Channel are one of them).
	Digest bool
	// Key makes the note idempotent where the platform allows (as
	// Message.Key).
	Key string
}

// DirectMessenger is a Notifier that can also write to a person directly.
// Direct's error is ErrDirectClosed (wrapped) when the platform refuses
// the message because of the person's settings.
type DirectMessenger interface {
	Direct(ctx context.Context, note DirectNote) error
}

// directTimeout bounds one direct message, sent beside the command that
// started the turn.
const directTimeout = 20 * time.Second

// The settings of a person, kept as the settings of the pseudo-channel
// personKey(id) (store.Store's channel settings): notifyDM ("on" or
// unset), notifyTZ (an IANA zone name) and notifyDigest ("HH:MM" or
// unset).
const (
	notifyDM     = "notify.dm"
	notifyTZ     = "notify.tz"
	notifyDigest = "notify.digest"
)

// personKey is the pseudo-channel a person's settings are kept under.
func personKey(userID string) string { return settingsID("person.", userID) }

// settingsID is prefix+id as a channel id the store takes (store.CheckID):
// id itself when it fits (a Discord snowflake), else a digest of it (the
// console's "local:NAME").
func settingsID(prefix, id string) string {
	if store.CheckID("setting", prefix+id) == nil {
		return prefix + id
	}
	sum := sha256.Sum256([]byte(id))
	return prefix + "h" + hex.EncodeToString(sum[:16])
}

// notify is /notify: show or change how the invoker hears of their turns,
// in every game in every server: dm:on|off, tz:ZONE, digest:HH:MM|off.
func (s *Service) notifyCmd(ctx context.Context, inv Invocation) Reply {
	// Every option is checked before any is kept: a refusal changes nothing.
	dm, setDM := inv.Options["dm"]
	if setDM && dm != "on" && dm != "off" {
		return refuse("dm must be on or off, not %.20q", dm)
	}
	if dm == "on" && s.direct == nil {
		return refuse("direct messages are not available here")
	}
	tz, setTZ := inv.Options["tz"]
	if setTZ {
		loc, err := zone(tz)
		if err != nil {
			return refuse("%v", err)
		}
		tz = loc.String()
	}
	digest, setDigest := inv.Options["digest"]
	if setDigest && digest != "off" {
		at, err := parseClock(digest)
		if err != nil {
			return refuse("%v", err)
		}
		digest = fmt.Sprintf("%02d:%02d", at/60, at%60)
	}
	if digest == "off" {
		digest = ""
	}
	key := personKey(inv.User.ID)
	if len(inv.Options) > 0 && inv.Guild != "" {
		if err := s.noteGuild(ctx, inv.User.ID, inv.Guild); err != nil {
			return s.storeRefusal(inv, err)
		}
	}
	if setDM {
		if err := s.store.SetChannelSetting(ctx, key, notifyDM, dm); err != nil {
			return s.storeRefusal(inv, err)
		}
		s.markDM(ctx, inv.User.ID, dm == "on")
	}
	if setTZ {
		if err := s.store.SetChannelSetting(ctx, key, notifyTZ, tz); err != nil {
			return s.storeRefusal(inv, err)
		}
	}
	if setDigest {
		if err := s.store.SetChannelSetting(ctx, key, notifyDigest, digest); err != nil {
			return s.storeRefusal(inv, err)
		}
		if err := s.noteDigest(ctx, inv.User.ID, digest != ""); err != nil {
			return s.storeRefusal(inv, err)
		}
	}
	p, err := s.person(ctx, inv.User.ID)
	if err != nil {
		return s.storeRefusal(inv, err)
	}
	dmNow, digestNow := "off", "off"
	if p.dm {
		dmNow = "on"
	}
	if p.digest != "" {
		digestNow = "at " + p.digest + " " + p.tz.String()
	}
	return Reply{Message: Message{Text: fmt.Sprintf("Direct messages when it is your turn: %s. Daily digest of the games waiting for you: %s. Time zone: %s.\n"+
		"/notify dm:on|off, digest:HH:MM|off and tz:Europe/Berlin change them.", dmNow, digestNow, p.tz)}, Private: true}
}

// person is what a person asked for with /notify.
type person struct {
	dm     bool
	tz     *time.Location
	digest string // "HH:MM", or "" for none
}

// person reads userID's /notify settings.
func (s *Service) person(ctx context.Context, userID string) (person, error) {
	key := personKey(userID)
	p := person{tz: time.UTC}
	dm, err := s.store.ChannelSetting(ctx, key, notifyDM)
	if err != nil {
		return p, fmt.Errorf("settings of %s: %w", userID, err)
	}
	p.dm = dm == "on"
	if tz, err := s.store.ChannelSetting(ctx, key, notifyTZ); err != nil {
		return p, fmt.Errorf("settings of %s: %w", userID, err)
	} else if loc, err := zone(tz); tz != "" && err == nil {
		p.tz = loc
	}
	if p.digest, err = s.store.ChannelSetting(ctx, key, notifyDigest); err != nil {
		return p, fmt.Errorf("settings of %s: %w", userID, err)
	}
	return p, nil
}

// zone reads a time zone's IANA name, e.g. Europe/Berlin.
func zone(name string) (*time.Location, error) {
	name = strings.TrimSpace(name)
	if name == "" || len(name) > 64 || strings.EqualFold(name, "local") {
		return nil, fmt.Errorf("tz must be a time zone's name such as Europe/Berlin or UTC, not %.20q", name)
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, fmt.Errorf("tz must be a time zone's name such as Europe/Berlin or UTC; %.40q is none", name)
	}
	return loc, nil
}

// parseClock reads a time of day "HH:MM" (24 hours) as minutes after
// midnight.
func parseClock(text string) (int, error) {
	h, m, ok := strings.Cut(strings.TrimSpace(text), ":")
	hh, err1 := strconv.Atoi(h)
	mm, err2 := strconv.Atoi(m)
	if !ok || err1 != nil || err2 != nil || len(m) != 2 || len(h) < 1 || len(h) > 2 || hh < 0 || hh > 23 || mm < 0 || mm > 59 {
		return 0, fmt.Errorf("digest must be a time of day as HH:MM, like 08:30, or off; not %.20q", text)
	}
	return hh*60 + mm, nil
}

// turnNotice sends the person to move in g a direct message that it is
// their turn, when they asked for it (/notify dm:on). It runs beside the
// command that started the turn, once per turn (follow). A refusal by the
// platform turns the option off, and says so in the game's channel.
func (s *Service) turnNotice(ctx context.Context, g *store.Game) {
	seat := g.State.ToMove()
	p := g.Players[seat]
	if s.direct == nil || g.Status != store.Active || flow(g).Challenge || flow(g).Paused || p.Kind != store.Human || !flow(g).DM[seat] {
		return
	}
	note := DirectNote{UserID: p.UserID, Guild: g.Guild, Channel: g.Channel, Game: s.title(g.Name),
		Text: fmt.Sprintf("your move as %s, due %s.", g.State.PlayerName(seat), s.when(g.Deadline)),
		Key:  fmt.Sprintf("turn/%s/%s/%d", g.Guild, g.ID, len(g.Moves))} // a game's id is its server's
	go func() {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), directTimeout)
		defer cancel()
		s.sendDirect(ctx, note)
	}()
}

// sendDirect sends note: a turn's note if its person asked for direct
// messages, a digest always. A refusal by the platform turns both off
// and says so in the note's channel, once: they are off after it.
func (s *Service) sendDirect(ctx context.Context, note DirectNote) {
	if !note.Digest {
		on, err := s.store.ChannelSetting(ctx, personKey(note.UserID), notifyDM)
		if err != nil || on != "on" {
			return
		}
	}
	err := s.direct.Direct(ctx, note)
	switch {
	case errors.Is(err, ErrDirectClosed):
		key := personKey(note.UserID)
		s.markDM(ctx, note.UserID, false)
		for _, set := range []func() error{
			func() error { return s.store.SetChannelSetting(ctx, key, notifyDM, "off") },
			func() error { return s.store.SetChannelSetting(ctx, key, notifyDigest, "") },
			func() error { return s.noteDigest(ctx, note.UserID, false) },
		} {
			if err := set(); err != nil {
				s.log.Error("direct messages not turned off", "user", note.UserID, "err", err)
				return
			}
		}
		msg := Message{Text: fmt.Sprintf("%s, direct messages from Arbiter to you are refused (closed in your settings), so /notify dm and digest are off now; allow them, then /notify dm:on.", Mention(note.UserID)),
			Mentions: []string{note.UserID}}
		if err := s.notify.Post(ctx, note.Channel, msg); err != nil {
			s.log.Warn("closed direct messages not announced", "channel", note.Channel, "err", err)
		}
	case err != nil:
		s.log.Warn("direct message not sent", "user", note.UserID, "err", err)
	}
}

// markDM notes in every running game of userID, in the servers noted for
// them, whether they asked for a direct message at each turn (Flow.DM).
func (s *Service) markDM(ctx context.Context, userID string, on bool) {
	raw, err := s.store.ChannelSetting(ctx, personKey(userID), notifyGuilds)
	if err != nil {
		s.log.Warn("servers of a person not read", "user", userID, "err", err)
		return
	}
	for _, guild := range splitList(raw) {
		_, err := s.changeGames(ctx, guild, userID, func(g *store.Game, seat rules.Player) bool {
			if flow(g).DM[seat] == on {
				return false
			}
			flow(g).DM[seat] = on
			return true
		})
		if err != nil {
			s.log.Warn("games of a person not marked for direct messages", "user", userID, "guild", guild, "err", err)
		}
	}
}

// markNewGame notes in a game about to start which of its people asked
// for direct messages, and the game's server for their digest.
func (s *Service) markNewGame(ctx context.Context, g *store.Game) {
	for seat, p := range g.Players {
		if p.Kind != store.Human || seat == 1 && p.UserID == g.Players[0].UserID {
			continue
		}
		if err := s.noteGuild(ctx, p.UserID, g.Guild); err != nil {
			s.log.Warn("server not noted for the digest", "user", p.UserID, "err", err)
		}
		dm, err := s.store.ChannelSetting(ctx, personKey(p.UserID), notifyDM)
		if err != nil {
			s.log.Warn("direct message setting not read", "user", p.UserID, "err", err)
		}
		on := dm == "on"
		flow(g).DM[seat] = on
		if g.Players[1-seat].UserID == p.UserID {
			flow(g).DM[1-seat] = on
		}
	}
}
