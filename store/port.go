package store

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"arbiter/rules"
)

// ExportVersion is the version of the export format this build writes and
// the only one it imports. docs/reference/export-formats.md describes the format.
const ExportVersion = 1

// The export format is JSON Lines: a header line, one line per item, an
// end line that counts the items (a file cut short has none):
//
//	{"arbiter_export":1,"exported":"2026-11-23T19:00:00Z"}
//	{"type":"game","channel":"C","record":{...}}             a game going on (record: schema 1)
//	{"type":"archived","guild":"G","id":"7","record":{...}}  a finished game
//	{"type":"sequence","guild":"G","next":7}                 the guild's last archive id given
//	{"type":"rating","guild":"G","game":"hique","rating":{...}}
//	{"type":"rated","guild":"G","game":"hique","result":"7"} a result already in the ratings
//	{"type":"setting","channel":"C","key":"board","value":"emoji"}
//	{"type":"botturn","channel":"C","id":"7","version":12}   a bot turn queued and not done
//	{"type":"end","items":N}
//
// Claims of bot turns and locks are not exported: they belong to processes.

// Item is one record of an export.
type Item struct {
	Type    string          `json:"type"`
	Guild   string          `json:"guild,omitempty"`
	Channel string          `json:"channel,omitempty"`
	ID      string          `json:"id,omitempty"`
	Game    string          `json:"game,omitempty"`
	Key     string          `json:"key,omitempty"`
	Value   string          `json:"value,omitempty"`
	Result  string          `json:"result,omitempty"`
	Next    uint64          `json:"next,omitempty"`
	Version int64           `json:"version,omitempty"`
	Items   int             `json:"items,omitempty"`
	Record  json.RawMessage `json:"record,omitempty"`
	Rating  *Rating         `json:"rating,omitempty"`
}

// exportHeader is the first line of an export.
type exportHeader struct {
	Version  int       `json:"arbiter_export"`
	Exported time.Time `json:"exported"`
}

// Porter is a backend whose whole content can be walked and filled item by
// item: both backends are, so that everything moves between them.
type Porter interface {
	// Walk calls fn with every item the store holds.
	Walk(ctx context.Context, fn func(Item) error) error
	// Empty reports whether the store holds no game, archive, rating or
	// setting: import writes only into an empty store.
	Empty(ctx context.Context) (bool, error)
	// Put writes items, which Import has checked.
	Put(ctx context.Context, items []Item) error
}

// Export writes everything p holds to w in the export format, and returns
// how many items it wrote.
func Export(ctx context.Context, p Porter, w io.Writer, now time.Time) (int, error) {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	if err := enc.Encode(exportHeader{Version: ExportVersion, Exported: now.UTC()}); err != nil {
		return 0, fmt.Errorf("export: %w", err)
	}
	n := 0
	err := p.Walk(ctx, func(it Item) error {
		n++
		return enc.Encode(it)
	})
	if err != nil {
		return 0, fmt.Errorf("export: %w", err)
	}
	if err := enc.Encode(Item{Type: "end", Items: n}); err != nil {
		return 0, fmt.Errorf("export: %w", err)
	}
	if err := bw.Flush(); err != nil {
		return 0, fmt.Errorf("export: %w", err)
	}
	return n, nil
}

// Import reads an export from open (called twice: once to check every
// line, once to write) into p, which must be empty. A file of another
// version, or with a line that does not read or a record that does not
// decode, or cut short, is refused, naming the line, before anything is
// written. It returns how many items it wrote.
func Import(ctx context.Context, p Porter, reg *rules.Registry, open func() (io.ReadCloser, error)) (int, error) {
	if _, err := readExport(open, func(Item) error { return nil }, reg); err != nil {
		return 0, err
	}
	empty, err := p.Empty(ctx)
	if err != nil {
		return 0, fmt.Errorf("import: %w", err)
	}
	if !empty {
		return 0, errors.New("import: the store is not empty; import writes only into an empty store (a new DATA_DIR, or an empty Redis)")
	}
	var batch []Item
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		err := p.Put(ctx, batch)
		batch = batch[:0]
		return err
	}
	n, err := readExport(open, func(it Item) error {
		batch = append(batch, it)
		if len(batch) >= 256 {
			return flush()
		}
		return nil
	}, reg)
	if err == nil {
		err = flush()
	}
	if err != nil {
		return 0, fmt.Errorf("import: %w", err)
	}
	return n, nil
}

