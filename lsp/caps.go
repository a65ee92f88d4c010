package lsp

import (
	"slices"
	"strings"

	"go.lsp.dev/protocol"
)

// wireCapabilities is the part of the client's capabilities the server
// reads from initialize.
type wireCapabilities struct {
	General struct {
		PositionEncodings []string `json:"positionEncodings"`
	} `json:"general"`
	Workspace struct {
		WorkspaceFolders      bool `json:"workspaceFolders"`
		DidChangeWatchedFiles struct {
			DynamicRegistration bool `json:"dynamicRegistration"`
		} `json:"didChangeWatchedFiles"`
		WorkspaceEdit struct {
			DocumentChanges bool `json:"documentChanges"`
		} `json:"workspaceEdit"`
	} `json:"workspace"`
	TextDocument struct {
		Rename struct {
			PrepareSupport bool `json:"prepareSupport"`
		} `json:"rename"`
		CodeAction struct {
			CodeActionLiteralSupport *struct{} `json:"codeActionLiteralSupport"`
		} `json:"codeAction"`
	} `json:"textDocument"`
	Window struct {
		WorkDoneProgress bool `json:"workDoneProgress"`
	} `json:"window"`
}

// clientCaps are the client capabilities the server acts on.
type clientCaps struct {
	dynamicWatch     bool
	progress         bool
	workspaceFolders bool
	documentChanges  bool
	prepareRename    bool
	codeActionKinds  bool
	utf16Declared    bool
	// vscode is set for VS Code and the editors built from it, which run
	// VS Code's own commands such as editor.action.triggerSuggest.
	vscode bool
}

// vscodeNames are the clientInfo names (VS Code's env.appName), or their
// beginnings, of VS Code and the editors built from it.
var vscodeNames = []string{"visual studio code", "code - oss", "vscodium", "code-server", "cursor", "windsurf"}

// newClientCaps reads the capabilities the server acts on from the client's.
func newClientCaps(w wireCapabilities, clientName string) clientCaps {
	name := strings.ToLower(strings.TrimSpace(clientName))
	return clientCaps{
		dynamicWatch:     w.Workspace.DidChangeWatchedFiles.DynamicRegistration,
		progress:         w.Window.WorkDoneProgress,
		workspaceFolders: w.Workspace.WorkspaceFolders,
		documentChanges:  w.Workspace.WorkspaceEdit.DocumentChanges,
		prepareRename:    w.TextDocument.Rename.PrepareSupport,
		codeActionKinds:  w.TextDocument.CodeAction.CodeActionLiteralSupport != nil,
		utf16Declared:    slices.Contains(w.General.PositionEncodings, "utf-16"),
		vscode: slices.ContainsFunc(vscodeNames, func(n string) bool {
			return strings.HasPrefix(name, n)
		}),
	}
}

// initializeResult is protocol.InitializeResult with the server
// capabilities of LSP 3.17 that the protocol package lacks.
type initializeResult struct {
	Capabilities serverCapabilities   `json:"capabilities"`
	ServerInfo   *protocol.ServerInfo `json:"serverInfo,omitempty"`
}

// serverCapabilities adds positionEncoding, inlay hints and pull
// diagnostics (LSP 3.17) to the protocol package's capabilities.
type serverCapabilities struct {
	protocol.ServerCapabilities
	PositionEncoding   string             `json:"positionEncoding,omitempty"`
	InlayHintProvider  bool               `json:"inlayHintProvider,omitempty"`
	DiagnosticProvider *diagnosticOptions `json:"diagnosticProvider,omitempty"`
}

// shapeCapabilities fits the full capabilities to what the client declared:
// an option object only where the client supports it (rename's
// prepareProvider, code action kinds), workspace folder notifications only
// to a client with workspace folders, and a position encoding only to a
// client that lists encodings. The server speaks UTF-16, which every client
// must support, so it names the encoding only when the client offers it.
func shapeCapabilities(res *protocol.InitializeResult, caps clientCaps) *initializeResult {
	c := res.Capabilities
	if !caps.prepareRename {
		c.RenameProvider = true
	}
	if !caps.codeActionKinds {
		c.CodeActionProvider = true
	}
	if !caps.workspaceFolders && c.Workspace != nil {
		w := *c.Workspace
		w.WorkspaceFolders = nil
		c.Workspace = &w
		if w == (protocol.ServerCapabilitiesWorkspace{}) {
			c.Workspace = nil
		}
	}
	out := &initializeResult{Capabilities: serverCapabilities{ServerCapabilities: c}, ServerInfo: res.ServerInfo}
	if caps.utf16Declared {
		out.Capabilities.PositionEncoding = "utf-16"
	}
	return out
}
