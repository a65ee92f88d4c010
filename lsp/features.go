package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/gddls/gddls/analysis"
	"github.com/gddls/gddls/analysis/ide"
	"github.com/gddls/gddls/contracts/source"
)

// requests are the request handlers by method; initialize and shutdown are
// handled by the lifecycle code.
var requests = map[string]requestFunc{
	"textDocument/completion":          completion,
	"textDocument/hover":               hover,
	"textDocument/definition":          definition,
	"textDocument/references":          references,
	"textDocument/prepareRename":       prepareRename,
	"textDocument/rename":              rename,
	"textDocument/documentSymbol":      documentSymbol,
	"workspace/symbol":                 workspaceSymbol,
	"textDocument/codeAction":          codeAction,
	"textDocument/codeLens":            codeLens,
	"textDocument/documentLink":        documentLink,
	"workspace/executeCommand":         executeCommand,
	"workspace/willRenameFiles":        willRenameFiles,
	"textDocument/inlayHint":           inlayHints,
	"textDocument/diagnostic":          documentDiagnostic,
	"workspace/diagnostic":             workspaceDiagnostic,
	"textDocument/foldingRange":        foldingRange,
	"textDocument/selectionRange":      selectionRange,
	"textDocument/documentHighlight":   documentHighlight,
	"textDocument/semanticTokens/full": semanticTokens,
	"textDocument/documentColor":       documentColor,
	"textDocument/colorPresentation":   colorPresentation,
}

// testRequests are enabled only with Options.TestHooks.
var testRequests = map[string]requestFunc{
	"gddls/test.panic": func(context.Context, *Server, *analysis.Snapshot, json.RawMessage) (any, error) {
		panic("test hook: deliberate panic")
	},
	// gddls/test.content answers the content a request sees for a file,
	// so tests can check the order of edits and requests.
	"gddls/test.content": func(_ context.Context, _ *Server, snap *analysis.Snapshot, raw json.RawMessage) (any, error) {
		f, err := docFile(snap, raw)
		if f == nil {
			return nil, err
		}
		return string(f.Content), nil
	},
	// gddls/test.flush publishes the diagnostics of every change received
	// so far and answers after the notifications are written, so a test
	// knows it has seen the last publication without waiting for quiet.
	"gddls/test.flush": func(ctx context.Context, s *Server, _ *analysis.Snapshot, _ json.RawMessage) (any, error) {
		done := make(chan struct{})
		if !s.q.push(func() { s.publish(); close(done) }) {
			return nil, fmt.Errorf("the server is shutting down")
		}
		select {
		case <-done:
			return nil, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	},
	"gddls/test.block": func(ctx context.Context, _ *Server, _ *analysis.Snapshot, _ json.RawMessage) (any, error) {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(30 * time.Second):
			return "not cancelled", nil
		}
	},
}

// docFile decodes the parameters of a request that names a document and
// returns the document's file; f is nil when the file is not in the
// snapshot.
func docFile(snap *analysis.Snapshot, raw json.RawMessage) (f *analysis.File, err error) {
	var p docParams
	if err := decode(raw, &p); err != nil {
		return nil, err
	}
	return fileOf(snap, p.TextDocument.URI), nil
}

// posFile decodes the parameters of a request at a position into p, whose
// position part is pos, and returns the document's file and the byte
// offset of the position; f is nil when the file is not in the snapshot.
func posFile(snap *analysis.Snapshot, raw json.RawMessage, p any, pos *posParams) (f *analysis.File, offset int, err error) {
	if err := decode(raw, p); err != nil {
		return nil, 0, err
	}
	if f = fileOf(snap, pos.TextDocument.URI); f == nil {
		return nil, 0, nil
	}
	return f, offsetOf(f.Lines, pos.Position), nil
}

// docParams names a document.
type docParams struct {
	TextDocument struct {
		URI string `json:"uri"`
	} `json:"textDocument"`
}

// posParams names a document and a position in it.
type posParams struct {
	docParams
	Position wirePosition `json:"position"`
}

// decode reads request params, reporting InvalidParams on failure.
func decode(raw json.RawMessage, v any) error {
	if len(raw) == 0 {
		return jsonrpc2.NewError(jsonrpc2.InvalidParams, "missing params")
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params: %v", err)
	}
	return nil
}

