package analysis

import (
	"fmt"
	"slices"
	"sync"
)

// disk remembers what a walk of the roots found and what was read from
// disk, so that a workspace can build a new snapshot after an editor change
// without touching the file system. Load uses a fresh disk every time; a
// Workspace keeps one and forgets what file events say has changed.
type disk struct {
	roots []string
	// tree is the last walk; nil means walk again.
	tree *tree
	// overlaid is the last walk with an overlay applied, and added and
	// removed the paths that overlay added and removed: the next overlay
	// that adds and removes the same paths gets the same tree, so that a
	// build after an edit with an unsaved new file open still finds the
	// walk of the last one (carry.go).
	overlaid       *tree
	added, removed []string
	mu             sync.Mutex
	read           map[string]diskRead
	// generation counts changes to the tree or to what was read; results
	// that depend on the file system (a cited file exists, a test file holds
	// a name) are valid only within one generation.
	generation int
}

// diskRead is the outcome of reading one file.
type diskRead struct {
	content []byte
	err     error
}

func newDisk(roots []string) *disk {
	return &disk{roots: roots, read: map[string]diskRead{}}
}

// walked returns the tree, walking the roots if needed. The overlay adds
// unsaved files that do not exist on disk yet.
func (d *disk) walked(overlay Overlay) *tree {
	if d.tree == nil {
		d.tree = walk(d.roots)
		d.generation++
	}
	if len(overlay) == 0 {
		return d.tree
	}
	added, removed := d.tree.overlayChanges(d.roots, overlay)
	if d.overlaid != nil && slices.Equal(added, d.added) && slices.Equal(removed, d.removed) {
		return d.overlaid
	}
	d.overlaid, d.added, d.removed = d.tree.applyOverlay(overlay, added, removed), added, removed
	return d.overlaid
}

// readFile returns a file's content, reading the disk only the first time.
// A file larger than limit is not read: its error is a *tooLarge.
func (d *disk) readFile(path string, limit int64) ([]byte, error) {
	d.mu.Lock()
	r, ok := d.read[path]
	d.mu.Unlock()
	if ok {
		return r.content, r.err
	}
	content, err := readWhole(path, limit)
	d.mu.Lock()
	d.read[path] = diskRead{content: content, err: err}
	d.mu.Unlock()
	return content, err
}

// changed forgets what it knew about paths; with no paths, about every
// file. The next snapshot walks the roots again.
func (d *disk) changed(paths []string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(paths) == 0 {
		d.read = map[string]diskRead{}
	}
	for _, p := range paths {
		delete(d.read, p)
	}
	d.tree, d.overlaid = nil, nil
	d.generation++
}

// tooLarge is the error of a file that was not read because it is larger
// than the limit.
type tooLarge struct{ size, limit int64 }

func (e *tooLarge) Error() string {
	return fmt.Sprintf("the file is %d bytes, larger than the %d bytes gddls analyses", e.size, e.limit)
}
