// Package boltstore is the embedded store.Store backend: one bbolt
// database file (DatabaseFile) in the data directory, for one process,
// which locks the directory. A change must keep its invariants: every
// write is committed in a transaction and synced before the call returns
// (a game's save may share its transaction with saves that arrive with
// it: see groupCommit); every index is updated in the transaction that
// changes what it indexes, so indexes are exact; and a database of the
// previous layout still opens (boltFormat, migrated when opened; a newer
// layout is refused; see store's MIGRATIONS.md). See docs/explanation/storage.md
// for its figures.
//
// # Layout
//
// Top-level buckets, with keys and values:
//
//	meta                 "format" -> "2"; "imported" -> the file imported at first start
//	games                channel -> the game's head: its record without its moves (JSON, schema 2)
//	moves                channel + 0x00 + index (4 bytes) -> one move of the game (JSON); see moves.go
//	damaged              "<channel>/<unix ms>" -> a record moved aside by Quarantine, "…/moves" its moves
//	wake                 channel -> the game's wake time (8 bytes, Unix ms, big-endian)
//	deadlines            wake time (8 bytes) + channel -> empty: the deadline index
//	queue                job number (8 bytes) -> bot turn (JSON); its sequence numbers jobs
//	settings             channel + 0x00 + key -> value
//	heartbeat            "last" -> the last beat (8 bytes, Unix ms)
//	outages              end (8 bytes, Unix ms) -> start (8 bytes)
//	outbox               key -> outbox entry (JSON)
//	outboxdue            due time (8 bytes) + key -> empty
//	attempts             job key -> attempts started and not finished (8 bytes)
//	dead                 sequence (8 bytes) -> dead letter (JSON), newest last
//	tokens               token hash -> its owner (JSON)
//	tokenusers           user -> the hash of their current token
//	tokenissued          user -> when they were last given a token (8 bytes, Unix ms)
//	playlinks            secret's hash -> a play page one-time link (store.PlayGrant, JSON)
//	playsessions         secret's hash -> a play page session (store.PlayGrant, JSON)
//	playexpiry           expiry (8 bytes, Unix ms) + bucket + "/" + hash -> empty: swept at each keeping
//	analysisline         guild/game -> an analysis in line: its order, asker, channels, posts and progress (JSON)
//	analyseskept         guild/game -> a finished analysis (store.Analysis and its keeping order, JSON)
//	analysiskeptorder    keeping order (8 bytes) -> guild/game: the oldest is forgotten past store.KeptAnalyses
//	guilds/<guild>       a guild ("count" -> its archived games); its sequence gives archive ids, with buckets:
//	  archive            archive id -> game record
//	  archived           finish time (8 bytes) + archive id -> empty: newest last
//	  active             channel -> empty: the guild's channels with a game going on
//	  ratings:<game>     player -> rating (JSON)
//	  board:<game>       rating (8 sortable bytes) + player -> empty
//	  rated:<game>       result id -> empty
//
// Claims of bot turns, leases of analyses and locks live in memory: only this process can
// open the directory, so a claim or a lock of a process that ended died
// with it.
package boltstore

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"

	"arbiter/internal/atomicfile"
	"arbiter/rules"
	"arbiter/store"
)

// DatabaseFile is the embedded backend's database in the data directory.
const DatabaseFile = "arbiter.db"

// boltFormat is the layout version of the database, kept under
// meta/format. A build refuses a database of a layout it does not know,
// and migrates one of an earlier layout when it opens it. Layout 2 keeps
// a running game's moves in the moves bucket, beside its head; layout 1
// kept them inline in its record. It is store.Layout, as text.
const boltFormat = "2"

