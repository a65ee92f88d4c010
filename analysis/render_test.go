package analysis

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestRenderTests(t *testing.T) {
	cases := []struct {
		name     string
		withPack bool
		file     string
		edits    []string
		want     []string
		notWant  []string
		err      string
	}{
		{name: "clamp", withPack: true, file: "contracts/meter.json",
			want:    []string{"### AT meter/holds-at-top — meter holds at the top", "### AT meter/window-ends/poison", "### AT meter/window-ends/stun", "contracts.meter.maximum", "```test"},
			notWant: []string{"generate no test"}},
		{name: "refuse", withPack: true, file: "contracts/meter.json",
			edits:   []string{`"answers": { "overflow": "clamp" }`, `"answers": { "overflow": "refuse", "notice": "show" }`},
			want:    []string{"### AT meter/window-ends/poison", "### Templates that generate no test", "- `holds-at-top`: "},
			notWant: []string{"### AT meter/holds-at-top"}},
		{name: "promised", withPack: false, file: "contracts/meter.json",
			err: "meter is promised: there is no contracts/clamped-meter-1.pack.json, so no tests are generated"},
		{name: "not an adoption", withPack: true, file: "tuning.json", err: "not a contract adoption"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			files := fixFiles(t, tc.withPack)
			for i := 0; i+1 < len(tc.edits); i += 2 {
				fixEdit(t, files, tc.file, tc.edits[i], tc.edits[i+1])
			}
			dir, snap := fixWrite(t, files)
			md, err := snap.RenderTests(filepath.Join(dir, filepath.FromSlash(tc.file)))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !strings.Contains(md, w) {
					t.Errorf("output lacks %q:\n%s", w, md)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(md, w) {
					t.Errorf("output holds %q:\n%s", w, md)
				}
			}
		})
	}
}
