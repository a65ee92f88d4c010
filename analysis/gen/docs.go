package gen

import (
	"fmt"
	"math/rand/v2"
	"path"
	"strings"
)

// DocsConfig sizes the generated Markdown tree. The zero value of a field
// means its default; DefaultDocsConfig returns 1,000 files with about
// 10,000 links.
type DocsConfig struct {
	// Areas, Topics and Files give the tree's shape: Areas folders, each
	// holding Topics folders of Files documents (default 10×10×10).
	Areas, Topics, Files int
	// Links is the number of links in each document (default 30).
	Links int
	// Sections is the number of headings below the title of each document
	// (default 16), every third one with a fenced code block.
	Sections int
	// Seed varies the choices; the same seed writes the same bytes.
	Seed uint64
	// Clean, when set, plants no broken link.
	Clean bool
}

// DefaultDocsConfig returns a tree of 1,000 documents of 16 sections and
// 30 links each, as dense as real documentation: headings every few
// paragraphs, links inline, by reference and in lists, fenced code.
func DefaultDocsConfig() DocsConfig {
	return DocsConfig{Areas: 10, Topics: 10, Files: 10, Links: 30, Sections: 16, Seed: 1}
}

// DocsReport describes what DocsTree wrote.
type DocsReport struct {
	// Files counts the Markdown documents, Links their links and Headings
	// their headings.
	Files, Links, Headings int
	// Expected lists the planted broken links, by code and file.
	Expected []Expected
}

// DocsTree writes a Markdown-only documentation tree into dir: documents in
// area/topic folders linking to siblings, to other folders through "../",
// to anchors of other documents and to their own headings. A few links are
// broken on purpose (one missing file and one missing anchor in each of the
// first three areas) and reported.
func DocsTree(dir string, cfg DocsConfig) (*DocsReport, error) {
	cfg = cfg.withDefaults()
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x646f6373))
	w := &writer{dir: dir, files: map[string][]byte{}}
	rep := &DocsReport{}
	docPath := func(a, t, f int) string {
		return fmt.Sprintf("area-%s/topic-%s/%s.md", word(a), word(t), word(f+40))
	}
	docsSections := cfg.Sections
	heading := func(a, t, f, s int) string {
		return title(word(((a*cfg.Topics+t)*cfg.Files+f)*docsSections+s+300)) + " notes"
	}
	anchor := func(h string) string { return strings.ToLower(strings.ReplaceAll(h, " ", "-")) }
	for a := 0; a < cfg.Areas; a++ {
		for t := 0; t < cfg.Topics; t++ {
			for f := 0; f < cfg.Files; f++ {
				self := docPath(a, t, f)
				var b strings.Builder
				fmt.Fprintf(&b, "# %s\n\nThis page belongs to area %s, topic %s.\n\n", title(word(f+40)), word(a), word(t))
				rep.Headings++
				links := make([]string, 0, cfg.Links)
				for l := 0; l < cfg.Links; l++ {
					ta, tt, tf := a, t, rng.IntN(cfg.Files)
					switch l % 4 {
					case 1:
						tt = rng.IntN(cfg.Topics)
					case 2:
						ta, tt = rng.IntN(cfg.Areas), rng.IntN(cfg.Topics)
					}
					rel := relPath(path.Dir(self), docPath(ta, tt, tf))
					target := ""
					switch l % 3 {
					case 0:
						target = rel
					case 1:
						target = rel + "#" + anchor(heading(ta, tt, tf, rng.IntN(docsSections)))
					default:
						target = "#" + anchor(heading(a, t, f, rng.IntN(docsSections)))
					}
					if !cfg.Clean && t == 0 && f == 0 && a < 3 {
						switch l {
						case 0:
							target = "missing-" + word(a) + ".md"
							rep.Expected = appendExpected(rep.Expected, "DOC_LINK_FILE", self)
						case 1:
							target = rel + "#no-such-heading"
							rep.Expected = appendExpected(rep.Expected, "DOC_LINK_ANCHOR", self)
						}
					}
					links = append(links, target)
				}
				rep.Links += len(links)
				per := (len(links) + docsSections - 1) / docsSections
				var refs []string // reference definitions, written at the end
				for s := 0; s < docsSections; s++ {
					level := "###"
					if s%3 == 0 {
						level = "##"
					}
					fmt.Fprintf(&b, "%s %s\n\n", level, heading(a, t, f, s))
					rep.Headings++
					b.WriteString("Some prose about this part of the system, with `inline code` and *emphasis*.")
					for i, l := range links[min(s*per, len(links)):min((s+1)*per, len(links))] {
						switch i % 3 {
						case 0:
							fmt.Fprintf(&b, " See [the %s page](%s).", word(len(l)), l)
						case 1:
							ref := fmt.Sprintf("r%d-%d", s, i)
							fmt.Fprintf(&b, "\n\n- Read [the %s notes][%s] first.", word(len(l)+1), ref)
							refs = append(refs, fmt.Sprintf("[%s]: %s", ref, l))
						default:
							fmt.Fprintf(&b, "\n- Then [**%s**](%s) explains the rest.", word(len(l)+2), l)
						}
					}
					b.WriteString("\n\n")
					if s%3 == 1 {
						fmt.Fprintf(&b, "```go\n// # not a heading, and [not a link](nowhere.md)\nfunc %s(n int) int {\n\treturn n * %d\n}\n```\n\n", word(s+f), s+2)
					}
					if s%4 == 2 {
						b.WriteString("| Option | Meaning |\n| --- | --- |\n| `fast` | Skips the check. |\n| `full` | Checks everything. |\n\n")
					}
				}
				if len(refs) > 0 {
					b.WriteString(strings.Join(refs, "\n") + "\n")
				}
				w.add(self, []byte(b.String()))
				rep.Files++
			}
		}
	}
	if err := w.flush(); err != nil {
		return nil, err
	}
	return rep, nil
}

// withDefaults returns c with every zero size replaced by its default.
func (c DocsConfig) withDefaults() DocsConfig {
	d := DefaultDocsConfig()
	orDefault(&c.Areas, d.Areas)
	orDefault(&c.Topics, d.Topics)
	orDefault(&c.Files, d.Files)
	orDefault(&c.Links, d.Links)
	orDefault(&c.Sections, d.Sections)
	return c
}

func appendExpected(list []Expected, code, file string) []Expected {
	for i, e := range list {
		if e.Code == code && e.File == file {
			list[i].Count++
			return list
		}
	}
	return append(list, Expected{Code: code, File: file, Count: 1})
}

// relPath returns the slash path of target relative to the folder from,
// both relative to the same root.
func relPath(from, target string) string {
	fs := strings.Split(from, "/")
	ts := strings.Split(target, "/")
	i := 0
	for i < len(fs) && i < len(ts)-1 && fs[i] == ts[i] {
		i++
	}
	return strings.Repeat("../", len(fs)-i) + strings.Join(ts[i:], "/")
}
