package lsp

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/gddls/gddls/analysis/analysistest"
)

// This file holds one editing session as VS Code runs it: URIs in the form
// VS Code writes them (on Windows a lower-case drive letter and the colon
// percent-encoded, file:///c%3A/Users/...), buffers with CRLF line ends,
// and a package folder whose name needs percent-encoding. It runs on three
// hosts:
//
//   - natively, against the server TestMain built, with the URIs of the
//     local OS (this is how `go test ./...` runs it on Linux and macOS);
//   - as a Windows test binary under Wine (`GOOS=windows go test -exec`),
//     where the local OS is Windows;
//   - on Linux against gddls.exe under Wine, when GDDLS_TEST_WINE names the
//     program that runs a Windows executable (scripts/windows/wine-exec),
//     GDDLS_TEST_WINDOWS_BINARY the executable and WINEPREFIX the prefix;
//     the package is then written under the prefix's drive_c so that
//     file:///c%3A/users/designer/... names it.
//
// scripts/windows/test.sh runs the last two.

// editorHost is where an editor session runs.
type editorHost struct {
	// dir is the folder to write the package into, a path of the test's OS.
	dir string
	// windows says whether the server sees Windows paths.
	windows bool
	// serverPath converts a path of the test's OS to the path the server
	// sees.
	serverPath func(hostPath string) string
	// hostPath converts a path the server sees to one of the test's OS,
	// reporting false for a path outside what the test can reach.
	hostPath func(serverPath string) (string, bool)
	// start starts the server.
	start func(t *testing.T) *client
}

// uri returns the URI VS Code sends for a file of the host.
func (h *editorHost) uri(hostPath string) string {
	return vscodeURI(h.serverPath(hostPath), h.windows)
}

// file returns the file of the test's OS that a URI from the server names,
// read as VS Code reads it, or fails the test.
func (h *editorHost) file(t *testing.T, u string) string {
	t.Helper()
	p, err := vscodePath(u, h.windows)
	if err != nil {
		t.Fatalf("the server sent %q: %v", u, err)
	}
	host, ok := h.hostPath(p)
	if !ok {
		t.Fatalf("the server sent %q, which names %s, outside the session's folder", u, p)
	}
	return host
}

// nativeHost runs the session against the server TestMain built.
func nativeHost(t *testing.T) *editorHost {
	dir := filepath.Join(t.TempDir(), "Herb Garden")
	same := func(p string) string { return p }
	return &editorHost{
		dir:        dir,
		windows:    runtime.GOOS == "windows",
		serverPath: same,
		hostPath:   func(p string) (string, bool) { return p, true },
		start:      func(t *testing.T) *client { return start(t, nil) },
	}
}