// fileOf returns the snapshot file a URI names, or nil when the URI is not
// a file of the snapshot.
func fileOf(snap *analysis.Snapshot, u string) *analysis.File {
	path, ok := pathOf(u)
	if !ok {
		return nil
	}
	f := snap.File(path)
	if f == nil || f.Lines == nil {
		return nil
	}
	return f
}

// location converts an analysis location; ok is false when its file can be
// read neither from the snapshot nor, for a cited file such as a test
// source, from disk inside the workspace.
func location(snap *analysis.Snapshot, l ide.Location) (protocol.Location, bool) {
	lines := ide.LinesOf(snap, l.File)
	if lines == nil {
		return protocol.Location{}, false
	}
	return protocol.Location{URI: uriOf(l.File), Range: spanRange(lines, l.Span)}, true
}

// locations converts analysis locations, never returning nil.
func locations(snap *analysis.Snapshot, ls []ide.Location) []protocol.Location {
	out := []protocol.Location{}
	for _, l := range ls {
		if loc, ok := location(snap, l); ok {
			out = append(out, loc)
		}
	}
	return out
}

func completion(_ context.Context, s *Server, snap *analysis.Snapshot, raw json.RawMessage) (any, error) {
	var p posParams
	list := &protocol.CompletionList{Items: []protocol.CompletionItem{}}
	f, offset, err := posFile(snap, raw, &p, &p)
	if f == nil {
		return list, err
	}
	for _, it := range ide.Complete(snap, f.Path, offset) {
		item := protocol.CompletionItem{
			Label:      it.Label,
			Kind:       completionKind(it.Kind),
			Detail:     it.Detail,
			SortText:   it.SortText,
			Deprecated: it.Deprecated,
		}
		if it.Documentation != "" {
			item.Documentation = &protocol.MarkupContent{Kind: protocol.Markdown, Value: it.Documentation}
		}
		if it.Edit != nil {
			item.TextEdit = &protocol.TextEdit{Range: spanRange(f.Lines, it.Edit.Span), NewText: it.Edit.NewText}
		}
		if it.SnippetEdit != nil && s.snippets() {
			item.TextEdit = &protocol.TextEdit{Range: spanRange(f.Lines, it.SnippetEdit.Span), NewText: it.SnippetEdit.NewText}
			item.InsertTextFormat = protocol.InsertTextFormatSnippet
		}
		if it.Deprecated {
			item.Tags = []protocol.CompletionItemTag{protocol.CompletionItemTagDeprecated}
		}
		if it.Retrigger && s.clientIsVSCode() {
			item.Command = &protocol.Command{Title: "Suggest", Command: "editor.action.triggerSuggest"}
		}
		list.Items = append(list.Items, item)
	}
	return list, nil
}

func hover(_ context.Context, _ *Server, snap *analysis.Snapshot, raw json.RawMessage) (any, error) {
	var p posParams
	f, offset, err := posFile(snap, raw, &p, &p)
	if f == nil {
		return nil, err
	}
	h := ide.Hover(snap, f.Path, offset)
	if h == nil {
		return nil, nil
	}
	r := spanRange(f.Lines, h.Span)
	return &protocol.Hover{Contents: protocol.MarkupContent{Kind: protocol.Markdown, Value: h.Markdown}, Range: &r}, nil
}

func definition(_ context.Context, _ *Server, snap *analysis.Snapshot, raw json.RawMessage) (any, error) {
	var p posParams
	f, offset, err := posFile(snap, raw, &p, &p)
	if f == nil {
		return []protocol.Location{}, err
	}
	return locations(snap, ide.Definition(snap, f.Path, offset)), nil
}

func references(_ context.Context, _ *Server, snap *analysis.Snapshot, raw json.RawMessage) (any, error) {
	var p struct {
		posParams
		Context struct {
			IncludeDeclaration bool `json:"includeDeclaration"`
		} `json:"context"`
	}
	f, offset, err := posFile(snap, raw, &p, &p.posParams)
	if f == nil {
		return []protocol.Location{}, err
	}
	return locations(snap, ide.References(snap, f.Path, offset, p.Context.IncludeDeclaration)), nil
}

// prepareRenameResult is the range-and-placeholder answer of
// textDocument/prepareRename.
type prepareRenameResult struct {
	Range       protocol.Range `json:"range"`
	Placeholder string         `json:"placeholder"`
}

func prepareRename(_ context.Context, s *Server, snap *analysis.Snapshot, raw json.RawMessage) (any, error) {
	var p posParams
	f, offset, err := posFile(snap, raw, &p, &p)
	if f == nil {
		return nil, err
	}
	span, name, err := ide.PrepareRename(snap, f.Path, offset)
	if err != nil {
		return nil, nil // null: nothing renamable here
	}
	return &prepareRenameResult{Range: spanRange(f.Lines, span), Placeholder: name}, nil
}

