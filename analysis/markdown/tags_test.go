package markdown

import (
	"math/rand"
	"strings"
	"testing"
)

func TestTagScopes(t *testing.T) {
	src := strings.Join([]string{
		"# Fixed part",                    // 0
		"",                                // 1
		"> DELEGATED: pick the sound",     // 2
		"> more delegated",                // 3
		">",                               // 4
		"> second paragraph",              // 5
		"> > PERSONALIZATION: speed rest", // 6
		"> > inner",                       // 7
		"> back to outer",                 // 8
		"",                                // 9
		"plain",                           // 10
		"```",                             // 11
		"> DELEGATED: example only",       // 12
		"```",                             // 13
		"  >  RULESET: act-two (initial)", // 14
		"lazy line ends it",               // 15
		"> PERSONALIZATION:",              // 16
	}, "\n")
	d := Parse([]byte(src))
	type want struct {
		kind      TagKind
		line, end int
		depth     int
		id        string
	}
	wants := []want{
		{Delegated, 2, 9, 1, ""},
		{Personalization, 6, 8, 2, "speed"},
		{Ruleset, 14, 15, 1, "act-two"},
		{Personalization, 16, 17, 1, ""},
	}
	if len(d.Tags) != len(wants) {
		t.Fatalf("tags = %+v", d.Tags)
	}
	for i, w := range wants {
		g := d.Tags[i]
		if g.Kind != w.kind || g.Line != w.line || g.EndLine != w.end || g.Depth != w.depth || g.ID != w.id {
			t.Errorf("tag %d = %+v, want %+v", i, g, w)
		}
		if w.id != "" && at(d, g.IDSpan) != w.id {
			t.Errorf("tag %d IDSpan covers %q", i, at(d, g.IDSpan))
		}
	}
	if !d.Tags[2].Initial || d.Tags[1].Text != "speed rest" || at(d, d.Tags[0].WordSpan) != "DELEGATED:" {
		t.Errorf("tag details: %+v", d.Tags)
	}
	lines := map[int]Authority{0: Fixed, 2: DelegatedAuthority, 4: DelegatedAuthority, 6: PersonalizationAuthority,
		7: PersonalizationAuthority, 8: DelegatedAuthority, 9: Fixed, 12: Fixed, 14: Fixed, 16: PersonalizationAuthority}
	for line, want := range lines {
		if got := d.AuthorityAt(line); got != want {
			t.Errorf("AuthorityAt(%d) = %v, want %v", line, got, want)
		}
	}
	if r := d.RulesetAt(14); r == nil || r.ID != "act-two" {
		t.Errorf("RulesetAt(14) = %+v", r)
	}
	var codes []string
	for _, f := range d.Findings {
		codes = append(codes, f.Code)
	}
	if strings.Join(codes, ",") != "PERSONALIZATION_TAG_DANGLING" {
		t.Errorf("findings = %v", d.Findings)
	}
}

func TestTagOverlap(t *testing.T) {
	tests := []struct {
		name, src string
		codes     string
		line      int // line of the finding's tag
	}{
		{"same depth", "> DELEGATED: a\n> text\n> PERSONALIZATION: p rest\n", "AUTHORITY_TAG_OVERLAP", 2},
		{"after bare continuation", "> DELEGATED: a\n>\n> DELEGATED: b\n", "AUTHORITY_TAG_OVERLAP", 2},
		{"nested is fine", "> DELEGATED: a\n> > PERSONALIZATION: p\n> > x\n", "", 0},
		{"separate quotes", "> DELEGATED: a\n\n> DELEGATED: b\n", "", 0},
		{"inner quotes apart", "> DELEGATED: a\n> > DELEGATED: b\n>\n> > DELEGATED: c\n", "", 0},
		{"inner quote overlap", "> > DELEGATED: b\n> > DELEGATED: c\n", "AUTHORITY_TAG_OVERLAP", 1},
		{"ruleset and authority", "> RULESET: one\n> DELEGATED: a\n", "", 0},
		{"two rulesets", "> RULESET: one\n> RULESET: two\n", "RULESET_TAG_OVERLAP", 1},
		{"fenced tag ignored", "> DELEGATED: a\n> ```\n> DELEGATED: b\n> ```\n", "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Parse([]byte(tt.src))
			var codes []string
			for _, f := range d.Findings {
				codes = append(codes, f.Code)
			}
			if strings.Join(codes, ",") != tt.codes {
				t.Fatalf("findings = %v, want %q", d.Findings, tt.codes)
			}
			if tt.codes != "" {
				f := d.Findings[0]
				if got := d.Lines.Position(f.Span.Start).Line; got != tt.line {
					t.Errorf("finding on line %d, want %d", got, tt.line)
				}
				if len(f.Related) != 1 || d.Lines.Position(f.Related[0].Span.Start).Line >= tt.line {
					t.Errorf("related = %+v", f.Related)
				}
			}
		})
	}
}

