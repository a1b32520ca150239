package boltstore

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	bolt "go.etcd.io/bbolt"

	"arbiter/store"
)

// Analysis buckets of the embedded store: the line (a job by its key,
// guild/game), the analyses kept (by the same key) and their order of
// keeping (a sequence number, 8 bytes, to the key), oldest first. The
// leases of jobs live in memory, as the claims of bot turns do.
var (
	bAnalysisLine = []byte("analysisline")
	bAnalysesKept = []byte("analyseskept")
	bAnalysisKept = []byte("analysiskeptorder")
)

// boltAnalysisJob is a job in line as stored.
type boltAnalysisJob struct {
	Seq      uint64   `json:"seq"` // its place in the order of asking
	Guild    string   `json:"guild"`
	Game     string   `json:"game"`
	Asker    string   `json:"asker,omitempty"`
	Channels []string `json:"channels,omitempty"`
	Posted   int      `json:"posted,omitempty"` // Channels[:Posted] have their post
	Progress []byte   `json:"progress,omitempty"`
	Kept     bool     `json:"kept,omitempty"`
}

// boltKeptAnalysis is a kept analysis as stored.
type boltKeptAnalysis struct {
	Seq      uint64         `json:"seq"` // its key in the keeping order
	Analysis store.Analysis `json:"analysis"`
}

// analysisLease is a job handed to a worker, until its lease ends.
type analysisLease struct {
	worker     string
	until      time.Time
	deliveries int
}

// lineJobs reads the line, oldest first.
func lineJobs(tx *bolt.Tx) ([]boltAnalysisJob, error) {
	var jobs []boltAnalysisJob
	b := tx.Bucket(bAnalysisLine)
	if b == nil {
		return nil, nil
	}
	err := b.ForEach(func(k, v []byte) error {
		var j boltAnalysisJob
		if err := json.Unmarshal(v, &j); err != nil {
			return fmt.Errorf("the analysis job %s is damaged: %w", k, err)
		}
		jobs = append(jobs, j)
		return nil
	})
	slices.SortFunc(jobs, func(a, b boltAnalysisJob) int { return cmp.Compare(a.Seq, b.Seq) })
	return jobs, err
}

// putLineJob writes j into the line.
func putLineJob(tx *bolt.Tx, j boltAnalysisJob) error {
	b, err := tx.CreateBucketIfNotExists(bAnalysisLine)
	if err != nil {
		return err
	}
	data, err := json.Marshal(j)
	if err != nil {
		return err
	}
	return b.Put([]byte(store.AnalysisKey(j.Guild, j.Game)), data)
}

// AskAnalysis puts a game in line, or adds a channel to the game in line
// (store.Analyses), in one write transaction.
func (s *Bolt) AskAnalysis(ctx context.Context, ask store.AnalysisAsk, shares store.AnalysisShares) (int, bool, error) {
	if err := store.CheckAnalysisAsk(ask, shares); err != nil {
		return 0, false, err
	}
	key := store.AnalysisKey(ask.Guild, ask.Game)
	place, added := 0, false
	err := s.update(ctx, "ask for the analysis of "+key, func(tx *bolt.Tx) error {
		jobs, err := lineJobs(tx)
		if err != nil {
			return err
		}
		ofServer, ofPerson := 0, 0
		for i, j := range jobs {
			if j.Guild == ask.Guild && j.Game == ask.Game {
				place = i + 1
				if ask.Channel != "" && !slices.Contains(j.Channels, ask.Channel) {
					j.Channels = append(j.Channels, ask.Channel)
					return putLineJob(tx, j)
				}
				return nil
			}
			if j.Guild == ask.Guild {
				ofServer++
			}
			if ask.Asker != "" && j.Asker == ask.Asker {
				ofPerson++
			}
		}
		if kept := tx.Bucket(bAnalysesKept); kept != nil && kept.Get([]byte(key)) != nil {
			return store.ErrAnalysisKept
		}
		switch {
		case len(jobs) >= shares.Line:
			place = shares.Line
			return store.ErrLineFull
		case ofServer >= shares.Server:
			place = shares.Server
			return store.ErrServerShare
		case ask.Asker != "" && ofPerson >= shares.Person:
			place = shares.Person
			return store.ErrPersonShare
		}
		b, err := tx.CreateBucketIfNotExists(bAnalysisLine)
		if err != nil {
			return err
		}
		seq, err := b.NextSequence()
		if err != nil {
			return err
		}
		j := boltAnalysisJob{Seq: seq, Guild: ask.Guild, Game: ask.Game, Asker: ask.Asker}
		if ask.Channel != "" {
			j.Channels = []string{ask.Channel}
		}
		place, added = len(jobs)+1, true
		return putLineJob(tx, j)
	})
	if err != nil {
		return place, false, fmt.Errorf("ask for the analysis of %s: %w", key, err)
	}
	return place, added, nil
}

