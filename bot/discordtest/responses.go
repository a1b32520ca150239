package discordtest

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"unicode/utf8"
)

// This file answers the bot: the initial response to an interaction (the
// callback), followups, and edits through the interaction's webhook.

// Callbacks each interaction type accepts.
func callbackAllowed(t InteractionType, cb int) bool {
	switch t {
	case InteractionCommand:
		return cb == CallbackMessage || cb == CallbackDeferredMessage || cb == CallbackModal || cb == CallbackLaunchActivity
	case InteractionComponent:
		return cb == CallbackMessage || cb == CallbackDeferredMessage || cb == CallbackDeferredUpdate ||
			cb == CallbackUpdateMessage || cb == CallbackModal || cb == CallbackLaunchActivity
	case InteractionModalSubmit:
		return cb == CallbackLaunchActivity || cb == CallbackMessage || cb == CallbackDeferredMessage ||
			cb == CallbackDeferredUpdate || cb == CallbackUpdateMessage
	case InteractionAutocomplete:
		return cb == CallbackAutocomplete
	case InteractionPing:
		return cb == CallbackPong
	}
	return false
}

// underData prefixes an error's form path with "data", as Discord reports
// errors in an interaction response's data.
func underData(e *apiError) *apiError {
	if e != nil && e.errors != nil {
		e.errors = map[string]any{"data": e.errors}
		e.detail = "data." + e.detail
	}
	return e
}

// handleCallback is the initial response: within the deadline, once.
func (s *Server) handleCallback(q *request) (*reply, *apiError) {
	in, ok := s.inters[q.params["interaction_id"]]
	if !ok || in.Token != q.params["interaction_token"] {
		return nil, newError(404, 10062, "not-found", "Unknown interaction")
	}
	now := s.nowLocked()
	if in.response != nil {
		e := newError(400, 40060, "duplicate-response", "Interaction has already been acknowledged.")
		e.detail = fmt.Sprintf("interaction %s (%s) was already answered with type %d", in.ID, in.describe(), in.response.Type)
		return nil, e
	}
	latency := now.Sub(in.DispatchedAt)
	if in.late || latency > s.opts.ResponseDeadline {
		in.late = true
		e := newError(404, 10062, "late-response", "Unknown interaction")
		e.detail = fmt.Sprintf("interaction %s (%s): first response %.3fs after dispatch, limit %v", in.ID, in.describe(), latency.Seconds(), s.opts.ResponseDeadline)
		return nil, e
	}
	var body struct {
		Type int             `json:"type"`
		Data json.RawMessage `json:"data"`
	}
	if err := q.decode(&body); err != nil {
		return nil, err
	}
	if !callbackAllowed(in.Type, body.Type) {
		e := formError("type", "INTERACTION_RESPONSE_TYPE_INVALID", fmt.Sprintf("Interaction response type %d is not valid for a %s interaction", body.Type, in.Type))
		return nil, e
	}
	if body.Type == CallbackLaunchActivity && !s.opts.Activity {
		return nil, formError("type", "INTERACTION_RESPONSE_TYPE_INVALID", "LAUNCH_ACTIVITY is only available for apps with Activities enabled")
	}
	p, err := parsePayload(body.Data)
	if err != nil {
		return nil, underData(err)
	}
	resp := &Response{InteractionID: in.ID, Type: body.Type, At: now, Latency: latency, Body: slices.Clone(q.body)}
	switch body.Type {
	case CallbackMessage, CallbackDeferredMessage:
		m, err := s.responseMessageLocked(in, p, q.files, body.Type == CallbackDeferredMessage)
		if err != nil {
			return nil, err
		}
		resp.MessageID = m.ID
		in.originalID = m.ID
	case CallbackDeferredUpdate:
		resp.MessageID, in.originalID = in.MessageID, in.MessageID
	case CallbackUpdateMessage:
		m, err := s.updateComponentMessageLocked(in, p, q.files)
		if err != nil {
			return nil, err
		}
		resp.MessageID, in.originalID = m.ID, m.ID
	case CallbackAutocomplete:
		if err := checkAutocomplete(p, in.focusedType); err != nil {
			return nil, err
		}
	case CallbackModal:
		if err := checkModal(p); err != nil {
			return nil, err
		}
	}
	if p.Flags.Set {
		resp.Flags = p.Flags.V
	}
	resp.Content = p.Content.V
	resp.Embeds = normalizeEmbeds(p.Embeds.V)
	resp.Components = cloneComponents(p.Components.V)
	resp.Choices = slices.Clone(p.Choices.V)
	if m, ok := s.messages[resp.MessageID]; ok && body.Type != CallbackDeferredUpdate {
		resp.Attachments = slices.Clone(m.Attachments)
	}
	in.response = resp
	return noContent(), nil
}

