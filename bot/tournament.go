package bot

import (
	"context"

	"github.com/bwmarrin/discordgo"
)

// OpenThread opens a public thread of parent for a tournament's game
// (commands.ThreadOpener), as /play thread:true does for one game.
func (n *Notifier) OpenThread(ctx context.Context, parent, name string) (string, error) {
	th, err := openThread(ctx, n.s, parent, name)
	if err != nil {
		return "", err
	}
	return th.ID, nil
}

// openThread opens a public thread of parent called name (cut to
// Discord's limit), archived after a week of silence.
func openThread(ctx context.Context, s *discordgo.Session, parent, name string) (*discordgo.Channel, error) {
	return s.ThreadStartComplex(parent, &discordgo.ThreadStart{
		Name:                truncate(name, maxThreadName),
		Type:                discordgo.ChannelTypeGuildPublicThread,
		AutoArchiveDuration: threadArchiveMinutes,
	}, discordgo.WithContext(ctx))
}
