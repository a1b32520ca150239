package term

import (
	"archive/zip"
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"arbiter/internal/atomicfile"
	"arbiter/store"
)

// LearnArchives shows sc every line of every term archive in dir, so that
// it learns the names the archives give the person (an archive may name
// them after the store no longer does).
func LearnArchives(dir string, sc *store.Scrubber) error {
	return eachArchive(dir, func(path string, files []archived) error {
		for _, f := range files {
			for _, line := range bytes.Split(f.data, []byte("\n")) {
				sc.Learn(line)
			}
		}
		return nil
	})
}

// ForgetArchives rewrites every term archive in dir that mentions the
// person of sc without them, by sc's rules a line at a time: a line that
// is theirs (their rating) is left out, any other mention becomes the
// former student. Each archive is replaced whole (a temp file renamed
// over it). It returns how many archives it rewrote.
func ForgetArchives(dir string, sc *store.Scrubber) (int, error) {
	n := 0
	err := eachArchive(dir, func(path string, files []archived) error {
		changed := false
		for i, f := range files {
			lines := bytes.SplitAfter(f.data, []byte("\n"))
			var out bytes.Buffer
			for _, line := range lines {
				body := bytes.TrimSuffix(line, []byte("\n"))
				nl := len(body) < len(line)
				if theirRating(body, sc.ID()) {
					changed = true
					continue
				}
				rewritten, drop, ch := sc.Rewrite(body)
				if ch {
					changed = true
				}
				if drop {
					continue
				}
				out.Write(rewritten)
				if nl {
					out.WriteByte('\n')
				}
			}
			files[i].data = out.Bytes()
		}
		if !changed {
			return nil
		}
		files = fixEndLine(files)
		if err := atomicfile.Replace(path, func(w io.Writer) error { return writeZip(w, files) }); err != nil {
			return err
		}
		n++
		return nil
	})
	return n, err
}

// fixEndLine sets the end line of records.jsonl to the items left, once
// lines that were the person's are left out.
func fixEndLine(files []archived) []archived {
	for i, f := range files {
		if f.hdr.Name != "records.jsonl" {
			continue
		}
		lines := strings.Split(strings.TrimSuffix(string(f.data), "\n"), "\n")
		if len(lines) < 2 {
			continue
		}
		end := fmt.Sprintf(`{"type":"end","items":%d}`, len(lines)-2)
		if strings.Contains(lines[len(lines)-1], `"type":"end"`) {
			lines[len(lines)-1] = end
		}
		files[i].data = []byte(strings.Join(lines, "\n") + "\n")
	}
	return files
}

// archived is one file of an archive.
type archived struct {
	hdr  zip.FileHeader
	data []byte
}

// eachArchive calls fn with the files of every archive (*.zip) in dir; a
// missing dir has none.
func eachArchive(dir string, fn func(path string, files []archived) error) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".zip") {
			continue
		}
		path := filepath.Join(dir, e.Name())
		files, err := readZip(path)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		if err := fn(path, files); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	return nil
}

func readZip(path string) ([]archived, error) {
	z, err := zip.OpenReader(path)
	if err != nil {
		return nil, err
	}
	defer z.Close()
	var out []archived
	for _, f := range z.File {
		r, err := f.Open()
		if err != nil {
			return nil, err
		}
		data, err := io.ReadAll(r)
		r.Close()
		if err != nil {
			return nil, err
		}
		out = append(out, archived{hdr: f.FileHeader, data: data})
	}
	return out, nil
}

func writeZip(w io.Writer, files []archived) error {
	bw := bufio.NewWriter(w)
	z := zip.NewWriter(bw)
	for _, f := range files {
		hdr := zip.FileHeader{Name: f.hdr.Name, Method: zip.Deflate, Modified: f.hdr.Modified}
		fw, err := z.CreateHeader(&hdr)
		if err != nil {
			return err
		}
		if _, err := fw.Write(f.data); err != nil {
			return err
		}
	}
	if err := z.Close(); err != nil {
		return err
	}
	return bw.Flush()
}

// theirRating reports whether line is an export's rating item of user.
func theirRating(line []byte, user string) bool {
	if !bytes.Contains(line, []byte(`"type":"rating"`)) {
		return false
	}
	var it store.Item
	return json.Unmarshal(line, &it) == nil && it.Type == "rating" && it.Rating != nil && it.Rating.Player == user
}
