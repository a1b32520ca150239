package boltstore

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// FuzzImportLegacy: any bytes as the earlier embedded store's data file
// give an error or a snapshot that imports without panicking.
func FuzzImportLegacy(f *testing.F) {
	seed, err := os.ReadFile("testdata/legacy-store.json")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	for _, s := range []string{"", "{}", `{"format":1}`, `{"format":2,"keys":[]}`, `{"format":1,"keys":[{"key":"a","type":"string"}]}`,
		`{"format":1,"keys":[{"key":{"base64":"/w=="},"type":"string","string":{"base64":"AP8="}}]}`,
		`{"format":1,"keys":[{"key":"{arbiter}:botq","type":"stream","stream":{"entries":[{"id":"1-1","values":["a","b"]}],"groups":[{"name":"g","last_id":"0","pending":[{"id":"1-1","consumer":"c","deliveries":1}]}]}}]}`,
		`{"format":1,"keys":[{"key":"{g:1}:archived","type":"zset","zset":["inf","m","-1.5","n"]}]}`,
		`{"format":1,"keys":[{"key":"{g:1}:seq","type":"string","string":"x"}]}`,
		`{"format":1,"keys":[{"key":"{ch:1}:game","type":"hash","hash":["f"]}]}`} {
		f.Add([]byte(s))
	}
	db, err := bolt.Open(filepath.Join(f.TempDir(), "fuzz.db"), 0o600, &bolt.Options{NoSync: true})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { _ = db.Close() })
	f.Fuzz(func(t *testing.T, data []byte) {
		snap, err := parseSnapshot(data)
		if err != nil {
			return
		}
		tx, err := db.Begin(true)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = tx.Rollback() }()
		for _, name := range topBuckets {
			if _, err := tx.CreateBucketIfNotExists(name); err != nil {
				t.Fatal(err)
			}
		}
		_, _ = importSnapshot(tx, snap, time.Now())
	})
}
