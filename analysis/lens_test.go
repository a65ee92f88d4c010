package analysis

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestCodeLenses(t *testing.T) {
	cases := []struct {
		name     string
		withPack bool
		edits    []string
		// want maps the text under a lens to its title.
		want map[string]string
		// command is set when the contract lens must carry the render command.
		command bool
	}{
		{name: "clamp", withPack: true, command: true, want: map[string]string{
			`"contract"`: "2 of 2 pack tests live — render",
			`"overflow"`: "asked — answer: clamp",
			`"notice"`:   "not asked: the answer of \"overflow\" is \"clamp\", not one of refuse",
		}},
		{name: "refuse without notice", withPack: true, command: true,
			edits: []string{`"answers": { "overflow": "clamp" }`, `"answers": { "overflow": "refuse" }`},
			want: map[string]string{
				`"contract"`: "1 of 2 pack tests live — render",
				`"overflow"`: "asked — answer: refuse",
				`"notice"`:   "asked — no answer yet",
			}},
		{name: "refuse with notice", withPack: true, command: true,
			edits: []string{`"answers": { "overflow": "clamp" }`, `"answers": { "overflow": "refuse", "notice": "hide" }`},
			want:  map[string]string{`"notice"`: "asked — answer: hide"}},
		{name: "no answer at all", withPack: true, command: true,
			edits: []string{`"answers": { "overflow": "clamp" }`, `"answers": { "notice": "show" }`},
			want: map[string]string{
				`"overflow"`: "asked — no answer yet",
				`"notice"`:   "not asked: question \"overflow\" has no answer (it must be one of refuse) (its answer has no effect)",
			}},
		{name: "promised", withPack: false, want: map[string]string{`"contract"`: "promised: no pack"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			files := fixFiles(t, tc.withPack)
			for i := 0; i+1 < len(tc.edits); i += 2 {
				fixEdit(t, files, "contracts/meter.json", tc.edits[i], tc.edits[i+1])
			}
			dir, snap := fixWrite(t, files)
			path := filepath.Join(dir, "contracts", "meter.json")
			content := string(snap.File(path).Content)
			got := map[string]CodeLens{}
			for _, l := range snap.CodeLenses(path) {
				key := content[l.Span.Start:l.Span.End]
				if _, dup := got[key]; !dup {
					got[key] = l
				}
			}
			for under, title := range tc.want {
				l, ok := got[under]
				if !ok {
					t.Errorf("no lens over %s; got %v", under, got)
					continue
				}
				if l.Title != title {
					t.Errorf("lens over %s is %q, want %q", under, l.Title, title)
				}
			}
			l := got[`"contract"`]
			if tc.command {
				if l.Command != RenderTestsCommand || len(l.Arguments) != 1 {
					t.Fatalf("contract lens command %q %v", l.Command, l.Arguments)
				}
				uri, _ := l.Arguments[0].(string)
				if !strings.HasPrefix(uri, "file:///") || !strings.HasSuffix(uri, "/contracts/meter.json") {
					t.Errorf("argument %q is not the file URI of the adoption", uri)
				}
			} else if l.Command != "" {
				t.Errorf("a promised adoption's lens has command %q", l.Command)
			}
		})
	}
}

func TestCodeLensesOtherFiles(t *testing.T) {
	dir, snap := fixWrite(t, fixFiles(t, true))
	// tuning.json and Markdown files have reference counts (reflens_test.go).
	for _, name := range []string{"contracts/clamped-meter-1.pack.json", "missing.json"} {
		if got := snap.CodeLenses(filepath.Join(dir, filepath.FromSlash(name))); len(got) != 0 {
			t.Errorf("%s has lenses: %v", name, got)
		}
	}
}

func TestFileURI(t *testing.T) {
	if got := fileURI("/tmp/a b/c#d.json"); got != "file:///tmp/a%20b/c%23d.json" {
		t.Errorf("fileURI = %q", got)
	}
}