// Bolt is the embedded store: one bbolt database file in the data
// directory, for one process (the directory is locked). Every write is
// committed in a bbolt transaction and fsync'd before the call returns
// (Save shares its transaction with the saves that arrive with it), so a
// write that was acknowledged survives a crash of the process and a power
// loss; its cost depends on what it changes, not on how much is stored.
// It meets the Store contract and is safe for concurrent use; the package
// doc has its file layout.
type Bolt struct {
	db           *bolt.DB
	path         string
	dirLock      *os.File
	reg          *rules.Registry
	log          *slog.Logger
	claimTimeout time.Duration
	now          func() time.Time
	txs          atomic.Int64
	moveMemo     moveMemo    // decoded moves, by their stored bytes
	heads        headMemo    // the heads last read or written, by channel, and what they read as
	group        groupCommit // the transactions Save shares

	// swap is held (shared) by every transaction and (alone) while
	// compact puts a new database file in place of db.
	swap sync.RWMutex

	mu     sync.Mutex          // guards claims, locks and wakeup
	claims map[uint64]claim    // bot turns handed to a worker, by job number
	locks  map[string]boltLock // locks held, by name
	// analysisLeases are the analysis jobs handed to a worker, by key.
	analysisLeases map[string]analysisLease
	wakeup         chan struct{} // closed and replaced when a job is queued
	closed         chan struct{} // closed by Close
	once           sync.Once
}

var _ store.Store = (*Bolt)(nil)

// errInUse says another process has the database open.
var errInUse = errors.New("it is in use by another process")

// damagedFile says the database file does not read, and what to do.
type damagedFile struct {
	path  string
	cause any // an error, or what bbolt panicked with
}

func (e *damagedFile) Error() string {
	return fmt.Sprintf("the database file %s is damaged (%v): restore it from a backup (see docs/how-to/backup-restore.md), "+
		"or set STORE_START_EMPTY=1 to move it aside and start with an empty store", e.path, e.cause)
}

// Bucket names.
var (
	bMeta      = []byte("meta")
	bGames     = []byte("games")
	bMoves     = []byte("moves")
	bDamaged   = []byte("damaged")
	bWake      = []byte("wake")
	bDeadlines = []byte("deadlines")
	bQueue     = []byte("queue")
	bSettings  = []byte("settings")
	bGuilds    = []byte("guilds")
	bArchive   = []byte("archive")
	bArchived  = []byte("archived")
	bActive    = []byte("active")
	kFormat    = []byte("format")
	kCount     = []byte("count")
	kImported  = []byte("imported")
)

// topBuckets are the top-level buckets every database has.
var topBuckets = [][]byte{bGames, bMoves, bDamaged, bWake, bDeadlines, bQueue, bSettings, bGuilds}

func ratingsBucket(game string) []byte { return []byte("ratings:" + game) }
func boardBucket(game string) []byte   { return []byte("board:" + game) }
func ratedBucket(game string) []byte   { return []byte("rated:" + game) }

