package bot

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"sync"
	"time"

	"arbiter/commands"

	"github.com/bwmarrin/discordgo"
)

// run turns a slash command or a button press into an invocation and runs
// it; /play with thread:true plays in a new thread.
func (b *Bot) run(ctx context.Context, i *discordgo.Interaction) commands.Reply {
	inv, ok := b.invocation(ctx, i)
	if !ok {
		return privateText("Arbiter's commands work in a server's channels, not in direct messages.")
	}
	if i.Type == discordgo.InteractionMessageComponent {
		id := i.MessageComponentData().CustomID
		cmd, game, version, err := commands.ParseButton(id)
		if err != nil {
			b.log.Warn("unknown button", "custom_id", id, "err", err)
			return privateText("That button is not one Arbiter knows any more; /board shows the game here.")
		}
		inv.Command, inv.Game, inv.Version = cmd, game, version
		if values := i.MessageComponentData().Values; len(values) > 0 {
			// A menu's pick: one value, read and checked by the game flow.
			inv.Options[commands.PickOption] = values[0]
		}
	}
	if inv.Command == diagnoseSpec.Name {
		return b.diagnose(ctx, i, inv)
	}
	if postsLater(inv.Command) {
		var extra int64
		if inv.Command == "play" && inv.Options["thread"] == "true" {
			extra = newThreadPermissions
		}
		why, blocked, ch := b.reachable(ctx, i, extra)
		if blocked {
			if err := b.svc.PauseUnreachable(ctx, inv.Channel, why); err != nil {
				b.log.Error("game of an unreachable channel not paused", "channel", inv.Channel, "err", err)
			}
			why += gameWaits
		}
		if why != "" {
			return privateText(why)
		}
		if inv.Command == "play" && ch != nil && ch.IsThread() {
			// A thread a student opened: join it, as Discord's clients do,
			// so that the bot may unarchive and follow it.
			if err := b.s.ThreadJoin(ch.ID, discordgo.WithContext(ctx)); err != nil {
				b.log.Warn("thread not joined", "thread", ch.ID, "err", redact(err))
			}
		}
	}
	if inv.Command == "play" && inv.Options["thread"] != "" {
		thread := inv.Options["thread"] == "true"
		delete(inv.Options, "thread")
		if thread {
			return b.playInThread(ctx, inv)
		}
	}
	return b.svc.Handle(ctx, inv)
}

// invocation reads who asked what, where. It is false for an interaction
// outside a guild, where Arbiter has no games.
func (b *Bot) invocation(ctx context.Context, i *discordgo.Interaction) (commands.Invocation, bool) {
	if i.GuildID == "" || i.Member == nil || i.Member.User == nil {
		return commands.Invocation{}, false
	}
	inv := commands.Invocation{
		Guild:        i.GuildID,
		Channel:      i.ChannelID,
		User:         commands.User{ID: i.Member.User.ID, Name: displayName(i.Member.User, i.Member)},
		Roles:        b.roles.names(ctx, i.GuildID, i.Member.Roles),
		ManageServer: i.Member.Permissions&(discordgo.PermissionManageGuild|discordgo.PermissionAdministrator) != 0,
		Options:      map[string]string{},
		Users:        map[string]commands.User{},
	}
	if i.Type == discordgo.InteractionMessageComponent {
		return inv, true
	}
	data := i.ApplicationCommandData()
	inv.Command = data.Name
	opts := data.Options
	for isSubcommand(opts) {
		inv.Sub, opts = opts[0].Name, opts[0].Options
	}
	for _, o := range opts {
		if o == nil {
			continue
		}
		inv.Options[o.Name] = optionText(o.Value)
		if o.Focused {
			inv.Focused = o.Name
		}
		if o.Type == discordgo.ApplicationCommandOptionUser {
			inv.Users[o.Name] = resolvedUser(data.Resolved, inv.Options[o.Name])
		}
	}
	return inv, true
}

// optionText writes an option's value as the text commands reads: JSON
// numbers without a fraction as whole numbers. An autocomplete's focused
// value is the typed text, a string whatever the option's type.
func optionText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case bool:
		return strconv.FormatBool(x)
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1<<53 {
			return strconv.FormatInt(int64(x), 10)
		}
		return strconv.FormatFloat(x, 'g', -1, 64)
	case json.Number:
		return x.String()
	case nil:
		return ""
	}
	return fmt.Sprint(v)
}

