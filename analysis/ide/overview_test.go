package ide

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gddls/gddls/analysis"
	"github.com/gddls/gddls/analysis/analysistest"
	"github.com/gddls/gddls/contracts/source"
)

// TestFantasyBlockFix inserts the fantasy block skeleton into overviews of
// every shape and requires a package without findings afterwards: the
// skeleton itself is a valid block, in the file's line endings.
func TestFantasyBlockFix(t *testing.T) {
	for _, tc := range []struct{ name, overview, want string }{
		{"title and blank line", "# Lantern\n\nA walk.\n", "# Lantern\n\n@\nA walk.\n"},
		{"title and text", "# Lantern\nA walk.\n", "# Lantern\n\n@\nA walk.\n"},
		{"no title", "A walk.\n", "@\nA walk.\n"},
		{"title only", "# Lantern", "# Lantern\n\n@"},
		{"crlf", "# Lantern\r\n\r\nA walk.\r\n", "# Lantern\r\n\r\n@\r\nA walk.\r\n"},
		{"bom", "\ufeff# Lantern\n\nA walk.\n", "\ufeff# Lantern\n\n@\nA walk.\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{
				"manifest.json":    `{ "opengdd": "0.9", "id": "lantern", "version": "0.1.0", "title": "Lantern", "designer": { "name": "t" }, "target": { "platform": "web-2d", "genre": "puzzle" } }`,
				"tuning.json":      `{ "values": {} }`,
				"01-overview.md":   tc.overview,
				"02-mechanics.md":  "# Mechanics\n\nA lantern burns.\n",
				"05-build-plan.md": "# Build plan\n\n## Stage 1: the lantern\n\nBuild the lantern.\n",
			}
			dir := analysistest.WriteFiles(t, "", files)
			path := filepath.Join(dir, "01-overview.md")
			s := analysis.Load([]string{dir}, analysis.Options{})
			acts := CodeActions(s, path, source.Span{End: len(tc.overview)})
			if len(acts) != 1 || acts[0].Title != "Insert a fantasy block" {
				t.Fatalf("actions %+v; findings %v", acts, s.AllDiagnostics())
			}
			nl := newline([]byte(tc.overview))
			want := strings.Replace(tc.want, "@", strings.Join(fantasySkeleton, nl)+nl, 1)
			got := applyEdits(t, tc.overview, acts[0].Edits[path])
			if got != want {
				t.Fatalf("fixed overview %q, want %q", got, want)
			}
			files["01-overview.md"] = got
			if ds := analysis.Load([]string{analysistest.WriteFiles(t, "", files)}, analysis.Options{}).AllDiagnostics(); len(ds) != 0 {
				t.Errorf("findings after the fix: %v", ds)
			}
		})
	}
}