// ClaimAnalysis gives worker the oldest job in line that no lease holds.
func (s *Bolt) ClaimAnalysis(ctx context.Context, worker string, lease time.Duration) (*store.AnalysisJob, error) {
	if err := store.CheckID("worker", worker); err != nil {
		return nil, fmt.Errorf("claim an analysis: %w", err)
	}
	if lease <= 0 {
		return nil, fmt.Errorf("claim an analysis: %w: lease %s", store.ErrInvalid, lease)
	}
	s.mu.Lock() // held from the read of the line: no job leaves it meanwhile
	defer s.mu.Unlock()
	var jobs []boltAnalysisJob
	err := s.view(ctx, "claim an analysis", func(tx *bolt.Tx) error {
		var err error
		jobs, err = lineJobs(tx)
		return err
	})
	if err != nil {
		return nil, err
	}
	now := time.Now()
	if s.analysisLeases == nil {
		s.analysisLeases = map[string]analysisLease{}
	}
	for _, j := range jobs {
		key := store.AnalysisKey(j.Guild, j.Game)
		l, held := s.analysisLeases[key]
		if held && now.Before(l.until) {
			continue
		}
		l = analysisLease{worker: worker, until: now.Add(lease), deliveries: l.deliveries + 1}
		s.analysisLeases[key] = l
		return &store.AnalysisJob{Guild: j.Guild, Game: j.Game, Worker: worker, Lease: lease, Progress: j.Progress, Kept: j.Kept, Deliveries: l.deliveries}, nil
	}
	return nil, fmt.Errorf("claim an analysis: %w", store.ErrNoJob)
}

// holds reports whether job's worker holds its lease now; s.mu held.
func (s *Bolt) holds(job *store.AnalysisJob) bool {
	l, ok := s.analysisLeases[store.AnalysisKey(job.Guild, job.Game)]
	return ok && l.worker == job.Worker && time.Now().Before(l.until)
}

// withJob runs fn on job's record in a write transaction while its worker
// holds its lease (s.mu held throughout, so that no claim takes the job
// meanwhile); ErrStaleJob otherwise.
func (s *Bolt) withJob(ctx context.Context, what string, job *store.AnalysisJob, fn func(tx *bolt.Tx, j *boltAnalysisJob) error) error {
	if err := store.CheckAnalysisJob(what, job); err != nil {
		return err
	}
	key := store.AnalysisKey(job.Guild, job.Game)
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.holds(job) {
		return fmt.Errorf("%s %s: %w", what, key, store.ErrStaleJob)
	}
	return s.update(ctx, what+" "+key, func(tx *bolt.Tx) error {
		var data []byte
		if b := tx.Bucket(bAnalysisLine); b != nil {
			data = b.Get([]byte(key))
		}
		if data == nil {
			return store.ErrStaleJob
		}
		var j boltAnalysisJob
		if err := json.Unmarshal(data, &j); err != nil {
			return fmt.Errorf("the analysis job is damaged: %w", err)
		}
		return fn(tx, &j)
	})
}

// ExtendAnalysis renews job's lease and records its progress.
func (s *Bolt) ExtendAnalysis(ctx context.Context, job *store.AnalysisJob, progress []byte) error {
	return s.withJob(ctx, "extend the analysis", job, func(tx *bolt.Tx, j *boltAnalysisJob) error {
		s.analysisLeases[store.AnalysisKey(j.Guild, j.Game)] = analysisLease{worker: job.Worker, until: time.Now().Add(job.Lease),
			deliveries: s.analysisLeases[store.AnalysisKey(j.Guild, j.Game)].deliveries}
		if progress == nil {
			return nil
		}
		j.Progress = progress
		return putLineJob(tx, *j)
	})
}

