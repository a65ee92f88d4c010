package lsp

import (
	"encoding/json"

	"go.lsp.dev/protocol"
)

// The features of LSP 3.16 and 3.17 that go.lsp.dev/protocol v0.12.0 has no
// types for are declared here: the capabilities the server announces for
// them and the client capabilities it reads.

// initializeResult is protocol.InitializeResult with the capabilities the
// library does not know.
type initializeResult struct {
	Capabilities serverCapabilities   `json:"capabilities"`
	ServerInfo   *protocol.ServerInfo `json:"serverInfo,omitempty"`
}

// serverCapabilities extends protocol.ServerCapabilities.
type serverCapabilities struct {
	protocol.ServerCapabilities
}

// featureCaps are the client capabilities of the features declared here.
type featureCaps struct{}

// readFeatureCaps reads the client capabilities of the features declared
// here from the initialize params.
func readFeatureCaps(raw json.RawMessage) featureCaps {
	var p struct {
		Capabilities struct{} `json:"capabilities"`
	}
	_ = json.Unmarshal(raw, &p)
	return featureCaps{}
}

// extendCapabilities adds the features declared here to the initialize
// result.
func extendCapabilities(res *protocol.InitializeResult, fc featureCaps) *initializeResult {
	caps := res.Capabilities
	ws := *caps.Workspace
	ws.FileOperations = &protocol.ServerCapabilitiesWorkspaceFileOperations{
		WillRename: fileOperationFilters(),
		DidRename:  fileOperationFilters(),
	}
	caps.Workspace = &ws
	return &initializeResult{Capabilities: serverCapabilities{ServerCapabilities: caps}, ServerInfo: res.ServerInfo}
}
