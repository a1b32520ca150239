package bot

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"runtime/debug"
	"strings"
	"time"

	"arbiter/commands"

	"github.com/bwmarrin/discordgo"
)

// respondFunc sends an interaction's first answer: a REST callback for the
// gateway, the HTTP answer for the interactions endpoint.
type respondFunc func(*discordgo.InteractionResponse) error

// launchActivity is the LAUNCH_ACTIVITY interaction callback type
// (interactions/receiving-and-responding.mdx, "Interaction Callback
// Type"), which discordgo does not name: it opens the application's
// Activity for the user, with no message.
const launchActivity discordgo.InteractionResponseType = 12

// handleTimeout bounds one command, deferred reply included; interaction
// tokens live 15 minutes, the store gives up long before.
const handleTimeout = time.Minute

// autocompleteMargin is how much longer than a command's deferral timer
// the search for suggestions may take: an autocomplete cannot be
// deferred, and a late list is worth nothing where an empty one is still
// an answer.
const autocompleteMargin = 500 * time.Millisecond

// answer answers one interaction received at received; sent is as for
// command.
func (b *Bot) answer(i *discordgo.Interaction, received time.Time, respond respondFunc, sent <-chan struct{}) {
	log := b.log.With("interaction", i.ID, "type", i.Type.String())
	if b.closing.Load() && i.Type != discordgo.InteractionPing {
		if i.Type == discordgo.InteractionApplicationCommandAutocomplete {
			logFailure(log, "answer autocomplete", respond(autocompleteResponse(nil, discordgo.ApplicationCommandOptionString)))
			return
		}
		logFailure(log, "answer while restarting", respond(messageResponse(commands.Reply{
			Message: commands.Message{Text: "Arbiter is restarting; try again in a moment."}, Private: true,
		})))
		return
	}
	switch i.Type {
	case discordgo.InteractionPing:
		logFailure(log, "answer ping", respond(&discordgo.InteractionResponse{Type: discordgo.InteractionResponsePong}))
	case discordgo.InteractionApplicationCommandAutocomplete:
		ctx, cancel := context.WithTimeout(context.Background(), b.deferDelay(i, received)+autocompleteMargin)
		defer cancel()
		logFailure(log, "answer autocomplete", respond(autocompleteResponse(b.suggestions(ctx, i, log), focusedType(i))))
	case discordgo.InteractionApplicationCommand, discordgo.InteractionMessageComponent:
		b.command(i, received, respond, sent, log)
	default:
		logFailure(log, "answer unsupported interaction", respond(messageResponse(commands.Reply{
			Message: commands.Message{Text: "Arbiter does not know what to do with that."}, Private: true,
		})))
	}
}

// suggestions are the game flow's choices for an autocomplete request. A
// panic in the game flow is logged and suggests nothing: the request is
// still answered, and the process (whose gateway handlers do not recover)
// lives on.
func (b *Bot) suggestions(ctx context.Context, i *discordgo.Interaction, log *slog.Logger) (choices []commands.Choice) {
	defer func() {
		if p := recover(); p != nil {
			log.Error("autocomplete panicked", "panic", p, "stack", string(debug.Stack()))
			choices = nil
		}
	}()
	inv, ok := b.invocation(ctx, i)
	if !ok {
		return nil
	}
	return b.svc.Autocomplete(ctx, inv).Choices
}

