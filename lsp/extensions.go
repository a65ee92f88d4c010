package lsp

import (
	"context"
	"encoding/json"
	"slices"
	"time"

	"go.lsp.dev/protocol"

	"github.com/gddls/gddls/analysis"
)

// The features of LSP 3.16 and 3.17 that go.lsp.dev/protocol v0.12.0 has no
// types for are declared here: the capabilities the server announces for
// them, the client capabilities and the settings it reads.

// The source action kinds the library lacks: fix all (LSP 3.17) and the
// table of contents of a Markdown file.
const (
	sourceFixAll  protocol.CodeActionKind = "source.fixAll"
	sourceTOC     protocol.CodeActionKind = "source.toc"
	sourceMigrate protocol.CodeActionKind = "source.migrate"
)

// features holds the client capabilities and settings of the features
// declared here.
type features struct {
	caps  featureCaps
	inlay inlaySettings
	// refreshed is the snapshot of the last publication, after which
	// inlay hints and semantic tokens were refreshed.
	refreshed *analysis.Snapshot
}

// featureCaps are the client capabilities of the features declared here.
type featureCaps struct {
	// inlayRefresh: the client accepts workspace/inlayHint/refresh.
	inlayRefresh bool
	// pull: the client pulls diagnostics (textDocument.diagnostic),
	// accepts workspace/diagnostic/refresh and has not turned pulling off
	// with the initialization option gddls.pullDiagnostics.
	pull bool
	// createFiles: the client applies documentChanges with create
	// operations.
	createFiles bool
	// renameFiles: the client applies documentChanges with rename
	// operations (a record rename moves its file).
	renameFiles bool
	// snippets: the client expands snippets in completion items.
	snippets bool
	// fileRenames: the client sends workspace/willRenameFiles and
	// didRenameFiles; inlayHints: it asks for inlay hints.
	fileRenames, inlayHints bool
	// foldingLimit is the most folding ranges the client wants per
	// document; 0 means no limit.
	foldingLimit int
	// semanticTokens: the client asks for semantic tokens;
	// semanticRefresh: it accepts workspace/semanticTokens/refresh.
	semanticTokens, semanticRefresh bool
}

// snippets reports whether the client expands completion snippets.
func (s *Server) snippets() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.feat.caps.snippets
}

// readFeatureCaps reads the client capabilities of the features declared
// here from the initialize params.
func readFeatureCaps(raw json.RawMessage) featureCaps {
	var p struct {
		Capabilities struct {
			Workspace struct {
				InlayHint struct {
					RefreshSupport bool `json:"refreshSupport"`
				} `json:"inlayHint"`
				SemanticTokens struct {
					RefreshSupport bool `json:"refreshSupport"`
				} `json:"semanticTokens"`
				FileOperations struct {
					WillRename bool `json:"willRename"`
					DidRename  bool `json:"didRename"`
				} `json:"fileOperations"`
				Diagnostics struct {
					RefreshSupport bool `json:"refreshSupport"`
				} `json:"diagnostics"`
				WorkspaceEdit struct {
					DocumentChanges    bool     `json:"documentChanges"`
					ResourceOperations []string `json:"resourceOperations"`
				} `json:"workspaceEdit"`
			} `json:"workspace"`
			TextDocument struct {
				Diagnostic     *json.RawMessage `json:"diagnostic"`
				SemanticTokens *json.RawMessage `json:"semanticTokens"`
				InlayHint      *json.RawMessage `json:"inlayHint"`
				FoldingRange   struct {
					RangeLimit int `json:"rangeLimit"`
				} `json:"foldingRange"`
				Completion struct {
					CompletionItem struct {
						SnippetSupport bool `json:"snippetSupport"`
					} `json:"completionItem"`
				} `json:"completion"`
			} `json:"textDocument"`
		} `json:"capabilities"`
		InitOptions struct {
			Gddls struct {
				PullDiagnostics *bool `json:"pullDiagnostics"`
			} `json:"gddls"`
		} `json:"initializationOptions"`
	}
	_ = json.Unmarshal(raw, &p) // initialize already reported bad params
	we := p.Capabilities.Workspace.WorkspaceEdit
	// Pull mode needs a client that can be told to pull again after a
	// change elsewhere (workspace.diagnostics.refreshSupport): VS Code.
	// A client that pulls only for open buffers without it (Neovim up to
	// 0.11) keeps push diagnostics for the whole workspace.
	refresh := p.Capabilities.Workspace.Diagnostics.RefreshSupport
	pull := refresh && declared(p.Capabilities.TextDocument.Diagnostic)
	if off := p.InitOptions.Gddls.PullDiagnostics; off != nil && !*off {
		pull = false
	}
	return featureCaps{
		inlayRefresh:    p.Capabilities.Workspace.InlayHint.RefreshSupport,
		pull:            pull,
		createFiles:     we.DocumentChanges && slices.Contains(we.ResourceOperations, "create"),
		renameFiles:     we.DocumentChanges && slices.Contains(we.ResourceOperations, "rename"),
		snippets:        p.Capabilities.TextDocument.Completion.CompletionItem.SnippetSupport,
		semanticTokens:  declared(p.Capabilities.TextDocument.SemanticTokens),
		semanticRefresh: p.Capabilities.Workspace.SemanticTokens.RefreshSupport,
		fileRenames:     p.Capabilities.Workspace.FileOperations.WillRename || p.Capabilities.Workspace.FileOperations.DidRename,
		inlayHints:      declared(p.Capabilities.TextDocument.InlayHint),
		foldingLimit:    max(p.Capabilities.TextDocument.FoldingRange.RangeLimit, 0),
	}
}

