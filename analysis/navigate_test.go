package analysis

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gddls/gddls/contracts/source"
)

// navFixture is a small repository for the navigation tests: one package
// with a tuning file, chapters, an adoption whose rows cite chapters and
// tuning keys, and general Markdown outside the package. Cursors are
// written ‸[name] and removed before the files are written.
var navFixture = map[string]string{
	"pkg/manifest.json": `{"name": "nav"}` + "\n",
	"pkg/tuning.json": `{
  "values": {
    "‸[keydecl]combat.poison_turns": 3,
    "combat.cap_turns": 6
  },
  "ranges": {
    "combat.poison_turns": [2, 5]
  },
  "rules": {
    "cap-covers": "combat.cap_turns >= combat.poison_turns"
  }
}
`,
	"pkg/01-overview.md":   "# Overview\n\nA small game.\n",
	"pkg/05-build-plan.md": "# Build plan\n\nBuild it.\n",
	"pkg/02-mechanics.md": `# Mechanics

## Po‸[poisonhead]ison

Poison lasts ` + "`combat.po‸[prosekey]ison_turns`" + ` turns (` + "`values.combat.poi‸[valueskey]son_turns`" + `), capped by ` + "`contracts.windows.c‸[proseval]ap`" + `.

## Ärger über Öfen

Back to [the poison](#poi‸[samefile]son).

### Details

Nothing.

## Twin

## Twin
`,
	"pkg/notes.md": "# Notes\n\nSee [poison](02-mechanics.md#poison) and [the ovens][ovens].\n\n[ovens]: 02-mechanics.md#ärger-über-öfen\n",
	"pkg/contracts/windows.json": `{
  "contract": "status-window",
  "version": 1,
  "questions": {
    "stacking": {
      "asks": "Do windows stack?",
      "options": {
        "stack": {"meaning": "They stack."},
        "refresh": {"meaning": "They refresh."}
      }
    }
  },
  "declares": {
    "values": {
      "cap": {"description": "The longest a window stays open.", "forms": ["number", "citation"]}
    },
    "rows": {
      "windows": {
        "description": "One row per window.",
        "record": {
          "id": {"type": "string", "required": true},
          "opens-at": {"type": "citation", "required": true},
          "duration": {"type": "citation", "required": true}
        }
      }
    }
  },
  "answers": {"stack‸[answerkey]ing": "st‸[answerval]ack"},
  "values": {"c‸[valuekey]ap": "combat.cap‸[valuecite]_turns"},
  "rows": {
    "windows": [
      {"id": "poison", "open‸[fieldkey]s-at": "02-mechanics.md#poi‸[rowanchor]son", "duration": "combat.poison‸[rowkey]_turns"},
      {"id": "ovens", "opens-at": "02-mechanics.md#ärger-über-öfen", "duration": "combat.cap_turns"}
    ]
  }
}
`,
	"docs/guide.md": `# Guide

## Set‸[setup1]up

## Setup

See [the second setup](#set‸[setuplink]up-1), [poison](../pkg/02-mechanics.md#poi‸[crosslink]son) and [ovens](other.md#ärger-über-öfen).
`,
	"docs/other.md": "# Other\n\n## Ärger ‸[otherhead]über Öfen\n\nHot.\n",
}

// navRepo is the fixture written to disk.
type navRepo struct {
	dir   string
	files map[string]string // rel path -> clean content
	marks map[string]navMark
}

type navMark struct {
	file   string
	offset int
}

