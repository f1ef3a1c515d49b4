// Package bundle defines p4switch's device config for
// SetForwardingPipelineConfig: either a single P4 source file, or a POSIX
// tar (ustar) archive of P4 sources with a member called "MAIN" whose
// content is the archive path of the program to compile. "..." includes
// resolve inside the archive; <...> includes use the built-in directory.
package bundle

import (
	"archive/tar"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/fairfabric/fairfabric/p4switch/p4/preproc"
	"github.com/fairfabric/fairfabric/p4switch/p4include"
)

// MainMember names the archive member holding the main program's path.
const MainMember = "MAIN"

// maxSize bounds a bundle and each member (64 MiB).
const maxSize = 64 << 20

// Create builds a bundle from the program at mainPath and every file it
// includes with "...", stored relative to the main file's directory.
func Create(mainPath string) ([]byte, error) {
	base := filepath.Dir(mainPath)
	files := map[string][]byte{}
	read := func(p string) ([]byte, error) {
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		rel, err := filepath.Rel(base, p)
		if err != nil || strings.HasPrefix(rel, "..") {
			return nil, fmt.Errorf("%s is outside the program's directory %s", p, base)
		}
		files[filepath.ToSlash(rel)] = data
		return data, nil
	}
	if _, err := preproc.File(preproc.Source{System: p4include.FS, Read: read}, mainPath); err != nil {
		return nil, err
	}
	var names []string
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	var buf bytes.Buffer
	w := tar.NewWriter(&buf)
	add := func(name string, data []byte) error {
		if err := w.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(data)), Format: tar.FormatUSTAR, Typeflag: tar.TypeReg}); err != nil {
			return err
		}
		_, err := w.Write(data)
		return err
	}
	if err := add(MainMember, []byte(filepath.Base(mainPath)+"\n")); err != nil {
		return nil, err
	}
	for _, n := range names {
		if err := add(n, files[n]); err != nil {
			return nil, err
		}
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Open returns the main program's path and a reader for the bundle's files.
func Open(data []byte) (string, func(string) ([]byte, error), error) {
	if len(data) == 0 {
		return "", nil, errors.New("empty device config")
	}
	if len(data) > maxSize {
		return "", nil, fmt.Errorf("device config of %d bytes exceeds %d", len(data), maxSize)
	}
	if !isTar(data) {
		const name = "program.p4"
		return name, func(p string) ([]byte, error) {
			if path.Clean(p) == name {
				return data, nil
			}
			return nil, fmt.Errorf("%s: not in the device config (a single P4 file has no \"...\" includes)", p)
		}, nil
	}
	files := map[string][]byte{}
	r := tar.NewReader(bytes.NewReader(data))
	for {
		h, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", nil, fmt.Errorf("bad bundle: %v", err)
		}
		if h.Typeflag != tar.TypeReg && h.Typeflag != tar.TypeRegA {
			continue
		}
		if h.Size > maxSize {
			return "", nil, fmt.Errorf("bundle member %s is too large", h.Name)
		}
		b, err := io.ReadAll(io.LimitReader(r, maxSize))
		if err != nil {
			return "", nil, fmt.Errorf("bad bundle: %v", err)
		}
		files[path.Clean(h.Name)] = b
	}
	m, ok := files[MainMember]
	if !ok {
		return "", nil, fmt.Errorf("bundle has no %s member naming the main program", MainMember)
	}
	main := path.Clean(strings.TrimSpace(string(m)))
	if _, ok := files[main]; !ok {
		return "", nil, fmt.Errorf("bundle's main program %q is not in the bundle", main)
	}
	return main, func(p string) ([]byte, error) {
		b, ok := files[path.Clean(filepath.ToSlash(p))]
		if !ok {
			return nil, fmt.Errorf("%s: not in the bundle", p)
		}
		return b, nil
	}, nil
}

func isTar(data []byte) bool {
	return len(data) >= 512 && string(data[257:262]) == "ustar"
}
