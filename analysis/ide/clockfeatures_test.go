package ide

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gddls/gddls/analysis"
	"github.com/gddls/gddls/analysis/analysistest"
	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/source"
)

// TestClockQueriesEveryOffset asks every query at every offset of the
// clocks.json and the chapter of testdata/query/clocks.txtar, with
// clocks.json also truncated at every 23rd byte, so that no half-typed
// state panics and every completion edit stays inside its file.
func TestClockQueriesEveryOffset(t *testing.T) {
	r := loadQueryRepo(t, "clocks.txtar")
	for _, rel := range []string{"pkg/clocks.json", "pkg/02-mechanics.md"} {
		path := r.path(rel)
		full := r.files[rel]
		if len(full) == 0 {
			t.Fatalf("the archive has no %s", rel)
		}
		for cut := len(full); cut > 0; cut -= 23 {
			text := full[:cut]
			s := analysis.Load([]string{r.dir}, analysis.Options{Overlay: analysis.Overlay{path: text}})
			for off := -1; off <= len(text)+1; off++ {
				for _, it := range Complete(s, path, off) {
					if it.Edit != nil && (it.Edit.Span.Start < 0 || it.Edit.Span.End > len(text) || it.Edit.Span.Start > it.Edit.Span.End) {
						t.Fatalf("%s cut %d offset %d: item %q edit %+v", rel, cut, off, it.Label, it.Edit)
					}
				}
				Hover(s, path, off)
				Definition(s, path, off)
				References(s, path, off, true)
				CodeActions(s, path, source.Span{Start: off, End: off})
				if _, _, err := PrepareRename(s, path, off); err == nil {
					_, _ = Rename(s, path, off, "new-name")
				}
			}
			if rel != "pkg/clocks.json" {
				break // the chapter is asked whole
			}
		}
	}
}

// TestClockHighlights checks that the references of one file, which
// highlights and semantic tokens read, hold the mode tags of a chapter and
// the clocks, modes and advances of clocks.json.
func TestClockHighlights(t *testing.T) {
	r := loadQueryRepo(t, "clocks.txtar")
	md := r.path("pkg/02-mechanics.md")
	text := r.files["pkg/02-mechanics.md"]
	at := strings.Index(string(text), "[PLAYING]") + 2
	var got []string
	for _, h := range DocumentHighlights(r.snap, md, at) {
		got = append(got, string(text[h.Span.Start:h.Span.End]))
	}
	if strings.Join(got, " ") != "PLAYING playing" {
		t.Errorf("highlights of a mode tag: %q", got)
	}
	cj := r.path("pkg/clocks.json")
	ctext := r.files["pkg/clocks.json"]
	at = strings.Index(string(ctext), `"in-mission"`) + 2
	got = nil
	for _, h := range DocumentHighlights(r.snap, cj, at) {
		got = append(got, string(ctext[h.Span.Start:h.Span.End]))
	}
	if len(got) != 2 {
		t.Errorf("highlights of a mode key in clocks.json: %q", got)
	}
}

// TestUnchangedGlue checks the helpers a test block's unchanged is indexed
// and completed with.
func TestUnchangedGlue(t *testing.T) {
	dir := analysistest.WriteFiles(t, "", analysistest.RuntimePackage(
		`{"world": {"unit": "s", "advances": ["runtime.scan"], "modes": {"playing": "running", "paused": "paused"}}}`,
		"# Mechanics\n\nThe battery is `runtime.battery`.\n"))
	s := analysis.Load([]string{dir}, analysis.Options{})
	p := s.Packages[0]
	text := `{"modes": ["paused", "sleeping"], "values": ["runtime.scan", "runtime.ghost", "hp"]}`
	v, _ := jsonsrc.Parse([]byte(text))
	file := filepath.Join(dir, "05-build-plan.md")
	b := &indexBuilder{snap: s, idx: &citationIndex{byTarget: map[targetKey][]citeRef{}, byFile: map[string][]citeRef{}}}
	b.unchangedRefs(p, file, []byte(text), v)
	var got []string
	for _, r := range b.idx.byFile[file] {
		got = append(got, text[r.Name.Start:r.Name.End])
	}
	if strings.Join(got, " ") != "paused runtime.scan runtime.ghost" {
		t.Errorf("indexed %q", got)
	}
	for _, tc := range []struct{ text, want string }{
		{`{"modes": [""], "values": []}`, "playing paused"},
		{`{"modes": ["paused"], "values": [""]}`, "runtime.scan runtime.mood runtime.battery"},
		{`{"modes": ["paused"], "": 1}`, "values"},
		{`{"x": [""]}`, ""},
	} {
		off := strings.Index(tc.text, `""`) + 1
		ctx := jsonsrc.ContextAt([]byte(tc.text), off)
		var labels []string
		for _, it := range unchangedItems(p, ctx, ctx.Keys()) {
			labels = append(labels, it.Label)
		}
		if strings.Join(labels, " ") != tc.want {
			t.Errorf("%s: got %q, want %q", tc.text, labels, tc.want)
		}
	}
}
