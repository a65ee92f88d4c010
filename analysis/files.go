package analysis

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/gddls/gddls/analysis/safety"
)

// DefaultMaxFileSize is the largest file gddls analyses, far above any real
// design file. A larger file is not parsed: a JSON file of the format gets
// its kind's syntax code (it cannot be read as the format requires), any
// other file FILE_NOT_ANALYSED.
const DefaultMaxFileSize = 64 << 20

// maxWalkFiles bounds the number of files one snapshot reads, so that
// pointing gddls at a huge tree cannot exhaust memory.
const maxWalkFiles = 200000

// Overlay maps absolute file paths to unsaved contents that win over the
// file on disk. A nil slice for a path means the file is deleted in the
// editor's view even if it still exists on disk.
type Overlay map[string][]byte

// tree is what a walk over the roots found: every relevant file and the
// entries of every folder, by absolute path.
type tree struct {
	files   map[string]*walkedFile
	dirs    map[string][]DirEntry
	skipped []skippedFile
	// cases answers the questions of letter case (casefold.go).
	cases caseIndex
}

type walkedFile struct {
	path string
	// size is the file's size in bytes, or -1 for a regular file, whose
	// read tells it (the walk does not stat each file).
	size int64
	// fromOverlay is set for a file that exists only in the overlay.
	fromOverlay bool
	// link is set for a symbolic link to a file inside the root, which
	// the checks read but the safety scan does not (INJECTION-LINT.md).
	link bool
	// clean is set when path is clean and absolute (cleanAbs), tested
	// once per walk rather than in every build.
	clean bool
}

// DirEntry is one entry of a folder as the checks see it.
type DirEntry struct {
	Name  string
	IsDir bool
}

type skippedFile struct {
	path   string
	reason string
}

// interesting reports whether the walk reads a file of this name: a file of
// the format, or another text file, which only the safety scan reads
// (safety.IsText).
func interesting(name string) bool {
	return analysed(name) || safety.IsText(name)
}

// analysed reports whether the checks read a file of this name: Markdown
// and JSON.
func analysed(name string) bool {
	ext := strings.ToLower(filepath.Ext(name))
	return ext == ".md" || ext == ".json" || ext == ".markdown"
}

// SkipDir reports whether the workspace's walk passes over a folder of
// this name (hidden folders and node_modules); a root is never skipped.
// Other walks over a package tree use it to see the folders the checker
// sees.
func SkipDir(name string) bool {
	return strings.HasPrefix(name, ".") || name == "node_modules"
}

// walk lists the files and folders below each root without following
// symbolic links to folders, so symlink loops cannot trap it. A symbolic
// link to a file is read only when its target stays inside the root.
// Each folder is listed once (filepath.WalkDir would list it a second
// time for its own descent).
func walk(roots []string) *tree {
	t := &tree{files: map[string]*walkedFile{}, dirs: map[string][]DirEntry{}}
	for _, root := range roots {
		info, err := os.Lstat(root)
		if err != nil {
			continue
		}
		t.visit(root, root, fs.FileInfoToDirEntry(info))
	}
	for dir := range t.dirs {
		sort.Slice(t.dirs[dir], func(i, j int) bool { return t.dirs[dir][i].Name < t.dirs[dir][j].Name })
	}
	return t
}

// visit adds the entry d at path, below root, and for a folder everything
// below it, in the order of the names; it returns fs.SkipAll when the
// walk has found maxWalkFiles files.
func (t *tree) visit(root, path string, d fs.DirEntry) error {
	if d.IsDir() {
		if path != root && SkipDir(d.Name()) {
			return nil
		}
		if _, seen := t.dirs[path]; seen {
			return nil
		}
		entries, err := os.ReadDir(path)
		if err != nil {
			if path != root {
				t.skipped = append(t.skipped, skippedFile{path, "cannot be read: " + err.Error()})
			}
			return nil
		}
		list := make([]DirEntry, 0, len(entries))
		for _, e := range entries {
			isDir := e.IsDir()
			if e.Type()&fs.ModeSymlink != 0 {
				if st, err := os.Stat(filepath.Join(path, e.Name())); err == nil && st.IsDir() {
					isDir = true
				}
			}
			list = append(list, DirEntry{Name: e.Name(), IsDir: isDir})
		}
		t.dirs[path] = list
		for _, e := range entries {
			if err := t.visit(root, filepath.Join(path, e.Name()), e); err != nil {
				return err
			}
		}
		return nil
	}
	if len(t.files) >= maxWalkFiles {
		return fs.SkipAll
	}
	if !interesting(d.Name()) {
		return nil
	}
	if d.Type()&fs.ModeSymlink != 0 {
		if !analysed(d.Name()) {
			// Only the safety scan would read it, and the scan does not
			// read through links.
			return nil
		}
		target, err := filepath.EvalSymlinks(path)
		if err != nil {
			t.skipped = append(t.skipped, skippedFile{path, "is a broken or looping symbolic link"})
			return nil
		}
		if !Within(root, target) {
			t.skipped = append(t.skipped, skippedFile{path, "is a symbolic link to a file outside the folder being checked"})
			return nil
		}
		st, err := os.Stat(target)
		if err != nil || !st.Mode().IsRegular() {
			return nil
		}
		t.files[path] = &walkedFile{path: path, size: st.Size(), link: true, clean: cleanAbs(path)}
		return nil
	}
	if !d.Type().IsRegular() {
		return nil
	}
	t.files[path] = &walkedFile{path: path, size: -1, clean: cleanAbs(path)}
	return nil
}