// readExport reads an export, checking each item and calling fn with it.
func readExport(open func() (io.ReadCloser, error), fn func(Item) error, reg *rules.Registry) (int, error) {
	f, err := open()
	if err != nil {
		return 0, fmt.Errorf("import: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 64<<20)
	line := 0
	bad := func(format string, args ...any) error {
		return fmt.Errorf("import: line %d: %s", line, fmt.Sprintf(format, args...))
	}
	if !sc.Scan() {
		return 0, fmt.Errorf("import: the file is empty or unreadable: %v", sc.Err())
	}
	line++
	var h exportHeader
	if err := json.Unmarshal(sc.Bytes(), &h); err != nil || h.Version == 0 {
		return 0, bad("not an Arbiter export (its first line is not the header)")
	}
	if h.Version != ExportVersion {
		return 0, bad("export format version %d; this build reads version %d", h.Version, ExportVersion)
	}
	n := 0
	for sc.Scan() {
		line++
		var it Item
		if err := json.Unmarshal(sc.Bytes(), &it); err != nil {
			return 0, bad("does not read: %v", err)
		}
		if it.Type == "end" {
			if it.Items != n {
				return 0, bad("the end line counts %d items but the file has %d", it.Items, n)
			}
			if sc.Scan() {
				return 0, fmt.Errorf("import: line %d: text after the end line", line+1)
			}
			return n, nil
		}
		if err := checkItem(&it, reg); err != nil {
			return 0, bad("%s: %v", it.Type, err)
		}
		if err := fn(it); err != nil {
			return 0, err
		}
		n++
	}
	if err := sc.Err(); err != nil {
		return 0, fmt.Errorf("import: line %d: %w", line+1, err)
	}
	return 0, fmt.Errorf("import: the file ends at line %d without its end line: it was cut short", line)
}

// checkItem checks one item as Put will write it.
func checkItem(it *Item, reg *rules.Registry) error {
	ids := func(pairs ...string) error {
		for i := 0; i < len(pairs); i += 2 {
			if err := CheckID(pairs[i], pairs[i+1]); err != nil {
				return err
			}
		}
		return nil
	}
	switch it.Type {
	case "game":
		if err := ids("channel", it.Channel); err != nil {
			return err
		}
		g, err := checkRecord(it.Record, reg)
		if err != nil {
			return fmt.Errorf("the game in channel %s: %v", it.Channel, err)
		}
		if g.Channel != it.Channel || g.Status != Active {
			return fmt.Errorf("the game in channel %s: its record is of channel %q, %s", it.Channel, g.Channel, g.Status)
		}
	case "archived":
		if err := ids("guild", it.Guild, "archive", it.ID); err != nil {
			return err
		}
		g, err := checkRecord(it.Record, reg)
		if err != nil {
			return fmt.Errorf("archived game %s of guild %s: %v", it.ID, it.Guild, err)
		}
		if g.Guild != it.Guild || g.ID != it.ID || g.Status != Finished {
			return fmt.Errorf("archived game %s of guild %s: its record is game %s of guild %s, %s", it.ID, it.Guild, g.ID, g.Guild, g.Status)
		}
	case "sequence":
		return ids("guild", it.Guild)
	case "rating":
		if it.Rating == nil {
			return errors.New("no rating")
		}
		return CheckRatingArgs(it.Guild, it.Game, []string{it.Rating.Player})
	case "rated":
		return ids("guild", it.Guild, "game", it.Game, "result", it.Result)
	case "setting":
		if it.Key == "" || it.Value == "" {
			return errors.New("a setting needs a key and a value")
		}
		return ids("channel", it.Channel)
	case "botturn":
		if it.Version < 1 {
			return fmt.Errorf("version %d", it.Version)
		}
		return ids("channel", it.Channel, "archive", it.ID)
	default:
		return fmt.Errorf("unknown item type %q", it.Type)
	}
	return nil
}

// checkRecord decodes a game record fully, position included.
func checkRecord(data []byte, reg *rules.Registry) (*Game, error) {
	r, err := DecodeRecord(data)
	if err != nil {
		return nil, err
	}
	return r.Game(reg)
}
