package bot

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"sync"

	"arbiter/commands"

	"github.com/bwmarrin/discordgo"
)

// Discord's JSON error codes that the bot acts on
// (topics/opcodes-and-status-codes.mdx, "JSON Error Codes").
const (
	errUnknownWebhook     = 10015 // an interaction's webhook Discord does not know (yet)
	errMissingAccess      = 50001 // the bot cannot see the channel
	errMissingPermissions = 50013 // it sees it but may not do that there
	errThreadArchived     = 50083 // an archived thread (that is locked, since a post unarchives others)
)

// Notifier posts the game flow's later messages (the bot's moves,
// reminders, timeouts, results) as ordinary channel messages over REST. It
// needs no gateway: `arbiter worker` uses it on a session never opened. It
// is safe for concurrent use.
type Notifier struct {
	s   *discordgo.Session
	log *slog.Logger
	mu  sync.Mutex
	// self is the bot user's id, once known.
	self string
}

// NewNotifier returns a Notifier posting through s.
func NewNotifier(s *discordgo.Session, log *slog.Logger) *Notifier {
	if log == nil {
		log = slog.Default()
	}
	return &Notifier{s: s, log: log}
}

// Post sends msg to channel as a channel message, pinging only
// msg.Mentions. A thread that auto-archived is unarchived by Discord
// itself when the message is posted. When Discord refuses for want of a
// permission or because the thread is locked, the error is a
// *commands.UnreachableError that says exactly what to fix. msg.Key goes
// as the message's nonce with enforce_nonce, so that Discord creates one
// message however often the same key is posted within a few minutes (a
// retried delivery).
func (n *Notifier) Post(ctx context.Context, channel string, msg commands.Message) error {
	err := n.create(channel, outgoing(msg).send(), msg.Key, discordgo.WithContext(ctx))
	if err == nil {
		return nil
	}
	if why := n.unreachable(ctx, channel, err); why != "" {
		return &commands.UnreachableError{Channel: channel, Why: why, Err: err}
	}
	return fmt.Errorf("post to channel %s: %w", channel, err)
}

// maxNonce is the longest nonce Discord takes.
const maxNonce = 25

// discordNonce returns key as Discord's nonce: key itself when it fits in
// maxNonce characters, else the first maxNonce characters of its SHA-256
// in base64url, so that keys that differ anywhere stay different nonces.
func discordNonce(key string) string {
	if len(key) <= maxNonce {
		return key
	}
	sum := sha256.Sum256([]byte(key))
	return base64.RawURLEncoding.EncodeToString(sum[:])[:maxNonce]
}

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
	body := withNonce{MessageSend: data, Nonce: discordNonce(key), EnforceNonce: true}
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

// unreachable says what the bot lacks in channel when err is Discord's
// refusal for want of access or permission, or "" for another failure.
func (n *Notifier) unreachable(ctx context.Context, channel string, err error) string {
	switch restCode(err) {
	case errMissingAccess:
		return cannotPost(channel, "View Channel", false)
	case errThreadArchived:
		return lockedThread(channel)
	case errMissingPermissions:
	default:
		return ""
	}
	opt := discordgo.WithContext(ctx)
	ch, cerr := n.s.Channel(channel, opt)
	if cerr != nil {
		return cannotPost(channel, "View Channel", false)
	}
	if ch.IsThread() && ch.ThreadMetadata != nil && ch.ThreadMetadata.Locked {
		return lockedThread(channel)
	}
	self, serr := n.selfID(ctx)
	if serr != nil {
		return cannotPost(channel, missingNames(0, postPermissions(ch.IsThread())), ch.IsThread())
	}
	have, perr := n.s.UserChannelPermissions(self, channel, opt)
	if perr != nil {
		have = 0
	}
	missing := missingNames(have, postPermissions(ch.IsThread()))
	if missing == "" {
		missing = missingNames(0, postPermissions(ch.IsThread()))
	}
	return cannotPost(channel, missing, ch.IsThread())
}

// selfID is the bot user's id: from the gateway's state, else asked once.
func (n *Notifier) selfID(ctx context.Context) (string, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.self != "" {
		return n.self, nil
	}
	if n.s.State != nil && n.s.State.User != nil {
		n.self = n.s.State.User.ID
		return n.self, nil
	}
	me, err := n.s.User("@me", discordgo.WithContext(ctx))
	if err != nil {
		return "", fmt.Errorf("find the bot's user: %w", err)
	}
	n.self = me.ID
	return n.self, nil
}

// restCode is the Discord error code of a REST error, or 0.
func restCode(err error) int {
	var re *discordgo.RESTError
	if errors.As(err, &re) && re.Message != nil {
		return re.Message.Code
	}
	return 0
}

// errCannotMessageUser is Discord's refusal of a direct message
// (topics/opcodes-and-status-codes.mdx, "JSON Error Codes": 50007 "Cannot
// send messages to this user"): the user closed their direct messages, or
// shares no server with the bot.
const errCannotMessageUser = 50007

// Direct sends note to its user as a direct message: the DM channel is
// opened (or found) by Create DM (resources/user.mdx, POST
// /users/@me/channels), and the message names the game and its channel,
// with a link to it. Discord's refusal (50007) is
// commands.ErrDirectClosed.
func (n *Notifier) Direct(ctx context.Context, note commands.DirectNote) error {
	opt := discordgo.WithContext(ctx)
	ch, err := n.s.UserChannelCreate(note.UserID, opt)
	if err != nil {
		return fmt.Errorf("open a DM channel with %s: %w", note.UserID, err)
	}
	msg := commands.Message{
		Text: fmt.Sprintf("**%s** in <#%s>: %s\nhttps://discord.com/channels/%s/%s", note.Game, note.Channel, note.Text, note.Guild, note.Channel),
		Key:  note.Key,
	}
	if note.Digest {
		msg.Text = note.Text
	}
	err = n.create(ch.ID, outgoing(msg).send(), msg.Key, opt)
	if restCode(err) == errCannotMessageUser {
		return fmt.Errorf("direct message to %s: %w", note.UserID, commands.ErrDirectClosed)
	}
	if err != nil {
		return fmt.Errorf("direct message to %s: %w", note.UserID, err)
	}
	return nil
}