func newNavRepo(t *testing.T, fixture map[string]string) *navRepo {
	t.Helper()
	r := &navRepo{dir: t.TempDir(), files: map[string]string{}, marks: map[string]navMark{}}
	for rel, text := range fixture {
		var b strings.Builder
		for {
			i := strings.Index(text, "‸[")
			if i < 0 {
				b.WriteString(text)
				break
			}
			j := strings.Index(text[i:], "]")
			b.WriteString(text[:i])
			name := text[i+len("‸[") : i+j]
			if _, dup := r.marks[name]; dup {
				t.Fatalf("cursor %s is marked twice", name)
			}
			r.marks[name] = navMark{file: rel, offset: b.Len()}
			text = text[i+j+1:]
		}
		r.files[rel] = b.String()
		full := r.path(rel)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

func (r *navRepo) path(rel string) string { return filepath.Join(r.dir, filepath.FromSlash(rel)) }

func (r *navRepo) rel(abs string) string {
	rel, err := filepath.Rel(r.dir, abs)
	if err != nil {
		return abs
	}
	return filepath.ToSlash(rel)
}

func (r *navRepo) load() *Snapshot { return Load([]string{r.dir}, Options{}) }

// mark returns the absolute file and offset of a cursor.
func (r *navRepo) mark(t *testing.T, name string) (string, int) {
	t.Helper()
	m, ok := r.marks[name]
	if !ok {
		t.Fatalf("no cursor %s", name)
	}
	return r.path(m.file), m.offset
}

// show renders a location as rel-path:"text at span".
func (r *navRepo) show(files map[string]string, l Location) string {
	content := files[r.rel(l.File)]
	if l.Span.Start < 0 || l.Span.End > len(content) || l.Span.Start > l.Span.End {
		return r.rel(l.File) + ":<bad span>"
	}
	return r.rel(l.File) + ":" + content[l.Span.Start:l.Span.End]
}

func (r *navRepo) showAll(ls []Location) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = r.show(r.files, l)
	}
	sort.Strings(out)
	return out
}

// applyEdits applies edits to content, last first.
func applyEdits(t *testing.T, content string, edits []TextEdit) string {
	t.Helper()
	es := append([]TextEdit{}, edits...)
	sort.SliceStable(es, func(i, j int) bool { return es[i].Span.Start > es[j].Span.Start })
	end := len(content) + 1
	for _, e := range es {
		if e.Span.End > end || e.Span.Start > e.Span.End || e.Span.Start < 0 {
			t.Fatalf("overlapping or bad edit %+v", e)
		}
		content = content[:e.Span.Start] + e.NewText + content[e.Span.End:]
		end = e.Span.Start
	}
	return content
}

