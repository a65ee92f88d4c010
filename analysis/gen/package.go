package gen

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
)

// The planted errors of Package, at fixed positions so a reader can find
// them; each is skipped when the package is too small to hold it.
const (
	plantDangling  = 7  // adoption whose row cites a missing anchor
	plantChoice    = 11 // adoption whose row has a value outside its options
	plantForbidden = 13 // adoption whose answers a forbid rule rejects
	plantOpen      = 17 // adoption whose row cites an open number
)

// pkg is the state of one Package run.
type pkg struct {
	cfg    Config
	rng    *rand.Rand
	w      *writer
	rep    *Report
	keys   []string // values keys of tuning.json
	nums   []int    // their numbers
	open   []string // open keys
	chaps  []chapter
	defs   []definition
	hotRef string // the citation of the hot heading
}

type chapter struct {
	name    string
	anchors []string // anchors of the sections, in order
}

type definition struct {
	id   string
	part obj // the definition part, shared by every adoption of it
	pack []byte
}

// Package writes an OpenGDD package into dir (which it creates) and reports
// what it wrote, including the planted findings.
func Package(dir string, cfg Config) (*Report, error) {
	cfg = cfg.withDefaults()
	g := &pkg{
		cfg: cfg,
		rng: rand.New(rand.NewPCG(cfg.Seed, 0x6764646c73)),
		w:   &writer{dir: dir, files: map[string][]byte{}},
		rep: &Report{},
	}
	g.tuning()
	g.chapters()
	g.clocks()
	g.direction()
	g.collections()
	g.definitions()
	g.adoptions()
	g.manifest()
	g.personalization()
	sort.Slice(g.rep.Expected, func(i, j int) bool {
		a, b := g.rep.Expected[i], g.rep.Expected[j]
		if a.File != b.File {
			return a.File < b.File
		}
		return a.Code < b.Code
	})
	if err := g.w.flush(); err != nil {
		return nil, err
	}
	return g.rep, nil
}

func (g *pkg) expect(code, file string) {
	for i, e := range g.rep.Expected {
		if e.Code == code && e.File == file {
			g.rep.Expected[i].Count++
			return
		}
	}
	g.rep.Expected = append(g.rep.Expected, Expected{Code: code, File: file, Count: 1})
}

func (g *pkg) manifest() {
	g.w.add("manifest.json", manifestJSON("generated-benchmark", "Generated Benchmark Package"))
}

// manifestJSON is the manifest.json of a generated package with that id
// and title.
func manifestJSON(id, title string) []byte {
	return encode(obj{}.
		set("opengdd", "0.9").
		set("id", id).
		set("version", "1.0.0").
		set("title", title).
		set("designer", obj{}.set("name", "gddls generator")).
		set("target", obj{}.set("platform", "web-2d").set("genre", "systems sandbox")))
}

// personalization writes personalization.json: a choice question whose
// options set ranged values keys inside their ranges (the default among
// them, so the rules are evaluated over the package defaults too), a number
// question for each of the first open keys, and a text question.
func (g *pkg) personalization() {
	var options arr
	for o := 0; o < 3; o++ {
		sets := obj{}
		for j := 0; j < 3; j++ {
			i := 20 + 10*(3*o+j) // a ranged key, never the planted one
			if i >= len(g.keys) {
				break
			}
			sets = sets.set(g.keys[i], g.nums[i]+o)
		}
		opt := obj{}.set("id", fmt.Sprintf("pace-%d", o)).set("label", fmt.Sprintf("Pace %d", o))
		if len(sets) > 0 {
			opt = opt.set("sets", sets)
		}
		options = append(options, opt)
	}
	questions := arr{obj{}.set("id", "pace").set("prompt", "How fast is the game?").set("type", "choice").
		set("options", options).set("default", "pace-1")}
	for i, k := range g.open[:min(len(g.open), 5)] {
		questions = append(questions, obj{}.set("id", fmt.Sprintf("open-%d", i)).set("prompt", "Which number?").
			set("type", "number").set("default", 0.5).set("sets", k))
	}
	questions = append(questions, obj{}.set("id", "rival").set("prompt", "What is the rival called?").set("type", "text").set("default", "Vex"))
	g.w.add("personalization.json", encode(obj{}.set("questions", questions)))
}

