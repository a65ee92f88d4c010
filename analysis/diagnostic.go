package analysis

import (
	"sort"

	"github.com/gddls/gddls/contracts/source"
)

// Diagnostic is a finding placed in a file by line and UTF-16 column, ready
// for a report or an LSP client.
type Diagnostic struct {
	// File is the absolute path of the file, with the operating system's
	// separators.
	File      string
	Range     source.Range
	Code      string
	Severity  source.Severity
	Message   string
	Related   []RelatedLocation
	Dependent bool
}

// RelatedLocation is a second place a diagnostic involves.
type RelatedLocation struct {
	File    string
	Range   source.Range
	Message string
}

// sortDiagnostics orders diagnostics by file, position, then code, so that
// reports are stable.
func sortDiagnostics(ds []Diagnostic) {
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i], ds[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Range.Start.Line != b.Range.Start.Line {
			return a.Range.Start.Line < b.Range.Start.Line
		}
		if a.Range.Start.Character != b.Range.Start.Character {
			return a.Range.Start.Character < b.Range.Start.Character
		}
		if a.Code != b.Code {
			return a.Code < b.Code
		}
		return a.Message < b.Message
	})
}
