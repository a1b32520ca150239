package store

// AppendHead is appendHead, for the test that holds it to json.Marshal.
func AppendHead(b []byte, r *Record) ([]byte, bool) { return appendHead(b, r) }

// AppendMove is appendMove, for the test that holds it to json.Marshal.
func AppendMove(b []byte, m Move) ([]byte, bool) { return appendMove(b, m) }