func rename(_ context.Context, s *Server, snap *analysis.Snapshot, raw json.RawMessage) (any, error) {
	var p struct {
		posParams
		NewName string `json:"newName"`
	}
	f, offset, err := posFile(snap, raw, &p, &p.posParams)
	if f == nil {
		return nil, err
	}
	edits, moves, err := ide.RenameWithFiles(snap, f.Path, offset, p.NewName)
	if err != nil {
		return nil, jsonrpc2.NewError(codeRequestFailed, err.Error())
	}
	if len(moves) > 0 {
		return s.movingEdit(snap, edits, moves)
	}
	return workspaceEdit(s, snap, edits)
}

func documentSymbol(_ context.Context, _ *Server, snap *analysis.Snapshot, raw json.RawMessage) (any, error) {
	f, err := docFile(snap, raw)
	if f == nil {
		return []protocol.DocumentSymbol{}, err
	}
	return documentSymbols(f.Lines, ide.DocumentSymbols(snap, f.Path)), nil
}

// documentSymbols converts a symbol tree, never returning nil.
func documentSymbols(lines *source.Lines, syms []ide.Symbol) []protocol.DocumentSymbol {
	out := make([]protocol.DocumentSymbol, 0, len(syms))
	for _, sym := range syms {
		name := sym.Name
		if strings.TrimSpace(name) == "" {
			name = "(unnamed)" // LSP forbids empty symbol names
		}
		ds := protocol.DocumentSymbol{
			Name:           name,
			Detail:         sym.Detail,
			Kind:           symbolKind(sym.Kind),
			Range:          spanRange(lines, sym.Span),
			SelectionRange: spanRange(lines, sym.SelectionSpan),
		}
		if len(sym.Children) > 0 {
			ds.Children = documentSymbols(lines, sym.Children)
		}
		out = append(out, ds)
	}
	return out
}

func workspaceSymbol(_ context.Context, _ *Server, snap *analysis.Snapshot, raw json.RawMessage) (any, error) {
	var p struct {
		Query string `json:"query"`
	}
	if err := decode(raw, &p); err != nil {
		return nil, err
	}
	out := []protocol.SymbolInformation{}
	for _, sym := range ide.WorkspaceSymbols(snap, p.Query) {
		loc, ok := location(snap, ide.Location{File: sym.File, Span: sym.SelectionSpan})
		if !ok {
			continue
		}
		name := sym.Name
		if strings.TrimSpace(name) == "" {
			name = "(unnamed)"
		}
		out = append(out, protocol.SymbolInformation{Name: name, Kind: symbolKind(sym.Kind), Location: loc, ContainerName: sym.Detail})
	}
	return out, nil
}

// contextDiagnostic is a diagnostic of a code action request; only its code
// matters to the server, the rest is echoed back.
type contextDiagnostic struct {
	raw  json.RawMessage
	code string
}

func codeAction(_ context.Context, s *Server, snap *analysis.Snapshot, raw json.RawMessage) (any, error) {
	var p struct {
		docParams
		Range   wireRange `json:"range"`
		Context struct {
			Diagnostics []json.RawMessage `json:"diagnostics"`
			Only        []string          `json:"only"`
			TriggerKind int               `json:"triggerKind"`
		} `json:"context"`
	}
	if err := decode(raw, &p); err != nil {
		return nil, err
	}
	out := []codeActionResult{}
	f := fileOf(snap, p.TextDocument.URI)
	if f == nil {
		return out, nil
	}
	var diags []contextDiagnostic
	for _, d := range p.Context.Diagnostics {
		var head struct {
			Code any `json:"code"`
		}
		if json.Unmarshal(d, &head) != nil {
			continue
		}
		diags = append(diags, contextDiagnostic{raw: d, code: fmt.Sprint(head.Code)})
	}
	actions := ide.CodeActions(snap, f.Path, spanOf(f.Lines, p.Range))
	if s.reviewOn.Load() {
		// The hints are shown, so are their fixes.
		actions = append(actions, ide.HintActions(snap, f.Path, spanOf(f.Lines, p.Range))...)
	}
	// The source actions cover the whole file: they are computed when
	// asked for, not for the light bulb a cursor move asks for
	// (triggerKind 2, Automatic, with no kinds).
	if len(p.Context.Only) > 0 || p.Context.TriggerKind != codeActionAutomatic {
		actions = append(actions, ide.SourceActions(snap, f.Path)...)
	}
	for _, a := range actions {
		if !kindWanted(a.Kind, p.Context.Only) {
			continue
		}
		edit, ok, err := s.actionEdit(snap, a)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		res := codeActionResult{Title: a.Title, Kind: a.Kind, IsPreferred: a.Preferred, Edit: edit}
		for _, d := range diags {
			for _, c := range a.Codes {
				if c == d.code {
					res.Diagnostics = append(res.Diagnostics, d.raw)
					break
				}
			}
		}
		out = append(out, res)
	}
	return out, nil
}

