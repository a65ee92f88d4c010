package migrate

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/gddls/gddls/analysis/clocks"
	"github.com/gddls/gddls/analysis/direction"
	"github.com/gddls/gddls/analysis/fantasy"
	"github.com/gddls/gddls/analysis/markdown"
	"github.com/gddls/gddls/contracts/jsonsrc"
)

// chapterName is the name of a chapter at the package root.
var chapterName = regexp.MustCompile(`^[0-9]{2}-[^/]+\.md$`)

// context is what the chapters' rewrites resolve against: the package as
// the migration leaves its JSON files.
type context struct {
	keys  map[string]bool // tuning keys of values and open
	dir   *direction.File // nil without a readable direction.json
	modes bool            // clocks.json declares at least one mode
}

// resolveContext reads the migrated JSON files.
func (r *run) resolveContext() *context {
	c := &context{keys: map[string]bool{}}
	if v, errs := jsonsrc.Parse(r.cur["tuning.json"]); len(errs) == 0 && v != nil {
		for _, t := range []string{"values", "open"} {
			for _, m := range v.Get(t).LastMembers() {
				c.keys[m.Key] = true
			}
		}
	}
	if data, ok := r.cur["direction.json"]; ok {
		if v, errs := jsonsrc.Parse(data); len(errs) == 0 && v != nil {
			c.dir = direction.Parse("direction.json", v)
		}
	}
	if v, errs := jsonsrc.Parse(r.cur["clocks.json"]); len(errs) == 0 && v != nil {
		for _, m := range v.LastMembers() {
			if m.Value != nil && m.Value.Get("modes") != nil && len(m.Value.Get("modes").Members()) > 0 {
				c.modes = true
			}
		}
	}
	return c
}

// entry reports a direction entry.
func (c *context) entry(section, key string) bool {
	return c.dir != nil && c.dir.Entry(section, key) != nil
}

// palette reports a palette or color address that resolves.
func (c *context) palette(addr string) bool {
	if c.dir == nil {
		return false
	}
	p, col := c.dir.Resolve(addr)
	return p != nil || col != nil
}

// chapters rewrites the retired forms of every chapter.
func (r *run) chapters() {
	c := r.resolveContext()
	for _, file := range sortedKeys(r.cur) {
		if !chapterName.MatchString(file) {
			continue
		}
		r.chapter(file, c)
	}
}

// pendingMD is an item of a chapter placed by its old offset.
type pendingMD struct {
	item Item
	off  int
}

// applyMD writes the span edits of a Markdown file and records its items
// at their lines in the rewritten text; it returns that text.
func (r *run) applyMD(file string, data []byte, edits []edit, items []pendingMD) []byte {
	out := applyEdits(data, edits)
	r.setEdits(file, out, edits)
	for _, p := range items {
		it := p.item
		it.Line = lineOf(out, mapOffset(edits, p.off))
		r.res.Items = append(r.res.Items, it)
	}
	return out
}

