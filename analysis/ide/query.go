package ide

import "github.com/gddls/gddls/contracts/source"

// This file declares the editor queries. Each is a pure function of a
// snapshot, a file and a byte offset into that file's content (the protocol
// layer converts LSP positions with File.Lines). Results carry byte spans;
// spans in other files are converted with that file's Lines.

// Location is a span in a file.
type Location struct {
	// File is the absolute path.
	File string
	Span source.Span
}

// TextEdit replaces a span of a file with new text.
type TextEdit struct {
	Span    source.Span
	NewText string
}

// CompletionKind classifies a completion item; the protocol layer maps it
// to an LSP CompletionItemKind.
type CompletionKind int

// The kinds of completion items.
const (
	CompleteFile CompletionKind = iota
	CompleteAnchor
	CompleteTuningKey
	CompleteContractValue
	CompleteField
	CompleteOption
	CompleteQuestion
	CompleteKeyword
)

// CompletionItem is one proposal.
type CompletionItem struct {
	Label  string
	Kind   CompletionKind
	Detail string
	// Documentation is Markdown.
	Documentation string
	// Edit replaces the text being completed; when nil the client inserts
	// Label at the cursor.
	Edit *TextEdit
	// SortText orders items; empty means Label order.
	SortText string
	// Deprecated marks an item the user should not pick, such as an open
	// number in a citation (it cannot be cited).
	Deprecated bool
	// Retrigger is set when choosing the item should re-trigger completion,
	// as after a file name followed by '#'.
	Retrigger bool
	// SnippetEdit, when set, is the edit to use instead of Edit for a
	// client that supports snippets: the same text in LSP snippet syntax,
	// with tab stops for the parts to fill in.
	SnippetEdit *TextEdit
}

// HoverInfo is the text shown for the token under the cursor.
type HoverInfo struct {
	// Markdown is the content.
	Markdown string
	// Span is the token hovered.
	Span source.Span
}

// SymbolKind classifies a symbol; the protocol layer maps it to an LSP
// SymbolKind.
type SymbolKind int

// The kinds of symbols.
const (
	SymbolHeading SymbolKind = iota
	SymbolQuestion
	SymbolOption
	SymbolValue
	SymbolRowSet
	SymbolRow
	SymbolTuningKey
	SymbolAdoption
	SymbolRule
	SymbolRuleset
	// SymbolTest is an acceptance test of the build plan.
	SymbolTest
)

// Symbol is an entry of a document outline or of a workspace symbol search.
type Symbol struct {
	Name   string
	Detail string
	Kind   SymbolKind
	// File is the absolute path (set for workspace symbols).
	File          string
	Span          source.Span
	SelectionSpan source.Span
	Children      []Symbol
}

// CodeAction is a proposed fix: a set of edits across files.
type CodeAction struct {
	Title string
	// Kind is an LSP code action kind such as "quickfix".
	Kind string
	// Codes are the finding codes the action fixes.
	Codes []string
	// Edits maps absolute file paths to edits.
	Edits map[string][]TextEdit
	// Preferred marks the single best fix.
	Preferred bool
	// Creates are new files the action makes, before its edits apply.
	Creates []FileCreate
}

// CodeLens is a line of information shown above a span, with an optional
// command.
type CodeLens struct {
	Span    source.Span
	Title   string
	Command string
	// Arguments are passed to Command.
	Arguments []any
	// Locations are the references a reference-count lens opens; the
	// protocol layer passes them after Arguments.
	Locations []Location
}

// DocumentLink makes a span clickable.
type DocumentLink struct {
	Span source.Span
	// Target is the absolute path of the target file.
	Target string
	// TargetSpan is where in the target to go; zero means the top.
	TargetSpan source.Span
	Tooltip    string
}