// codeActionAutomatic is the CodeActionTriggerKind of a request the
// editor makes by itself (LSP 3.17), as after a cursor move.
const codeActionAutomatic = 2

// codeActionResult is protocol.CodeAction with the request's diagnostics
// echoed back exactly as the client sent them.
type codeActionResult struct {
	Title       string            `json:"title"`
	Kind        string            `json:"kind,omitempty"`
	Diagnostics []json.RawMessage `json:"diagnostics,omitempty"`
	IsPreferred bool              `json:"isPreferred,omitempty"`
	Edit        any               `json:"edit,omitempty"`
}

// kindWanted reports whether a code action kind passes the request's only
// filter: it equals one of them or is a sub-kind of one.
func kindWanted(kind string, only []string) bool {
	if len(only) == 0 {
		return true
	}
	for _, o := range only {
		if kind == o || strings.HasPrefix(kind, o+".") {
			return true
		}
	}
	return false
}

func codeLens(_ context.Context, _ *Server, snap *analysis.Snapshot, raw json.RawMessage) (any, error) {
	out := []protocol.CodeLens{}
	f, err := docFile(snap, raw)
	if f == nil {
		return out, err
	}
	for _, l := range ide.CodeLenses(snap, f.Path) {
		cmd := lensCommand(l)
		if len(l.Locations) > 0 {
			// A reference count: the arguments of showing references.
			cmd.Arguments = append(slices.Clip(cmd.Arguments), toPosition(f.Lines.Position(l.Span.Start)), locations(snap, l.Locations))
		}
		out = append(out, protocol.CodeLens{Range: spanRange(f.Lines, l.Span), Command: cmd})
	}
	return out, nil
}

func documentLink(_ context.Context, _ *Server, snap *analysis.Snapshot, raw json.RawMessage) (any, error) {
	out := []protocol.DocumentLink{}
	f, err := docFile(snap, raw)
	if f == nil {
		return out, err
	}
	for _, l := range ide.DocumentLinks(snap, f.Path) {
		target := string(uriOf(l.Target))
		if l.TargetSpan != (source.Span{}) {
			if lines := ide.LinesOf(snap, l.Target); lines != nil {
				pos := lines.Position(l.TargetSpan.Start)
				target += fmt.Sprintf("#L%d,%d", pos.Line+1, pos.Character+1)
			}
		}
		out = append(out, protocol.DocumentLink{
			Range:   spanRange(f.Lines, l.Span),
			Target:  protocol.DocumentURI(target),
			Tooltip: l.Tooltip,
		})
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].Range.Start, out[j].Range.Start
		return a.Line < b.Line || a.Line == b.Line && a.Character < b.Character
	})
	return out, nil
}

func executeCommand(_ context.Context, s *Server, snap *analysis.Snapshot, raw json.RawMessage) (any, error) {
	var p struct {
		Command   string            `json:"command"`
		Arguments []json.RawMessage `json:"arguments"`
	}
	if err := decode(raw, &p); err != nil {
		return nil, err
	}
	if p.Command == ExplainCommand {
		return nil, s.explain(p.Arguments)
	}
	if p.Command != RenderTestsCommand {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "unknown command %q; the server offers %s and %s", p.Command, RenderTestsCommand, ExplainCommand)
	}
	var u string
	if len(p.Arguments) != 1 || json.Unmarshal(p.Arguments[0], &u) != nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s takes one argument, the URI of an adoption", RenderTestsCommand)
	}
	f := fileOf(snap, u)
	if f == nil {
		return nil, nil
	}
	out, err := ide.RenderTests(snap, f.Path)
	if err != nil {
		return nil, jsonrpc2.NewError(codeRequestFailed, err.Error())
	}
	return out, nil
}