// applyAll applies a rename's edits to the repository's texts and returns
// the new texts and an overlay of the changed files.
func (r *navRepo) applyAll(t *testing.T, edits map[string][]TextEdit) (map[string]string, Overlay) {
	t.Helper()
	out := map[string]string{}
	for k, v := range r.files {
		out[k] = v
	}
	overlay := Overlay{}
	for abs, es := range edits {
		rel := r.rel(abs)
		if _, ok := out[rel]; !ok {
			t.Fatalf("edit of unknown file %s", abs)
		}
		out[rel] = applyEdits(t, out[rel], es)
		overlay[abs] = []byte(out[rel])
	}
	return out, overlay
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestDefinition(t *testing.T) {
	r := newNavRepo(t, navFixture)
	snap := r.load()
	tests := []struct {
		mark string
		want []string
	}{
		{"rowanchor", []string{"pkg/02-mechanics.md:## Poison"}},
		{"rowkey", []string{`pkg/tuning.json:"combat.poison_turns"`}},
		{"valuecite", []string{`pkg/tuning.json:"combat.cap_turns"`}},
		{"prosekey", []string{`pkg/tuning.json:"combat.poison_turns"`}},
		{"valueskey", []string{`pkg/tuning.json:"combat.poison_turns"`}},
		{"proseval", []string{`pkg/contracts/windows.json:"cap"`}},
		{"samefile", []string{"pkg/02-mechanics.md:## Poison"}},
		{"setuplink", []string{"docs/guide.md:## Setup"}},
		{"crosslink", []string{"pkg/02-mechanics.md:## Poison"}},
		{"answerkey", []string{`pkg/contracts/windows.json:"stacking"`}},
		{"answerval", []string{`pkg/contracts/windows.json:"stack"`}},
		{"fieldkey", []string{`pkg/contracts/windows.json:"opens-at"`}},
		{"valuekey", []string{`pkg/contracts/windows.json:"cap"`}},
	}
	for _, tt := range tests {
		t.Run(tt.mark, func(t *testing.T) {
			path, off := r.mark(t, tt.mark)
			got := snap.Definition(path, off)
			if s := r.showAll(got); !equalStrings(s, tt.want) {
				t.Fatalf("Definition = %q, want %q", s, tt.want)
			}
		})
	}
	// The second Setup heading, not the first: check the exact line.
	path, off := r.mark(t, "setuplink")
	got := snap.Definition(path, off)
	if len(got) != 1 || snap.File(got[0].File).Lines.Position(got[0].Span.Start).Line != 4 {
		t.Fatalf("#setup-1 should lead to line 5, got %+v", got)
	}
	// The answer's declaration is the question inside questions, not the
	// answer itself.
	path, off = r.mark(t, "answerkey")
	got = snap.Definition(path, off)
	if len(got) != 1 || got[0].Span.Start >= off {
		t.Fatalf("answer should lead to the question above it, got %+v", got)
	}
}

func TestReferences(t *testing.T) {
	r := newNavRepo(t, navFixture)
	snap := r.load()
	tests := []struct {
		name string
		mark string
		decl bool
		want []string
	}{
		{"heading", "poisonhead", false, []string{
			"docs/guide.md:poison",
			"pkg/02-mechanics.md:poison",
			"pkg/contracts/windows.json:poison",
			"pkg/notes.md:poison",
		}},
		{"heading with declaration", "poisonhead", true, []string{
			"docs/guide.md:poison",
			"pkg/02-mechanics.md:## Poison",
			"pkg/02-mechanics.md:poison",
			"pkg/contracts/windows.json:poison",
			"pkg/notes.md:poison",
		}},
		{"from a citation", "rowanchor", false, []string{
			"docs/guide.md:poison",
			"pkg/02-mechanics.md:poison",
			"pkg/contracts/windows.json:poison",
			"pkg/notes.md:poison",
		}},
		{"tuning key", "keydecl", true, []string{
			"pkg/02-mechanics.md:combat.poison_turns",
			"pkg/02-mechanics.md:combat.poison_turns",
			"pkg/contracts/windows.json:combat.poison_turns",
			"pkg/tuning.json:combat.poison_turns",
			"pkg/tuning.json:combat.poison_turns",
			"pkg/tuning.json:combat.poison_turns",
		}},
		{"tuning key without declaration", "prosekey", false, []string{
			"pkg/02-mechanics.md:combat.poison_turns",
			"pkg/02-mechanics.md:combat.poison_turns",
			"pkg/contracts/windows.json:combat.poison_turns",
			"pkg/tuning.json:combat.poison_turns",
			"pkg/tuning.json:combat.poison_turns",
		}},
		{"contract value", "proseval", true, []string{
			"pkg/02-mechanics.md:cap",
			"pkg/contracts/windows.json:cap",
			"pkg/contracts/windows.json:cap",
		}},
		{"non-ASCII heading outside a package", "otherhead", false, []string{
			"docs/guide.md:ärger-über-öfen",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path, off := r.mark(t, tt.mark)
			got := r.showAll(snap.References(path, off, tt.decl))
			if !equalStrings(got, tt.want) {
				t.Fatalf("References =\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
}

// citationFindings returns the findings that a broken citation or link
// produces.
func citationFindings(snap *Snapshot) []string {
	var out []string
	for _, d := range snap.AllDiagnostics() {
		if strings.HasPrefix(d.Code, "CONTRACT_CITATION") || strings.HasPrefix(d.Code, "DOC_LINK") || d.Code == "PROSE_CITATION_DANGLING" {
			out = append(out, d.Code+" "+d.File+": "+d.Message)
		}
	}
	return out
}

func TestRenameHeading(t *testing.T) {
	r := newNavRepo(t, navFixture)
	snap := r.load()
	if fs := citationFindings(snap); len(fs) != 0 {
		t.Fatalf("the fixture should start clean, got %q", fs)
	}
	tests := []struct {
		name    string
		mark    string
		newName string
		// want maps files to substrings the renamed text must hold.
		want map[string][]string
		// gone lists substrings that must no longer appear.
		gone map[string][]string
		// headFile holds the renamed heading.
		headFile string
	}{
		{
			name: "package heading", mark: "poisonhead", newName: "Venom Rules", headFile: "pkg/02-mechanics.md",
			want: map[string][]string{
				"pkg/02-mechanics.md":        {"## Venom Rules\n", "(#venom-rules)"},
				"pkg/contracts/windows.json": {`"02-mechanics.md#venom-rules"`},
				"pkg/notes.md":               {"(02-mechanics.md#venom-rules)"},
				"docs/guide.md":              {"(../pkg/02-mechanics.md#venom-rules)"},
			},
			gone: map[string][]string{"pkg/02-mechanics.md": {"#poison"}, "pkg/notes.md": {"#poison"}},
		},
		{
			name: "from a citation", mark: "rowanchor", newName: "Gift", headFile: "pkg/02-mechanics.md",
			want: map[string][]string{
				"pkg/02-mechanics.md":        {"## Gift\n", "(#gift)"},
				"pkg/contracts/windows.json": {`"02-mechanics.md#gift"`},
			},
		},
		{
			name: "non-ASCII heading outside a package", mark: "otherhead", newName: "Grüße aus Köln", headFile: "docs/other.md",
			want: map[string][]string{
				"docs/other.md": {"## Grüße aus Köln\n"},
				"docs/guide.md": {"(other.md#grüße-aus-köln)"},
			},
		},
		{
			name: "GitHub repeat suffix moves", mark: "setup1", newName: "Install", headFile: "docs/guide.md",
			want: map[string][]string{
				"docs/guide.md": {"## Install\n\n## Setup\n", "[the second setup](#setup)"},
			},
			gone: map[string][]string{"docs/guide.md": {"#setup-1"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path, off := r.mark(t, tt.mark)
			if _, _, err := snap.PrepareRename(path, off); err != nil {
				t.Fatalf("PrepareRename: %v", err)
			}
			edits, err := snap.Rename(path, off, tt.newName)
			if err != nil {
				t.Fatalf("Rename: %v", err)
			}
			texts, overlay := r.applyAll(t, edits)
			for file, subs := range tt.want {
				for _, sub := range subs {
					if !strings.Contains(texts[file], sub) {
						t.Errorf("%s does not hold %q after the rename:\n%s", file, sub, texts[file])
					}
				}
			}
			for file, subs := range tt.gone {
				for _, sub := range subs {
					if strings.Contains(texts[file], sub) {
						t.Errorf("%s still holds %q after the rename:\n%s", file, sub, texts[file])
					}
				}
			}
			after := Load([]string{r.dir}, Options{Overlay: overlay})
			if fs := citationFindings(after); len(fs) != 0 {
				t.Fatalf("after the rename: %q", fs)
			}
			// The renamed heading is reached by as many citations as
			// before.
			hpath, hoff := r.mark(t, tt.mark)
			before := snap.References(hpath, hoff, false)
			tf := after.File(r.path(tt.headFile))
			h := -1
			for i, hd := range tf.Markdown.Headings {
				if strings.TrimSpace(hd.Text) == tt.newName {
					h = i
				}
			}
			if h < 0 {
				t.Fatalf("renamed heading not found")
			}
			if got := after.References(tf.Path, tf.Markdown.Headings[h].Span.Start, false); len(got) != len(before) {
				t.Fatalf("after the rename %d references, before %d", len(got), len(before))
			}
		})
	}
}

// TestRenameControl shows that the clean-after-rename check can fail: a
// rename that only changes the heading leaves dangling citations.
func TestRenameControl(t *testing.T) {
	r := newNavRepo(t, navFixture)
	snap := r.load()
	path, off := r.mark(t, "poisonhead")
	edits, err := snap.Rename(path, off, "Venom")
	if err != nil {
		t.Fatal(err)
	}
	only := map[string][]TextEdit{}
	for _, e := range edits[path] {
		if e.NewText == "Venom" {
			only[path] = append(only[path], e)
		}
	}
	_, overlay := r.applyAll(t, only)
	after := Load([]string{r.dir}, Options{Overlay: overlay})
	if fs := citationFindings(after); len(fs) == 0 {
		t.Fatal("renaming the heading alone should leave a dangling citation")
	}
}

// TestRenameSharedAnchor renames one of two headings that share an anchor:
// only the heading changes, because its citations are ambiguous.
func TestRenameSharedAnchor(t *testing.T) {
	r := newNavRepo(t, navFixture)
	snap := r.load()
	path := r.path("pkg/02-mechanics.md")
	off := strings.Index(r.files["pkg/02-mechanics.md"], "## Twin")
	edits, err := snap.Rename(path, off+4, "Solo")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]TextEdit{path: {{Span: source.Span{Start: off + 3, End: off + 7}, NewText: "Solo"}}}
	if len(edits) != 1 || len(edits[path]) != 1 || edits[path][0] != want[path][0] {
		t.Fatalf("edits = %+v, want %+v", edits, want)
	}
}

func TestRenameHeadingEdits(t *testing.T) {
	r := newNavRepo(t, navFixture)
	snap := r.load()
	path, off := r.mark(t, "poisonhead")
	span, name, err := snap.PrepareRename(path, off)
	if err != nil || name != "Poison" || r.files["pkg/02-mechanics.md"][span.Start:span.End] != "Poison" {
		t.Fatalf("PrepareRename = %v %q %v", span, name, err)
	}
	edits, err := snap.Rename(path, off, "Venom")
	if err != nil {
		t.Fatal(err)
	}
	// Every edit but the heading's replaces exactly the text "poison".
	n := 0
	for abs, es := range edits {
		content := r.files[r.rel(abs)]
		for _, e := range es {
			n++
			old := content[e.Span.Start:e.Span.End]
			if old == "Poison" && e.NewText == "Venom" {
				continue
			}
			if old != "poison" || e.NewText != "venom" {
				t.Errorf("%s: edit replaces %q with %q", r.rel(abs), old, e.NewText)
			}
		}
	}
	if n != 5 {
		t.Errorf("got %d edits, want 5 (heading, same-file link, adoption, notes, guide): %+v", n, edits)
	}
}

func TestRenameRefused(t *testing.T) {
	r := newNavRepo(t, navFixture)
	snap := r.load()
	tests := []struct {
		name    string
		mark    string
		newName string
		errHas  string
	}{
		{"empty anchor", "poisonhead", "!!!", "empty anchor"},
		{"collision", "poisonhead", "Twin", "already the anchor"},
		{"collision across case", "poisonhead", "ärger ÜBER öfen", "already the anchor"},
		{"GitHub collision", "otherhead", "Other", "already the anchor"},
		{"two lines", "poisonhead", "a\nb", "one line"},
		{"bad key", "keydecl", "nodots", "not a valid tuning key"},
		{"reserved key", "keydecl", "values.x", "not a valid tuning key"},
		{"existing key", "keydecl", "combat.cap_turns", "already has the key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path, off := r.mark(t, tt.mark)
			_, err := snap.Rename(path, off, tt.newName)
			if err == nil || !strings.Contains(err.Error(), tt.errHas) {
				t.Fatalf("Rename(%q) error = %v, want one containing %q", tt.newName, err, tt.errHas)
			}
		})
	}
	// Nothing to rename in plain prose.
	path := r.path("pkg/01-overview.md")
	if _, _, err := snap.PrepareRename(path, strings.Index(r.files["pkg/01-overview.md"], "small")); err == nil {
		t.Fatal("PrepareRename in prose should fail")
	}
}

func TestRenameTuningKey(t *testing.T) {
	r := newNavRepo(t, navFixture)
	snap := r.load()
	for _, mark := range []string{"keydecl", "prosekey", "valueskey", "rowkey"} {
		t.Run(mark, func(t *testing.T) {
			path, off := r.mark(t, mark)
			span, name, err := snap.PrepareRename(path, off)
			if err != nil || name != "combat.poison_turns" {
				t.Fatalf("PrepareRename = %v %q %v", span, name, err)
			}
			edits, err := snap.Rename(path, off, "combat.venom_turns")
			if err != nil {
				t.Fatal(err)
			}
			texts, overlay := r.applyAll(t, edits)
			for file, text := range texts {
				if strings.Contains(text, "poison_turns") {
					t.Errorf("%s still names the old key:\n%s", file, text)
				}
			}
			wantIn := map[string][]string{
				"pkg/tuning.json": {
					`"combat.venom_turns": 3`, `"combat.venom_turns": [2, 5]`,
					`"combat.cap_turns >= combat.venom_turns"`,
				},
				"pkg/02-mechanics.md":        {"`combat.venom_turns`", "`values.combat.venom_turns`"},
				"pkg/contracts/windows.json": {`"duration": "combat.venom_turns"`},
			}
			for file, subs := range wantIn {
				for _, sub := range subs {
					if !strings.Contains(texts[file], sub) {
						t.Errorf("%s does not hold %q:\n%s", file, sub, texts[file])
					}
				}
			}
			after := Load([]string{r.dir}, Options{Overlay: overlay})
			for _, d := range after.AllDiagnostics() {
				if strings.HasPrefix(d.Code, "TUNING_RANGE") || strings.HasPrefix(d.Code, "TUNING_RULE") {
					t.Errorf("after the rename: %s %s", d.Code, d.Message)
				}
			}
			if fs := citationFindings(after); len(fs) != 0 {
				t.Fatalf("after the rename: %q", fs)
			}
		})
	}
}

// TestRenameEscapedCitation rewrites a citation whose JSON string holds an
// escape: the whole string is replaced.
func TestRenameEscapedCitation(t *testing.T) {
	fx := map[string]string{}
	for k, v := range navFixture {
		fx[k] = v
	}
	fx["pkg/contracts/windows.json"] = strings.Replace(fx["pkg/contracts/windows.json"],
		`"duration": "combat.cap_turns"`, `"duration": "combat.cap\u005fturns"`, 1)
	fx["pkg/tuning.json"] = strings.Replace(fx["pkg/tuning.json"],
		`"cap-covers":`, `"twice": "combat.cap_turns >= combat.cap_turns \u002d 1",
    "cap-covers":`, 1)
	r := newNavRepo(t, fx)
	snap := r.load()
	path := r.path("pkg/tuning.json")
	off := strings.Index(r.files["pkg/tuning.json"], "combat.cap_turns")
	edits, err := snap.Rename(path, off, "combat.lid_turns")
	if err != nil {
		t.Fatal(err)
	}
	texts, _ := r.applyAll(t, edits)
	if !strings.Contains(texts["pkg/contracts/windows.json"], `"duration": "combat.lid_turns"`) {
		t.Fatalf("escaped citation not rewritten:\n%s", texts["pkg/contracts/windows.json"])
	}
	if !strings.Contains(texts["pkg/tuning.json"], `"twice": "combat.lid_turns >= combat.lid_turns - 1"`) ||
		!strings.Contains(texts["pkg/tuning.json"], `"combat.lid_turns >= combat.poison_turns"`) {
		t.Fatalf("rule lines not rewritten:\n%s", texts["pkg/tuning.json"])
	}
}

func symbolNames(syms []Symbol, depth int) []string {
	var out []string
	for _, s := range syms {
		out = append(out, strings.Repeat("  ", depth)+s.Name)
		out = append(out, symbolNames(s.Children, depth+1)...)
	}
	return out
}

func checkNested(t *testing.T, syms []Symbol, parent source.Span) {
	t.Helper()
	for _, s := range syms {
		if s.Span.Start < parent.Start || s.Span.End > parent.End {
			t.Errorf("symbol %s %v lies outside its parent %v", s.Name, s.Span, parent)
		}
		if s.SelectionSpan.Start < s.Span.Start || s.SelectionSpan.End > s.Span.End {
			t.Errorf("symbol %s selection %v lies outside %v", s.Name, s.SelectionSpan, s.Span)
		}
		checkNested(t, s.Children, s.Span)
	}
}

func TestDocumentSymbols(t *testing.T) {
	r := newNavRepo(t, navFixture)
	snap := r.load()
	tests := []struct {
		file string
		want []string
	}{
		{"pkg/02-mechanics.md", []string{
			"Mechanics", "  Poison", "  Ärger über Öfen", "    Details", "  Twin", "  Twin",
		}},
		{"pkg/contracts/windows.json", []string{
			"stacking", "  stack", "  refresh", "cap", "windows", "cap", "windows", "  poison", "  ovens",
		}},
		{"pkg/tuning.json", []string{
			"combat.poison_turns", "combat.cap_turns", "combat.poison_turns", "cap-covers",
		}},
		{"docs/guide.md", []string{"Guide", "  Setup", "  Setup"}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			syms := snap.DocumentSymbols(r.path(tt.file))
			if got := symbolNames(syms, 0); !equalStrings(got, tt.want) {
				t.Fatalf("symbols =\n%q\nwant\n%q", got, tt.want)
			}
			checkNested(t, syms, source.Span{Start: 0, End: len(r.files[tt.file])})
		})
	}
	syms := snap.DocumentSymbols(r.path("pkg/02-mechanics.md"))
	if d := syms[0].Children[1].Detail; d != "#ärger-über-öfen" {
		t.Errorf("detail of the non-ASCII heading = %q", d)
	}
}

func TestWorkspaceSymbols(t *testing.T) {
	r := newNavRepo(t, navFixture)
	snap := r.load()
	tests := []struct {
		query string
		want  []string // "kind name detail"
	}{
		{"poison", []string{"6 combat.poison_turns tuning.json (ranged)", "0 Poison 02-mechanics.md#poison"}},
		{"ÄRGER", []string{"0 Ärger über Öfen 02-mechanics.md#ärger-über-öfen", "0 Ärger über Öfen docs/other.md#ärger-über-öfen"}},
		{"contracts.win", []string{"7 contracts.windows contracts/windows.json status-window-1", "3 contracts.windows.cap The longest a window stays open."}},
		{"cbpsn", []string{"6 combat.poison_turns tuning.json (ranged)"}},
		{"cpt", []string{"6 combat.cap_turns tuning.json (decided)", "6 combat.poison_turns tuning.json (ranged)"}},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			var got []string
			for _, s := range snap.WorkspaceSymbols(tt.query) {
				got = append(got, strings.TrimSpace(string(rune('0'+s.Kind))+" "+s.Name+" "+s.Detail))
			}
			sort.Strings(got)
			want := append([]string{}, tt.want...)
			sort.Strings(want)
			if !equalStrings(got, want) {
				t.Fatalf("WorkspaceSymbols(%q) =\n%q\nwant\n%q", tt.query, got, want)
			}
		})
	}
	if n := len(snap.WorkspaceSymbols("")); n == 0 || n > maxWorkspaceSymbols {
		t.Fatalf("empty query gave %d symbols", n)
	}
}

func TestDocumentLinks(t *testing.T) {
	r := newNavRepo(t, navFixture)
	snap := r.load()
	tests := []struct {
		file string
		want []string // "source text -> target text"
	}{
		{"pkg/contracts/windows.json", []string{
			"02-mechanics.md#poison -> pkg/02-mechanics.md:## Poison",
			"02-mechanics.md#ärger-über-öfen -> pkg/02-mechanics.md:## Ärger über Öfen",
			"combat.cap_turns -> pkg/tuning.json:\"combat.cap_turns\"",
			"combat.cap_turns -> pkg/tuning.json:\"combat.cap_turns\"",
			"combat.poison_turns -> pkg/tuning.json:\"combat.poison_turns\"",
		}},
		{"pkg/02-mechanics.md", []string{
			"`combat.poison_turns` -> pkg/tuning.json:\"combat.poison_turns\"",
			"`values.combat.poison_turns` -> pkg/tuning.json:\"combat.poison_turns\"",
			"`contracts.windows.cap` -> pkg/contracts/windows.json:\"cap\"",
			"#poison -> pkg/02-mechanics.md:## Poison",
		}},
		{"pkg/notes.md", []string{
			"02-mechanics.md#poison -> pkg/02-mechanics.md:## Poison",
			"[the ovens][ovens] -> pkg/02-mechanics.md:## Ärger über Öfen",
			"02-mechanics.md#ärger-über-öfen -> pkg/02-mechanics.md:## Ärger über Öfen",
		}},
		{"docs/guide.md", []string{
			"#setup-1 -> docs/guide.md:## Setup",
			"../pkg/02-mechanics.md#poison -> pkg/02-mechanics.md:## Poison",
			"other.md#ärger-über-öfen -> docs/other.md:## Ärger über Öfen",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			var got []string
			for _, l := range snap.DocumentLinks(r.path(tt.file)) {
				src := r.files[tt.file][l.Span.Start:l.Span.End]
				got = append(got, src+" -> "+r.show(r.files, Location{File: l.Target, Span: l.TargetSpan}))
			}
			sort.Strings(got)
			want := append([]string{}, tt.want...)
			sort.Strings(want)
			if !equalStrings(got, want) {
				t.Fatalf("DocumentLinks =\n%q\nwant\n%q", got, want)
			}
		})
	}
}

// TestQueriesSurviveBadPositions asks every query at every offset of every
// file, and past the end: none may panic.
func TestQueriesSurviveBadPositions(t *testing.T) {
	r := newNavRepo(t, navFixture)
	snap := r.load()
	for rel, content := range r.files {
		path := r.path(rel)
		for off := -2; off <= len(content)+2; off++ {
			snap.Definition(path, off)
			snap.References(path, off, true)
			if _, _, err := snap.PrepareRename(path, off); err == nil {
				_, _ = snap.Rename(path, off, "New name.x")
			}
		}
		snap.DocumentSymbols(path)
		snap.DocumentLinks(path)
	}
	snap.Definition(r.path("nope.md"), 0)
	snap.DocumentSymbols(r.path("nope.md"))
}