// KeepAnalysis keeps job's result, forgetting the analysis kept longest
// ago beyond store.KeptAnalyses.
func (s *Bolt) KeepAnalysis(ctx context.Context, job *store.AnalysisJob, a store.Analysis) error {
	return s.withJob(ctx, "keep the analysis", job, func(tx *bolt.Tx, j *boltAnalysisJob) error {
		key := []byte(store.AnalysisKey(j.Guild, j.Game))
		kept, err := tx.CreateBucketIfNotExists(bAnalysesKept)
		if err != nil {
			return err
		}
		order, err := tx.CreateBucketIfNotExists(bAnalysisKept)
		if err != nil {
			return err
		}
		if old := kept.Get(key); old != nil {
			var k boltKeptAnalysis
			if json.Unmarshal(old, &k) == nil {
				if err := order.Delete(u64(k.Seq)); err != nil {
					return err
				}
			}
		}
		seq, err := order.NextSequence()
		if err != nil {
			return err
		}
		data, err := json.Marshal(boltKeptAnalysis{Seq: seq, Analysis: a})
		if err != nil {
			return err
		}
		if err := kept.Put(key, data); err != nil {
			return err
		}
		if err := order.Put(u64(seq), key); err != nil {
			return err
		}
		for n := keyCount(order); n > store.KeptAnalyses; n-- {
			k, v := order.Cursor().First()
			if err := kept.Delete(append([]byte(nil), v...)); err != nil {
				return err
			}
			if err := order.Delete(append([]byte(nil), k...)); err != nil {
				return err
			}
		}
		j.Kept, j.Progress = true, nil
		return putLineJob(tx, *j)
	})
}

// NextAnalysisPost records a post and returns the next channel to post
// to, taking the job out of line when there is none.
func (s *Bolt) NextAnalysisPost(ctx context.Context, job *store.AnalysisJob, posted string) (string, bool, error) {
	var next string
	err := s.withJob(ctx, "post the analysis", job, func(tx *bolt.Tx, j *boltAnalysisJob) error {
		if posted != "" && j.Posted < len(j.Channels) && j.Channels[j.Posted] == posted {
			j.Posted++
		}
		if j.Posted < len(j.Channels) {
			next = j.Channels[j.Posted]
			return putLineJob(tx, *j)
		}
		return s.outOfLine(tx, j)
	})
	return next, next != "", err
}

// DropAnalysis takes job out of line without a result.
func (s *Bolt) DropAnalysis(ctx context.Context, job *store.AnalysisJob) error {
	return s.withJob(ctx, "drop the analysis", job, func(tx *bolt.Tx, j *boltAnalysisJob) error {
		return s.outOfLine(tx, j)
	})
}

// outOfLine deletes j from the line and its lease; s.mu held.
func (s *Bolt) outOfLine(tx *bolt.Tx, j *boltAnalysisJob) error {
	key := store.AnalysisKey(j.Guild, j.Game)
	delete(s.analysisLeases, key)
	return tx.Bucket(bAnalysisLine).Delete([]byte(key))
}

// KeptAnalysis returns a kept analysis.
func (s *Bolt) KeptAnalysis(ctx context.Context, guild, game string) (store.Analysis, error) {
	key := store.AnalysisKey(guild, game)
	var k boltKeptAnalysis
	err := s.view(ctx, "read the analysis of "+key, func(tx *bolt.Tx) error {
		var data []byte
		if b := tx.Bucket(bAnalysesKept); b != nil {
			data = b.Get([]byte(key))
		}
		if data == nil {
			return fmt.Errorf("the analysis of %s: %w", key, store.ErrNotFound)
		}
		if err := json.Unmarshal(data, &k); err != nil {
			return fmt.Errorf("the analysis of %s is damaged: %w", key, err)
		}
		return nil
	})
	return k.Analysis, err
}

// AnalysesInLine counts the jobs in line.
func (s *Bolt) AnalysesInLine(ctx context.Context) (int, error) {
	n := 0
	err := s.view(ctx, "count the analyses in line", func(tx *bolt.Tx) error {
		if b := tx.Bucket(bAnalysisLine); b != nil {
			n = keyCount(b)
		}
		return nil
	})
	return n, err
}

// keyCount counts b's keys (Stats counts only what is committed).
func keyCount(b *bolt.Bucket) int {
	n := 0
	c := b.Cursor()
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		n++
	}
	return n
}