// resolvedUser names a user option's user from the interaction's resolved
// data; an unresolved one is named by its id.
func resolvedUser(res *discordgo.ApplicationCommandInteractionDataResolved, id string) commands.User {
	if res != nil {
		if u, ok := res.Users[id]; ok && u != nil {
			return commands.User{ID: id, Name: displayName(u, res.Members[id])}
		}
	}
	return commands.User{ID: id, Name: id}
}

// displayName is what the guild shows for a user: the member's nickname,
// else the user's display name, else the user name.
func displayName(u *discordgo.User, m *discordgo.Member) string {
	switch {
	case m != nil && m.Nick != "":
		return m.Nick
	case u.GlobalName != "":
		return u.GlobalName
	}
	return u.Username
}

// focusedType is the type of the option being typed in an autocomplete
// request: its suggestions must be values of that type.
func focusedType(i *discordgo.Interaction) discordgo.ApplicationCommandOptionType {
	opts := i.ApplicationCommandData().Options
	for isSubcommand(opts) {
		opts = opts[0].Options
	}
	for _, o := range opts {
		if o != nil && o.Focused {
			return o.Type
		}
	}
	return discordgo.ApplicationCommandOptionString
}

// isSubcommand reports whether opts is a subcommand (or group) with its
// own options, as /referee start is.
func isSubcommand(opts []*discordgo.ApplicationCommandInteractionDataOption) bool {
	return len(opts) == 1 && opts[0] != nil &&
		(opts[0].Type == discordgo.ApplicationCommandOptionSubCommand || opts[0].Type == discordgo.ApplicationCommandOptionSubCommandGroup)
}

// rolesTTL is how long role names fetched over REST are trusted.
const rolesTTL = time.Minute

// roleNames resolves role ids to names: from the gateway's state (kept
// current by GUILD_ROLE events), else from a guild's roles fetched over
// REST (HTTP mode has no state) and kept for a minute.
type roleNames struct {
	s   *discordgo.Session
	now func() time.Time
	mu  sync.Mutex
	// fetched are the role names of a guild by role id, from REST.
	fetched map[string]fetchedRoles
}

type fetchedRoles struct {
	at    time.Time
	names map[string]string
}

func newRoleNames(s *discordgo.Session, now func() time.Time) *roleNames {
	return &roleNames{s: s, now: now, fetched: map[string]fetchedRoles{}}
}

// names returns the names of the roles ids of guild. A role that cannot be
// resolved is left out (and logged by the caller's failure to referee).
func (r *roleNames) names(ctx context.Context, guild string, ids []string) []string {
	out := make([]string, 0, len(ids))
	var missing []string
	for _, id := range ids {
		if role, err := r.s.State.Role(guild, id); err == nil {
			r.s.State.RLock() // the state's roles change under its lock
			out = append(out, role.Name)
			r.s.State.RUnlock()
		} else {
			missing = append(missing, id)
		}
	}
	if len(missing) == 0 {
		return out
	}
	names := r.guildRoles(ctx, guild, false)
	for _, id := range missing {
		name, ok := names[id]
		if !ok {
			names = r.guildRoles(ctx, guild, true) // a role made since
			name, ok = names[id]
		}
		if ok {
			out = append(out, name)
		}
	}
	return out
}

// guildRoles returns the guild's role names by id, fetched over REST when
// not known, too old, or when fresh is set.
func (r *roleNames) guildRoles(ctx context.Context, guild string, fresh bool) map[string]string {
	r.mu.Lock()
	got, ok := r.fetched[guild]
	r.mu.Unlock()
	if ok && !fresh && r.now().Sub(got.at) < rolesTTL {
		return got.names
	}
	if ok && fresh && r.now().Sub(got.at) < time.Second {
		return got.names // fetched a moment ago: a second fetch would tell nothing new
	}
	roles, err := r.s.GuildRoles(guild, discordgo.WithContext(ctx))
	if err != nil {
		return got.names
	}
	names := make(map[string]string, len(roles))
	for _, role := range roles {
		names[role.ID] = role.Name
	}
	r.mu.Lock()
	r.fetched[guild] = fetchedRoles{at: r.now(), names: names}
	r.mu.Unlock()
	return names
}
