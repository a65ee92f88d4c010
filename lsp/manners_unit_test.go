package lsp

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/gddls/gddls/analysis"
	"github.com/gddls/gddls/contracts/source"
)

func TestClientIsVSCode(t *testing.T) {
	for _, tc := range []struct {
		name string
		want bool
	}{
		{"Visual Studio Code", true},
		{"Visual Studio Code - Insiders", true},
		{"code-server", true},
		{"VSCodium", true},
		{"Code - OSS", true},
		{"Cursor", true},
		{"Neovim", false},
		{"helix", false},
		{"", false},
	} {
		if got := newClientCaps(wireCapabilities{}, tc.name).vscode; got != tc.want {
			t.Errorf("client %q: vscode = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestToDiagnosticsCap(t *testing.T) {
	for _, n := range []int{0, 1, maxDiagnostics, maxDiagnostics + 1, 3 * maxDiagnostics} {
		ds := make([]analysis.Diagnostic, n)
		for i := range ds {
			ds[i].Severity = source.Warning
		}
		if n > maxDiagnostics {
			ds[n-1].Severity = source.Error
		}
		got := toDiagnostics(ds)
		want := min(n, maxDiagnostics)
		if n > maxDiagnostics {
			want++
		}
		if got == nil || len(got) != want {
			t.Errorf("%d diagnostics: published %d, want %d", n, len(got), want)
			continue
		}
		if n > maxDiagnostics {
			last := got[len(got)-1]
			if !strings.HasPrefix(last.Message, fmt.Sprintf("%d more findings", n-maxDiagnostics)) || last.Severity != severity(source.Error) {
				t.Errorf("%d diagnostics: summary %+v, want %d more, with the worst severity hidden", n, last, n-maxDiagnostics)
			}
		}
	}
}

func TestRefusedMessageFind(t *testing.T) {
	for _, tc := range []struct {
		head, tail, method, uri, id string
	}{
		{`{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///a.md"`, `"}]}}`, "textDocument/didChange", "file:///a.md", ""},
		// Keys in another order: the URI comes last.
		{`{"params":{"contentChanges":[{"text":"x \"uri\":\"file:///decoy.md\" y`, `"}],"textDocument":{"uri":"file:///b.md","version":3}},"method":"textDocument/didChange"}`, "textDocument/didChange", "file:///b.md", ""},
		{`{"jsonrpc":"2.0","id":7,"method":"workspace/symbol","params":{"query":"`, `"}}`, "workspace/symbol", "", "7"},
		{`{"method":"workspace/symbol","params":{"query":"{\"id\":1}`, `"},"id":"r-8"}`, "workspace/symbol", "", `"r-8"`},
		{`{"method":"x","params":{"a":{"id":3,"b":"`, `"}}}`, "x", "", ""},
		// A response: no method, so no answer.
		{`{"jsonrpc":"2.0","id":4,"result":{"text":"`, `"}}`, "", "", ""},
	} {
		m := refusedMessage{head: []byte(tc.head), tail: []byte(tc.tail)}
		if got := m.find(refusedMethod); got != tc.method {
			t.Errorf("method of %q…%q = %q, want %q", tc.head, tc.tail, got, tc.method)
		}
		if got := m.find(refusedURI); got != tc.uri {
			t.Errorf("uri of %q…%q = %q, want %q", tc.head, tc.tail, got, tc.uri)
		}
		id, ok := m.requestID()
		got := ""
		if ok {
			raw, _ := json.Marshal(&id)
			got = string(raw)
		}
		if got != tc.id {
			t.Errorf("request id of %q…%q = %q, want %q", tc.head, tc.tail, got, tc.id)
		}
	}
}

// TestToDiagnosticsCapSafety: hidden safety notices make the summary
// information, not a warning, and a notice is shown as information.
func TestToDiagnosticsCapSafety(t *testing.T) {
	ds := make([]analysis.Diagnostic, maxDiagnostics+2)
	for i := range ds {
		ds[i].Severity, ds[i].Safety = source.Warning, true
	}
	got := toDiagnostics(ds)
	if last := got[len(got)-1]; last.Severity != protocol.DiagnosticSeverityInformation {
		t.Errorf("summary of hidden notices at %v, want Information", last.Severity)
	}
	if got[0].Severity != protocol.DiagnosticSeverityInformation {
		t.Errorf("notice at %v, want Information", got[0].Severity)
	}
}
