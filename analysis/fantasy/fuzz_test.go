package fantasy

import (
	"testing"
	"unicode/utf8"

	"github.com/gddls/gddls/analysis/markdown"
	"github.com/gddls/gddls/contracts/source"
)

// fantasyCodes are the codes Read may report.
var fantasyCodes = map[string]bool{
	"FANTASY_BLOCK": true, "FANTASY_POSITION": true, "FANTASY_SENTENCE": true, "FANTASY_LENGTH": true,
	"FANTASY_FEEL": true, "FANTASY_ANTI_REFERENCES": true, "FANTASY_LABEL_DUPLICATE": true, "FANTASY_REFERENCE": true,
}

// FuzzRead reads any bytes as an overview: no panic, every span inside the
// content, the budget the sum of the line counts, FANTASY_LENGTH exactly
// when it is exceeded, only §1a codes, and FANTASY_BLOCK alone when the
// block is missing.
func FuzzRead(f *testing.F) {
	for _, s := range []string{
		"# T\n\n```fantasy\nYou drive.\nFeel: fast, smooth, breathless.\nNOT: slow\n```\n",
		"```fantasy\n#neon `a.b` tuning:x 02-m.md#y\nFEEL：a、b\nnot:\n", "\ufeff<!--\n-->\n# T\n# U\n```fantasy\n```",
		"> ```fantasy\n> x\n", "````fantasy\nx\n```\n````\n", "```fantasy\n\xff\xfe\x00\r\nFeel:,,,\r\n```",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		b := Read(markdown.Parse(data))
		inside := func(what string, s source.Span) {
			if s.Start < 0 || s.End > len(data) || s.Start > s.End {
				t.Fatalf("%s span %v outside [0,%d]", what, s, len(data))
			}
		}
		used := 0
		for _, l := range b.Fantasy {
			inside("line", l.Span)
			if string(data[l.Span.Start:l.Span.End]) != l.Text || utf8.RuneCountInString(l.Text) != l.Count {
				t.Fatalf("line %q at %v, count %d", l.Text, l.Span, l.Count)
			}
			used += l.Count
		}
		if used != b.Used {
			t.Fatalf("used %d, lines hold %d", b.Used, used)
		}
		for _, ll := range []*LabelLine{b.Feel, b.Anti} {
			if ll == nil {
				continue
			}
			inside("label", ll.LabelSpan)
			inside("labelled line", ll.Span)
			for _, e := range ll.Entries {
				inside("entry", e.Span)
				if e.Text == "" || string(data[e.Span.Start:e.Span.End]) != e.Text {
					t.Fatalf("entry %q at %v", e.Text, e.Span)
				}
			}
		}
		long := false
		for _, fd := range b.Findings {
			inside(fd.Code, fd.Span)
			if !fantasyCodes[fd.Code] || fd.Severity != source.Error || fd.Message == "" {
				t.Fatalf("finding %v", fd)
			}
			if fd.Code == "FANTASY_BLOCK" && (b.Found && b.Close != (source.Span{}) || len(b.Findings) != 1) {
				t.Fatalf("FANTASY_BLOCK beside %v (found %v)", b.Findings, b.Found)
			}
			long = long || fd.Code == "FANTASY_LENGTH"
		}
		if long != (b.Used > Budget) {
			t.Fatalf("FANTASY_LENGTH %v with %d used", long, b.Used)
		}
	})
}
