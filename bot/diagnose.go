package bot

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"arbiter/commands"

	"github.com/bwmarrin/discordgo"
)

// diagnoseSpec is /diagnose, the bot's own command (it is about Discord,
// not about games): for referees, what the bot may do in this channel and
// its threads, and what to fix.
var diagnoseSpec = commands.CommandSpec{
	Name:        "diagnose",
	Description: "referees: check what Arbiter may do in this channel and its threads, and what to fix",
}

// diagnose answers /diagnose, privately: each permission Arbiter needs,
// had or lacking in this channel (from the permissions Discord sent with
// the interaction), the thread's state when it is one, what to fix, and
// which Arbiter runs.
func (b *Bot) diagnose(ctx context.Context, i *discordgo.Interaction, inv commands.Invocation) commands.Reply {
	if !b.svc.IsReferee(inv) {
		return privateText("/diagnose is for referees (the referee role, or Manage Server).")
	}
	have := i.AppPermissions
	var ch *discordgo.Channel
	if have&discordgo.PermissionViewChannel != 0 {
		c, err := b.channel(ctx, i.ChannelID)
		if err != nil {
			b.log.Warn("channel not looked up", "channel", i.ChannelID, "err", redact(err))
		}
		ch = c
	}
	thread := ch != nil && ch.IsThread()
	var text strings.Builder
	fmt.Fprintf(&text, "Arbiter in <#%s>:\n", i.ChannelID)
	var lacking []string
	for _, p := range needed {
		mark := "✅"
		if have&p.bit == 0 {
			mark = "❌"
			lacking = append(lacking, p.name)
		}
		fmt.Fprintf(&text, "%s %s: %s\n", mark, p.name, p.why)
	}
	if thread && ch.ThreadMetadata != nil {
		switch {
		case ch.ThreadMetadata.Locked && have&discordgo.PermissionManageThreads == 0:
			text.WriteString("❌ This thread is locked: Arbiter cannot post here until a moderator unlocks it.\n")
		case ch.ThreadMetadata.Archived:
			text.WriteString("✅ This thread is archived; Arbiter's next message opens it again.\n")
		}
		if self := b.stateUserID(); ch.Type == discordgo.ChannelTypeGuildPrivateThread && self != "" && !slices.Contains(threadMembers(ch), self) {
			text.WriteString("❌ This private thread does not have Arbiter in it: mention @Arbiter here to add it.\n")
		}
	}
	if len(lacking) == 0 {
		text.WriteString("Nothing to fix here.")
	} else {
		where := "this channel's settings (Edit Channel → Permissions)"
		if thread {
			where = "the settings of this thread's channel (Edit Channel → Permissions)"
		}
		fmt.Fprintf(&text, "To fix: give Arbiter's role %s in %s, or re-invite it with the link in docs/reference/permissions.md.", strings.Join(lacking, ", "), where)
	}
	if b.cfg.Version != "" {
		fmt.Fprintf(&text, "\nRunning %s.", b.cfg.Version)
	}
	return privateText(text.String())
}

// threadMembers is what is known of a thread's members: the bot's own
// membership when Discord sent it.
func threadMembers(ch *discordgo.Channel) []string {
	var ids []string
	if ch.Member != nil {
		ids = append(ids, ch.Member.UserID)
	}
	for _, m := range ch.Members {
		ids = append(ids, m.UserID)
	}
	return ids
}

// stateUserID is the bot user's id from the gateway's state, or "" (HTTP
// mode has no state).
func (b *Bot) stateUserID() string {
	b.s.State.RLock()
	defer b.s.State.RUnlock()
	if b.s.State.User == nil {
		return ""
	}
	return b.s.State.User.ID
}