// responseMessageLocked makes the message of a type 4 response, or the
// "is thinking..." message of a type 5 deferral.
func (s *Server) responseMessageLocked(in *interactionRec, p *messagePayload, files []upload, deferred bool) (*Message, *apiError) {
	ch := s.channels[in.ChannelID]
	flags := 0
	if p.Flags.Set {
		flags = p.Flags.V
	}
	if flags&^(FlagEphemeral|FlagSuppressEmbeds|FlagSuppressNotifications|FlagComponentsV2) != 0 {
		return nil, formError("data.flags", "MESSAGE_FLAGS_INVALID", fmt.Sprintf("Invalid flags %d: only EPHEMERAL, SUPPRESS_EMBEDS and SUPPRESS_NOTIFICATIONS may be set", flags))
	}
	msgType := 0
	if in.Type == InteractionCommand {
		msgType = 20
	}
	m := &Message{
		ID: s.newIDLocked(), ChannelID: ch.ID, GuildID: ch.GuildID, Type: msgType, AuthorID: s.bot.ID,
		WebhookID: s.opts.AppID, InteractionID: in.ID, InteractionUserID: in.UserID, CreatedAt: s.nowLocked(),
	}
	if deferred {
		m.Flags = FlagLoading | flags&FlagEphemeral
		s.storeMessageLocked(m, ch)
		return m, nil
	}
	if err := s.checkPayload(p, files); err != nil {
		return nil, underData(err)
	}
	m.Flags = flags
	s.fillNew(m, p, files)
	if isEmpty(m) {
		return nil, emptyMessage()
	}
	if !m.Ephemeral() {
		m.Pings = s.pingsLocked(ch, m.Content, p.AllowedMentions, "")
	}
	s.storeMessageLocked(m, ch)
	return m, nil
}

// updateComponentMessageLocked applies a type 7 response to the message
// whose component was used.
func (s *Server) updateComponentMessageLocked(in *interactionRec, p *messagePayload, files []upload) (*Message, *apiError) {
	m, ok := s.messages[in.MessageID]
	if !ok || m.Deleted {
		return nil, unknownMessage()
	}
	if err := s.checkPayload(p, files); err != nil {
		return nil, underData(err)
	}
	edited := m.clone()
	if err := s.applyEdit(&edited, p, files); err != nil {
		return nil, underData(err)
	}
	if isEmpty(&edited) {
		return nil, emptyMessage()
	}
	edited.EditedAt = s.nowLocked()
	edited.Edits++
	*m = edited
	if !m.Ephemeral() {
		s.dispatchMessageLocked("MESSAGE_UPDATE", m, s.channels[m.ChannelID])
	}
	return m, nil
}

func checkAutocomplete(p *messagePayload, optionType int) *apiError {
	if !p.Choices.Set || p.Choices.Null {
		return underData(required("choices"))
	}
	if len(p.Choices.V) > maxAutocompleteChoices {
		return underData(maxLen("choices", maxAutocompleteChoices))
	}
	for i, c := range p.Choices.V {
		if err := checkChoice("choices."+strconv.Itoa(i), c, optionType); err != nil {
			return underData(err)
		}
	}
	return nil
}