// chapter rewrites one chapter.
func (r *run) chapter(file string, c *context) {
	data := r.cur[file]
	doc := markdown.Parse(data)
	var edits []edit
	var items []pendingMD
	change := func(code string, off int, what string) { r.change(code, file, lineOf(data, off), what) }
	person := func(code string, off int, need, why string, review bool) {
		items = append(items, pendingMD{Item{Code: code, File: file, Need: need, Why: why, Review: review}, off})
	}
	// Inline-code tokens.
	for _, cs := range doc.CodeSpans {
		tok := cs.Text(doc)
		repl, code, need := "", "", ""
		switch {
		case strings.HasPrefix(tok, "descriptor:") && direction.RetiredDescriptor(tok) != "":
			code = "PROSE_REFERENCE_DANGLING"
			kind, name, _ := strings.Cut(strings.TrimPrefix(tok, "descriptor:"), ":")
			if kind == "mood" && c.entry("mood", name) {
				repl = "mood." + name
			} else if kind == "mood" {
				need = fmt.Sprintf("cite the mood as `mood.<name>`; direction.json declares no mood %q", name)
			} else {
				need = "cite a mood as `mood.<name>`, or write the reference as prose: descriptors no longer exist"
			}
		case strings.HasPrefix(tok, "state:") && clocks.RetiredState(tok) != "":
			code = "PROSE_REFERENCE_DANGLING"
			if name, ok := strings.CutPrefix(tok, "state:number:"); ok && clocks.IsAddress("runtime."+name) {
				repl = "runtime." + name
			} else {
				need = "name the value with a `runtime.<name>` address and state the condition in a sentence"
			}
		case direction.RetiredConstraint(tok) != "":
			code = "PROSE_CITATION_DANGLING"
			now := direction.RetiredConstraint(tok)
			section, key, _ := strings.Cut(now, ".")
			if c.entry(section, key) {
				repl = now
			} else {
				need = fmt.Sprintf("cite the promise by its new address; direction.json declares no %s", now)
			}
		case strings.HasPrefix(tok, "palette:") && len(tok) > len("palette:"):
			code = "PROSE_REFERENCE_DANGLING"
			if addr := "palette." + strings.TrimPrefix(tok, "palette:"); c.palette(addr) {
				repl = addr
			} else {
				need = fmt.Sprintf("cite the palette or color by its dotted address; %s does not resolve in direction.json", addr)
			}
		case strings.HasPrefix(tok, "tuning:") && len(tok) > len("tuning:"):
			code = "PROSE_REFERENCE_DANGLING"
			if key := strings.TrimPrefix(tok, "tuning:"); c.keys[key] {
				repl = key
			} else {
				need = fmt.Sprintf("cite the number by its tuning key; tuning.json has no key %q", key)
			}
		case strings.HasPrefix(tok, "collections") && strings.Contains(tok, ":") && !strings.ContainsAny(tok, "<>"):
			code = "PROSE_REFERENCE_DANGLING"
			need = "cite the collection by its dotted address and state the count in prose (or store it under a tuning key when something else needs it)"
		default:
			continue
		}
		if repl != "" {
			edits = append(edits, edit{cs.TextSpan().Start, cs.TextSpan().End, repl})
			change(code, cs.Span().Start, fmt.Sprintf("`%s` became `%s`", tok, repl))
			continue
		}
		// Typed colon tokens in chapter prose are prose to the check:
		// a review item, not an error.
		review := strings.HasPrefix(tok, "palette:") || strings.HasPrefix(tok, "tuning:")
		person(code, cs.Span().Start, need, fmt.Sprintf("`%s` is a retired reference form, and the migration does not guess what it should cite", tok), review)
	}
	// The fantasy block's typed references.
	if file == "01-overview.md" {
		b := fantasy.Read(doc)
		for _, l := range b.Fantasy {
			text := l.Text
			for _, r := range fantasy.TypedReferences(text) {
				prefix, i := r.Prefix, r.Start
				if prefix != "tuning:" && prefix != "palette:" {
					continue
				}
				tok := strings.TrimRight(text[i:r.End], ".,;:!?)")
				if tok == prefix || strings.Contains(tok, "`") {
					continue
				}
				rest := strings.TrimPrefix(tok, prefix)
				addr, ok := rest, c.keys[rest]
				if prefix == "palette:" {
					addr = "palette." + rest
					ok = c.palette(addr)
				}
				off := l.Span.Start + i
				if !ok {
					person("FANTASY_REFERENCE", off, fmt.Sprintf("say %q in plain words", tok), "the reference does not resolve, so the migration does not write it as a dotted address", false)
					continue
				}
				edits = append(edits, edit{off, off + len(tok), addr})
				change("FANTASY_REFERENCE", off, fmt.Sprintf("%q became the dotted address %s", tok, addr))
			}
		}
	}
	// Tags: > RULESET: all removed (its quote unwrapped), > COLLECTION:
	// removed, and the text after > DELEGATED: reviewed.
	for _, t := range doc.Tags {
		switch {
		case t.Kind == markdown.Ruleset && t.Text == "all":
			ls, le := lineBounds(data, t.Span.Start)
			if t.EndLine == t.Line+1 {
				le = dropBlankAfter(data, ls, le)
			}
			edits = append(edits, edit{ls, le, ""})
			if t.Depth == 1 {
				for line := t.Line + 1; line < t.EndLine; line++ {
					s := doc.Lines.LineStart(line)
					if q := unquote(data, s); q > s {
						edits = append(edits, edit{s, q, ""})
					}
				}
			}
			change("RULESET_TAG_SHAPE", t.Span.Start, "`> RULESET: all` removed; text outside every ruleset already holds in all of them")
		case t.Kind == markdown.Delegated && strings.TrimSpace(t.Text) != "" && r.older:
			person("MIGRATE_MEANING_CHANGED", t.Span.Start, "read the text after `DELEGATED:` on this line: it is now part of the delegated passage, not a label",
				"earlier versions read it as a label; the migration cannot tell which reading the designer meant", true)
		}
	}
	for _, f := range doc.Findings {
		if f.Code == "COLLECTION_TAG_RETIRED" {
			ls, le := lineBounds(data, f.Span.Start)
			le = dropBlankAfter(data, ls, le)
			edits = append(edits, edit{ls, le, ""})
			change("COLLECTION_TAG_RETIRED", f.Span.Start, "the `> COLLECTION:` tag line removed; the folder declares the collection")
		}
	}
	// Mode tags [ALL] in headings.
	if c.modes {
		for _, t := range clocks.ModeTags(doc) {
			if !t.IsAll() {
				continue
			}
			s, e := t.Span.Start, t.Span.End
			if e < len(data) && data[e] == ' ' {
				e++
			} else if s > 0 && data[s-1] == ' ' {
				s--
			}
			edits = append(edits, edit{s, e, ""})
			change("MODE_TAG_DANGLING", t.Span.Start, fmt.Sprintf("the mode tag [%s] removed; a heading without a mode tag holds in every mode", t.Word))
		}
	}
	// Direction fences become delegated prose.
	for _, span := range direction.RetiredFences(data) {
		var block *markdown.CodeBlock
		for i := range doc.CodeBlocks {
			if b := &doc.CodeBlocks[i]; b.Fenced && b.Span.Start <= span.Start && span.Start < b.Span.End {
				block = b
				break
			}
		}
		if block == nil || inList(data, span.Start) {
			person("DIRECTION_FENCE_RETIRED", span.Start, "turn this fence into a `> DELEGATED:` passage of prose and move its structured entries into direction.json",
				"the fence is not a plain block at the start of a line, so the migration does not rewrite it", false)
			continue
		}
		content := strings.TrimRight(string(data[block.Content.Start:block.Content.End]), "\r\n")
		var b strings.Builder
		b.WriteString("> DELEGATED:")
		for _, line := range strings.Split(content, "\n") {
			line = strings.TrimRight(line, "\r \t")
			if line == "" {
				b.WriteString("\n>")
			} else {
				b.WriteString("\n> " + line)
			}
		}
		edits = append(edits, edit{block.Span.Start, block.Span.End, b.String()})
		change("DIRECTION_FENCE_RETIRED", span.Start, "the direction fence became a delegated passage of prose")
		person("DIRECTION_FENCE_RETIRED", span.Start, "reword the delegated passage as sentences and move any structured entry it held into direction.json",
			"the fence's lines were kept word for word; the migration does not rewrite them into prose or guess entries", true)
	}
	if len(edits) == 0 && len(items) == 0 {
		return
	}
	r.applyMD(file, data, edits, items)
}