// Open opens (or creates) the embedded store in cfg.DataDir. It locks
// the directory to this process; a database file that does not read is an
// error naming the file and what to do, unless cfg.StartEmpty moves it
// aside. The data file of the earlier embedded backend
// (arbiter-store.json) in a directory whose database is still empty is
// imported once, and kept beside, renamed.
func Open(ctx context.Context, cfg store.Config) (*Bolt, error) {
	if cfg.Registry == nil {
		return nil, fmt.Errorf("open store: %w: no game registry given", store.ErrInvalid)
	}
	dir := cfg.DataDir
	if dir == "" {
		dir = "data"
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("open store: create the data directory: %w", err)
	}
	lock, err := lockDir(dir)
	if err != nil {
		return nil, fmt.Errorf("open store: embedded store: %w", err)
	}
	s := &Bolt{
		path:         filepath.Join(dir, DatabaseFile),
		dirLock:      lock,
		reg:          cfg.Registry,
		log:          cfg.Logger,
		claimTimeout: cfg.ClaimTimeout,
		now:          cfg.Now,
		claims:       map[uint64]claim{},
		locks:        map[string]boltLock{},
		wakeup:       make(chan struct{}),
		closed:       make(chan struct{}),
	}
	if s.log == nil {
		s.log = slog.Default()
	}
	if s.claimTimeout <= 0 {
		s.claimTimeout = 2 * time.Minute
	}
	if s.now == nil {
		s.now = time.Now
	}
	db, err := openBoltFile(s.path)
	if errors.As(err, new(*damagedFile)) && cfg.StartEmpty {
		aside := fmt.Sprintf("%s.damaged-%d", s.path, time.Now().Unix())
		if rerr := os.Rename(s.path, aside); rerr != nil {
			_ = unlockDir(lock)
			return nil, fmt.Errorf("open store: %w; moving it aside failed: %v", err, rerr)
		}
		s.log.Warn("store: the database file did not read; it was moved aside and the store starts empty",
			"file", aside, "err", err)
		db, err = openBoltFile(s.path)
	}
	if err != nil {
		_ = unlockDir(lock)
		return nil, fmt.Errorf("open store: %w", err)
	}
	s.db = db
	if err := s.importLegacy(ctx, dir); err != nil {
		_ = s.db.Close()
		_ = unlockDir(lock)
		return nil, fmt.Errorf("open store: %w", err)
	}
	if cfg.BackupEvery > 0 {
		go s.backupLoop(filepath.Join(dir, BackupDir), cfg.BackupEvery, cfg.BackupKeep)
	}
	s.log.Info("store: using the embedded database (no REDIS_URL)", "file", s.path)
	return s, nil
}

// initialMmapSize is how much of the file bbolt maps at first: address
// space, not memory. A commit that grows the file past the mapping maps it
// again, and that waits for every read transaction to end: a backup or an
// export of a big store would hold up every move meanwhile. Mapped 1 GiB
// ahead (on 64-bit systems), a store remaps only past 1 GiB, and from there
// once per GiB of growth.
const initialMmapSize = 1 << 30 * (strconv.IntSize / 64)

// openBoltFile opens the database at path and checks its layout. bbolt
// may panic on a file that is damaged in ways its checksums do not catch;
// that becomes an error too.
func openBoltFile(path string) (db *bolt.DB, err error) {
	damaged := func(cause any) error { return &damagedFile{path: path, cause: cause} }
	if err := checkBoltFile(path); err != nil {
		return nil, damaged(err)
	}
	// A fault reading the mapped file (a page past its end) panics rather
	// than killing the process, and the panic becomes the error.
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if p := recover(); p != nil {
			if db != nil {
				_ = db.Close()
			}
			db, err = nil, damaged(p)
		}
	}()
	// The freelist is written with every commit (NoFreelistSync off): a
	// file without one has bbolt walk every page at open in a goroutine of
	// its own, where a damaged page panics out of reach of this recover.
	db, err = bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second, FreelistType: bolt.FreelistMapType,
		InitialMmapSize: initialMmapSize})
	if errors.Is(err, bolterrors.ErrTimeout) {
		return nil, fmt.Errorf("the database file %s: %w", path, errInUse)
	}
	if err != nil {
		return nil, damaged(err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		meta, err := tx.CreateBucketIfNotExists(bMeta)
		if err != nil {
			return err
		}
		f := meta.Get(kFormat)
		if f != nil && string(f) != "1" && string(f) != boltFormat {
			return fmt.Errorf("the database file %s has layout %s and this build reads layout %s and earlier: %w; "+
				"run the newer build again, or restore the backup taken before the upgrade (docs/how-to/upgrade.md)",
				path, f, boltFormat, store.ErrNewerLayout)
		}
		for _, name := range topBuckets {
			if _, err := tx.CreateBucketIfNotExists(name); err != nil {
				return err
			}
		}
		if string(f) == "1" {
			if err := migrateLayout1(tx); err != nil {
				return fmt.Errorf("the database file %s: move to layout %s: %w", path, boltFormat, err)
			}
		}
		return meta.Put(kFormat, []byte(boltFormat))
	})
	if err != nil {
		_ = db.Close()
		if errors.Is(err, bolterrors.ErrIncompatibleValue) {
			return nil, damaged(err)
		}
		return nil, err
	}
	return db, nil
}