// wineHost runs the session against gddls.exe under Wine, or returns nil
// when the environment does not ask for it.
func wineHost(t *testing.T) *editorHost {
	wine, exe, prefix := os.Getenv("GDDLS_TEST_WINE"), os.Getenv("GDDLS_TEST_WINDOWS_BINARY"), os.Getenv("WINEPREFIX")
	if wine == "" || exe == "" {
		return nil
	}
	if prefix == "" {
		t.Fatal("GDDLS_TEST_WINE is set but WINEPREFIX is not")
	}
	driveC := filepath.Join(prefix, "drive_c")
	parent := filepath.Join(driveC, "users", "designer")
	if err := os.MkdirAll(parent, 0o755); err != nil {
		t.Fatal(err)
	}
	session, err := os.MkdirTemp(parent, "session-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(session) })
	return &editorHost{
		dir:     filepath.Join(session, "Herb Garden"),
		windows: true,
		serverPath: func(p string) string {
			rel, err := filepath.Rel(driveC, p)
			if err != nil || strings.HasPrefix(rel, "..") {
				t.Fatalf("%s is not under %s", p, driveC)
			}
			return `C:\` + strings.ReplaceAll(rel, "/", `\`)
		},
		hostPath: func(p string) (string, bool) {
			if len(p) < 3 || !strings.EqualFold(p[:3], `c:\`) {
				return "", false
			}
			return filepath.Join(driveC, filepath.FromSlash(strings.ReplaceAll(p[3:], `\`, "/"))), true
		},
		start: func(t *testing.T) *client {
			cmd := exec.Command(wine, exe, "serve")
			cmd.Env = os.Environ()
			return startCmd(t, cmd)
		},
	}
}

// vscodeURI returns the URI VS Code writes for an absolute path of an OS
// (windows says which): the path's bytes percent-encoded except letters,
// digits, "-._~" and the slashes, and on Windows the separators made
// slashes and a drive letter lowered, so that C:\My Game\a.md is
// file:///c%3A/My%20Game/a.md.
func vscodeURI(path string, windows bool) string {
	if windows {
		path = strings.ReplaceAll(path, `\`, "/")
		if len(path) >= 2 && path[1] == ':' {
			path = "/" + strings.ToLower(path[:1]) + path[1:]
		}
	}
	var b strings.Builder
	b.WriteString("file://")
	for i := 0; i < len(path); i++ {
		c := path[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9',
			c == '-', c == '.', c == '_', c == '~', c == '/':
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// vscodePath returns the path VS Code opens for a file URI (its fsPath):
// the decoded path, and on Windows with backslashes and the drive letter
// in lower case, so that file:///C:/a.md and file:///c%3A/a.md name the
// same file.
func vscodePath(u string, windows bool) (string, error) {
	parsed, err := url.Parse(u)
	if err != nil {
		return "", err
	}
	if parsed.Scheme != "file" {
		return "", fmt.Errorf("not a file URI")
	}
	if parsed.Host != "" {
		return "", fmt.Errorf("names host %q", parsed.Host)
	}
	p := parsed.Path
	if !windows {
		return p, nil
	}
	if len(p) < 3 || p[0] != '/' || p[2] != ':' {
		return "", fmt.Errorf("names no drive")
	}
	return strings.ToLower(p[1:2]) + strings.ReplaceAll(p[2:], "/", `\`), nil
}

func TestVSCodeURI(t *testing.T) {
	tests := []struct {
		path    string
		windows bool
		want    string
	}{
		{`C:\Users\designer\My Game\contracts\x.json`, true, "file:///c%3A/Users/designer/My%20Game/contracts/x.json"},
		{`d:\été#1.md`, true, "file:///d%3A/%C3%A9t%C3%A9%231.md"},
		{"/home/designer/My Game/x.json", false, "file:///home/designer/My%20Game/x.json"},
	}
	for _, tt := range tests {
		got := vscodeURI(tt.path, tt.windows)
		if got != tt.want {
			t.Errorf("vscodeURI(%q, %v) = %q, want %q", tt.path, tt.windows, got, tt.want)
		}
		back, err := vscodePath(got, tt.windows)
		want := tt.path
		if tt.windows {
			want = strings.ToLower(want[:1]) + want[1:]
		}
		if err != nil || back != want {
			t.Errorf("vscodePath(%q) = %q, %v; want %q", got, back, err, want)
		}
	}
	// The form Go's uri.File writes names the same file.
	if p, err := vscodePath("file:///C:/Users/a.md", true); err != nil || p != `c:\Users\a.md` {
		t.Errorf("vscodePath of file:///C:/Users/a.md = %q, %v", p, err)
	}
}

// TestEditorSession runs one editing session of the demo package, written
// with CRLF line ends, as VS Code runs it on the host (see above).
func TestEditorSession(t *testing.T) {
	h := wineHost(t)
	if h == nil {
		h = nativeHost(t)
	}
	root := writeCRLFDemo(t, h.dir)
	mech := filepath.Join(root, "02-mechanics.md")
	content := filepath.Join(root, "03-content.md")
	cauldron := filepath.Join(root, "contracts", "cauldron.json")
	garden := filepath.Join(root, "contracts", "garden-away.json")
	doc := func(path string) map[string]any { return map[string]any{"uri": h.uri(path)} }

	// exists fails the test when a URI from the server names a file that
	// does not exist, and returns the URI VS Code would make of it.
	exists := func(t *testing.T, u string) string {
		t.Helper()
		got := h.file(t, u)
		if _, err := os.Stat(got); err != nil {
			t.Errorf("the server sent %s, a file that does not exist: %v", u, err)
		}
		return h.uri(got)
	}
	// sameFile reports whether a URI from the server names path, in the
	// form VS Code sends or one VS Code reads as the same file, failing
	// the test when it names a file that does not exist.
	sameFile := func(t *testing.T, u, path string) bool {
		t.Helper()
		return exists(t, u) == h.uri(path)
	}

	c := h.start(t)
	c.initializeWith(map[string]any{
		"processId": nil,
		"rootUri":   h.uri(root),
		"rootPath":  h.serverPath(root),
		"workspaceFolders": []map[string]any{
			{"uri": h.uri(root), "name": filepath.Base(root)},
		},
		"capabilities": map[string]any{
			"workspace": map[string]any{
				"workspaceFolders": true,
				"workspaceEdit":    map[string]any{"documentChanges": true},
			},
			"textDocument": map[string]any{
				"publishDiagnostics": map[string]any{"versionSupport": true, "relatedInformation": true},
			},
		},
	})
	for _, p := range []string{mech, cauldron, garden} {
		lang := "markdown"
		if strings.HasSuffix(p, ".json") {
			lang = "json"
		}
		c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
			"uri": h.uri(p), "languageId": lang, "version": 1, "text": analysistest.ReadFile(t, p),
		}})
	}

	// awaitFile waits for a publication for path that satisfies ok.
	awaitFile := func(t *testing.T, from int, path string, ok func(publication) bool) publication {
		t.Helper()
		m, _ := c.await(from, "diagnostics of "+filepath.Base(path), func(m message) bool {
			if m.Method != "textDocument/publishDiagnostics" {
				return false
			}
			p := decodePublication(t, m)
			return sameFile(t, p.URI, path) && ok(p)
		})
		return decodePublication(t, m)
	}
	// find returns the diagnostic of a publication with the code, if any.
	find := func(p publication, code string) (rangeJSON, bool) {
		for _, d := range p.Diagnostics {
			if d.Code == code {
				return d.Range, true
			}
		}
		return rangeJSON{}, false
	}
	has := func(code string) func(publication) bool {
		return func(p publication) bool { _, ok := find(p, code); return ok }
	}

	dangling := posOf(t, garden, "#crop-growth", 0)
	t.Run("diagnostics", func(t *testing.T) {
		pub := awaitFile(t, 0, garden, has("CONTRACT_CITATION_DANGLING"))
		r, _ := find(pub, "CONTRACT_CITATION_DANGLING")
		if r.Start.Line != dangling["line"] || r.Start.Character > dangling["character"] || r.End.Character <= dangling["character"] {
			t.Errorf("CONTRACT_CITATION_DANGLING at %+v, want over #crop-growth at %v", r, dangling)
		}
		// A file the editor did not open has its diagnostics too.
		pub = awaitFile(t, 0, content, has("PROSE_CITATION_DANGLING"))
		r, _ = find(pub, "PROSE_CITATION_DANGLING")
		if want := posOf(t, content, "`garden.growth_minutes`", 0); r.Start.Line != want["line"] || r.Start.Character != want["character"] {
			t.Errorf("PROSE_CITATION_DANGLING at %+v, want at %v", r.Start, want)
		}
	})

	citation := posOf(t, cauldron, `"02-mechanics.md#brewing"`, len(`"02-mechanics.md#br`))
	t.Run("definition", func(t *testing.T) {
		var locs []struct {
			URI   string    `json:"uri"`
			Range rangeJSON `json:"range"`
		}
		c.result("textDocument/definition", map[string]any{"textDocument": doc(cauldron), "position": citation}, &locs)
		mustAnswer(t, len(locs) > 0, "definition")
		if !sameFile(t, locs[0].URI, mech) {
			t.Errorf("the definition of 02-mechanics.md#brewing is in %s, want %s", locs[0].URI, h.uri(mech))
		}
		if want := posOf(t, mech, "### Brewing", 0)["line"]; locs[0].Range.Start.Line != want {
			t.Errorf("definition on line %d, want the heading's line %d", locs[0].Range.Start.Line, want)
		}
	})

	t.Run("completion", func(t *testing.T) {
		at := posOf(t, cauldron, `"02-mechanics.md#brewing"`, len(`"02-mechanics.md#`))
		var list struct {
			Items []struct {
				Label string `json:"label"`
			} `json:"items"`
		}
		c.result("textDocument/completion", map[string]any{"textDocument": doc(cauldron), "position": at}, &list)
		found := false
		for _, it := range list.Items {
			found = found || strings.Contains(it.Label, "brewing")
		}
		if !found {
			t.Errorf("completion after 02-mechanics.md# lacks the brewing anchor: %+v", list.Items)
		}
	})

	t.Run("rename", func(t *testing.T) {
		var edit struct {
			Changes         map[string]json.RawMessage `json:"changes"`
			DocumentChanges []struct {
				Kind         string `json:"kind"`
				TextDocument struct {
					URI string `json:"uri"`
				} `json:"textDocument"`
				Edits []json.RawMessage `json:"edits"`
			} `json:"documentChanges"`
		}
		heading := posOf(t, mech, "### Brewing", 4)
		c.result("textDocument/rename", map[string]any{"textDocument": doc(mech), "position": heading, "newName": "Simmering"}, &edit)
		var uris []string
		for u := range edit.Changes {
			uris = append(uris, u)
		}
		for _, dc := range edit.DocumentChanges {
			if dc.Kind != "" {
				t.Errorf("renaming a heading also does a %s", dc.Kind)
				continue
			}
			uris = append(uris, dc.TextDocument.URI)
		}
		edited := map[string]bool{}
		for _, u := range uris {
			edited[exists(t, u)] = true
		}
		if !edited[h.uri(mech)] || !edited[h.uri(cauldron)] {
			t.Errorf("the rename edits %v, want 02-mechanics.md and cauldron.json among them", uris)
		}
	})

	t.Run("edit", func(t *testing.T) {
		from := c.mark()
		// Replace the dangling anchor by the heading it means, in the
		// CRLF buffer, as VS Code sends a keystroke's change.
		end := map[string]int{"line": dangling["line"], "character": dangling["character"] + len("#crop-growth")}
		c.notify("textDocument/didChange", map[string]any{
			"textDocument": map[string]any{"uri": h.uri(garden), "version": 2},
			"contentChanges": []any{map[string]any{
				"range": map[string]any{"start": dangling, "end": end},
				"text":  "#crops-and-growth",
			}},
		})
		awaitFile(t, from, garden, func(p publication) bool {
			return p.Version == 2 && !has("CONTRACT_CITATION_DANGLING")(p)
		})
		from = c.mark()
		c.notify("textDocument/didChange", map[string]any{
			"textDocument": map[string]any{"uri": h.uri(garden), "version": 3},
			"contentChanges": []any{map[string]any{
				"range": map[string]any{"start": dangling, "end": map[string]int{"line": dangling["line"], "character": dangling["character"] + len("#crops-and-growth")}},
				"text":  "#crop-growth",
			}},
		})
		awaitFile(t, from, garden, func(p publication) bool {
			return p.Version == 3 && has("CONTRACT_CITATION_DANGLING")(p)
		})
	})

	// Every file the server published diagnostics for exists.
	for u := range c.publications(0) {
		exists(t, u)
	}
	c.shutdown()
}

// writeCRLFDemo writes the demo package into dir with CRLF line ends and
// returns dir.
func writeCRLFDemo(t *testing.T, dir string) string {
	t.Helper()
	src := analysistest.Testdata(t, "demo")
	files := map[string]string{}
	err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files[filepath.ToSlash(rel)] = strings.ReplaceAll(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n", "\r\n")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return analysistest.WriteFiles(t, dir, files)
}
