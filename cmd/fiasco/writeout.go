package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/fiasco-project/fiasco/classify"
)

// writeOutput writes an output file through write. A regular file (or a
// new one) is written to a temporary file beside it and renamed into
// place, so that a failed or killed run leaves the old file or none, never
// a part; anything else (a device, a pipe) is written directly.
func writeOutput(path string, write func(io.Writer) error) error {
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() || err != nil && !errors.Is(err, os.ErrNotExist) {
		return writeDirect(path, write)
	}
	f, err := createTemp(path)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	err = write(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// writeFile is writeOutput of the bytes data.
func writeFile(path string, data []byte) error {
	return writeOutput(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

func writeDirect(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	return f.Close()
}

// checkWritable reports, before any work, why writeOutput could not write
// an output file at path: path is a directory, or its directory is missing
// or takes no new file. Anything else that exists (a device, a pipe) is
// written directly, and left to that.
func checkWritable(path string) error {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return errors.New("is a directory")
	} else if err == nil && !fi.Mode().IsRegular() {
		return nil
	}
	f, err := createTemp(path)
	if err != nil {
		return err
	}
	f.Close()
	return os.Remove(f.Name())
}

// createTemp creates the temporary file beside path that an output is
// written to before it is renamed into place; its error names what went
// wrong, not the temporary file.
func createTemp(path string) (*os.File, error) {
	f, err := os.CreateTemp(filepath.Dir(path), ".fiasco-tmp-*")
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, err
	}
	return f, nil
}

// checkNotInput returns a usage error of cmd when path, the output its
// flag names, would overwrite what the command reads: a file of a data
// set's html or gold folder (dirs), or one of the files inputs names (a
// model, a data file). An output that does not exist yet overwrites
// nothing of the inputs; names such as "text" for an embedded model are
// no files and pass. "-" is refused too: only clean writes to standard
// output by that name, and elsewhere it would make a file named "-".
func checkNotInput(cmd, flag, path string, dirs []string, inputs ...string) error {
	if path == "" {
		return nil
	}
	if path == "-" {
		return usagef(cmd, "%s -: fiasco %s writes this to a file, not to standard output: name one", flag, cmd)
	}
	for _, d := range dirs {
		for _, sub := range []string{"html", "gold"} { // what a data set's pages and gold are read from
			if within(path, filepath.Join(d, sub)) {
				return usagef(cmd, "%s %s lies in %s: it would overwrite a page or gold file, or be read as one; write it elsewhere", flag, path, filepath.Join(d, sub))
			}
		}
	}
	out, err := os.Stat(path)
	if err != nil {
		return nil
	}
	for _, in := range inputs {
		if in == "" || in == "-" {
			continue
		}
		if fi, err := os.Stat(in); err == nil && os.SameFile(out, fi) {
			if filepath.Clean(in) == filepath.Clean(path) {
				return usagef(cmd, "%s %s: the command reads that file; write it elsewhere", flag, path)
			}
			return usagef(cmd, "%s %s is %s, which the command reads: write it elsewhere", flag, path, in)
		}
	}
	return nil
}

// samePath reports whether a and b name the same file: the same path
// once absolute, or, where both exist, the same file on disk.
func samePath(a, b string) bool {
	aa, err1 := filepath.Abs(a)
	bb, err2 := filepath.Abs(b)
	if err1 == nil && err2 == nil && aa == bb {
		return true
	}
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

// checkOverOwn refuses, before any work, an output (flagName path of
// command cmd) that would replace a file that is not what the command
// writes there (what, e.g. "PNG picture"; a, "a picture"): is tells
// from the file's first 512 bytes. An empty file, or none, may be
// written; one that cannot be read is left to checkWritable or the
// write to report.
func checkOverOwn(cmd, flagName, path, what, a string, is func(head []byte) bool) error {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || fi.Size() == 0 {
		return nil
	}
	head := make([]byte, 512)
	n, err := io.ReadFull(f, head)
	if err != nil && err != io.ErrUnexpectedEOF {
		return nil
	}
	if !is(head[:n]) {
		return usagef(cmd, "%s %s: the file is there and is no %s: %s is written only over %s (remove the file, or name another)", flagName, path, what, a, a)
	}
	return nil
}

// checkOutKind refuses, before any work, an output that would replace a
// file of another kind: a fiasco model (model true) over a file that is
// no model (a features file, a table), or any other output over a model.
// An empty file, or none, is no kind.
func checkOutKind(cmd, flagName, path string, model bool) error {
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() == 0 {
		return nil
	}
	is, err := classify.IsModelFile(path)
	switch {
	case err != nil:
		return nil // checkWritable, or the write, says what is wrong
	case model && !is:
		return usagef(cmd, "%s %s: the file is there and is no fiasco model: a model is written only over a model (remove the file, or name another)", flagName, path)
	case !model && is:
		return usagef(cmd, "%s %s: the file is a fiasco model: name another file (a model is written over only by fiasco train)", flagName, path)
	}
	return nil
}
