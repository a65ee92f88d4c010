package lsp

import (
	"net/url"
	"path/filepath"
	"runtime"
	"strings"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/gddls/gddls/analysis"
	"github.com/gddls/gddls/analysis/ide"
	"github.com/gddls/gddls/contracts/source"
)

// pathOf converts a file:// URI to an absolute OS path. Other schemes and
// malformed URIs report false.
func pathOf(u string) (string, bool) {
	parsed, err := url.Parse(u)
	if err != nil || !strings.EqualFold(parsed.Scheme, uri.FileScheme) || parsed.Path == "" {
		return "", false
	}
	if parsed.Host != "" && !strings.EqualFold(parsed.Host, "localhost") {
		return "", false
	}
	p := parsed.Path
	if runtime.GOOS == "windows" && len(p) >= 3 && p[0] == '/' && p[2] == ':' {
		p = p[1:]
	}
	p = filepath.Clean(filepath.FromSlash(p))
	if !filepath.IsAbs(p) {
		return "", false
	}
	return p, true
}

// uriOf converts an absolute OS path to a file:// URI.
func uriOf(path string) protocol.DocumentURI { return uri.File(path) }

// wirePosition is an incoming LSP position. Its fields are signed so that a
// negative position from a confused client is clamped, not rejected.
type wirePosition struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

// wireRange is an incoming LSP range.
type wireRange struct {
	Start wirePosition `json:"start"`
	End   wirePosition `json:"end"`
}

// offsetOf converts a position to a byte offset of the content lines
// index, clamping positions outside the content.
func offsetOf(lines *source.Lines, p wirePosition) int {
	if p.Line < 0 {
		return 0
	}
	return lines.Offset(source.Position{Line: p.Line, Character: max(p.Character, 0)})
}

// spanOf converts a range to a byte span, with Start <= End.
func spanOf(lines *source.Lines, r wireRange) source.Span {
	a, b := offsetOf(lines, r.Start), offsetOf(lines, r.End)
	if b < a {
		a, b = b, a
	}
	return source.Span{Start: a, End: b}
}

// toPosition converts a source position to a protocol one.
func toPosition(p source.Position) protocol.Position {
	return protocol.Position{Line: uint32(max(p.Line, 0)), Character: uint32(max(p.Character, 0))}
}

// toRange converts a source range to a protocol one.
func toRange(r source.Range) protocol.Range {
	return protocol.Range{Start: toPosition(r.Start), End: toPosition(r.End)}
}

// spanRange converts a byte span of a file to a protocol range.
func spanRange(lines *source.Lines, s source.Span) protocol.Range {
	return toRange(lines.Range(s))
}

// severity maps a finding severity to the LSP one.
func severity(s source.Severity) protocol.DiagnosticSeverity {
	switch s {
	case source.Warning:
		return protocol.DiagnosticSeverityWarning
	case source.Info:
		return protocol.DiagnosticSeverityInformation
	case source.Hint:
		return protocol.DiagnosticSeverityHint
	}
	return protocol.DiagnosticSeverityError
}

// toDiagnostic converts an analysis diagnostic to the LSP one.
func toDiagnostic(d analysis.Diagnostic) protocol.Diagnostic {
	out := protocol.Diagnostic{
		Range:    toRange(d.Range),
		Severity: severity(d.Severity),
		Code:     d.Code,
		Source:   "gddls",
		Message:  d.Message,
	}
	if d.Safety {
		// A safety notice is a place to look at, not a warning.
		out.Severity = protocol.DiagnosticSeverityInformation
	}
	if _, href, ok := analysis.SpecSection(d.Code); ok {
		out.CodeDescription = &protocol.CodeDescription{Href: protocol.URI(href)}
	}
	if d.Unnecessary {
		out.Tags = []protocol.DiagnosticTag{protocol.DiagnosticTagUnnecessary}
	}
	for _, r := range d.Related {
		out.RelatedInformation = append(out.RelatedInformation, protocol.DiagnosticRelatedInformation{
			Location: protocol.Location{URI: uriOf(r.File), Range: toRange(r.Range)},
			Message:  r.Message,
		})
	}
	return out
}

// completionKind maps a completion kind to the LSP one.
func completionKind(k ide.CompletionKind) protocol.CompletionItemKind {
	switch k {
	case ide.CompleteFile:
		return protocol.CompletionItemKindFile
	case ide.CompleteAnchor:
		return protocol.CompletionItemKindReference
	case ide.CompleteTuningKey:
		return protocol.CompletionItemKindConstant
	case ide.CompleteContractValue:
		return protocol.CompletionItemKindValue
	case ide.CompleteField:
		return protocol.CompletionItemKindField
	case ide.CompleteOption:
		return protocol.CompletionItemKindEnumMember
	case ide.CompleteQuestion:
		return protocol.CompletionItemKindProperty
	case ide.CompleteKeyword:
		return protocol.CompletionItemKindKeyword
	}
	return protocol.CompletionItemKindText
}

// symbolKind maps a symbol kind to the LSP one.
func symbolKind(k ide.SymbolKind) protocol.SymbolKind {
	switch k {
	case ide.SymbolHeading:
		return protocol.SymbolKindString
	case ide.SymbolQuestion:
		return protocol.SymbolKindEnum
	case ide.SymbolOption:
		return protocol.SymbolKindEnumMember
	case ide.SymbolValue:
		return protocol.SymbolKindConstant
	case ide.SymbolRowSet:
		return protocol.SymbolKindArray
	case ide.SymbolRow:
		return protocol.SymbolKindObject
	case ide.SymbolTuningKey:
		return protocol.SymbolKindNumber
	case ide.SymbolAdoption:
		return protocol.SymbolKindModule
	case ide.SymbolRule:
		return protocol.SymbolKindEvent
	case ide.SymbolTest:
		return protocol.SymbolKindMethod
	}
	return protocol.SymbolKindKey
}
