package discordtest

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// This file is Discord's side of the HTTP interactions endpoint: instead of
// the gateway, Discord POSTs each interaction, signed with Ed25519, to the
// application's URL, and the HTTP answer is the initial response.

// Delivery says how PostInteraction and PostPing deliver a request. The
// zero value is a genuine request, signed now with the application's key.
// Anything else is what an attacker could send; such requests are not
// recorded as interactions, and the endpoint should refuse them with 401.
type Delivery struct {
	// Unsigned leaves out X-Signature-Ed25519 and X-Signature-Timestamp.
	Unsigned bool
	// Tamper changes the body after signing it.
	Tamper bool
	// WrongKey signs with a key that is not the application's.
	WrongKey bool
	// SignedAt is the X-Signature-Timestamp; zero means now by the fake's
	// clock. An old value replays a stale request.
	SignedAt time.Time
}

func (d Delivery) genuine() bool {
	return !d.Unsigned && !d.Tamper && !d.WrongKey && d.SignedAt.IsZero()
}

// EndpointAnswer is what an interactions endpoint answered.
type EndpointAnswer struct {
	Status int
	Body   []byte
	// Interaction is what was posted (unregistered unless genuine).
	Interaction Interaction
	// Response is the accepted initial response of a genuine request that
	// got 200, checked like a callback (deadline, type, limits).
	Response *Response
}

// PublicKey is the application's Ed25519 public key, as the Developer
// Portal shows it (hex) for the bot to verify requests with
// discordgo.VerifyInteraction.
func (s *Server) PublicKey() ed25519.PublicKey {
	return s.keys.public
}

// PublicKeyHex is PublicKey in hex.
func (s *Server) PublicKeyHex() string { return hex.EncodeToString(s.keys.public) }

type signingKeys struct {
	public         ed25519.PublicKey
	private, other ed25519.PrivateKey
}

func newSigningKeys(rnd io.Reader) (signingKeys, error) {
	pub, priv, err := ed25519.GenerateKey(rnd)
	if err != nil {
		return signingKeys{}, fmt.Errorf("generate application key: %w", err)
	}
	_, other, err := ed25519.GenerateKey(rnd)
	if err != nil {
		return signingKeys{}, fmt.Errorf("generate second key: %w", err)
	}
	return signingKeys{public: pub, private: priv, other: other}, nil
}

// PostInteraction builds an interaction as SendInteraction does and POSTs
// it to an HTTP interactions endpoint. For a genuine delivery the answer is
// taken as the initial response, with every check a callback gets.
func (s *Server) PostInteraction(ctx context.Context, endpoint string, spec InteractionSpec, d Delivery) (EndpointAnswer, error) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return EndpointAnswer{}, errClosed
	}
	s.sweepLocked()
	in, err := s.buildInteractionLocked(spec)
	if err != nil {
		s.mu.Unlock()
		return EndpointAnswer{}, fmt.Errorf("post %s interaction: %w", spec.Type, err)
	}
	if d.genuine() {
		s.registerLocked(in)
	}
	s.mu.Unlock()
	return s.post(ctx, endpoint, in, d)
}

// PostPing POSTs a PING (type 1), as Discord does when the endpoint URL is
// saved; a genuine PING must be answered {"type": 1}.
func (s *Server) PostPing(ctx context.Context, endpoint string, d Delivery) (EndpointAnswer, error) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return EndpointAnswer{}, errClosed
	}
	in := &interactionRec{Interaction: Interaction{ID: s.newIDLocked(), Token: randomToken("aW50ZXJhY3Rpb246"), Type: InteractionPing}}
	raw, err := json.Marshal(map[string]any{
		"id": in.ID, "application_id": s.opts.AppID, "type": int(InteractionPing), "token": in.Token, "version": 1,
		"user": wireUser{ID: "643945264868098049", Username: "discord", Discriminator: "0000"},
	})
	if err != nil {
		s.mu.Unlock()
		return EndpointAnswer{}, fmt.Errorf("encode ping: %w", err)
	}
	in.Payload = raw
	if d.genuine() {
		s.registerLocked(in)
	}
	s.mu.Unlock()
	return s.post(ctx, endpoint, in, d)
}

func (s *Server) post(ctx context.Context, endpoint string, in *interactionRec, d Delivery) (EndpointAnswer, error) {
	ans := EndpointAnswer{Interaction: in.snapshot()}
	body := bytes.Clone(in.Payload)
	signedAt := d.SignedAt
	if signedAt.IsZero() {
		signedAt = s.Now()
	}
	ts := strconv.FormatInt(signedAt.Unix(), 10)
	key := s.keys.private
	if d.WrongKey {
		key = s.keys.other
	}
	sig := ed25519.Sign(key, append([]byte(ts), body...))
	if d.Tamper {
		body = bytes.Replace(body, []byte(`"type":`), []byte(`"type" :`), 1)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(body))
	if err != nil {
		return ans, fmt.Errorf("post interaction to %s: %w", endpoint, err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "Discord-Interactions/1.0 (+https://discord.com)")
	if !d.Unsigned {
		req.Header.Set("X-Signature-Ed25519", hex.EncodeToString(sig))
		req.Header.Set("X-Signature-Timestamp", ts)
	}
	if d.genuine() {
		// Until the endpoint's answer is taken in, an edit may race
		// ahead of it: it is refused (10015) as Discord refuses it.
		s.mu.Lock()
		in.answering = true
		s.mu.Unlock()
		defer func() {
			s.mu.Lock()
			in.answering = false
			s.mu.Unlock()
		}()
	}
	resp, err := s.endpointClient.Do(req)
	if err != nil {
		return ans, fmt.Errorf("post interaction to %s: %w", endpoint, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxRequestBytes))
	if err != nil {
		return ans, fmt.Errorf("read answer of %s: %w", endpoint, err)
	}
	ans.Status, ans.Body = resp.StatusCode, raw
	if !d.genuine() {
		return ans, nil
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	defer s.notifyLocked()
	if resp.StatusCode != http.StatusOK {
		in.failed = true
		s.violateLocked("endpoint", "interactions endpoint answered %d to genuine interaction %s (%s)", resp.StatusCode, in.ID, in.describe())
		return ans, nil
	}
	if ct := resp.Header.Get("Content-Type"); strings.HasPrefix(ct, "multipart/") && len(raw) > s.opts.MaxInlineAnswerBytes {
		in.failed = true
		s.violateLocked("too-large", "interactions endpoint answer to %s (%s): %d bytes of multipart inline, over the %d at which Discord fails it (discord-api-docs#5250); defer and upload by an edit",
			in.ID, in.describe(), len(raw), s.opts.MaxInlineAnswerBytes)
		return ans, nil
	}
	q := &request{method: http.MethodPost, path: "interactions endpoint answer", query: url.Values{},
		params: map[string]string{"interaction_id": in.ID, "interaction_token": in.Token}}
	if aerr := q.parseBody(resp.Header.Get("Content-Type"), raw); aerr != nil {
		in.failed = true
		s.violateLocked(aerr.kind, "interactions endpoint answer: %s", aerr.Error())
		return ans, nil
	}
	if s.opts.OpenAPI {
		// The answer is the body Discord's callback route takes.
		s.checkOpenAPILocked(http.MethodPost, "/interactions/"+in.ID+"/"+in.Token+"/callback", q.body)
	}
	if _, aerr := s.handleCallback(q); aerr != nil {
		in.failed = in.response == nil
		s.violateLocked(aerr.kind, "interactions endpoint answer: %s", aerr.Error())
		return ans, nil
	}
	r := cloneResponse(in.response)
	ans.Response = &r
	return ans, nil
}
