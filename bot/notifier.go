package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"

	"arbiter/commands"

	"github.com/bwmarrin/discordgo"
)

// errThreadArchived is Discord's error code for a message sent to an
// archived thread.
const errThreadArchived = 50083

// Notifier posts the game flow's later messages (the bot's moves,
// reminders, timeouts, results) as ordinary channel messages over REST. It
// needs no gateway: `arbiter worker` uses it on a session never opened. It
// is safe for concurrent use.
type Notifier struct {
	s   *discordgo.Session
	log *slog.Logger
	mu  sync.Mutex
	// thread says, by channel id, whether a channel is a thread; a
	// channel's kind never changes.
	thread map[string]bool
}

// NewNotifier returns a Notifier posting through s.
func NewNotifier(s *discordgo.Session, log *slog.Logger) *Notifier {
	if log == nil {
		log = slog.Default()
	}
	return &Notifier{s: s, log: log, thread: map[string]bool{}}
}

// Post sends msg to channel as a channel message, pinging only
// msg.Mentions. A thread that auto-archived while a game waited is
// unarchived first. msg.Key goes as the message's nonce with
// enforce_nonce, so that Discord creates one message however often the
// same key is posted within a few minutes (a retried delivery).
func (n *Notifier) Post(ctx context.Context, channel string, msg commands.Message) error {
	if err := n.send(ctx, channel, outgoing(msg), msg.Key); err != nil {
		return fmt.Errorf("post to channel %s: %w", channel, err)
	}
	return nil
}

// maxNonce is the longest nonce Discord takes.
const maxNonce = 25

// withNonce is a message to create with a nonce that Discord enforces:
// "If enforce_nonce is true and nonce is present, it will be checked for
// uniqueness in the past few minutes. If another message was created by
// the same author with the same nonce, that message will be returned and
// no new message will be created" (Create Message, Discord's API docs).
type withNonce struct {
	*discordgo.MessageSend
	Nonce        string `json:"nonce"`
	EnforceNonce bool   `json:"enforce_nonce"`
}

// create posts a channel message, with key as its enforced nonce when
// there is one (discordgo's MessageSend has no nonce field).
func (n *Notifier) create(channel string, data *discordgo.MessageSend, key string, opt discordgo.RequestOption) error {
	if key == "" {
		_, err := n.s.ChannelMessageSendComplex(channel, data, opt)
		return err
	}
	if len(key) > maxNonce {
		key = key[:maxNonce]
	}
	body := withNonce{MessageSend: data, Nonce: key, EnforceNonce: true}
	endpoint := discordgo.EndpointChannelMessages(channel)
	if len(data.Files) > 0 {
		contentType, raw, err := discordgo.MultipartBodyWithJSON(body, data.Files)
		if err != nil {
			return err
		}
		_, err = n.s.RequestRaw("POST", endpoint, contentType, raw, endpoint, 0, opt)
		return err
	}
	_, err := n.s.RequestWithBucketID("POST", endpoint, body, endpoint, opt)
	return err
}

// send posts out to channel, with key as its nonce.
func (n *Notifier) send(ctx context.Context, channel string, out message, key string) error {
	opt := discordgo.WithContext(ctx)
	thread, err := n.isThread(ctx, channel)
	if err != nil {
		return err
	}
	if thread {
		if err := n.unarchive(ctx, channel, false); err != nil {
			return err
		}
	}
	err = n.create(channel, out.send(), key, opt)
	if thread && restCode(err) == errThreadArchived {
		// It archived between the look and the post: once more.
		if err := n.unarchive(ctx, channel, true); err != nil {
			return err
		}
		err = n.create(channel, out.send(), key, opt)
	}
	return err
}

// isThread reports whether channel is a thread, from what is known or the
// gateway's state, else by asking Discord once.
func (n *Notifier) isThread(ctx context.Context, channel string) (bool, error) {
	n.mu.Lock()
	thread, ok := n.thread[channel]
	n.mu.Unlock()
	if ok {
		return thread, nil
	}
	if ch, err := n.s.State.Channel(channel); err == nil {
		// The state's channels change under its lock.
		n.s.State.RLock()
		thread = ch.IsThread()
		n.s.State.RUnlock()
	} else {
		ch, err := n.s.Channel(channel, discordgo.WithContext(ctx))
		if err != nil {
			return false, fmt.Errorf("look up the channel: %w", err)
		}
		thread = ch.IsThread()
	}
	n.remember(channel, thread)
	return thread, nil
}

// remember records whether channel is a thread.
func (n *Notifier) remember(channel string, thread bool) {
	n.mu.Lock()
	n.thread[channel] = thread
	n.mu.Unlock()
}

// unarchive makes sure a thread is open for messages: it asks Discord
// whether it is archived (the gateway's state may be behind, and a worker
// has none) and unarchives it if so, or at once when known.
func (n *Notifier) unarchive(ctx context.Context, thread string, known bool) error {
	opt := discordgo.WithContext(ctx)
	if !known {
		ch, err := n.s.Channel(thread, opt)
		if err != nil {
			return fmt.Errorf("look up the thread: %w", err)
		}
		if ch.ThreadMetadata == nil || !ch.ThreadMetadata.Archived {
			return nil
		}
	}
	open := false
	if _, err := n.s.ChannelEdit(thread, &discordgo.ChannelEdit{Archived: &open}, opt); err != nil {
		return fmt.Errorf("unarchive the thread: %w", err)
	}
	n.log.Info("thread unarchived to post", "thread", thread)
	return nil
}

// restCode is the Discord error code of a REST error, or 0.
func restCode(err error) int {
	var re *discordgo.RESTError
	if errors.As(err, &re) && re.Message != nil {
		return re.Message.Code
	}
	return 0
}
