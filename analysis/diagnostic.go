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
	// Subject, when set, is the absolute path of the folder or missing
	// file the finding is about; File is where an editor shows it (see
	// source.Finding.Subject).
	Subject string
	// Unnecessary marks a token that has no effect (source.Finding).
	Unnecessary bool
	// Safety marks a safety notice (Snapshot.Safety): a place for a person
	// to look at, never a finding. Its Severity is Warning, as the format's
	// report gives it; a server shows it as information.
	Safety bool
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
	sort.SliceStable(ds, func(i, j int) bool { return diagnosticLess(ds[i], ds[j]) })
}

// diagnosticLess is the order of sortDiagnostics.
func diagnosticLess(a, b Diagnostic) bool {
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
}

// SameDiagnostics reports whether two lists hold the same diagnostics in
// the same order, so that a server republishes only what changed.
func SameDiagnostics(a, b []Diagnostic) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.File != y.File || x.Range != y.Range || x.Code != y.Code || x.Severity != y.Severity ||
			x.Message != y.Message || x.Dependent != y.Dependent || x.Subject != y.Subject || x.Unnecessary != y.Unnecessary || x.Safety != y.Safety ||
			len(x.Related) != len(y.Related) {
			return false
		}
		for j := range x.Related {
			if x.Related[j] != y.Related[j] {
				return false
			}
		}
	}
	return true
}