// tuning writes tuning.json: numbered keys in values, some open numbers,
// ranges around every tenth value and comparison rules that hold.
func (g *pkg) tuning() {
	n := g.cfg.TuningKeys
	values, ranges, rules := obj{}, obj{}, obj{}
	for i := 0; i < n; i++ {
		k := fmt.Sprintf("s%02d.k_%04d", i/100, i)
		v := 1 + g.rng.IntN(999)
		g.keys = append(g.keys, k)
		g.nums = append(g.nums, v)
	}
	plantRange := -1
	if !g.cfg.Clean {
		plantRange = 10
	}
	for i, k := range g.keys {
		v := g.nums[i]
		if i == plantRange {
			v += 100 // outside the range written below
		}
		values = values.set(k, v)
		if i%10 == 0 {
			ranges = ranges.set(k, arr{max(g.nums[i]-5, 0), g.nums[i] + 5})
		}
	}
	if plantRange >= 0 {
		g.expect("TUNING_RANGE_VALUE", "tuning.json")
	}
	open := obj{}
	for i := 0; i < n/50; i++ {
		k := fmt.Sprintf("o%02d.k_%04d", i/10, i)
		g.open = append(g.open, k)
		open = open.set(k, 0.25)
	}
	for i := 0; i < n/100; i++ {
		a, b := (i*37+1)%n, (i*53+2)%n
		if a == plantRange || b == plantRange {
			a, b = a+1, b+1
		}
		rules = rules.set(fmt.Sprintf("rule-%03d", i), fmt.Sprintf("%s + %s >= %s", g.keys[a], g.keys[b], g.keys[a]))
	}
	content := encode(obj{}.set("values", values).set("open", open).set("ranges", ranges).set("rules", rules))
	g.w.add("tuning.json", content)
	g.rep.TuningKeys = len(g.keys) + len(g.open)
	needle := fmt.Sprintf("%q: ", g.keys[len(g.keys)/2])
	g.rep.TuningValue = Site{File: "tuning.json", Offset: bytes.Index(content, []byte(needle)) + len(needle)}
}

// key returns a ranged-or-not values key chosen by the generator, never the
// planted one.
func (g *pkg) key() string {
	i := g.rng.IntN(len(g.keys))
	if i == 10 {
		i = 11
	}
	return g.keys[i]
}

// anchorRef returns a citation of a random section of a random chapter.
func (g *pkg) anchorRef() string {
	c := g.chaps[g.rng.IntN(len(g.chaps))]
	return c.name + "#" + c.anchors[g.rng.IntN(len(c.anchors))]
}

// chapterNames returns the file names of n chapters: the five of the
// format, then numbered chapters of the designer's own.
func chapterNames(n int) []string {
	names := []string{"01-overview.md", "02-mechanics.md", "03-content.md", "04-presentation.md", "05-build-plan.md"}
	for c := 5; c < n; c++ {
		num := min(c+1, 99)
		names = append(names, fmt.Sprintf("%02d-%s.md", num, word(c)))
	}
	return names
}

