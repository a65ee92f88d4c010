package analysis

import (
	"bytes"
	"sync"

	"github.com/gddls/gddls/analysis/markdown"
	"github.com/gddls/gddls/analysis/tuning"
	"github.com/gddls/gddls/contracts"
	"github.com/gddls/gddls/contracts/pack"
)

// Cache keeps the parse of each file, keyed by path and content, across
// snapshots. A language server keeps one Cache for its lifetime so that an
// edit re-parses only the file it changed. The zero Cache is not usable;
// create one with NewCache. A nil *Cache caches nothing.
type Cache struct {
	mu        sync.Mutex
	markdowns map[string]cached[*markdown.Doc]
	tunings   map[string]cached[*tuning.File]
	adoptions map[string]cached[*contracts.Adoption]
	packs     map[string]cached[*pack.Pack]
}

type cached[T any] struct {
	content []byte
	value   T
}

// NewCache returns an empty cache.
func NewCache() *Cache {
	return &Cache{
		markdowns: map[string]cached[*markdown.Doc]{},
		tunings:   map[string]cached[*tuning.File]{},
		adoptions: map[string]cached[*contracts.Adoption]{},
		packs:     map[string]cached[*pack.Pack]{},
	}
}

// lookup returns the cached value for path when its content is unchanged,
// or computes, stores and returns it.
func lookup[T any](c *Cache, m map[string]cached[T], path string, content []byte, parse func() T) T {
	if c == nil {
		return parse()
	}
	c.mu.Lock()
	e, ok := m[path]
	c.mu.Unlock()
	if ok && bytes.Equal(e.content, content) {
		return e.value
	}
	v := parse()
	c.mu.Lock()
	m[path] = cached[T]{content: content, value: v}
	c.mu.Unlock()
	return v
}

func (c *Cache) markdown(path string, content []byte) *markdown.Doc {
	var m map[string]cached[*markdown.Doc]
	if c != nil {
		m = c.markdowns
	}
	return lookup(c, m, path, content, func() *markdown.Doc { return markdown.Parse(content) })
}

func (c *Cache) tuning(path string, content []byte) *tuning.File {
	var m map[string]cached[*tuning.File]
	if c != nil {
		m = c.tunings
	}
	return lookup(c, m, path, content, func() *tuning.File { return tuning.Parse(path, content) })
}

func (c *Cache) adoption(path string, content []byte) *contracts.Adoption {
	var m map[string]cached[*contracts.Adoption]
	if c != nil {
		m = c.adoptions
	}
	return lookup(c, m, path, content, func() *contracts.Adoption { return contracts.ParseAdoption(path, content) })
}

func (c *Cache) pack(path string, content []byte) *pack.Pack {
	var m map[string]cached[*pack.Pack]
	if c != nil {
		m = c.packs
	}
	return lookup(c, m, path, content, func() *pack.Pack { return pack.ParsePack(path, content) })
}
