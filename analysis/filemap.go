package analysis

import (
	"iter"
	"maps"
)

// fileMap maps the paths of a snapshot or a package to their files. A
// language server builds a snapshot after every keystroke, and the
// snapshot after an edit that adds or removes no file is the last one with
// a file or two replaced: its map shares the last one's and keeps the
// replaced files apart (over), so that an edit does not copy a map entry
// per file of the repository. base is never written once the map is in
// use; over holds only keys of base.
type fileMap struct {
	base map[string]*File
	over map[string]*File
}

// newFileMap returns an empty map with room for size files, to be filled
// with put before it is used.
func newFileMap(size int) fileMap { return fileMap{base: make(map[string]*File, size)} }

// put sets the file at key while the map is being filled.
func (m fileMap) put(key string, f *File) { m.base[key] = f }

// get returns the file at key, or nil.
func (m fileMap) get(key string) *File {
	if m.over != nil {
		if f, ok := m.over[key]; ok {
			return f
		}
	}
	return m.base[key]
}

// len returns the number of files.
func (m fileMap) len() int { return len(m.base) }

// all yields every key and file, in no particular order.
func (m fileMap) all() iter.Seq2[string, *File] {
	return func(yield func(string, *File) bool) {
		for k, f := range m.base {
			if m.over != nil {
				if o, ok := m.over[k]; ok {
					f = o
				}
			}
			if !yield(k, f) {
				return
			}
		}
	}
}

// with returns the map with the files of repl in place of those at the
// same keys, each of which must be a key of m. The result shares m's base
// until the replacements are many, when they are folded into a base of
// its own.
func (m fileMap) with(repl map[string]*File) fileMap {
	if len(repl) == 0 {
		return m
	}
	if len(m.over)+len(repl) > max(32, len(m.base)/8) {
		base := maps.Clone(m.base)
		maps.Copy(base, m.over)
		maps.Copy(base, repl)
		return fileMap{base: base}
	}
	over := make(map[string]*File, len(m.over)+len(repl))
	maps.Copy(over, m.over)
	maps.Copy(over, repl)
	return fileMap{base: m.base, over: over}
}