// migrateLayout1 moves a database of layout 1 to this layout: the moves
// of each running game out of its record into the moves bucket. A record
// that does not decode stays as it is (Load reports it damaged).
func migrateLayout1(tx *bolt.Tx) error {
	type entry struct{ channel, data []byte }
	var all []entry
	err := tx.Bucket(bGames).ForEach(func(k, v []byte) error {
		all = append(all, entry{slices.Clone(k), slices.Clone(v)})
		return nil
	})
	if err != nil {
		return err
	}
	for _, e := range all {
		if err := putSplit(tx, string(e.channel), e.data); err != nil {
			return err
		}
	}
	return nil
}

// checkBoltFile checks, before bbolt maps it, that a database file is as
// long as its newest valid meta page says: a file cut short (a full disk,
// a partial copy) is reported here, since bbolt could fault or panic on
// it. A missing file is fine (it is created); a file without a valid meta
// page is left to bbolt, which refuses it.
func checkBoltFile(path string) error {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	var best struct{ txid, end uint64 }
	for _, at := range []int64{0, 4096, 8192, 16384, 65536} { // page 0, then page 1 at each page size
		var m [80]byte
		if n, _ := f.ReadAt(m[:], at); n < len(m) {
			continue
		}
		le := binary.LittleEndian
		if le.Uint32(m[16:]) != 0xED0CDAED {
			continue
		}
		h := fnv.New64a()
		h.Write(m[16:72])
		if h.Sum64() != le.Uint64(m[72:]) {
			continue
		}
		pageSize, pgid, txid := uint64(le.Uint32(m[24:])), le.Uint64(m[56:]), le.Uint64(m[64:])
		if at != 0 && uint64(at) != pageSize {
			continue // not page 1 of this file
		}
		if txid >= best.txid {
			best.txid, best.end = txid, pgid*pageSize
		}
	}
	if best.end > uint64(fi.Size()) {
		return fmt.Errorf("the file is cut short: %d bytes where its last commit needs %d", fi.Size(), best.end)
	}
	return nil
}

// Close closes the database and frees the data directory. Every write was
// committed when it returned, so there is nothing left to write.
func (s *Bolt) Close(ctx context.Context) error {
	var err error
	s.once.Do(func() {
		close(s.closed)
		s.swap.Lock()
		err = s.db.Close()
		s.swap.Unlock()
		if uerr := unlockDir(s.dirLock); err == nil {
			err = uerr
		}
	})
	if err != nil {
		return fmt.Errorf("close store: %w", err)
	}
	return nil
}

// Stats counts the database transactions since Open, as both commands and
// round trips.
func (s *Bolt) Stats() store.Stats {
	n := s.txs.Load()
	return store.Stats{Commands: n, RoundTrips: n}
}

// Path returns the database file.
func (s *Bolt) Path() string { return s.path }

// Backup writes a consistent copy of the database to path while the store
// goes on serving: one read transaction, so writers are not held up. The
// copy is written to a temp file beside path, synced and renamed over it,
// so path always holds a whole backup. Restore by stopping Arbiter and
// putting the copy in place of DataDir/arbiter.db.
func (s *Bolt) Backup(ctx context.Context, path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	return atomicfile.Replace(path, func(w io.Writer) error { return s.WriteBackup(ctx, w, nil) })
}

// backupLoop writes a backup into dir every period until Close, keeping
// the newest keep.
func (s *Bolt) backupLoop(dir string, every time.Duration, keep int) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-s.closed:
			return
		case <-t.C:
			ctx, cancel := context.WithTimeout(context.Background(), every)
			if path, err := s.rotatingBackup(ctx, dir, keep); err != nil {
				s.log.Error("store: the periodic backup failed", "dir", dir, "err", err)
			} else {
				s.log.Info("store: backup written", "file", path)
			}
			cancel()
		}
	}
}

