package described

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"

	"arbiter/rules"
)

// Ext is the file name ending of game descriptions.
const Ext = ".yaml"

// Load parses a description and checks that it starts a game with its
// default options and with each option at each of its bounds, so that a
// description that parses but cannot be played (a start square off a
// small board) is refused when it is read.
func Load(file string, data []byte) (*Spec, error) {
	s, err := Parse(file, data)
	if err != nil {
		return nil, err
	}
	for _, opts := range s.optionCorners() {
		if _, err := s.New(opts); err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
	}
	return s, nil
}

// optionCorners returns the defaults and, for each option, the defaults
// with that option at each of its extreme values.
func (s *Spec) optionCorners() []rules.Options {
	out := []rules.Options{nil}
	for _, o := range s.options {
		vals := []int{o.Min, o.Max}
		if len(o.Values) > 0 {
			vals = o.Values
		}
		for _, v := range vals {
			out = append(out, rules.Options{o.Key: fmt.Sprint(v)})
		}
	}
	return out
}

// LoadFS loads every description (*.yaml) at the root of fsys, in name
// order. A file that fails is left out and its error, with the file's
// line and column, is among the errors; the others still load. A name
// given twice keeps the first file.
func LoadFS(fsys fs.FS) ([]*Spec, []error) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, []error{fmt.Errorf("read games: %w", err)}
	}
	var specs []*Spec
	var errs []error
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), Ext) {
			continue
		}
		data, err := readBounded(fsys, e.Name())
		if err != nil {
			errs = append(errs, fmt.Errorf("read %s: %w", e.Name(), err))
			continue
		}
		s, err := Load(e.Name(), data)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if i := slices.IndexFunc(specs, func(o *Spec) bool { return o.Name == s.Name }); i >= 0 {
			errs = append(errs, fmt.Errorf("%s: the game %s is already described by another file", path.Base(e.Name()), s.Name))
			continue
		}
		specs = append(specs, s)
	}
	return specs, errs
}

// readBounded reads the regular file name of fsys, refusing anything else
// (a device or a pipe, also behind a link, is never opened) and a file
// longer than a description may be, reading no more than that.
func readBounded(fsys fs.FS, name string) ([]byte, error) {
	if fi, err := fs.Stat(fsys, name); err != nil {
		return nil, err
	} else if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", name)
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil {
		return nil, err
	} else if !fi.Mode().IsRegular() { // replaced since
		return nil, fmt.Errorf("%s: not a regular file", name)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxFileSize {
		return nil, fmt.Errorf("%s: over %d bytes, the most a description has", name, maxFileSize)
	}
	return data, nil
}

// ErrNameTaken is the kind of error of a described game whose name is
// already a game's.
var ErrNameTaken = errors.New("game name already taken")
