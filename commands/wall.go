package commands

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"regexp"
	"strings"
	"unicode"

	"arbiter/render"
	"arbiter/rules"
	"arbiter/store"
)

// This file is the live wall's side of the game flow: /wall, which turns a
// server's wall on with a random link (the wall key), and what the wall
// (package api) may show through that link. A server's wall is off until a
// referee turns it on; it shows only the games of channels every member
// can read, with names as the referee chose, and never a referee's words.

// The ways a wall names players (/wall names:...).
const (
	NamesDisplay   = "display"   // as shown in the server
	NamesInitials  = "initials"  // "A. L." (the default)
	NamesAnonymous = "anonymous" // "Player 1", "Player 2"
)

// wallKeyBytes is the randomness of a wall key: 256 bits.
const wallKeyBytes = 32

// wallKeyPattern is what a wall key looks like: base64url of 32 bytes.
var wallKeyPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{43}$`)

// The settings that hold walls: a server's (under the pseudo-channel
// "guild.GUILD") name the hash of its key and how names are shown; the
// key's (under "wall.HASH") name its server. Only hashes of keys are kept.
const (
	wallKeySetting   = "wallkey"
	wallNamesSetting = "wallnames"
	wallGuildSetting = "guild"
)

func guildSettings(guild string) string { return "guild." + guild }
func keySettings(hash string) string    { return "wall." + hash }

// wallKeyHash is the stored form of a wall key: 40 hex digits of its
// SHA-256 (160 bits: no two keys meet).
func wallKeyHash(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:20])
}

// Audience tells who can read a channel: the chat platform's side of what
// the wall may show. The Discord layer implements it from the channel's
// permission overwrites.
type Audience interface {
	// Channel returns the server a channel belongs to and whether every
	// member of that server can view it (a private channel or a private
	// thread cannot be). An error when it cannot be told: the wall then
	// leaves the channel out.
	Channel(ctx context.Context, channel string) (guild string, public bool, err error)
}

// SetAudience tells the flow who can read which channel; without one, the
// wall shows no game at all.
func (s *Service) SetAudience(a Audience) {
	s.hooks.mu.Lock()
	defer s.hooks.mu.Unlock()
	s.hooks.audience = a
}

// ChannelPublic reports whether channel is a channel of guild that every
// member of guild can view; false when it cannot be told (fail closed).
func (s *Service) ChannelPublic(ctx context.Context, guild, channel string) bool {
	s.hooks.mu.RLock()
	a := s.hooks.audience
	s.hooks.mu.RUnlock()
	if a == nil {
		return false
	}
	g, public, err := a.Channel(ctx, channel)
	if err != nil {
		s.log.Warn("wall: channel's audience not known; left out", "channel", channel, "err", err)
		return false
	}
	return public && g == guild
}

// WallAccess is what a valid wall key opens.
type WallAccess struct {
	Guild string
	Names string // NamesDisplay, NamesInitials or NamesAnonymous
}

// ErrNoWall is returned for a wall key that is malformed, unknown or
// revoked.
var ErrNoWall = fmt.Errorf("no such wall: %w", store.ErrNotFound)

// CheckWallKey refuses what cannot be a wall key, without reading the
// store.
func CheckWallKey(key string) error {
	if !wallKeyPattern.MatchString(key) {
		return ErrNoWall
	}
	return nil
}

// WallByKey returns the server whose wall key is key and how its wall
// names players; ErrNoWall when the key is malformed, unknown or revoked,
// another error when the store cannot tell (the caller refuses).
func (s *Service) WallByKey(ctx context.Context, key string) (WallAccess, error) {
	if err := CheckWallKey(key); err != nil {
		return WallAccess{}, err
	}
	hash := wallKeyHash(key)
	guild, err := s.store.ChannelSetting(ctx, keySettings(hash), wallGuildSetting)
	if err != nil {
		return WallAccess{}, fmt.Errorf("wall key: %w", err)
	}
	if guild == "" {
		return WallAccess{}, ErrNoWall
	}
	// The server's own record must still name this key: /wall new and
	// /wall off end the old one even if its reverse entry was left.
	current, err := s.store.ChannelSetting(ctx, guildSettings(guild), wallKeySetting)
	if err != nil {
		return WallAccess{}, fmt.Errorf("wall key: %w", err)
	}
	if current != hash {
		return WallAccess{}, ErrNoWall
	}
	names, err := s.store.ChannelSetting(ctx, guildSettings(guild), wallNamesSetting)
	if err != nil {
		return WallAccess{}, fmt.Errorf("wall key: %w", err)
	}
	if names == "" {
		names = NamesInitials
	}
	return WallAccess{Guild: guild, Names: names}, nil
}

// WallGames returns the games going on in guild that its wall may show:
// those of channels every member can view.
func (s *Service) WallGames(ctx context.Context, guild string) ([]*store.Game, error) {
	all, err := s.store.Running(ctx, guild)
	if err != nil {
		return nil, err
	}
	shown := all[:0]
	public := map[string]bool{}
	for _, g := range all {
		ok, seen := public[g.Channel]
		if !seen {
			ok = s.ChannelPublic(ctx, guild, g.Channel)
			public[g.Channel] = ok
		}
		if ok {
			shown = append(shown, g)
		}
	}
	return shown, nil
}

// WallNames names g's players as a wall with the given names setting
// shows them.
func WallNames(g *store.Game, names string) [2]string {
	var out [2]string
	for i, p := range g.Players {
		out[i] = WallName(p, i, names)
	}
	return out
}

// WallName names the player in seat (0 or 1) as a wall shows them: the
// bot always as itself; a person (or their program) by display name,
// initials or seat.
func WallName(p store.Player, seat int, names string) string {
	if p.Kind == store.Bot {
		return rawName(p)
	}
	var name string
	switch names {
	case NamesDisplay:
		return rawName(p)
	case NamesAnonymous:
		name = fmt.Sprintf("Player %d", seat+1)
	default:
		name = Initials(p.Name)
	}
	if p.Kind == store.Program {
		name += " (program)"
	}
	return name
}

// Initials shortens a name to its initials, "Ada Lovelace" to "A. L."; a
// name with no letter is "?".
func Initials(name string) string {
	var parts []string
	for _, w := range strings.FieldsFunc(name, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		for _, r := range w {
			if unicode.IsLetter(r) {
				parts = append(parts, string(unicode.ToUpper(r))+".")
				break
			}
		}
		if len(parts) == 3 {
			break
		}
	}
	if len(parts) == 0 {
		return "?"
	}
	return strings.Join(parts, " ")
}

// WallResult says how g ended, as a wall shows it: who won, or a draw,
// with the rules' own reason and never a person's words (a referee's
// reason, a name).
func WallResult(g *store.Game, names [2]string) string {
	reason := ""
	if own := g.State.Outcome(); own.Result == g.Result && own.Reason != "" {
		reason = ": " + own.Reason
	}
	if w, ok := g.Result.Winner(); ok {
		return names[w] + " wins" + reason
	}
	if g.Result == rules.Draw {
		return "draw" + reason
	}
	return "no result"
}

// WallBoardPNG draws g as a wall shows it: names as given, the rules'
// own result only.
func (s *Service) WallBoardPNG(g *store.Game, names [2]string) ([]byte, error) {
	opt := render.Options{View: render.Standard, Players: names}
	if g.Status == store.Finished {
		out := rules.Outcome{Result: g.Result}
		if own := g.State.Outcome(); own.Result == g.Result {
			out = own
		}
		opt.Result = &out
	}
	return render.PNG(g.State, opt)
}

// wall is /wall: a referee turns the server's live wall on (a new random
// link), off, or replaces its link, and chooses how it names players.
func (s *Service) wall(ctx context.Context, inv Invocation) Reply {
	if !s.isReferee(inv) {
		return refuse("only referees (the %s role, or Manage Server) can turn the live wall on or off", s.refereeRoleName())
	}
	if inv.Guild == "" {
		return refuse("the live wall belongs to a server: use /wall in one of its channels")
	}
	gs := guildSettings(inv.Guild)
	current, err := s.store.ChannelSetting(ctx, gs, wallKeySetting)
	if err != nil {
		return s.storeRefusal(inv, err)
	}
	names := inv.Options["names"]
	if names != "" && names != NamesDisplay && names != NamesInitials && names != NamesAnonymous {
		return refuse("names must be display, initials or anonymous, not %.20q", names)
	}
	setNames := func() error {
		if names == "" {
			return nil
		}
		return s.store.SetChannelSetting(ctx, gs, wallNamesSetting, names)
	}
	switch inv.Sub {
	case "off":
		if current == "" {
			return refuse("the live wall of this server is already off")
		}
		if err := s.endWallKey(ctx, inv.Guild, current); err != nil {
			return s.storeRefusal(inv, err)
		}
		return Reply{Message: Message{Text: "The live wall is off: its link shows nothing any more. /wall on makes a new one."}, Private: true}
	case "names":
		if names == "" {
			return refuse("give names: display, initials or anonymous")
		}
		if err := setNames(); err != nil {
			return s.storeRefusal(inv, err)
		}
		return Reply{Message: Message{Text: "The live wall names players " + namesWords(names) + " from now on (pages open on it follow within a few seconds)."}, Private: true}
	case "on", "new":
		if inv.Sub == "on" && current != "" {
			const already = "the live wall is already on; its link was shown once when it was made. /wall new replaces it (the old link stops working), /wall off ends it"
			if names == "" {
				return refuse(already)
			}
			if err := setNames(); err != nil {
				return s.storeRefusal(inv, err)
			}
			return Reply{Message: Message{Text: "The wall names players " + namesWords(names) + " from now on; " + already + "."}, Private: true}
		}
	default:
		return refuse("/wall on, /wall off, /wall new or /wall names; there is no /wall %.20s", inv.Sub)
	}
	raw := make([]byte, wallKeyBytes)
	if _, err := rand.Read(raw); err != nil {
		return s.internalError(inv, "make a wall key", err)
	}
	key := base64.RawURLEncoding.EncodeToString(raw)
	hash := wallKeyHash(key)
	if err := setNames(); err != nil {
		return s.storeRefusal(inv, err)
	}
	if err := s.store.SetChannelSetting(ctx, keySettings(hash), wallGuildSetting, inv.Guild); err != nil {
		return s.storeRefusal(inv, err)
	}
	if err := s.store.SetChannelSetting(ctx, gs, wallKeySetting, hash); err != nil {
		return s.storeRefusal(inv, err)
	}
	if current != "" {
		if err := s.store.SetChannelSetting(ctx, keySettings(current), wallGuildSetting, ""); err != nil {
			s.log.Warn("old wall key's entry not removed (the key is revoked all the same)", "guild", inv.Guild, "err", err)
		}
	}
	shown, err := s.store.ChannelSetting(ctx, gs, wallNamesSetting)
	if err != nil || shown == "" {
		shown = NamesInitials
	}
	link := s.wallLink(key)
	text := fmt.Sprintf("The live wall is on. Its link (shown this once; anyone with it sees the wall, so share it as you would the room's projector):\n%s\n"+
		"It shows the games of channels every member can view, players named %s, and never a referee's reasons. "+
		"/wall new replaces the link, /wall off ends it, /wall names changes how players are named.", link, namesWords(shown))
	if current != "" {
		text = "The old link no longer works. " + text
	}
	return Reply{Message: Message{Text: text}, Private: true}
}

// endWallKey revokes the server's wall key whose hash is given.
func (s *Service) endWallKey(ctx context.Context, guild, hash string) error {
	if err := s.store.SetChannelSetting(ctx, guildSettings(guild), wallKeySetting, ""); err != nil {
		return err
	}
	if err := s.store.SetChannelSetting(ctx, keySettings(hash), wallGuildSetting, ""); err != nil {
		s.log.Warn("old wall key's entry not removed (the key is revoked all the same)", "guild", guild, "err", err)
	}
	return nil
}

// wallLink is the address of the wall with key: under Config.PublicURL,
// or as a path when it is not set.
func (s *Service) wallLink(key string) string {
	path := "/wall/" + key + "/"
	if s.cfg.PublicURL == "" {
		return "`" + path + "` (on the server's API address; set PUBLIC_URL for a whole link)"
	}
	return strings.TrimRight(s.cfg.PublicURL, "/") + path
}

// namesWords says a names setting in words.
func namesWords(names string) string {
	switch names {
	case NamesDisplay:
		return "by their names as shown in the server"
	case NamesAnonymous:
		return `"Player 1" and "Player 2"`
	}
	return `by initials ("A. L.")`
}

// internalError logs what failed with a new error id and tells the user
// only that id: internal error text is for the logs.
func (s *Service) internalError(inv Invocation, what string, err error) Reply {
	id := ErrorID()
	s.log.Error(what+" failed", "error_id", id, "command", inv.Command, "channel", inv.Channel, "err", err)
	return refuse("something went wrong on our side (error id %s); nothing was changed. Try again, and give a referee the id if it persists.", id)
}

// ErrorID returns a short random id that ties a generic message shown to
// a person to the log line with the details.
func ErrorID() string {
	raw := make([]byte, 6)
	_, _ = rand.Read(raw)
	return hex.EncodeToString(raw)
}

// ArchivedGamePublic reports whether the finished game id of guild was
// played in a channel every member of guild can view; false when it
// cannot be told.
func (s *Service) ArchivedGamePublic(ctx context.Context, guild, id string) bool {
	g, err := s.store.LoadArchived(ctx, guild, id)
	if err != nil {
		return false
	}
	return s.ChannelPublic(ctx, guild, g.Channel)
}
