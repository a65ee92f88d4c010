package analysis

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Windows and macOS open `02-Mechanics.md` when a citation names it and
// the file is `02-mechanics.md`; Linux does not. gddls answers whether a
// cited path exists from the folder listings of the walk, comparing names
// exactly on every host, so a citation is judged as a case-sensitive
// system judges it. When it names nothing, the listings are asked again
// with letter case ignored, so that the finding can name the real file
// and a quick fix can write it. The folded index of a folder is built on
// the first such question and kept with the walk (caseIndex).

// caseIndex is what the case questions of one walk keep: the listings of
// the folders the walk passed over (hidden ones, and folders reached
// through a symbolic link), read when a citation first leads into them,
// and for each folder asked about, its names by folded name. A walk's
// listings do not change, so neither does the index; a file event makes a
// new walk with a new index.
type caseIndex struct {
	mu sync.Mutex
	// listed holds the folders outside the walk, listed on demand; a nil
	// list is a folder that could not be read (or is no folder).
	listed map[string][]DirEntry
	// folded maps a folder to its entries by foldName of their names, each
	// list in name order.
	folded map[string]map[string][]DirEntry
}

// listing returns the entries of the folder dir in name order: the walk's
// listing, or for a folder inside the roots that the walk passed over, its
// listing read once. ok is false when dir is no readable folder.
func (t *tree) listing(dir string) ([]DirEntry, bool) {
	if entries, ok := t.dirs[dir]; ok {
		return entries, true
	}
	t.cases.mu.Lock()
	defer t.cases.mu.Unlock()
	return t.listOutside(dir)
}

// listOutside lists a folder the walk passed over, once; the caller holds
// t.cases.mu.
func (t *tree) listOutside(dir string) ([]DirEntry, bool) {
	if entries, ok := t.cases.listed[dir]; ok {
		return entries, entries != nil
	}
	if t.cases.listed == nil {
		t.cases.listed = map[string][]DirEntry{}
	}
	var entries []DirEntry
	if list, err := os.ReadDir(dir); err == nil {
		entries = make([]DirEntry, 0, len(list))
		for _, e := range list {
			isDir := e.IsDir()
			if !isDir && e.Type()&os.ModeSymlink != 0 {
				if st, err := os.Stat(filepath.Join(dir, e.Name())); err == nil && st.IsDir() {
					isDir = true
				}
			}
			entries = append(entries, DirEntry{Name: e.Name(), IsDir: isDir})
		}
		sort.Slice(entries, func(i, j int) bool { return entries[i].Name < entries[j].Name })
	}
	t.cases.listed[dir] = entries
	return entries, entries != nil
}

// listedOutside reports whether the folder dir was listed on demand, so
// that a creation or deletion in it concerns the snapshots of the walk.
func (t *tree) listedOutside(dir string) bool {
	t.cases.mu.Lock()
	defer t.cases.mu.Unlock()
	_, ok := t.cases.listed[dir]
	return ok
}

// lookup finds the entry name in the folder dir: the entry of that exact
// name (exact set), else the first entry, in name order, whose name
// equals it when letter case is ignored. ok is false when there is
// neither, or dir is no readable folder.
func (t *tree) lookup(dir, name string) (e DirEntry, exact, ok bool) {
	entries, listed := t.listing(dir)
	if !listed {
		return e, false, false
	}
	i := sort.Search(len(entries), func(i int) bool { return entries[i].Name >= name })
	if i < len(entries) && entries[i].Name == name {
		return entries[i], true, true
	}
	t.cases.mu.Lock()
	defer t.cases.mu.Unlock()
	byFold, built := t.cases.folded[dir]
	if !built {
		byFold = make(map[string][]DirEntry, len(entries))
		for _, e := range entries {
			k := foldName(e.Name)
			byFold[k] = append(byFold[k], e)
		}
		if t.cases.folded == nil {
			t.cases.folded = map[string]map[string][]DirEntry{}
		}
		t.cases.folded[dir] = byFold
	}
	if same := byFold[foldName(name)]; len(same) > 0 {
		return same[0], false, true
	}
	return e, false, false
}