// overlayChanges returns the paths the overlay adds to the tree and those
// it removes, each sorted: an unsaved file that is not on disk is added,
// and a nil overlay entry removes a file.
func (t *tree) overlayChanges(roots []string, overlay Overlay) (added, removed []string) {
	for path, content := range overlay {
		_, onDisk := t.files[path]
		switch {
		case content == nil && onDisk:
			removed = append(removed, path)
		case content != nil && !onDisk && interesting(path):
			for _, root := range roots {
				if Within(root, path) {
					added = append(added, path)
					break
				}
			}
		}
	}
	slices.Sort(added)
	slices.Sort(removed)
	return added, removed
}

// applyOverlay returns the tree with the paths added and removed that
// overlayChanges found. The receiver is not changed; when the overlay
// changes nothing it is returned as it is.
func (t *tree) applyOverlay(overlay Overlay, added, removed []string) *tree {
	if len(added) == 0 && len(removed) == 0 {
		return t
	}
	out := &tree{files: make(map[string]*walkedFile, len(t.files)+len(added)), dirs: make(map[string][]DirEntry, len(t.dirs)), skipped: t.skipped}
	for k, v := range t.files {
		out.files[k] = v
	}
	for k, v := range t.dirs {
		out.dirs[k] = v
	}
	for _, path := range removed {
		delete(out.files, path)
	}
	for _, path := range added {
		out.files[path] = &walkedFile{path: path, size: int64(len(overlay[path])), fromOverlay: true, clean: cleanAbs(path)}
		out.addEntry(filepath.Dir(path), DirEntry{Name: filepath.Base(path)})
	}
	return out
}

// addEntry lists e in the folder dir, and lists each folder that does not
// exist yet in its parent, so that an unsaved file in a new folder is seen
// like one on disk.
func (t *tree) addEntry(dir string, e DirEntry) {
	for {
		entries, known := t.dirs[dir]
		for _, have := range entries {
			if have.Name == e.Name {
				return
			}
		}
		entries = append(append([]DirEntry(nil), entries...), e)
		sort.Slice(entries, func(i, j int) bool { return entries[i].Name < entries[j].Name })
		t.dirs[dir] = entries
		parent := filepath.Dir(dir)
		if known || parent == dir {
			return
		}
		dir, e = parent, DirEntry{Name: filepath.Base(dir), IsDir: true}
	}
}

// Within reports whether path is root or lies below it, lexically.
func Within(root, path string) bool {
	if filepath.Separator == '/' && cleanAbs(root) && cleanAbs(path) {
		// Clean absolute paths (those of the walk and of every join): a
		// comparison of prefixes, without filepath.Rel's cleaning.
		_, below := belowClean(root, path)
		return root == "/" || path == root || below
	}
	rel, err := filepath.Rel(root, path)
	if err != nil {
		return false
	}
	return rel == "." || (rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel))
}

// belowClean returns the slash path of path relative to root, and whether
// path lies strictly below root, for clean absolute slash paths (cleanAbs)
// and a root other than "/": a prefix that ends at a slash.
func belowClean(root, path string) (string, bool) {
	if len(path) > len(root) && path[len(root)] == '/' && strings.HasPrefix(path, root) {
		return path[len(root)+1:], true
	}
	return "", false
}

// cleanAbs reports whether p is an absolute slash path that filepath.Clean
// leaves as it is: no empty, "." or ".." element and no trailing slash.
func cleanAbs(p string) bool {
	return p == "/" || p != "" && p[0] == '/' && cleanRel(p[1:])
}

// cleanRel reports whether p is a relative slash path that filepath.Clean
// leaves as it is: one element at least, none of them empty, "." or "..".
func cleanRel(p string) bool {
	start := 0
	for i := 0; i <= len(p); i++ {
		if i < len(p) && p[i] != '/' {
			continue
		}
		if elem := p[start:i]; elem == "" || elem == "." || elem == ".." {
			return false
		}
		start = i + 1
	}
	return true
}

// joinPath is filepath.Join(base, filepath.FromSlash(rel)). Where base is
// a clean absolute path and rel climbs with "../" steps to names that need
// no cleaning, as a link between the files of a repository does, it joins
// them without filepath.Clean's copy and scan.
func joinPath(base, rel string) string {
	if filepath.Separator != '/' || !cleanAbs(base) {
		return filepath.Join(base, filepath.FromSlash(rel))
	}
	dir, rest := base, rel
	for strings.HasPrefix(rest, "../") {
		rest = rest[len("../"):]
		if i := strings.LastIndexByte(dir, '/'); i > 0 {
			dir = dir[:i]
		} else {
			dir = "/"
		}
	}
	switch {
	case rest == "":
		return dir
	case !cleanRel(rest):
		return filepath.Join(base, rel)
	case dir == "/":
		return dir + rest
	}
	return dir + "/" + rest
}