// command runs a slash command or a button press and answers it within
// Discord's three seconds: directly when it is done before the timer,
// else by a deferral completed when the reply comes (see the package doc).
// sent, when not nil, is closed once the first answer has left (HTTP
// mode: the handler returned it); until then the deferral is not
// completed, so that the edit cannot overtake it. In HTTP mode a reply
// with files is always deferred and uploaded by the edit: Discord fails
// large inline multipart answers.
func (b *Bot) command(i *discordgo.Interaction, received time.Time, respond respondFunc, sent <-chan struct{}, log *slog.Logger) {
	ctx, cancel := context.WithTimeout(context.Background(), handleTimeout)
	done := make(chan commands.Reply, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				id := commands.ErrorID()
				log.Error("command panicked", "error_id", id, "panic", p, "stack", string(debug.Stack()))
				done <- privateText("Something went wrong inside Arbiter (error id " + id + "); nothing was changed. Please try again, and give a referee the id if it persists.")
			}
		}()
		done <- b.run(ctx, i)
	}()
	timer := time.NewTimer(b.deferDelay(i, received))
	defer timer.Stop()
	ephemeral := privateByNature(i)
	select {
	case r := <-done:
		if r.LaunchActivity {
			cancel()
			logFailure(log, "launch the activity", respond(&discordgo.InteractionResponse{Type: launchActivity}))
			return
		}
		if sent == nil || len(r.Files) == 0 {
			cancel()
			resp := messageResponse(r)
			if r.Update && r.Private && i.Type == discordgo.InteractionMessageComponent && i.Message != nil && i.Message.Flags&discordgo.MessageFlagsEphemeral != 0 {
				resp = updateResponse(r)
			}
			logFailure(log, "answer", respond(resp))
			return
		}
		ephemeral = r.Private
		done <- r // completed below, by an edit that uploads the files
	case <-timer.C:
	}
	var flags discordgo.MessageFlags
	if ephemeral {
		flags = discordgo.MessageFlagsEphemeral
	}
	err := respond(&discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseDeferredChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Flags: flags},
	})
	logFailure(log, "defer", err)
	// The reply completes the deferral after the first answer is out. The
	// caller's count keeps inflight above zero here, so Add is safe after
	// Wait began.
	b.inflight.Add(1)
	go func() {
		defer b.inflight.Done()
		defer cancel()
		r := <-done
		if err != nil {
			return // the deferral failed: the token is void, the reply lost
		}
		if sent != nil {
			select {
			case <-sent:
			case <-ctx.Done():
				return
			}
		}
		logFailure(log, "complete deferred answer", b.complete(ctx, i, ephemeral, r))
	}()
}

// deferDelay is how long to wait for a command before deferring: Config's
// DeferAfter, less what the interaction spent reaching us beyond a
// moment (Discord's clock starts at its creation, which its id records).
func (b *Bot) deferDelay(i *discordgo.Interaction, received time.Time) time.Duration {
	d := b.cfg.DeferAfter
	if created, err := discordgo.SnowflakeTimestamp(i.ID); err == nil {
		if left := created.Add(2 * time.Second).Sub(received); left < d {
			d = max(left, 0)
		}
	}
	return d
}

// complete finishes a deferred answer with the reply r, by documented
// means only (interactions/receiving-and-responding.mdx): an edit of the
// deferral when the privacy agrees and nothing must ping; else the
// deferral is first edited (so that the followup is a message of its own:
// "directly after" a deferral a followup would edit it instead), the reply
// is sent as a followup with its own privacy and pings, and the deferral's
// placeholder is deleted.
func (b *Bot) complete(ctx context.Context, i *discordgo.Interaction, ephemeral bool, r commands.Reply) error {
	out := outgoing(r.Message)
	opt := discordgo.WithContext(ctx)
	if r.Private == ephemeral && (ephemeral || len(r.Mentions) == 0) {
		return b.editOriginal(ctx, i, &discordgo.WebhookEdit{
			Content:         &out.text,
			Components:      &out.components,
			Files:           out.files(),
			AllowedMentions: out.allowed,
		})
	}
	placeholder := "Answered below."
	if r.Private {
		placeholder = "Answered privately."
	}
	none := []discordgo.MessageComponent{}
	if err := b.editOriginal(ctx, i, &discordgo.WebhookEdit{Content: &placeholder, Components: &none, AllowedMentions: &discordgo.MessageAllowedMentions{}}); err != nil {
		return err
	}
	params := &discordgo.WebhookParams{
		Content:         out.text,
		Components:      out.components,
		Files:           out.files(),
		AllowedMentions: out.allowed,
	}
	if r.Private {
		params.Flags = discordgo.MessageFlagsEphemeral
	}
	if _, err := b.s.FollowupMessageCreate(i, true, params, opt); err != nil {
		return fmt.Errorf("send the deferred answer: %w", err)
	}
	if err := b.s.InteractionResponseDelete(i, opt); err != nil {
		return fmt.Errorf("delete the deferral's placeholder: %w", err)
	}
	return nil
}

