package analysis

import (
	"errors"

	"github.com/gddls/gddls/contracts/source"
)

// The queries below are being implemented; each helper that implements one
// removes it from this file.

// Hover returns the hover text at offset, or nil.
func (s *Snapshot) Hover(path string, offset int) *Hover { return nil }

// CodeActions returns fixes for the findings that overlap span.
func (s *Snapshot) CodeActions(path string, span source.Span) []CodeAction { return nil }

// CodeLenses returns the code lenses of a file.
func (s *Snapshot) CodeLenses(path string) []CodeLens { return nil }

// RenderTests renders the generated tests of the adoption at path.
func (s *Snapshot) RenderTests(path string) (string, error) {
	return "", errors.New("not a checked adoption")
}
