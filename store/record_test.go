package store

import (
	"errors"
	"strings"
	"testing"
)

// TestDecodeRecordSchema: a record is read by its schema version, whether
// or not its fields fit the current schema's shape.
func TestDecodeRecordSchema(t *testing.T) {
	for _, c := range []struct {
		data    string
		unknown bool   // wraps ErrUnknownSchema
		says    string // in the error
	}{
		{`{"schema":3,"moves":"not a list"}`, true, "schema version 3 and this build reads up to 2"},
		{`{"schema":3}`, true, "schema version 3 and this build reads up to 2"},
		{`{"schema":2,"moves":"not a list"}`, false, "does not fit schema 2"},
		{`{"schema":-1}`, true, "schema version -1"},
		{`{"schema":1,"moves":"not a list"}`, false, "does not fit schema 1"},
		{`{"moves":[]}`, false, "no schema version"},
		{`{not json`, false, "not JSON"},
	} {
		_, err := DecodeRecord([]byte(c.data))
		if err == nil || errors.Is(err, ErrUnknownSchema) != c.unknown || !strings.Contains(err.Error(), c.says) {
			t.Errorf("decode %s: %v; want an error saying %q (unknown schema: %v)", c.data, err, c.says, c.unknown)
		}
	}
	if r, err := DecodeRecord([]byte(`{"schema":1,"version":3}`)); err != nil || r.Version != 3 {
		t.Errorf("decode a schema 1 record: %+v, %v", r, err)
	}
}
