// Package source holds the small vocabulary that every layer of gddls shares:
// byte spans inside a file, findings with their codes and severities, and the
// conversion from byte offsets to LSP positions (zero-based lines and UTF-16
// code units).
//
// It has no dependencies beyond the standard library so that the pure
// packages (contracts and its children) and the workspace (analysis) can both
// use it.
package source

import "fmt"

// Span is a half-open range of byte offsets [Start, End) into one file's
// content.
type Span struct {
	Start, End int
}

// Len reports the number of bytes the span covers.
func (s Span) Len() int { return s.End - s.Start }

// Contains reports whether offset lies inside the span, counting the end
// offset as inside so that a cursor just after a token still touches it.
func (s Span) Contains(offset int) bool { return offset >= s.Start && offset <= s.End }

// Severity is how serious a finding is. The zero value is Error.
type Severity int

// The four severities of the LSP and of the `check` report.
const (
	Error Severity = iota
	Warning
	Info
	Hint
)

// String returns the lowercase name used in reports: error, warning, info or
// hint.
func (s Severity) String() string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	case Info:
		return "info"
	case Hint:
		return "hint"
	}
	return fmt.Sprintf("severity(%d)", int(s))
}

// Related is a second place that a finding involves, such as the other
// answer of a forbidden pair or the other heading with the same anchor.
type Related struct {
	// File is the path of the file, in the same form as Finding.File.
	File    string
	Span    Span
	Message string
}

// Finding is one problem found in a file. Code is the OpenGDD diagnostic
// code (for example CONTRACT_ANSWER_MISSING) or a gddls DOC_ code.
type Finding struct {
	Code     string
	Severity Severity
	// File is the path of the file the finding is about. Producers in the
	// contracts packages use the name they were given; the analysis layer
	// makes it package- or repository-relative with forward slashes.
	File    string
	Span    Span
	Message string
	Related []Related
	// Subject, when set, is the path of what the finding is about when
	// that is not File: a folder, or a required file that does not exist.
	// An editor shows the finding in File; a report names Subject.
	Subject string
	// Dependent marks an error that exists only because the same adoption
	// still lacks an answer, a value, a row field or a verification input.
	Dependent bool
	// Unnecessary marks a token that has no effect: an answer to a
	// question that is not asked, a value supplied while its declaration
	// is inactive, a row field whose condition does not hold. Editors
	// show it faded.
	Unnecessary bool
}

// String formats the finding for debugging and test failures.
func (f Finding) String() string {
	return fmt.Sprintf("%s:[%d,%d) %s %s: %s", f.File, f.Span.Start, f.Span.End, f.Severity, f.Code, f.Message)
}
