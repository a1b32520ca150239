package bot

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"
)

// A permission the bot needs in a server, with Discord's name for it (as
// the server's settings show it) and why Arbiter needs it.
type permission struct {
	bit  int64
	name string
	why  string
}

// needed is every permission Arbiter needs, the one list that the invite
// link (InvitePermissions), docs/reference/permissions.md and the bot's
// own checks are made from.
var needed = []permission{
	{discordgo.PermissionViewChannel, "View Channel", "see the course channel at all: without it every post fails (a private channel needs it for the bot's role)"},
	{discordgo.PermissionSendMessages, "Send Messages", "post the bot's moves, reminders, timeouts and results"},
	{discordgo.PermissionSendMessagesInThreads, "Send Messages in Threads", "post in a game's thread"},
	{discordgo.PermissionCreatePublicThreads, "Create Public Threads", "open a thread for `/play ... thread:true`"},
	{discordgo.PermissionEmbedLinks, "Embed Links", "show links to a game's thread"},
	{discordgo.PermissionAttachFiles, "Attach Files", "attach PNG boards, GIF histories and long texts"},
	{discordgo.PermissionReadMessageHistory, "Read Message History", "find the game's messages again"},
	{discordgo.PermissionUseApplicationCommands, "Use Application Commands", "the slash commands themselves"},
}

// InvitePermissions is the permissions integer of the bot's invite link:
// every permission in the list above.
func InvitePermissions() int64 {
	var p int64
	for _, n := range needed {
		p |= n.bit
	}
	return p
}

// InviteURL is the link that adds the bot to a server with the
// permissions it needs.
func InviteURL(appID string) string {
	return "https://discord.com/oauth2/authorize?client_id=" + appID +
		"&scope=bot+applications.commands&permissions=" + strconv.FormatInt(InvitePermissions(), 10)
}

// PermissionsTable is the table of docs/reference/permissions.md: one row
// per permission, its name and why it is needed.
func PermissionsTable() string {
	var b strings.Builder
	b.WriteString("| permission | why |\n| --- | --- |\n")
	for _, n := range needed {
		fmt.Fprintf(&b, "| %s | %s |\n", n.name, n.why)
	}
	return b.String()
}

// newThreadPermissions is what /play thread:true takes besides posting in
// the channel: opening a public thread and posting in it.
const newThreadPermissions = discordgo.PermissionCreatePublicThreads | discordgo.PermissionSendMessagesInThreads

// postPermissions is what posting a game's messages in a channel takes:
// in a thread, Send Messages in Threads takes Send Messages's place
// (Discord's topics/threads.mdx, "Permissions").
func postPermissions(thread bool) int64 {
	var send int64 = discordgo.PermissionSendMessages
	if thread {
		send = discordgo.PermissionSendMessagesInThreads
	}
	return send | discordgo.PermissionViewChannel | discordgo.PermissionAttachFiles | discordgo.PermissionEmbedLinks
}

// missingNames names the permissions of need that have lacks, in the
// list's order, as "View Channel and Send Messages".
func missingNames(have, need int64) string {
	var names []string
	for _, n := range needed {
		if need&n.bit != 0 && have&n.bit == 0 {
			names = append(names, n.name)
		}
	}
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// cannotPost is what the invoker is told when the bot cannot post in
// channel: exactly what it lacks there and where to give it.
func cannotPost(channel, missing string, thread bool) string {
	where := "the channel's settings (Permissions), for Arbiter's role"
	if thread {
		where = "the settings of the thread's channel (Permissions), for Arbiter's role"
	}
	return fmt.Sprintf("I can't post in <#%s>: I need %s there. A server admin can grant it in %s.", channel, missing, where)
}

// gameWaits is added to what the invoker is told when the channel's game
// was paused for it.
const gameWaits = " Until then a game here waits (paused, nothing is lost); a referee's `/referee resume` goes on once it is fixed."

// lockedThread is what the invoker is told when a game's thread is locked.
func lockedThread(channel string) string {
	return fmt.Sprintf("I can't post in <#%s>: the thread is locked. A moderator can unlock it (or give Arbiter's role Manage Threads).", channel)
}

// reachable says what stops the bot from posting in the interaction's
// channel, from the permissions Discord sent with it (app_permissions,
// interactions/receiving-and-responding.mdx) and the channel's kind;
// "" when nothing does. extra are permissions the command needs besides
// posting (a new thread's); blocked reports whether posting itself is
// what fails, so that the channel's game must wait. It returns the
// channel when it looked it up.
func (b *Bot) reachable(ctx context.Context, i *discordgo.Interaction, extra int64) (why string, blocked bool, ch *discordgo.Channel) {
	have := i.AppPermissions
	if have&discordgo.PermissionViewChannel == 0 {
		return cannotPost(i.ChannelID, missingNames(have, postPermissions(false)|extra), false), true, nil
	}
	ch, err := b.channel(ctx, i.ChannelID)
	if err != nil {
		b.log.Warn("channel not looked up", "channel", i.ChannelID, "err", redact(err))
		return "", false, nil
	}
	thread := ch.IsThread()
	if missing := missingNames(have, postPermissions(thread)|extra); missing != "" {
		return cannotPost(i.ChannelID, missing, thread), missingNames(have, postPermissions(thread)) != "", ch
	}
	if thread && ch.ThreadMetadata != nil && ch.ThreadMetadata.Locked && have&discordgo.PermissionManageThreads == 0 {
		return lockedThread(i.ChannelID), true, ch
	}
	return "", false, ch
}

// postsLater reports whether a command's game goes on with messages the
// bot posts in the channel later (its moves, reminders, results): those
// are refused, and the channel's game paused, where it cannot post.
func postsLater(command string) bool {
	switch command {
	case "play", "rematch", "accept", "move", "undo", "draw":
		return true
	}
	return false
}

// channel looks a channel up in the gateway's state, else over REST (HTTP
// mode has no state).
func (b *Bot) channel(ctx context.Context, id string) (*discordgo.Channel, error) {
	if ch, err := b.s.State.Channel(id); err == nil {
		b.s.State.RLock() // the state's channels change under its lock
		defer b.s.State.RUnlock()
		c := *ch
		if ch.ThreadMetadata != nil {
			meta := *ch.ThreadMetadata
			c.ThreadMetadata = &meta
		}
		return &c, nil
	}
	return b.s.Channel(id, discordgo.WithContext(ctx))
}
