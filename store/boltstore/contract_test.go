package boltstore_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"testing"

	"arbiter/rules"
	"arbiter/store"
	"arbiter/store/boltstore"
	"arbiter/store/redisstore"
	"arbiter/store/redistest"
	"arbiter/store/storetest"
)

// TestContract holds the embedded backend to the store's contract.
func TestContract(t *testing.T) {
	storetest.Run(t, storetest.Backend{
		Name:   "embedded",
		Config: func(t *testing.T) store.Config { return store.Config{DataDir: t.TempDir()} },
		Open: func(ctx context.Context, cfg store.Config) (store.Store, error) {
			s, err := boltstore.Open(ctx, cfg)
			if err != nil {
				return nil, err
			}
			return s, nil
		},
		Other: openRedis,
		Raw:   boltRaw{},
		Slow:  true,
	})
}

// openRedis opens a store on an empty redis-server, the other backend of
// the export and import tests.
func openRedis(t *testing.T, reg *rules.Registry) store.Store {
	t.Helper()
	cfg := store.Config{RedisURL: redistest.Start(t, redistest.Options{}).URL(), Registry: reg, Logger: storetest.QuietLogger()}
	s, err := redisstore.Open(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close(context.Background()) })
	return s
}

// boltRaw reaches under the contract by the database's buckets.
type boltRaw struct{}

func (boltRaw) PutRecord(s store.Store, channel, _, _ string, data []byte) error {
	return s.(*boltstore.Bolt).RawPut([]string{"games"}, channel, data)
}

func (boltRaw) Record(s store.Store, channel string) (string, error) {
	b, err := s.(*boltstore.Bolt).RawGet([]string{"games"}, channel)
	return string(b), err
}

// PutNotAGame writes bytes that are not JSON.
func (boltRaw) PutNotAGame(s store.Store, channel string) error {
	return s.(*boltstore.Bolt).RawPut([]string{"games"}, channel, []byte{0xff, 0, 'o', 'o', 'p', 's'})
}

func (boltRaw) PutMalformedJob(s store.Store) error {
	return s.(*boltstore.Bolt).RawPut([]string{"queue"}, "\x00\x00\x00\x00\x00\x00\x00\x00", []byte(`{"channel":"{x}","version":"nope"}`))
}

func (boltRaw) QueueLen(s store.Store) (int, error) {
	return s.(*boltstore.Bolt).RawCount([]string{"queue"})
}

func (boltRaw) DeadlineChannels(s store.Store) ([]string, error) {
	keys, err := s.(*boltstore.Bolt).RawKeys([]string{"deadlines"})
	var out []string
	for _, k := range keys {
		out = append(out, k[8:])
	}
	return out, err
}

// BeforeRunningDrop returns do: the embedded store updates the index in
// the game's own transaction, so there is no moment in between.
func (boltRaw) BeforeRunningDrop(_ store.Store, do func()) func() { return do }

func (boltRaw) PutLegacyToken(s store.Store, hash string, owner store.TokenOwner) error {
	data, err := json.Marshal(owner)
	if err != nil {
		return err
	}
	b := s.(*boltstore.Bolt)
	if err := b.RawPut([]string{"tokens"}, hash, data); err != nil {
		return err
	}
	return b.RawPut([]string{"tokenusers"}, owner.User, []byte(hash))
}

// AtRest returns the database file as it is and a backup written now.
func (boltRaw) AtRest(s store.Store) ([]byte, error) {
	b := s.(*boltstore.Bolt)
	file, err := os.ReadFile(b.Path())
	if err != nil {
		return nil, err
	}
	var backup bytes.Buffer
	if err := b.WriteBackup(context.Background(), &backup, nil); err != nil {
		return nil, err
	}
	return append(file, backup.Bytes()...), nil
}
