package main

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"time"
)

// archiveFile is one file an archive carries.
type archiveFile struct {
	name string      // its name inside the archive's folder
	path string      // where it is read from
	mode fs.FileMode // its permissions in the archive
}

// writeTarGz writes a gzipped tar archive at dst holding files under the
// folder dir, each dated mtime and owned by root: the same files give the
// same bytes.
func writeTarGz(dst, dir string, files []archiveFile, mtime time.Time) (err error) {
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := out.Close(); err == nil {
			err = cerr
		}
	}()
	gz, err := gzip.NewWriterLevel(out, gzip.BestCompression)
	if err != nil {
		return err
	}
	tw := tar.NewWriter(gz)
	hdr := func(name string, mode fs.FileMode, size int64, typ byte) *tar.Header {
		return &tar.Header{Typeflag: typ, Name: name, Mode: int64(mode), Size: size, ModTime: mtime,
			Uname: "root", Gname: "root", Format: tar.FormatPAX}
	}
	if err := tw.WriteHeader(hdr(dir+"/", 0o755, 0, tar.TypeDir)); err != nil {
		return err
	}
	for _, f := range files {
		if err := copyInto(f, func(size int64) (io.Writer, error) {
			return tw, tw.WriteHeader(hdr(path.Join(dir, f.name), f.mode, size, tar.TypeReg))
		}); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return gz.Close()
}

// writeZip writes a zip archive at dst holding files under the folder dir,
// each dated mtime: the same files give the same bytes.
func writeZip(dst, dir string, files []archiveFile, mtime time.Time) (err error) {
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := out.Close(); err == nil {
			err = cerr
		}
	}()
	zw := zip.NewWriter(out)
	d := &zip.FileHeader{Name: dir + "/", Method: zip.Store, Modified: mtime}
	d.SetMode(fs.ModeDir | 0o755)
	if _, err := zw.CreateHeader(d); err != nil {
		return err
	}
	for _, f := range files {
		if err := copyInto(f, func(int64) (io.Writer, error) {
			h := &zip.FileHeader{Name: path.Join(dir, f.name), Method: zip.Deflate, Modified: mtime}
			h.SetMode(f.mode)
			return zw.CreateHeader(h)
		}); err != nil {
			return err
		}
	}
	return zw.Close()
}

// copyInto copies f's content into the writer open returns for its size.
func copyInto(f archiveFile, open func(size int64) (io.Writer, error)) error {
	in, err := os.Open(f.path)
	if err != nil {
		return err
	}
	defer in.Close()
	st, err := in.Stat()
	if err != nil {
		return err
	}
	w, err := open(st.Size())
	if err != nil {
		return fmt.Errorf("%s: %w", f.name, err)
	}
	if _, err := io.Copy(w, in); err != nil {
		return fmt.Errorf("%s: %w", f.name, err)
	}
	return nil
}