// dropBlankAfter extends the removal of the line [ls, le) over the blank
// line after it when the line before is blank too (or there is none), so
// that removing a tag line leaves one blank line, not two.
func dropBlankAfter(data []byte, ls, le int) int {
	if le >= len(data) {
		return le
	}
	_, next := lineBounds(data, le)
	if strings.TrimSpace(string(data[le:next])) != "" {
		return le
	}
	if ls > 0 {
		ps, _ := lineBounds(data, ls-1)
		if strings.TrimSpace(string(data[ps:ls])) != "" {
			return le
		}
	}
	return next
}

// unquote returns the offset after the first `>` marker of the line at s
// and one space after it, or s when the line has no marker.
func unquote(data []byte, s int) int {
	i := s
	for i < len(data) && data[i] == ' ' && i-s < 3 {
		i++
	}
	if i >= len(data) || data[i] != '>' {
		return s
	}
	i++
	if i < len(data) && data[i] == ' ' {
		i++
	}
	return i
}

// inList reports a fence whose backticks do not open their line (in a
// list item, a quote or indented).
func inList(data []byte, off int) bool {
	ls, _ := lineBounds(data, off)
	return off != ls
}

// sortedKeys returns the keys of a file map in order.
func sortedKeys(m map[string][]byte) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sortStrings(out)
	return out
}
