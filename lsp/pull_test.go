package lsp

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// pullCaps declares pull diagnostics with refresh.
var pullCaps = map[string]any{
	"textDocument": map[string]any{"diagnostic": map[string]any{"relatedDocumentSupport": false}},
	"workspace":    map[string]any{"diagnostics": map[string]any{"refreshSupport": true}},
}

type reportJSON struct {
	Kind     string            `json:"kind"`
	ResultID string            `json:"resultId"`
	URI      string            `json:"uri"`
	Items    []json.RawMessage `json:"items"`
}

// pushedState flushes and returns the last published diagnostics of every
// file, as raw JSON lists by URI; files with none are left out.
func (c *client) pushedState() map[string][]json.RawMessage {
	c.t.Helper()
	c.result("gddls/test.flush", nil, nil)
	out := map[string][]json.RawMessage{}
	for _, m := range c.since(0) {
		if m.Method != "textDocument/publishDiagnostics" {
			continue
		}
		var p struct {
			URI         string            `json:"uri"`
			Diagnostics []json.RawMessage `json:"diagnostics"`
		}
		if err := json.Unmarshal(m.Params, &p); err != nil {
			c.t.Fatal(err)
		}
		if len(p.Diagnostics) == 0 {
			delete(out, p.URI)
		} else {
			out[p.URI] = p.Diagnostics
		}
	}
	return out
}

func TestPullDiagnostics(t *testing.T) {
	root := copyDemo(t)
	cauldron := filepath.Join(root, "contracts", "cauldron.json")
	mech := filepath.Join(root, "02-mechanics.md")

	push := start(t, hooks)
	res := push.initialize(root, nil, nil)
	if announced(t, res, "diagnosticProvider") {
		t.Error("diagnosticProvider announced to a client that does not pull")
	}
	pushed := push.pushedState()
	push.shutdown()
	if len(pushed) == 0 {
		t.Fatal("nothing pushed for the demo")
	}

	c := start(t, hooks)
	res = c.initialize(root, pullCaps, nil)
	var r struct {
		Capabilities struct {
			DiagnosticProvider *struct {
				InterFileDependencies bool `json:"interFileDependencies"`
				WorkspaceDiagnostics  bool `json:"workspaceDiagnostics"`
			} `json:"diagnosticProvider"`
		} `json:"capabilities"`
	}
	if err := json.Unmarshal(res, &r); err != nil {
		t.Fatal(err)
	}
	if dp := r.Capabilities.DiagnosticProvider; dp == nil || !dp.InterFileDependencies || !dp.WorkspaceDiagnostics {
		t.Fatalf("diagnosticProvider = %+v, want inter-file and workspace diagnostics", dp)
	}
	var ws struct {
		Items []reportJSON `json:"items"`
	}
	c.result("workspace/diagnostic", map[string]any{"previousResultIds": []any{}}, &ws)
	pulled := map[string][]json.RawMessage{}
	ids := []map[string]string{}
	for _, it := range ws.Items {
		if it.Kind != "full" || it.ResultID == "" {
			t.Errorf("workspace report %+v is not full with a result id", it)
		}
		if len(it.Items) > 0 {
			pulled[it.URI] = it.Items
		}
		ids = append(ids, map[string]string{"uri": it.URI, "value": it.ResultID})
	}
	if !reflect.DeepEqual(pulled, pushed) {
		t.Errorf("pulled diagnostics differ from pushed ones:\npulled %d files, pushed %d", len(pulled), len(pushed))
	}
	if got := c.pushedState(); len(got) != 0 {
		t.Errorf("the server pushed diagnostics to a client that pulls: %d files", len(got))
	}

	doc := map[string]any{"uri": fileURI(cauldron)}
	var first, second reportJSON
	c.result("textDocument/diagnostic", map[string]any{"textDocument": doc}, &first)
	if first.Kind != "full" || len(first.Items) == 0 {
		t.Fatalf("textDocument/diagnostic of cauldron.json = %+v, want a full report with items", first)
	}
	if !reflect.DeepEqual(first.Items, pushed[fileURI(cauldron)]) {
		t.Error("the document report differs from what is pushed")
	}
	c.result("textDocument/diagnostic", map[string]any{"textDocument": doc, "previousResultId": first.ResultID}, &second)
	if second.Kind != "unchanged" || second.ResultID != first.ResultID {
		t.Errorf("second pull = %+v, want unchanged with the same id", second)
	}
	var again struct {
		Items []reportJSON `json:"items"`
	}
	c.result("workspace/diagnostic", map[string]any{"previousResultIds": ids}, &again)
	for _, it := range again.Items {
		if it.Kind != "unchanged" {
			t.Errorf("workspace report of %s is %s after no change", it.URI, it.Kind)
		}
	}

	// Renaming a heading in an open chapter changes the diagnostics of the
	// adoptions citing it: the server asks the client to pull again.
	text := readFile(t, mech)
	mark := c.mark()
	c.open(mech, text, 1)
	c.change(mech, 2, nil, replaceFirst(t, text, "### Brewing\n", "### Brewing days\n"))
	c.result("gddls/test.flush", nil, nil)
	c.await(mark, "workspace/diagnostic/refresh", func(m message) bool { return m.Method == "workspace/diagnostic/refresh" })
	var after reportJSON
	c.result("textDocument/diagnostic", map[string]any{"textDocument": doc, "previousResultId": first.ResultID}, &after)
	if after.Kind != "full" || len(after.Items) <= len(first.Items) {
		t.Errorf("after the heading changed, cauldron.json reports %s with %d items, want full with more than %d", after.Kind, len(after.Items), len(first.Items))
	}
	c.shutdown()

	// Without refresh support the client keeps push diagnostics.
	c = start(t, hooks)
	res = c.initialize(root, map[string]any{"textDocument": map[string]any{"diagnostic": map[string]any{}}}, nil)
	if announced(t, res, "diagnosticProvider") {
		t.Error("diagnosticProvider announced to a client without workspace.diagnostics.refreshSupport")
	}
	if got := c.pushedState(); !reflect.DeepEqual(got, pushed) {
		t.Errorf("a client without refresh support is not pushed the diagnostics: %d files", len(got))
	}
	c.shutdown()

	// The initialization option turns pulling off.
	c = start(t, nil)
	res = c.initialize(root, pullCaps, map[string]any{"gddls": map[string]any{"pullDiagnostics": false}})
	if announced(t, res, "diagnosticProvider") {
		t.Error("diagnosticProvider announced although gddls.pullDiagnostics is false")
	}
	c.shutdown()
}

// announced reports whether an initialize result announces a capability.
func announced(t *testing.T, res json.RawMessage, name string) bool {
	t.Helper()
	var r struct {
		Capabilities map[string]json.RawMessage `json:"capabilities"`
	}
	if err := json.Unmarshal(res, &r); err != nil {
		t.Fatal(err)
	}
	_, ok := r.Capabilities[name]
	return ok
}

// replaceFirst replaces the first occurrence of old, which must exist.
func replaceFirst(t *testing.T, text, old, new string) string {
	t.Helper()
	i := strings.Index(text, old)
	if i < 0 {
		t.Fatalf("the text does not contain %q", old)
	}
	return text[:i] + new + text[i+len(old):]
}