func title(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// chapters decides the headings of every chapter first, then writes the
// prose (which cites adoptions, written later, by their predictable ids).
func (g *pkg) chapters() {
	names := chapterNames(g.cfg.Chapters)
	texts := make([][]string, len(names))
	for c, name := range names {
		ch := chapter{name: name}
		for s := 0; s < g.cfg.Sections; s++ {
			text := title(word(c*g.cfg.Sections+s+20)) + " rules"
			if c == 1 && s == 0 {
				text = "Core loop"
			}
			texts[c] = append(texts[c], text)
			ch.anchors = append(ch.anchors, strings.ToLower(strings.ReplaceAll(text, " ", "-")))
		}
		g.chaps = append(g.chaps, ch)
	}
	g.hotRef = "02-mechanics.md#core-loop"
	for c, ch := range g.chaps {
		var b strings.Builder
		fmt.Fprintf(&b, "# %s\n\n", title(strings.TrimSuffix(ch.name[3:], ".md")))
		g.rep.Headings++
		if c == 1 {
			b.WriteString("> RULESET: night-shift (initial)\n> At night every part runs at half speed.\n\n")
		}
		if c == 0 {
			b.WriteString("```fantasy\nYou run a sprawling machine of interlocking systems that never quite sleeps.\nEach part is simple; together they hum.\nFeel: tidy, busy, satisfying\nNOT: chaotic, punishing\n```\n\n")
		}
		for s, text := range texts[c] {
			level := "###"
			if s%4 == 0 {
				level = "##"
			}
			if c == 1 && s == 0 {
				g.rep.HotHeadingText = level + " " + text
				g.rep.HotHeading = Site{File: ch.name, Offset: b.Len()}
			}
			fmt.Fprintf(&b, "%s %s\n\n", level, text)
			g.rep.Headings++
			fmt.Fprintf(&b, "The %s part of the machine reads `%s` whenever it wakes, and the %s part waits for it.", word(s+3), g.key(), word(c+5))
			g.rep.ProseCitations++
			if s%5 == 2 && g.cfg.Adoptions > 0 {
				fmt.Fprintf(&b, " Its share comes from `contracts.adoption-%03d.base-amount`.", (c*7+s)%g.cfg.Adoptions)
				g.rep.ProseCitations++
			}
			if s%7 == 3 && g.cfg.TuningKeys >= 100 {
				fmt.Fprintf(&b, " The bound `rules.rule-%03d` keeps it honest.", (c+s)%(g.cfg.TuningKeys/100))
				g.rep.ProseCitations++
			}
			if c == 6 && s == 3 && !g.cfg.Clean {
				b.WriteString(" An older draft named `s99.k_9999` here.")
				g.expect("PROSE_CITATION_DANGLING", ch.name)
			}
			b.WriteString("\n\n")
			if s%9 == 4 {
				fmt.Fprintf(&b, "> RULESET: %s\n> The %s part rests in this ruleset.\n\n", []string{"night-shift", "day-shift"}[s%2], word(s+3))
			}
		}
		if ch.name == "05-build-plan.md" {
			g.acceptanceTests(&b)
		}
		g.w.add(ch.name, []byte(b.String()))
		g.rep.Chapters = append(g.rep.Chapters, ch.name)
	}
}

// acceptanceTests appends the build plan's tests (§6): scenario and
// general tests in turn, numbered with gaps as tests get deleted.
func (g *pkg) acceptanceTests(b *strings.Builder) {
	b.WriteString("## Acceptance tests\n\n")
	g.rep.Headings++
	claims := g.directionClaims()
	for i := 0; i < 12; i++ {
		fmt.Fprintf(b, "### AT-%d: The %s part keeps up\n\n```test\n", 1+i*2, word(i+30))
		g.rep.Headings++
		claim := ""
		if i < len(claims) {
			claim = fmt.Sprintf(",\n  \"direction_claims\": [\"%s\"]", strings.Join(claims[i], `", "`))
		}
		if i%2 == 0 {
			fmt.Fprintf(b, "{\n  \"type\": \"scenario\",\n  \"given\": \"the machine at rest with `%s` decided\",\n  \"when\": [\"the %s part wakes\"],\n  \"then\": \"it finishes before the next tick\",\n  \"diagnostics\": [\"tick-log\"]%s\n}\n", g.key(), word(i+30), claim)
		} else {
			fmt.Fprintf(b, "{\n  \"type\": \"general\",\n  \"scope\": \"every run of a thousand ticks\",\n  \"holds\": \"the %s part never waits twice in a row\",\n  \"seeds\": [\"seed-%d\"]%s\n}\n", word(i+30), i, claim)
		}
		b.WriteString("```\n\n")
	}
}

// definitions builds the definition parts and the one pack.
func (g *pkg) definitions() {
	for d := 0; d < g.cfg.Definitions; d++ {
		id := "gen-system-" + word(d)
		def := definition{id: id}
		if d == 0 {
			def.pack = packFile(id)
		}
		def.part = definitionPart(id, def.pack)
		g.defs = append(g.defs, def)
		if def.pack != nil {
			g.w.add("contracts/"+id+"-1.pack.json", def.pack)
		}
	}
}

func meaning(s string) obj { return obj{}.set("meaning", s) }

// definitionPart returns the definition fields of a contract: questions with
// conditions, value declarations, two row sets with citation fields and a
// comparison rule and an answer-aware rule.
func definitionPart(id string, pack []byte) obj {
	str := func(desc string) obj {
		return obj{}.set("type", "string").set("required", true).set("description", desc)
	}
	cite := func(desc string) obj {
		return obj{}.set("type", "citation").set("required", true).set("description", desc)
	}
	idField := obj{}.set("type", "string").set("required", true).set("pattern", "kebab-case").set("unique", true).set("description", "Name of the row.")
	part := obj{}.
		set("contract", id).
		set("version", 1).
		set("origin", "https://catalog.example/"+id+"-1").
		set("summary", "A generated system whose parts each take a share of a budget and hand it on.").
		set("mechanism", arr{
			"Each entry takes its amount when its source rule fires and hands it to the next entry.",
			"The mode answer decides whether shares are rounded, scaled or passed through unchanged.",
		}).
		set("questions", obj{}.
			set("mode", obj{}.set("asks", "How are shares computed?").set("options", obj{}.
				set("alpha", meaning("Shares are rounded down.")).
				set("beta", meaning("Shares are scaled by the detail answer.")).
				set("gamma", meaning("Shares pass through unchanged.")))).
			set("detail", obj{}.set("asks", "How fine is the scaling?").
				set("when", obj{}.set("flag", obj{}.set("mode", arr{"alpha", "beta"}))).
				set("otherwise", "Nothing is scaled, so no grain applies.").
				set("options", obj{}.
					set("fine", meaning("Scaling works in small steps.")).
					set("coarse", meaning("Scaling works in large steps.")))).
			set("spill", obj{}.set("asks", "What happens to a share no entry takes?").
				set("when", obj{}.set("row-count", obj{}.set("entries", "non-empty"))).
				set("otherwise", "With no entry there is no share to spill.").
				set("options", obj{}.
					set("carry", meaning("It carries over to the next round.")).
					set("drop", meaning("It is lost."))))).
		set("declares", obj{}.
			set("values", obj{}.
				set("base-amount", obj{}.set("description", "The budget each round starts with.").set("range", arr{0, 100000}).set("forms", arr{"number", "citation"})).
				set("bonus", obj{}.set("description", "Extra budget when shares are rounded.").set("range", arr{0, 100}).
					set("when", obj{}.set("flag", obj{}.set("mode", arr{"alpha"}))))).
			set("rows", obj{}.
				set("entries", obj{}.set("description", "One row per part taking a share.").
					set("when-empty", "No part takes a share.").
					set("record", obj{}.
						set("id", idField).
						set("source", cite("Rule that makes the part take its share.")).
						set("amount", cite("The tuning number sizing the share.")).
						set("kind", str("Whether the part hands its share on.").set("options", arr{"plain", "linked"})).
						set("link", obj{}.set("type", "citation").set("when", obj{}.set("row", obj{}.set("kind", arr{"linked"}))).set("description", "Where a linked part hands its share.")))).
				set("notes", obj{}.set("description", "Prose a reviewer reads first.").
					set("when-empty", "Nothing has to be read first.").
					set("record", obj{}.
						set("id", idField).
						set("cite", cite("The section to read.")).
						set("weight", obj{}.set("type", "number").set("required", true).set("within", arr{0, 10}).set("description", "How much it matters.")))))).
		set("rules", obj{}.
			set("base-not-negative", "base-amount >= 0").
			set("no-coarse-scaling", obj{}.
				set("forbid", obj{}.set("flag", obj{}.set("mode", arr{"beta"}).set("detail", arr{"coarse"}))).
				set("message", "Scaled shares cannot use coarse steps; choose fine steps or another mode.")))
	if pack != nil {
		sum := sha256.Sum256(pack)
		part = part.set("pack", "sha256:"+hex.EncodeToString(sum[:]))
	}
	return part
}

// packFile returns the pack of a definition: one per-row template over its
// entries and one template expanded once.
func packFile(id string) []byte {
	return encode(obj{}.
		set("contract", id).
		set("version", 1).
		set("templates", arr{
			obj{}.set("id", "entry-takes-share").
				set("title", "{{row.id}} takes its share").
				set("type", "scenario").
				set("expand", "per-row").
				set("collection", "entries").
				set("test", obj{}.
					set("type", "scenario").
					set("given", "the part {{row.id}} of {{instance}} is idle").
					set("when", "the rule cited at {{row.source}} fires").
					set("then", "{{row.id}} holds the share sized at {{row.amount}}")).
				set("text", "Every {{row.id}} share is taken exactly once per round."),
			obj{}.set("id", "linked-hands-on").
				set("title", "{{row.id}} hands its share on").
				set("type", "scenario").
				set("expand", "per-row").
				set("collection", "entries").
				set("when", obj{}.set("row", obj{}.set("kind", arr{"linked"}))).
				set("test", obj{}.
					set("type", "scenario").
					set("given", "the part {{row.id}} of {{instance}} holds a share").
					set("when", "its round ends").
					set("then", "the share moves to {{row.link}}")).
				set("text", "A linked part never keeps a share past its round."),
		}))
}

// adoptions writes every adoption file.
func (g *pkg) adoptions() {
	modes := []string{"alpha", "beta", "gamma"}
	for i := 0; i < g.cfg.Adoptions; i++ {
		id := fmt.Sprintf("adoption-%03d", i)
		rel := "contracts/" + id + ".json"
		def := g.defs[i%len(g.defs)]
		mode := modes[i%3]
		planted := !g.cfg.Clean
		answers := obj{}.set("mode", mode)
		if mode != "gamma" {
			detail := "fine"
			if planted && i == plantForbidden && mode == "beta" {
				detail = "coarse"
				g.expect("CONTRACT_RULE_FORBIDDEN", rel)
			}
			answers = answers.set("detail", detail)
		}
		answers = answers.set("spill", []string{"carry", "drop"}[i%2])
		values := obj{}
		if i%2 == 0 {
			values = values.set("base-amount", g.key())
			g.rep.RowCitations++
		} else {
			values = values.set("base-amount", 50+i)
		}
		if mode == "alpha" {
			values = values.set("bonus", i%100)
		}
		var entries arr
		for r := 0; r < g.cfg.Rows; r++ {
			src := g.anchorRef()
			if r == 0 {
				src = g.hotRef
			}
			if planted && i == plantDangling && r == 3 {
				src = "02-mechanics.md#no-such-section"
				g.expect("CONTRACT_CITATION_DANGLING", rel)
			}
			amount := g.key()
			if planted && i == plantOpen && r == 5 {
				amount = g.open[0]
				g.expect("CONTRACT_CITATION_OPEN", rel)
			}
			kind := []string{"plain", "linked"}[r%2]
			row := obj{}.set("id", "part-"+word(r)).set("source", src).set("amount", amount)
			if planted && i == plantChoice && r == 2 {
				row = row.set("kind", "tangled")
				g.expect("CONTRACT_ROW_CHOICE", rel)
			} else {
				row = row.set("kind", kind)
			}
			g.rep.RowCitations += 2
			if kind == "linked" && !(planted && i == plantChoice && r == 2) {
				link := g.anchorRef()
				if r%4 == 3 {
					link = fmt.Sprintf("contracts.adoption-%03d.base-amount", (i+r)%g.cfg.Adoptions)
				}
				row = row.set("link", link)
				g.rep.RowCitations++
			}
			entries = append(entries, row)
		}
		var notes arr
		for r := 0; r < 4; r++ {
			notes = append(notes, obj{}.set("id", "note-"+word(r)).set("cite", g.anchorRef()).set("weight", r*2+1))
			g.rep.RowCitations++
		}
		doc := append(obj{}, def.part...)
		doc = doc.set("answers", answers).set("values", values).set("rows", obj{}.set("entries", entries).set("notes", notes))
		content := encode(doc)
		g.w.add(rel, content)
		g.rep.Adoptions = append(g.rep.Adoptions, rel)
		if i == 1 {
			g.rep.CleanAdoption = rel
			// The third row's source is a chapter anchor; complete after '#'.
			needle := []byte(`"source": "`)
			at := 0
			for n := 0; n < 3; n++ {
				at += bytes.Index(content[at:], needle) + len(needle)
			}
			hash := bytes.IndexByte(content[at:], '#')
			g.rep.CitationSite = Site{File: rel, Offset: at + hash + 1}
			amt := []byte(`"amount": "`)
			g.rep.HoverSite = Site{File: rel, Offset: bytes.Index(content, amt) + len(amt) + 2}
		}
	}
	g.rep.Citations = g.rep.RowCitations + g.rep.ProseCitations
}
