package analysis

import (
	"maps"
	"path/filepath"
	"slices"
	"sync"
)

// Workspace is the mutable state a language server keeps: the root folders,
// the unsaved buffers and a parse cache. Each change marks it dirty; Snapshot
// builds a fresh immutable snapshot when needed, reusing the parse of every
// file whose content did not change.
type Workspace struct {
	mu      sync.Mutex
	roots   []string
	overlay Overlay
	cache   *Cache
	disk    *disk
	snap    *Snapshot
	opts    Options
	// last is the last snapshot built and edited the paths whose overlay
	// changed since, from which the next build is carried when it can be
	// (carry.go).
	last   *Snapshot
	edited map[string]bool
}

// NewWorkspace returns a workspace over the given root folders.
func NewWorkspace(roots []string, opts Options) *Workspace {
	w := &Workspace{overlay: Overlay{}, cache: NewCache(), opts: opts}
	w.SetRoots(roots)
	return w
}

// SetRoots replaces the root folders.
func (w *Workspace) SetRoots(roots []string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.roots = w.roots[:0]
	for _, r := range roots {
		if abs, err := filepath.Abs(r); err == nil {
			w.roots = append(w.roots, filepath.Clean(abs))
		}
	}
	slices.Sort(w.roots)
	w.roots = slices.Compact(w.roots)
	w.disk = newDisk(slices.Clone(w.roots))
	w.snap, w.last, w.edited = nil, nil, nil
}

// Roots returns the current root folders.
func (w *Workspace) Roots() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.roots)
}

// SetOverlay records the unsaved content of an open file. A nil content
// removes the overlay, so the file on disk counts again.
func (w *Workspace) SetOverlay(path string, content []byte) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if content == nil {
		delete(w.overlay, path)
	} else {
		w.overlay[path] = content
	}
	if w.edited == nil {
		w.edited = map[string]bool{}
	}
	w.edited[path] = true
	w.snap = nil
}

// Overlay returns the unsaved content of a file and whether it has one.
func (w *Workspace) Overlay(path string) ([]byte, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	c, ok := w.overlay[path]
	return c, ok
}

// FilesChanged tells the workspace that files changed on disk (created,
// changed or deleted); with no paths, that anything may have changed. The
// next snapshot walks the roots again and re-reads those files.
func (w *Workspace) FilesChanged(paths []string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.disk.changed(paths)
	w.snap = nil
}

// Snapshot returns the current snapshot, building it if anything changed
// since the last call.
func (w *Workspace) Snapshot() *Snapshot {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.snap == nil {
		overlay := make(Overlay, len(w.overlay))
		for k, v := range w.overlay {
			overlay[k] = v
		}
		opts := w.opts
		opts.Overlay = overlay
		opts.Cache = w.cache
		w.snap = buildFrom(w.disk, opts, w.last, slices.Sorted(maps.Keys(w.edited)))
		w.last = w.snap
		clear(w.edited)
	}
	return w.snap
}
