package bot

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"arbiter/commands"

	"github.com/bwmarrin/discordgo"
)

// threadArchiveMinutes is the longest auto-archive setting Discord offers,
// a week: a game's turns may take days, and Notifier unarchives a thread
// that went quiet anyway.
const threadArchiveMinutes = 10080

// maxThreadName is Discord's limit on a thread's name.
const maxThreadName = 100

// playInThread runs /play in a new public thread of the invocation's
// channel: the game's announcement (board, buttons, pings) is posted in the
// thread, where the game lives, and the answer in the channel links to it.
// When /play is refused, the thread is archived and the refusal returned.
func (b *Bot) playInThread(ctx context.Context, inv commands.Invocation) commands.Reply {
	if r := b.svc.CheckPlay(inv); r != nil {
		return *r // refused: no thread is opened for nothing
	}
	opponent := "Arbiter"
	if id := inv.Options["opponent"]; id != "" {
		opponent = inv.Users["opponent"].Name
		if opponent == "" {
			opponent = id
		}
	}
	opt := discordgo.WithContext(ctx)
	th, err := openThread(ctx, b.s, inv.Channel, fmt.Sprintf("%s: %s vs %s", inv.Options["game"], inv.User.Name, opponent))
	if err != nil {
		b.log.Warn("thread not opened", "channel", inv.Channel, "err", err)
		return privateText("Arbiter could not open a thread here (" + describe(err) + "); /play without thread:true plays in this channel.")
	}
	parent := inv.Channel
	inv.Channel = th.ID
	r := b.svc.Handle(ctx, inv)
	if r.Private {
		archived := true
		if _, err := b.s.ChannelEdit(th.ID, &discordgo.ChannelEdit{Archived: &archived}, opt); err != nil {
			b.log.Warn("unused thread not archived", "thread", th.ID, "err", err)
		}
		return r
	}
	if _, err := b.s.ChannelMessageSendComplex(th.ID, outgoing(r.Message).send(), opt); err != nil {
		b.log.Error("game announcement not posted in its thread", "thread", th.ID, "parent", parent, "err", err)
		return privateText(fmt.Sprintf("The game started in <#%s>, but its board could not be posted there (%s); /board shows it.", th.ID, describe(err)))
	}
	headline, _, _ := strings.Cut(r.Text, "\n")
	return commands.Reply{Message: commands.Message{Text: fmt.Sprintf("%s\nThe game is played in <#%s>.", headline, th.ID)}}
}

// describe says in a few words what went wrong with a Discord request,
// without the request's details.
func describe(err error) string {
	var re *discordgo.RESTError
	if errors.As(err, &re) && re.Message != nil && re.Message.Message != "" {
		return "Discord said: " + re.Message.Message
	}
	return "Discord did not answer"
}
