package safety

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/gddls/gddls/analysis/gen"
)

// rescanPieces are what the random edits insert: the texts of every
// pattern and their near misses, line breaks, fences, blank lines,
// headings, list markers and encoded runs.
var rescanPieces = append([]string{
	"\n", "\r\n", "\r", "\n\n", " ", "\t", "\u00A0", "\v\n", "x", "```", "```\n", "\n```\n", "~~~\n", "# ", "\n# Heading\n", "- ", "\n1. ",
	"you", " must ", "run", " the ", "file", "https://", "www.", "://", "script:", "data:", "sha256:", hex64, b64, "\u212A", "\u017F",
	"Open the file", "\nOpen the config file and edit the token.\n", "> ", "**", "é",
}, prefilterTexts...)

// edit returns content with a random edit: a piece inserted, a run of
// bytes deleted, or both (a replacement), and the piece of content moved
// elsewhere half the time.
func edit(r *rand.Rand, content []byte) []byte {
	at := r.IntN(len(content) + 1)
	cut := 0
	if r.IntN(2) == 0 && at < len(content) {
		cut = r.IntN(min(len(content)-at, 40) + 1)
	}
	var piece string
	switch r.IntN(4) {
	case 0: // nothing: a deletion
	case 1: // a piece of the content itself
		s := r.IntN(len(content) + 1)
		piece = string(content[s:min(len(content), s+r.IntN(80))])
	default:
		piece = rescanPieces[r.IntN(len(rescanPieces))]
	}
	out := make([]byte, 0, len(content)-cut+len(piece))
	out = append(out, content[:at]...)
	out = append(out, piece...)
	return append(out, content[at+cut:]...)
}

// TestRescanMatchesScan: after each of a series of random edits, the scan
// an edit rescans (Rescan) is the scan of the edited content (ScanText),
// notices and order alike, on the texts of every pattern and on files of
// the module's testdata and of a generated package, under Markdown, build
// plan and JSON names.
func TestRescanMatchesScan(t *testing.T) {
	dir := t.TempDir()
	if _, err := gen.Package(dir, gen.Config{Adoptions: 3, Chapters: 3, TuningKeys: 30}); err != nil {
		t.Fatal(err)
	}
	// Each text is edited under each name; each file, under its own.
	type text struct {
		names   []string
		content string
	}
	names := []string{"a.md", "05-build-plan.md", "a.json"}
	var starts []text
	for _, s := range []string{strings.Join(prefilterTexts, "\n"), strings.Join(prefilterTexts, "\n\n"), strings.Join(prefilterTexts, " "), ""} {
		starts = append(starts, text{names, s})
	}
	eachFile(t, []string{dir, "testdata", "../../testdata/demo"}, func(name string, content []byte) {
		if IsText(name) && len(content) < 16<<10 {
			starts = append(starts, text{[]string{name}, string(content)})
		}
	})
	if len(starts) < 20 {
		t.Fatalf("only %d texts to edit", len(starts))
	}
	edits := 30
	if testing.Short() {
		edits = 15
	}
	r := rand.New(rand.NewPCG(26, 1))
	compared, rescanned := 0, 0
	for k, start := range starts {
		for _, name := range start.names {
			content := []byte(start.content)
			s := ScanText(name, content)
			for range edits {
				next := edit(r, content)
				got, want := s.Rescan(name, content, next), ScanText(name, next)
				if !sameScan(got, want) {
					t.Fatalf("text %d as %s: after an edit from\n%q\nto\n%q\nthe rescan found %+v, the scan %+v", k, name, content, next, got, want)
				}
				if len(want.Notices) > 0 {
					rescanned++
				}
				compared++
				content, s = next, got
			}
		}
	}
	if rescanned < compared/4 {
		t.Errorf("only %d of %d edits left a notice to compare", rescanned, compared)
	}
}

// FuzzRescan: Rescan finds what Scan finds after any one edit.
func FuzzRescan(f *testing.F) {
	for _, text := range prefilterTexts[:20] {
		f.Add("a.md", "para\n"+text+"\nmore\n", 5, 0, "```\n")
		f.Add("a.json", text+"\n"+text, len(text)/2, 3, "\n")
	}
	f.Fuzz(func(t *testing.T, name, text string, at, cut int, piece string) {
		if at < 0 || at > len(text) || cut < 0 || at+cut > len(text) {
			return
		}
		old := []byte(text)
		next := []byte(text[:at] + piece + text[at+cut:])
		got, want := ScanText(name, old).Rescan(name, old, next), ScanText(name, next)
		if !sameScan(got, want) {
			t.Fatalf("the rescan found %+v, the scan %+v", got, want)
		}
	})
}

// sameScan reports whether two scans found the same notices in the same
// order, and as many of them line by line.
func sameScan(a, b Scanned) bool {
	return a.lineNotices == b.lineNotices && len(a.Notices) == len(b.Notices) &&
		(len(a.Notices) == 0 || reflect.DeepEqual(a.Notices, b.Notices))
}