// editOriginal edits the deferred answer. In HTTP mode Discord may not
// have taken in the HTTP answer yet when the handler has returned it: an
// edit refused as Unknown Webhook (10015) is tried again, a few times.
func (b *Bot) editOriginal(ctx context.Context, i *discordgo.Interaction, edit *discordgo.WebhookEdit) error {
	var err error
	for attempt := range 4 {
		if attempt > 0 {
			t := time.NewTimer(time.Duration(attempt) * 100 * time.Millisecond)
			select {
			case <-ctx.Done():
				t.Stop()
				return fmt.Errorf("edit the deferred answer: %w", err)
			case <-t.C:
			}
			for _, f := range edit.Files {
				if sk, ok := f.Reader.(io.Seeker); ok {
					_, _ = sk.Seek(0, io.SeekStart)
				}
			}
		}
		_, err = b.s.InteractionResponseEdit(i, edit, discordgo.WithContext(ctx))
		if restCode(err) != errUnknownWebhook {
			break
		}
	}
	if err != nil {
		return fmt.Errorf("edit the deferred answer: %w", err)
	}
	return nil
}

// privateByNature reports whether the interaction's reply is private
// whatever happens: informational commands, the Refresh button, and the
// Resign button (which asks for confirmation) and its Cancel.
func privateByNature(i *discordgo.Interaction) bool {
	switch i.Type {
	case discordgo.InteractionApplicationCommand:
		switch i.ApplicationCommandData().Name {
		case "help", "rules", "moves", "games", "stats", "notify", diagnoseSpec.Name:
			return true
		}
	case discordgo.InteractionMessageComponent:
		cmd, _, _, err := commands.ParseButton(i.MessageComponentData().CustomID)
		// resign asks, privately; the picker's steps are private until
		// the move is played.
		return err != nil || cmd == "board" || cmd == "resign" || cmd == "cancel" ||
			(cmd == "pick" && len(i.MessageComponentData().Values) == 0)
	}
	return false
}

// autocompleteResult is an autocomplete answer as Discord needs it: its
// choices always present, even when none (discordgo's own type leaves an
// empty list out, which Discord refuses).
type autocompleteResult struct {
	Type discordgo.InteractionResponseType `json:"type"`
	Data struct {
		Choices []*discordgo.ApplicationCommandOptionChoice `json:"choices"`
	} `json:"data"`
}

// wire is what to send as resp's JSON.
func wire(resp *discordgo.InteractionResponse) any {
	if resp.Type != discordgo.InteractionApplicationCommandAutocompleteResult || resp.Data == nil {
		return resp
	}
	out := autocompleteResult{Type: resp.Type}
	out.Data.Choices = resp.Data.Choices
	if out.Data.Choices == nil {
		out.Data.Choices = []*discordgo.ApplicationCommandOptionChoice{}
	}
	return out
}

// messageResponse is the first answer that carries the reply r.
func messageResponse(r commands.Reply) *discordgo.InteractionResponse {
	out := outgoing(r.Message)
	data := &discordgo.InteractionResponseData{
		Content:         out.text,
		Components:      out.components,
		Files:           out.files(),
		AllowedMentions: out.allowed,
	}
	if r.Private {
		data.Flags = discordgo.MessageFlagsEphemeral
	}
	return &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: data}
}

// updateResponse is the first answer to a component of a private message
// that shows the reply r in its place (UPDATE_MESSAGE,
// interactions/receiving-and-responding.mdx, "Interaction Callback Type":
// "for components, edit the message the component was attached to").
func updateResponse(r commands.Reply) *discordgo.InteractionResponse {
	out := outgoing(r.Message)
	return &discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage, Data: &discordgo.InteractionResponseData{
		Content:         out.text,
		Components:      out.components,
		AllowedMentions: out.allowed,
	}}
}

// privateText is a private reply of plain text.
func privateText(text string) commands.Reply {
	return commands.Reply{Message: commands.Message{Text: text}, Private: true}
}

// logFailure logs err, if any, as a failure to do what, without the
// interaction token a request's URL holds.
func logFailure(log *slog.Logger, what string, err error) {
	if err != nil {
		log.Warn(what+" failed", "err", redact(err))
	}
}

// redact writes err with the tokens of interaction URLs (callbacks and
// webhooks, which name them in their paths) replaced by "***": a network
// error quotes the URL it failed on.
func redact(err error) string {
	msg := err.Error()
	var ue *url.Error
	if errors.As(err, &ue) {
		msg = strings.ReplaceAll(msg, ue.URL, redactURL(ue.URL))
	}
	return msg
}

// redactURL hides the token in .../interactions/{id}/{token}/... and
// .../webhooks/{application}/{token}/....
func redactURL(u string) string {
	parts := strings.Split(u, "/")
	for i, p := range parts {
		if (p == "interactions" || p == "webhooks") && i+2 < len(parts) {
			parts[i+2] = "***"
		}
	}
	return strings.Join(parts, "/")
}
