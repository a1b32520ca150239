package bot

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/bwmarrin/discordgo"
)

// maxInteractionBytes bounds an interaction request's body; Discord's are
// a few kilobytes.
const maxInteractionBytes = 1 << 20

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
	r.Body = http.MaxBytesReader(w, r.Body, maxInteractionBytes)
	if !discordgo.VerifyInteraction(r, b.cfg.PublicKey) {
		http.Error(w, "invalid request signature", http.StatusUnauthorized)
		return
	}
	sec, err := strconv.ParseInt(r.Header.Get("X-Signature-Timestamp"), 10, 64)
	if err != nil || b.cfg.Now().Sub(time.Unix(sec, 0)).Abs() > b.cfg.MaxRequestAge {
		http.Error(w, "stale request: its timestamp is too far from now", http.StatusUnauthorized)
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, "the request body could not be read", http.StatusBadRequest)
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
