package lsp

import (
	"encoding/json"
	"fmt"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/gddls/gddls/analysis"
	"github.com/gddls/gddls/analysis/ide"
	"github.com/gddls/gddls/contracts/source"
)

// maxDiagnostics is the most diagnostics the server publishes for one
// file; the rest are summed up in one more diagnostic. `gddls check`
// reports them all.
const maxDiagnostics = 1000

// toDiagnostics converts the diagnostics of one file, never returning nil.
// Past maxDiagnostics it keeps the first ones and adds a summary at the
// start of the file with the severity of the worst one left out.
func toDiagnostics(ds []analysis.Diagnostic) []protocol.Diagnostic {
	shown := ds[:min(len(ds), maxDiagnostics)]
	out := make([]protocol.Diagnostic, 0, len(shown)+1)
	for _, d := range shown {
		out = append(out, toDiagnostic(d))
	}
	hidden := ds[len(shown):]
	if len(hidden) == 0 {
		return out
	}
	// A safety notice counts as information here, as it is shown.
	worst := source.Hint
	for _, d := range hidden {
		if d.Safety {
			worst = min(worst, source.Info)
		} else {
			worst = min(worst, d.Severity)
		}
	}
	return append(out, protocol.Diagnostic{
		Severity: severity(worst),
		Source:   "gddls",
		Message: fmt.Sprintf("%d more findings in this file are not shown; the editor gets the first %d of its %d. Run `gddls check` to see them all.",
			len(hidden), maxDiagnostics, len(ds)),
	})
}

// ExplainCommand is the workspace/executeCommand command of a code lens
// that only informs: its one argument, the lens's text, is shown to the
// user with window/showMessage. Every lens thus carries a command the
// server offers.
const ExplainCommand = "gddls.explain"

// lensCommand is the command of a code lens: its own, or ExplainCommand
// with its title.
func lensCommand(l ide.CodeLens) *protocol.Command {
	if l.Command == "" {
		return &protocol.Command{Title: l.Title, Command: ExplainCommand, Arguments: []any{l.Title}}
	}
	return &protocol.Command{Title: l.Title, Command: l.Command, Arguments: l.Arguments}
}

// explain runs ExplainCommand.
func (s *Server) explain(args []json.RawMessage) error {
	var text string
	if len(args) != 1 || json.Unmarshal(args[0], &text) != nil || text == "" {
		return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s takes one argument, the text to show", ExplainCommand)
	}
	s.notify("window/showMessage", &protocol.ShowMessageParams{Type: protocol.MessageTypeInfo, Message: text})
	return nil
}

// clientIsVSCode reports whether the client is VS Code or an editor built
// from it, the only clients that run VS Code's own commands.
func (s *Server) clientIsVSCode() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.caps.vscode
}
