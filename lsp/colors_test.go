package lsp

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gddls/gddls/analysis/analysistest"
)

// TestColorSwatches asks for the color swatches of direction.json and for
// the presentation of a picked color, which keeps the letter case of the
// string it replaces.
func TestColorSwatches(t *testing.T) {
	const direction = `{
  "palette": { "board": [{ "ink": "#2B2A26" }, "#ffffff", { "bad": "#12345" }] }
}
`
	root := analysistest.WriteFiles(t, "", map[string][]byte{
		"manifest.json":  []byte(`{"opengdd": "0.9", "id": "marks", "version": "0.1.0", "title": "Marks", "designer": {"name": "T"}, "target": {"platform": "web-2d", "genre": "puzzle"}}`),
		"tuning.json":    []byte(`{"values": {}}`),
		"direction.json": []byte(direction),
	})
	path := filepath.Join(root, "direction.json")
	c := start(t, nil)
	res := c.initialize(root, nil, nil)
	if !strings.Contains(string(res), `"colorProvider":true`) {
		t.Errorf("the capabilities lack colorProvider")
	}
	doc := map[string]any{"uri": fileURI(path)}
	var colors []struct {
		Range rangeJSON
		Color struct{ Red, Green, Blue, Alpha float64 }
	}
	c.result("textDocument/documentColor", map[string]any{"textDocument": doc}, &colors)
	if len(colors) != 2 {
		t.Fatalf("documentColor = %+v, want the two valid colors", colors)
	}
	ink := posOf(t, path, `"#2B2A26"`, 0)
	if r := colors[0].Range; r.Start.Line != ink["line"] || r.Start.Character != ink["character"] || r.End.Character != ink["character"]+len(`"#2B2A26"`) {
		t.Errorf("the first swatch is at %+v, want the string \"#2B2A26\" at %v", r, ink)
	}
	if c0 := colors[0].Color; math.Abs(c0.Red-0x2B/255.0) > 1e-9 || math.Abs(c0.Green-0x2A/255.0) > 1e-9 || math.Abs(c0.Blue-0x26/255.0) > 1e-9 || c0.Alpha != 1 {
		t.Errorf("the first swatch is %+v, want #2B2A26", c0)
	}
	if c1 := colors[1].Color; c1.Red != 1 || c1.Green != 1 || c1.Blue != 1 {
		t.Errorf("the second swatch is %+v, want white", c1)
	}

	var pres []struct {
		Label    string
		TextEdit struct {
			Range   rangeJSON
			NewText string
		}
	}
	c.result("textDocument/colorPresentation", map[string]any{
		"textDocument": doc, "range": colors[1].Range,
		"color": map[string]any{"red": 1, "green": 0.5, "blue": 0, "alpha": 1},
	}, &pres)
	if len(pres) != 1 || pres[0].Label != "#ff8000" || pres[0].TextEdit.NewText != `"#ff8000"` || pres[0].TextEdit.Range != colors[1].Range {
		t.Errorf("colorPresentation over \"#ffffff\" = %+v, want \"#ff8000\" over the same range", pres)
	}
	c.result("textDocument/colorPresentation", map[string]any{
		"textDocument": doc, "range": colors[0].Range,
		"color": map[string]any{"red": 0, "green": 0, "blue": 1, "alpha": 1},
	}, &pres)
	if len(pres) != 1 || pres[0].Label != "#0000FF" {
		t.Errorf("colorPresentation over \"#2B2A26\" = %+v, want #0000FF", pres)
	}
	c.shutdown()
}
