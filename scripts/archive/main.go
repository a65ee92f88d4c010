// Command archive writes and lists the release archives of gddls
// deterministically, so that two release builds of one commit give the
// same bytes. It needs nothing but Go, unlike tar, gzip and zip, whose
// options and defaults differ between systems.
//
// Usage:
//
//	go run ./scripts/archive create -mtime UNIX OUT FILE...
//	go run ./scripts/archive list ARCHIVE
//
// create writes OUT, a .tar.gz or a .zip by its name, holding each FILE
// under its base name: entries sorted by name, every modification time set
// to UNIX (seconds since 1970, e.g. the commit's time), owner and group 0,
// mode 0755 for a file with any execute bit and 0644 otherwise, and no name
// or time in the gzip header. list prints the names of the files in a
// .tar.gz, .zip or .vsix, one a line, in archive order.
package main

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "archive:", err)
		os.Exit(1)
	}
}

const usage = "usage: archive create -mtime UNIX OUT FILE... | archive list ARCHIVE"

// run executes one command line and writes list output to stdout.
func run(args []string, stdout io.Writer) error {
	if len(args) == 0 {
		return errors.New(usage)
	}
	switch args[0] {
	case "create":
		fs := flag.NewFlagSet("create", flag.ContinueOnError)
		mtime := fs.Int64("mtime", -1, "modification time of every entry, in seconds since 1970")
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		if *mtime < 0 || fs.NArg() < 2 {
			return errors.New(usage)
		}
		return create(fs.Arg(0), fs.Args()[1:], time.Unix(*mtime, 0).UTC())
	case "list":
		if len(args) != 2 {
			return errors.New(usage)
		}
		names, err := list(args[1])
		if err != nil {
			return err
		}
		for _, n := range names {
			fmt.Fprintln(stdout, n)
		}
		return nil
	default:
		return errors.New(usage)
	}
}

// entry is one file to archive.
type entry struct {
	name string
	mode int64
	data []byte
}

// readEntries reads files, keyed by base name and sorted by it.
func readEntries(files []string) ([]entry, error) {
	var out []entry
	for _, f := range files {
		st, err := os.Stat(f)
		if err != nil {
			return nil, err
		}
		if !st.Mode().IsRegular() {
			return nil, fmt.Errorf("%s is not a regular file", f)
		}
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		mode := int64(0o644)
		if st.Mode().Perm()&0o111 != 0 {
			mode = 0o755
		}
		out = append(out, entry{name: filepath.Base(f), mode: mode, data: data})
	}
	slices.SortFunc(out, func(a, b entry) int { return strings.Compare(a.name, b.name) })
	for i := 1; i < len(out); i++ {
		if out[i].name == out[i-1].name {
			return nil, fmt.Errorf("two files named %s", out[i].name)
		}
	}
	return out, nil
}

// create writes the archive out from files.
func create(out string, files []string, mtime time.Time) (err error) {
	entries, err := readEntries(files)
	if err != nil {
		return err
	}
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(out)
			err = fmt.Errorf("writing %s: %w", out, err)
		}
	}()
	switch {
	case strings.HasSuffix(out, ".tar.gz"):
		return writeTarGz(f, entries, mtime)
	case strings.HasSuffix(out, ".zip"):
		return writeZip(f, entries, mtime)
	default:
		return errors.New("the name ends in neither .tar.gz nor .zip")
	}
}

func writeTarGz(w io.Writer, entries []entry, mtime time.Time) error {
	gz, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	tw := tar.NewWriter(gz)
	for _, e := range entries {
		hdr := &tar.Header{
			Typeflag: tar.TypeReg,
			Name:     e.name,
			Mode:     e.mode,
			Size:     int64(len(e.data)),
			ModTime:  mtime,
			Format:   tar.FormatUSTAR,
		}
		if err := tw.WriteHeader(hdr); err != nil {
			return err
		}
		if _, err := tw.Write(e.data); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return gz.Close()
}

func writeZip(w io.Writer, entries []entry, mtime time.Time) error {
	zw := zip.NewWriter(w)
	for _, e := range entries {
		hdr := &zip.FileHeader{Name: e.name, Method: zip.Deflate, Modified: mtime}
		hdr.SetMode(os.FileMode(e.mode))
		fw, err := zw.CreateHeader(hdr)
		if err != nil {
			return err
		}
		if _, err := fw.Write(e.data); err != nil {
			return err
		}
	}
	return zw.Close()
}

// list returns the names of the files in a .tar.gz, .zip or .vsix.
func list(name string) ([]string, error) {
	var names []string
	switch {
	case strings.HasSuffix(name, ".tar.gz"):
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		gz, err := gzip.NewReader(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		tr := tar.NewReader(gz)
		for {
			hdr, err := tr.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			if hdr.Typeflag == tar.TypeReg {
				names = append(names, hdr.Name)
			}
		}
	case strings.HasSuffix(name, ".zip"), strings.HasSuffix(name, ".vsix"):
		zr, err := zip.OpenReader(name)
		if err != nil {
			return nil, err
		}
		defer zr.Close()
		for _, f := range zr.File {
			if !f.FileInfo().IsDir() {
				names = append(names, f.Name)
			}
		}
	default:
		return nil, fmt.Errorf("%s: not a .tar.gz, .zip or .vsix", name)
	}
	return names, nil
}
