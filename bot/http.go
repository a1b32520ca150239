package bot

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"arbiter/internal/httplimit"

	"github.com/bwmarrin/discordgo"
)

// maxInteractionBytes bounds an interaction request's body. Discord
// documents no maximum for an interaction's body, only for its parts: a
// message's content is at most 4,000 characters and its embeds 6,000
// (resources/message.mdx), a text input's value 4,000
// (components/reference.mdx), and Arbiter registers no message command
// that would carry another's message. Its own interactions are a few
// kilobytes (a button's carries Arbiter's own message); 64 KiB is room
// for the largest with every character escaped.
const maxInteractionBytes = 64 << 10

// Bounds on the bodies being read before their signature is checked (of
// anyone who knows the endpoint's address): per client address and in
// all. Discord sends each body at once, so a body is read for an instant;
// a client that stalls holds its place until the read timeout.
const (
	unverifiedPerAddress = 16
	unverifiedInAll      = 256
)

// unverified counts the bodies being read before their signature is
// checked, by client address.
type unverified struct {
	mu     sync.Mutex
	total  int
	byAddr map[string]int
}

// enter takes a place for a body from addr; false when there is none.
func (u *unverified) enter(addr string) bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.total >= unverifiedInAll || u.byAddr[addr] >= unverifiedPerAddress {
		return false
	}
	if u.byAddr == nil {
		u.byAddr = map[string]int{}
	}
	u.total++
	u.byAddr[addr]++
	return true
}

// leave gives addr's place back.
func (u *unverified) leave(addr string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.total--
	if u.byAddr[addr]--; u.byAddr[addr] <= 0 {
		delete(u.byAddr, addr)
	}
}

// signatureHeaders checks the signature headers' form, as Discord sends
// them (interactions/overview.mdx, "Security and Authorization"): a hex
// Ed25519 signature and a Unix timestamp in seconds. It returns the
// signature and the timestamp's text, or why they are refused.
func signatureHeaders(h http.Header) (sig []byte, stamp string, why string) {
	raw := h.Get("X-Signature-Ed25519")
	if len(raw) != 2*ed25519.SignatureSize {
		return nil, "", "invalid request signature: X-Signature-Ed25519 is not a hex Ed25519 signature"
	}
	sig, err := hex.DecodeString(raw)
	if err != nil {
		return nil, "", "invalid request signature: X-Signature-Ed25519 is not a hex Ed25519 signature"
	}
	stamp = h.Get("X-Signature-Timestamp")
	if len(stamp) == 0 || len(stamp) > 12 || strings.Trim(stamp, "0123456789") != "" {
		return nil, "", "invalid request timestamp: X-Signature-Timestamp is not a Unix time in seconds"
	}
	return sig, stamp, ""
}

// ServeHTTP is the HTTP interactions endpoint (`arbiter bot --http`):
// Discord POSTs each interaction, signed with the application's Ed25519
// key, and the HTTP answer is the first response. A request whose
// signature does not verify, or whose signed timestamp is further than
// Config.MaxRequestAge from now (a replay), is refused with 401; an
// interaction id seen before (a replay inside that window) gets 409 and
// no second answer; a PING is answered with PONG.
func (b *Bot) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	received := b.cfg.Now()
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "interactions are POSTed", http.StatusMethodNotAllowed)
		return
	}
	if len(b.cfg.PublicKey) != ed25519.PublicKeySize {
		b.log.Error("interactions endpoint without the application's public key")
		http.Error(w, "the endpoint has no public key to verify requests with", http.StatusInternalServerError)
		return
	}
	// Everything that can be judged before the body is: its headers' form,
	// the timestamp's age, the declared length.
	sig, stamp, why := signatureHeaders(r.Header)
	if why != "" {
		http.Error(w, why, http.StatusUnauthorized)
		return
	}
	sec, err := strconv.ParseInt(stamp, 10, 64)
	if err != nil || b.cfg.Now().Sub(time.Unix(sec, 0)).Abs() > b.cfg.MaxRequestAge {
		http.Error(w, "stale request: its timestamp is too far from now", http.StatusUnauthorized)
		return
	}
	if r.ContentLength > maxInteractionBytes {
		http.Error(w, "request too large for an interaction", http.StatusRequestEntityTooLarge)
		return
	}
	addr := httplimit.ClientAddress(r)
	if !b.unverified.enter(addr) {
		w.Header().Set("Retry-After", "10")
		http.Error(w, "too many unverified requests at once", http.StatusServiceUnavailable)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxInteractionBytes))
	b.unverified.leave(addr)
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		http.Error(w, "request too large for an interaction", http.StatusRequestEntityTooLarge)
		return
	case err != nil:
		http.Error(w, "the request body could not be read", http.StatusBadRequest)
		return
	case !ed25519.Verify(b.cfg.PublicKey, append([]byte(stamp), body...), sig):
		http.Error(w, "invalid request signature", http.StatusUnauthorized)
		return
	}
	var i discordgo.Interaction
	if err := json.Unmarshal(body, &i); err != nil {
		http.Error(w, "the request is not an interaction", http.StatusBadRequest)
		return
	}
	// An interaction is answered once: a replay within the signature's
	// window (twice its age bound) is refused, whichever process gets it.
	// The look takes at most a third of the time before a deferral, so a
	// stalled store still gets its answer deferred in time.
	if i.Type != discordgo.InteractionPing && b.svc != nil {
		ctx, cancel := context.WithTimeout(r.Context(), b.cfg.DeferAfter/3)
		first := b.svc.FirstDelivery(ctx, i.ID, 2*b.cfg.MaxRequestAge)
		cancel()
		if !first {
			http.Error(w, "this interaction was delivered before and is answered once", http.StatusConflict)
			return
		}
	}
	if !b.enter() {
		http.Error(w, "Arbiter is shutting down", http.StatusServiceUnavailable)
		return
	}
	defer b.inflight.Done()
	sent := make(chan struct{})
	b.answer(&i, received, httpResponder(w), sent)
	// The answer is written: send it now, then let a deferral be completed.
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
	close(sent)
}

// errAnswered means an HTTP interaction already has its answer.
var errAnswered = errors.New("the interaction was already answered")

// httpResponder writes the first response into the HTTP answer, as JSON,
// or as multipart form data when it carries files.
func httpResponder(w http.ResponseWriter) respondFunc {
	answered := false
	return func(resp *discordgo.InteractionResponse) error {
		if answered {
			return errAnswered
		}
		answered = true
		var (
			contentType = "application/json"
			body        []byte
			err         error
		)
		if resp.Data != nil && len(resp.Data.Files) > 0 {
			contentType, body, err = discordgo.MultipartBodyWithJSON(resp, resp.Data.Files)
		} else {
			body, err = json.Marshal(wire(resp))
		}
		if err != nil {
			http.Error(w, "the answer could not be encoded", http.StatusInternalServerError)
			return err
		}
		w.Header().Set("Content-Type", contentType)
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		_, err = w.Write(body)
		return err
	}
}
