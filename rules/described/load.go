package described

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
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
		if _, err := s.Definition().New(opts); err != nil {
			var pe *placedError
			if errors.As(err, &pe) {
				return nil, &Error{File: file, Line: pe.at.line, Column: pe.at.col, Msg: pe.Error()}
			}
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
			out = append(out, rules.Options{o.Key: o.text(v)})
		}
	}
	return out
}

// LoadFS loads every description (*.yaml) at the root of fsys, in name
// order. A file that fails is left out and its error, with the file's
// line and column, is among the errors; the others still load. A name
// given twice keeps the first file.
func LoadFS(fsys fs.FS) ([]*Spec, []error) {
	return loadFS(fsys, func(name string) string { return name })
}

// LoadDir is LoadFS on the directory dir: each Spec's File and each error
// name the file as dir/FILE, errors as "dir/FILE:LINE:COL: what".
func LoadDir(dir string) ([]*Spec, []error) {
	return loadFS(os.DirFS(dir), func(name string) string { return filepath.Join(dir, name) })
}

// loadFS is LoadFS, naming each file of fsys as display does.
func loadFS(fsys fs.FS, display func(name string) string) ([]*Spec, []error) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, []error{fmt.Errorf("%s: cannot read the games: %w", display("."), err)}
	}
	var specs []*Spec
	var errs []error
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), Ext) {
			continue
		}
		file := display(e.Name())
		data, err := readBounded(fsys, e.Name())
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", file, err))
			continue
		}
		s, err := Load(file, data)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if i := slices.IndexFunc(specs, func(o *Spec) bool { return o.Name == s.Name }); i >= 0 {
			errs = append(errs, fmt.Errorf("%s: the game %s is already described by another file", file, s.Name))
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
	var pe *fs.PathError
	if fi, err := fs.Stat(fsys, name); errors.As(err, &pe) {
		return nil, pe.Err // the caller names the file
	} else if err != nil {
		return nil, err
	} else if !fi.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	f, err := fsys.Open(name)
	if errors.As(err, &pe) {
		return nil, pe.Err
	} else if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil {
		return nil, err
	} else if !fi.Mode().IsRegular() { // replaced since
		return nil, errors.New("not a regular file")
	}
	data, err := io.ReadAll(io.LimitReader(f, maxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxFileSize {
		return nil, fmt.Errorf("over %d bytes, the most a description has", maxFileSize)
	}
	return data, nil
}

// ErrNameTaken is the kind of error of a described game whose name is
// already a game's.
var ErrNameTaken = errors.New("game name already taken")