// view runs a read transaction; what names the operation in errors.
func (s *Bolt) view(ctx context.Context, what string, fn func(tx *bolt.Tx) error) (err error) {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	s.txs.Add(1)
	defer s.damagedPage(what, &err)
	s.swap.RLock()
	defer s.swap.RUnlock()
	return s.boltErr(what, s.db.View, fn)
}

// update runs a write transaction, committed and fsync'd before it
// returns; what names the operation in errors.
func (s *Bolt) update(ctx context.Context, what string, fn func(tx *bolt.Tx) error) (err error) {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	s.txs.Add(1)
	defer s.damagedPage(what, &err)
	s.swap.RLock()
	defer s.swap.RUnlock()
	return s.boltErr(what, s.db.Update, fn)
}

// damagedPage turns a panic of bbolt on a damaged page (or a fault on a
// page past the file's end) into an error naming the file and the way out;
// the transaction was rolled back.
func (s *Bolt) damagedPage(what string, err *error) {
	if p := recover(); p != nil {
		*err = s.damagedPageErr(what, p)
	}
}

// damagedPageErr logs what bbolt panicked with, p, and returns the error
// of the operation what: the file is damaged, and the way out.
func (s *Bolt) damagedPageErr(what string, p any) error {
	s.log.Error("store: the database file is damaged", "file", s.path, "panic", p)
	return fmt.Errorf("%s: the database file %s is damaged (%v): stop Arbiter and restore it from a backup (see docs/how-to/backup-restore.md), "+
		"or start with STORE_START_EMPTY=1 to move it aside and start with an empty store", what, s.path, p)
}

// boltErr runs fn in a transaction of run (View or Update). An error of
// fn (the store's own, or its caller's) is returned as it is; an error of
// the database itself, a closed store or a failed commit (disk full, I/O
// error), is ErrUnavailable: nothing was changed, the person tries again.
func (s *Bolt) boltErr(what string, run func(func(*bolt.Tx) error) error, fn func(*bolt.Tx) error) error {
	var own error
	err := run(func(tx *bolt.Tx) error {
		own = fn(tx)
		return own
	})
	if own != nil {
		return own
	}
	return s.dbErr(what, err)
}

// dbErr is the error of operation what whose transaction failed in the
// database itself with err (nil: it did not).
func (s *Bolt) dbErr(what string, err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, bolterrors.ErrDatabaseNotOpen):
		return fmt.Errorf("%s: %w (the store is closed)", what, store.ErrUnavailable)
	}
	s.log.Error("store: the database failed", "file", s.path, "op", what, "err", err)
	return fmt.Errorf("%s: %w (the database file %s: %v)", what, store.ErrUnavailable, s.path, err)
}

// guild returns the guild's bucket, or nil when it has none yet.
func guildBucket(tx *bolt.Tx, guild string) *bolt.Bucket {
	return tx.Bucket(bGuilds).Bucket([]byte(guild))
}

// guildBucketW returns the guild's bucket, creating it.
func guildBucketW(tx *bolt.Tx, guild string) (*bolt.Bucket, error) {
	return tx.Bucket(bGuilds).CreateBucketIfNotExists([]byte(guild))
}

// sub returns a bucket of b, or nil when b or it is missing.
func sub(b *bolt.Bucket, name []byte) *bolt.Bucket {
	if b == nil {
		return nil
	}
	return b.Bucket(name)
}

// u64 encodes n big-endian, so that keys sort by number.
func u64(n uint64) []byte {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], n)
	return b[:]
}

// msKey returns a time as a sortable 8-byte key, followed by rest.
func msKey(t time.Time, rest string) []byte {
	ms := t.UnixMilli()
	if ms < 0 {
		ms = 0
	}
	return append(u64(uint64(ms)), rest...)
}

// cat returns the bytes of a and b, fresh.
func cat(a string, sep byte, b string) []byte {
	out := make([]byte, 0, len(a)+1+len(b))
	return append(append(append(out, a...), sep), b...)
}