// declared reports whether a client capability object is present.
func declared(raw *json.RawMessage) bool { return raw != nil && string(*raw) != "null" }

// extendCapabilities adds the features declared here to the initialize
// result that shapeCapabilities fitted to the client: the LSP 3.16 and 3.17
// ones only to a client that declares them.
func extendCapabilities(out *initializeResult, fc featureCaps) *initializeResult {
	caps := &out.Capabilities
	if fc.fileRenames {
		var ws protocol.ServerCapabilitiesWorkspace
		if caps.Workspace != nil {
			ws = *caps.Workspace
		}
		ws.FileOperations = &protocol.ServerCapabilitiesWorkspaceFileOperations{
			WillRename: fileOperationFilters(),
			DidRename:  fileOperationFilters(),
		}
		caps.Workspace = &ws
	}
	caps.FoldingRangeProvider = true
	caps.SelectionRangeProvider = true
	caps.DocumentHighlightProvider = true
	caps.InlayHintProvider = fc.inlayHints
	if fc.semanticTokens {
		caps.SemanticTokensProvider = newSemanticTokensOptions()
	}
	if fc.pull {
		caps.DiagnosticProvider = &diagnosticOptions{Identifier: "gddls", InterFileDependencies: true, WorkspaceDiagnostics: true}
	}
	return out
}

// applyFeatureSettings reads the settings of the features declared here:
// gddls.inlayHints.{tuningValues,headings,notAsked,contractValues}. A
// change asks a client that supports it to fetch its inlay hints again.
func (s *Server) applyFeatureSettings(raw json.RawMessage) {
	var st struct {
		Gddls *struct {
			InlayHints *inlaySettings `json:"inlayHints"`
		} `json:"gddls"`
	}
	if json.Unmarshal(raw, &st) != nil || st.Gddls == nil || st.Gddls.InlayHints == nil {
		return
	}
	s.mu.Lock()
	s.feat.inlay = s.feat.inlay.merge(*st.Gddls.InlayHints)
	refresh := s.feat.caps.inlayRefresh && s.state == stateInitialized
	s.mu.Unlock()
	if refresh {
		go s.refresh("workspace/inlayHint/refresh")
	}
}

// refresh sends a workspace/*/refresh request and logs a failure.
func (s *Server) refresh(method string) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := s.conn.Call(ctx, method, nil, nil); err != nil {
		s.logf("%s: %v", method, err)
	}
}
