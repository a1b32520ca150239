package bot

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
)

// audienceTTL is how long the bot trusts what it learnt of a channel's
// audience: a channel made private leaves the wall within it.
const audienceTTL = 30 * time.Second

// audience answers, for the live wall, whether every member of a server
// can view a channel (commands.Audience), from the channel's permission
// overwrites and the @everyone role, as Discord computes permissions
// (topics/permissions.mdx, "Permission Overwrites": the @everyone role's
// permissions, then the channel's @everyone overwrite). A thread has its
// parent's permissions; a private thread is seen only by those invited to
// it (topics/threads.mdx, "Private Threads"), so it is never public.
type audience struct {
	s   *discordgo.Session
	now func() time.Time

	mu    sync.Mutex
	known map[string]audienceEntry // by channel id
	roles map[string]roleEntry     // @everyone's permissions, by guild id
}

type roleEntry struct {
	at    time.Time
	perms int64
}

type audienceEntry struct {
	at     time.Time
	guild  string
	public bool
}

func newAudience(s *discordgo.Session, now func() time.Time) *audience {
	return &audience{s: s, now: now, known: map[string]audienceEntry{}, roles: map[string]roleEntry{}}
}

// maxAudienceEntries bounds the channels remembered.
const maxAudienceEntries = 4096

// Channel returns the server of channel and whether @everyone can view
// it; an error when Discord cannot tell (the wall then leaves it out).
func (a *audience) Channel(ctx context.Context, channel string) (string, bool, error) {
	a.mu.Lock()
	e, ok := a.known[channel]
	a.mu.Unlock()
	if ok && a.now().Sub(e.at) < audienceTTL {
		return e.guild, e.public, nil
	}
	guild, public, err := a.look(ctx, channel)
	if err != nil {
		return "", false, err
	}
	a.mu.Lock()
	if len(a.known) >= maxAudienceEntries {
		clear(a.known)
		clear(a.roles)
	}
	a.known[channel] = audienceEntry{at: a.now(), guild: guild, public: public}
	a.mu.Unlock()
	return guild, public, nil
}

// look asks Discord (the gateway's state, else REST).
func (a *audience) look(ctx context.Context, id string) (string, bool, error) {
	ch, err := a.channel(ctx, id)
	if err != nil {
		return "", false, fmt.Errorf("channel %s: %w", id, err)
	}
	if ch.GuildID == "" {
		return "", false, nil // a direct message
	}
	switch ch.Type {
	case discordgo.ChannelTypeGuildPrivateThread:
		return ch.GuildID, false, nil
	case discordgo.ChannelTypeGuildPublicThread, discordgo.ChannelTypeGuildNewsThread:
		if ch, err = a.channel(ctx, ch.ParentID); err != nil {
			return "", false, fmt.Errorf("parent of thread %s: %w", id, err)
		}
	}
	everyone, err := a.everyone(ctx, ch.GuildID)
	if err != nil {
		return "", false, err
	}
	perms := everyone
	if perms&discordgo.PermissionAdministrator != 0 {
		return ch.GuildID, true, nil
	}
	for _, o := range ch.PermissionOverwrites {
		if o.Type == discordgo.PermissionOverwriteTypeRole && o.ID == ch.GuildID {
			perms = perms&^o.Deny | o.Allow
		}
	}
	return ch.GuildID, perms&discordgo.PermissionViewChannel != 0, nil
}

// channel returns a channel with its overwrites.
func (a *audience) channel(ctx context.Context, id string) (*discordgo.Channel, error) {
	if ch, err := a.s.State.Channel(id); err == nil {
		a.s.State.RLock()
		defer a.s.State.RUnlock()
		c := *ch
		c.PermissionOverwrites = append([]*discordgo.PermissionOverwrite(nil), ch.PermissionOverwrites...)
		return &c, nil
	}
	return a.s.Channel(id, discordgo.WithContext(ctx))
}

// everyone returns the permissions of a server's @everyone role (its id
// is the server's, topics/permissions.mdx, "Role Object"), from the
// gateway's state, else over REST at most once per audienceTTL.
func (a *audience) everyone(ctx context.Context, guild string) (int64, error) {
	if r, err := a.s.State.Role(guild, guild); err == nil {
		a.s.State.RLock()
		defer a.s.State.RUnlock()
		return r.Permissions, nil
	}
	a.mu.Lock()
	e, ok := a.roles[guild]
	a.mu.Unlock()
	if ok && a.now().Sub(e.at) < audienceTTL {
		return e.perms, nil
	}
	perms, err := a.fetchEveryone(ctx, guild)
	if err != nil {
		return 0, err
	}
	a.mu.Lock()
	a.roles[guild] = roleEntry{at: a.now(), perms: perms}
	a.mu.Unlock()
	return perms, nil
}

// fetchEveryone asks Discord's REST API for @everyone's permissions.
func (a *audience) fetchEveryone(ctx context.Context, guild string) (int64, error) {
	roles, err := a.s.GuildRoles(guild, discordgo.WithContext(ctx))
	if err != nil {
		return 0, fmt.Errorf("roles of server %s: %w", guild, err)
	}
	for _, r := range roles {
		if r.ID == guild {
			return r.Permissions, nil
		}
	}
	return 0, fmt.Errorf("server %s has no @everyone role in its roles", guild)
}