func TestSectionFixed(t *testing.T) {
	src := "# A\n\nfixed\n\n## B\n\n> DELEGATED: x\n\n## C\n\n### C1\n\n> > PERSONALIZATION: p\n\n# D\n\n> RULESET: r\n\n" +
		"# E\n> DELEGATED: under the heading\n\n# F\n```\n> DELEGATED: in a fence\n```\n"
	d := Parse([]byte(src))
	want := map[string]bool{"A": false, "B": false, "C": false, "C1": false, "D": true, "E": false, "F": true}
	for i, h := range d.Headings {
		fixed, tag := d.SectionFixed(i)
		if fixed != want[h.Text(d)] || fixed != (tag == nil) {
			t.Errorf("SectionFixed(%s) = %v, %+v; want %v", h.Text(d), fixed, tag, want[h.Text(d)])
		}
	}
	if len(d.Headings) != len(want) {
		t.Fatalf("headings = %+v", d.Headings)
	}
	if fixed, _ := d.SectionFixed(99); fixed {
		t.Error("SectionFixed out of range reports fixed")
	}
}

func TestParseNeverPanics(t *testing.T) {
	pieces := []string{"#", "# ", "##", "=", "-", "---", "\n", "\r\n", "\r", ">", "> ", "`", "``", "```", "~~~", "[", "]", "(", ")",
		"<", ">", "!", "\"", "“", "”", "*", "_", "\\", "    ", "\t", "DELEGATED:", "PERSONALIZATION:", "RULESET:", "\x00",
		"\xff", "\xEF\xBB\xBF", "a", "é", "ref", ":", "https://x", "&amp;", "1.", "- ", "<a href=\"x\">", "|", "[x]: y"}
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 5000; i++ {
		var b strings.Builder
		for j := r.Intn(40); j >= 0; j-- {
			b.WriteString(pieces[r.Intn(len(pieces))])
		}
		checkDoc(t, []byte(b.String()))
	}
	big := strings.Repeat("> DELEGATED: x `a.b` [l](m.md) “q”\n", 20000)
	checkDoc(t, []byte(big))
}

// checkDoc parses data and checks that every span lies inside it.
func checkDoc(t *testing.T, data []byte) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("Parse(%q) panicked: %v", data, r)
		}
	}()
	d := Parse(data)
	var spans []spanT
	for _, h := range d.Headings {
		spans = append(spans, h.Span(), h.TextSpan(), spanT{Start: h.Span().Start, End: h.SectionEnd()})
	}
	for _, c := range d.CodeSpans {
		spans = append(spans, c.Span(), c.TextSpan(), c.Block())
	}
	for _, l := range d.Links {
		spans = append(spans, l.Span(), l.DestSpan(), l.TextSpan(), l.LabelSpan())
	}
	for _, q := range d.Quotes {
		spans = append(spans, q.Span, q.TextSpan, q.Block)
	}
	for _, g := range d.Tags {
		spans = append(spans, g.Span, g.WordSpan, g.IDSpan, g.TextSpan)
	}
	for _, s := range spans {
		if s.Start < 0 || s.End < s.Start || s.End > len(data) {
			t.Fatalf("Parse(%q): bad span %+v", data, s)
		}
	}
	for i := range d.Headings {
		d.SectionFixed(i)
		d.SectionText(i, 3)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte("# A\n\n> DELEGATED: x\n> > PERSONALIZATION: p\n\n`a.b` [t](u.md#v) “q”\n"))
	f.Add([]byte("\xEF\xBB\xBFSub\r\n===\r\n[r]: <d>\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) { checkDoc(t, data) })
}