// find follows path, an absolute clean path below root, through the
// listings from root down, each name matched exactly or else with letter
// case ignored. It returns the path with every name as the listings write
// it, and whether that is a folder; found is false when some name matches
// nothing either way. The root itself is taken as it is written.
func (t *tree) find(root, path string) (real string, isDir, found bool) {
	if path == root {
		return root, true, true
	}
	if !Within(root, path) {
		return "", false, false
	}
	rel, err := filepath.Rel(root, path)
	if err != nil {
		return "", false, false
	}
	cur, isDir := root, true
	for _, name := range strings.Split(rel, string(filepath.Separator)) {
		if !isDir {
			return "", false, false
		}
		e, _, ok := t.lookup(cur, name)
		if !ok {
			return "", false, false
		}
		cur, isDir = filepath.Join(cur, e.Name), e.IsDir
	}
	return cur, isDir, true
}

// caseFix reads written, a slash path relative to the folder base (or to
// root when it starts with '/'), the way filepath.Join resolves it, and
// matches each of its names in the listings with letter case ignored.
// When the path names something only that way, it returns the path as
// written with each name that differs replaced by the real one (encode
// writes a real name in the form of the text; decode reads a written
// name), and the real absolute path. ok is false when the path names
// nothing, names something exactly as written, or leaves root.
func (t *tree) caseFix(root, base, written string, decode, encode func(string) string) (fixed, real string, ok bool) {
	segs := strings.Split(written, "/")
	cur := base
	if strings.HasPrefix(written, "/") {
		cur = root
	}
	// names holds the positions of the names that remain once each ".."
	// has cancelled the name before it, as filepath.Clean does; the
	// ".." that climb above base move the start instead.
	var names []int
	for i, s := range segs {
		switch decode(s) {
		case "", ".":
		case "..":
			if len(names) > 0 {
				names = names[:len(names)-1]
			} else {
				cur = filepath.Dir(cur)
			}
		default:
			names = append(names, i)
		}
	}
	if !Within(root, cur) {
		return "", "", false
	}
	differs, isDir := false, true
	for _, i := range names {
		name := decode(segs[i])
		if !isDir || strings.ContainsRune(name, filepath.Separator) || strings.ContainsRune(name, '/') {
			return "", "", false
		}
		e, exact, found := t.lookup(cur, name)
		if !found {
			return "", "", false
		}
		if !exact {
			differs = true
			// A name written plain is valid where it stands with its
			// letters in another case too; an escaped one is encoded.
			if segs[i] == name {
				segs[i] = e.Name
			} else {
				segs[i] = encode(e.Name)
			}
		}
		cur, isDir = filepath.Join(cur, e.Name), e.IsDir
	}
	if !differs {
		return "", "", false
	}
	return strings.Join(segs, "/"), cur, true
}

// caseFixOf is caseFix for a path written as it is, with no escapes: an
// inline-code path or a JSON string value.
func (t *tree) caseFixOf(root, base, written string) (fixed, real string, ok bool) {
	same := func(s string) string { return s }
	return t.caseFix(root, base, written, same, same)
}

// foldName returns a key that two names share exactly when
// strings.EqualFold holds for them: each letter replaced by one member of
// its simple case-folding orbit (an ASCII letter, when the orbit holds
// one, in lower case).
func foldName(s string) string {
	upper := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			var b strings.Builder
			b.Grow(len(s))
			for _, r := range s {
				b.WriteRune(foldRune(r))
			}
			return b.String()
		}
		upper = upper || 'A' <= c && c <= 'Z'
	}
	if !upper {
		return s
	}
	return strings.ToLower(s)
}

// foldRune returns the representative of r's simple case-folding orbit:
// its ASCII member in lower case when it has one (the Kelvin sign folds
// to 'k'), else its smallest member.
func foldRune(r rune) rune {
	least := r
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		least = min(least, f)
	}
	if 'A' <= least && least <= 'Z' {
		return least + ('a' - 'A')
	}
	return least
}