func checkModal(p *messagePayload) *apiError {
	if p.CustomID == "" {
		return underData(required("custom_id"))
	}
	if utf8.RuneCountInString(p.CustomID) > maxCustomID {
		return underData(maxLen("custom_id", maxCustomID))
	}
	if n := utf8.RuneCountInString(p.Title); n < 1 || n > 45 {
		return underData(formError("title", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 45 in length."))
	}
	rows := p.Components.V
	if len(rows) < 1 || len(rows) > maxActionRows {
		return underData(formError("components", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length."))
	}
	for i, row := range rows {
		path := "components." + strconv.Itoa(i)
		if row.Type != ComponentActionRow || len(row.Components) != 1 || row.Components[0].Type != ComponentTextInput {
			return underData(formError(path, "MODAL_ROW_INVALID", "Each modal row holds exactly one text input"))
		}
		t := row.Components[0]
		if t.CustomID == "" || utf8.RuneCountInString(t.CustomID) > maxCustomID {
			return underData(formError(path+".components.0.custom_id", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length."))
		}
		if n := utf8.RuneCountInString(t.Label); n < 1 || n > 45 {
			return underData(formError(path+".components.0.label", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 45 in length."))
		}
	}
	return nil
}

// webhookInteractionLocked finds the interaction behind an interaction
// webhook route and checks its token's life.
func (s *Server) webhookInteractionLocked(q *request) (*interactionRec, *apiError) {
	if q.params["application_id"] != s.opts.AppID {
		return nil, unknownWebhook()
	}
	in, ok := s.tokens[q.params["interaction_token"]]
	if !ok {
		return nil, newError(401, 50027, "token-invalid", "Invalid Webhook Token")
	}
	now := s.nowLocked()
	if age := now.Sub(in.DispatchedAt); age > s.opts.TokenLifetime {
		e := newError(401, 50027, "expired-token", "Invalid Webhook Token")
		e.detail = fmt.Sprintf("interaction %s (%s): token used %v after dispatch, it lives %v", in.ID, in.describe(), age.Round(1e6), s.opts.TokenLifetime)
		return nil, e
	}
	if in.Type == InteractionAutocomplete {
		e := unknownWebhook()
		e.detail = "an autocomplete interaction has no followups"
		return nil, e
	}
	if in.response == nil {
		e := unknownWebhook()
		if in.late || now.Sub(in.DispatchedAt) > s.opts.ResponseDeadline {
			in.late = true
			e.detail = fmt.Sprintf("interaction %s (%s) was not answered within %v, so its token is void", in.ID, in.describe(), s.opts.ResponseDeadline)
		} else if in.answering {
			// The endpoint's HTTP answer is not yet taken in: Discord
			// answers Unknown Webhook in this window too
			// (discord-api-docs#2739). The fake cannot tell an edit that
			// raced an answer already sent from one sent before it, and
			// either way the bot's edit fails here as it would on Discord
			// (the bot tries again); so it is refused, not counted.
			e.kind = ""
			e.detail = fmt.Sprintf("interaction %s (%s): its HTTP answer is not yet taken in", in.ID, in.describe())
		} else {
			e.detail = fmt.Sprintf("interaction %s (%s) has no initial response yet", in.ID, in.describe())
		}
		return nil, e
	}
	return in, nil
}

// handleFollowup creates a followup message. The first followup after a
// type 5 deferral completes the deferred message instead, keeping its
// ephemeral state, as Discord does.
func (s *Server) handleFollowup(q *request) (*reply, *apiError) {
	in, err := s.webhookInteractionLocked(q)
	if err != nil {
		return nil, err
	}
	p, err := parsePayload(q.body)
	if err != nil {
		return nil, err
	}
	if err := s.checkPayload(p, q.files); err != nil {
		return nil, err
	}
	flags := 0
	if p.Flags.Set {
		flags = p.Flags.V
	}
	if flags&^(FlagEphemeral|FlagSuppressEmbeds|FlagSuppressNotifications) != 0 {
		return nil, formError("flags", "MESSAGE_FLAGS_INVALID", fmt.Sprintf("Invalid flags %d", flags))
	}
	ch := s.channels[in.ChannelID]
	if orig, ok := s.messages[in.originalID]; ok && in.response.Type == CallbackDeferredMessage && orig.Loading() && !orig.Deleted {
		if ch.IsThread() && ch.Archived && !orig.Ephemeral() {
			return nil, archivedThread()
		}
		done := orig.clone()
		done.Flags = orig.Flags&FlagEphemeral | flags&^FlagEphemeral
		s.fillNew(&done, p, q.files)
		if isEmpty(&done) {
			return nil, emptyMessage()
		}
		*orig = done
		if !orig.Ephemeral() {
			s.dispatchMessageLocked("MESSAGE_UPDATE", orig, ch)
		}
		return s.followupReply(q, orig), nil
	}
	if ch.IsThread() && ch.Archived && flags&FlagEphemeral == 0 {
		return nil, archivedThread()
	}
	m := &Message{
		ID: s.newIDLocked(), ChannelID: ch.ID, GuildID: ch.GuildID, AuthorID: s.bot.ID, WebhookID: s.opts.AppID,
		InteractionID: in.ID, InteractionUserID: in.UserID, Flags: flags, CreatedAt: s.nowLocked(),
	}
	s.fillNew(m, p, q.files)
	if isEmpty(m) {
		return nil, emptyMessage()
	}
	if !m.Ephemeral() {
		m.Pings = s.pingsLocked(ch, m.Content, p.AllowedMentions, "")
	}
	s.storeMessageLocked(m, ch)
	in.followups = append(in.followups, m.ID)
	return s.followupReply(q, m), nil
}

func (s *Server) followupReply(q *request, m *Message) *reply {
	if q.query.Get("wait") == "true" {
		return ok(s.messageJSONLocked(m, false))
	}
	return noContent()
}

// webhookMessageLocked resolves "@original" or a followup's ID.
func (s *Server) webhookMessageLocked(in *interactionRec, id string) (*Message, *apiError) {
	if id == "@original" {
		id = in.originalID
	} else if id != in.originalID && !slices.Contains(in.followups, id) {
		return nil, unknownMessage()
	}
	m, ok := s.messages[id]
	if !ok || m.Deleted {
		return nil, unknownMessage()
	}
	return m, nil
}

func (s *Server) handleWebhookMessageGet(q *request) (*reply, *apiError) {
	m, err := s.webhookRouteLocked(q)
	if err != nil {
		return nil, err
	}
	return ok(s.messageJSONLocked(m, false)), nil
}

func (s *Server) handleWebhookMessageEdit(q *request) (*reply, *apiError) {
	m, err := s.webhookRouteLocked(q)
	if err != nil {
		return nil, err
	}
	ch := s.channels[m.ChannelID]
	if ch.IsThread() && ch.Archived && !m.Ephemeral() {
		return nil, archivedThread()
	}
	edited, err := s.editedCopy(m, q)
	if err != nil {
		return nil, err
	}
	if edited.Loading() {
		edited.Flags &^= FlagLoading
	} else {
		edited.EditedAt = s.nowLocked()
		edited.Edits++
	}
	*m = edited
	if !m.Ephemeral() {
		s.dispatchMessageLocked("MESSAGE_UPDATE", m, ch)
	}
	return ok(s.messageJSONLocked(m, false)), nil
}

func (s *Server) handleWebhookMessageDelete(q *request) (*reply, *apiError) {
	m, err := s.webhookRouteLocked(q)
	if err != nil {
		return nil, err
	}
	ch := s.channels[m.ChannelID]
	if ch.IsThread() && ch.Archived && !m.Ephemeral() {
		return nil, archivedThread()
	}
	s.deleteMessageLocked(m, ch)
	return noContent(), nil
}

// webhookRouteLocked returns the message a
// /webhooks/{app}/{token}/messages/{message_id} request names.
func (s *Server) webhookRouteLocked(q *request) (*Message, *apiError) {
	in, err := s.webhookInteractionLocked(q)
	if err != nil {
		return nil, err
	}
	return s.webhookMessageLocked(in, q.params["message_id"])
}
