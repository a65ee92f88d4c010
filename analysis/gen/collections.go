package gen

import (
	"bytes"
	"fmt"
)

// plantLink is the part whose needs holds a planted dangling link.
const plantLink = 5

// collections writes two collections (SPEC §1b) when Config.Records is
// set: parts, with Records records whose needs link earlier parts (no
// cycle, under loops: false) and whose made_in links a workshop, and
// workshops, one per hundred parts, whose makes mirrors made_in. Every
// tenth chapter cites a part's field in prose, the first the workshops.
// Unless Clean, one part links a record that does not exist. It runs after
// chapters and appends to them, moving no recorded site.
func (g *pkg) collections() {
	n := g.cfg.Records
	if n <= 0 {
		return
	}
	id := func(i int) string { return "part-" + word(i) }
	shops := max(n/100, 1)
	shop := func(i int) string { return "shop-" + word(i) }
	g.w.add("collections/parts/_collection.json", encode(obj{}.set("record", obj{}.
		set("name", obj{}.set("type", "string").set("required", true).set("unique", true)).
		set("weight", obj{}.set("type", "number").set("required", true).set("description", "kilograms")).
		set("kind", obj{}.set("type", "string").set("options", []string{"gear", "spring", "lever"})).
		set("needs", obj{}.set("type", "link").set("to", "parts").set("many", true).set("loops", false)).
		set("made_in", obj{}.set("type", "link").set("to", "workshops").set("required", true).set("mirrored_by", "makes")))))
	g.w.add("collections/workshops/_collection.json", encode(obj{}.set("record", obj{}.
		set("name", obj{}.set("type", "string").set("required", true)).
		set("makes", obj{}.set("type", "link").set("to", "parts").set("many", true).set("mirrored_by", "made_in")))))
	makes := make([][]string, shops)
	for i := 0; i < n; i++ {
		needs := []string{}
		for _, d := range []int{1, 3} {
			if i-d >= 0 && i%4 != 0 {
				needs = append(needs, id(i-d))
			}
		}
		if !g.cfg.Clean && i == plantLink && n > plantLink {
			needs = append(needs, "part-missing")
			g.expect("COLLECTION_LINK_DANGLING", "collections/parts/"+id(i)+".json")
		}
		s := i % shops
		makes[s] = append(makes[s], id(i))
		g.w.add("collections/parts/"+id(i)+".json", encode(obj{}.
			set("name", "Part "+word(i)).
			set("weight", 1+i%17).
			set("kind", []string{"gear", "spring", "lever"}[i%3]).
			set("needs", needs).
			set("made_in", shop(s))))
	}
	for s := 0; s < shops; s++ {
		g.w.add("collections/workshops/"+shop(s)+".json", encode(obj{}.
			set("name", "Workshop "+word(s)).
			set("makes", makes[s])))
	}
	for c, ch := range g.chaps {
		if c%10 != 0 {
			continue
		}
		var b bytes.Buffer
		b.Write(g.w.files[ch.name])
		if c == 0 {
			b.WriteString("Parts come from `collections.workshops`.\n")
			g.rep.ProseCitations++
		}
		fmt.Fprintf(&b, "The part `collections.parts.%s` weighs `collections.parts.%s.weight`.\n", id(c*7%n), id(c*7%n))
		g.rep.ProseCitations += 2
		g.w.add(ch.name, b.Bytes())
	}
	g.rep.Records = n + shops
}
