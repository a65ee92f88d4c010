package gen

import (
	"bytes"
	"fmt"
)

// clocks writes clocks.json (SPEC §4b) with two clocks over two time
// modes, and adds to every third chapter from the third a mode tag on its
// title and a sentence citing the clock and a runtime address it
// advances. It runs after chapters: the titles it tags are cited by
// nothing, and what it appends moves no recorded site.
func (g *pkg) clocks() {
	const parts = 10
	advances := make([]string, parts)
	for i := range advances {
		advances[i] = fmt.Sprintf("runtime.part-%03d", i)
	}
	g.w.add("clocks.json", encode(obj{}.
		set("machine_clock", obj{}.set("unit", "seconds").set("advances", advances).
			set("modes", obj{}.set("day", "running").set("night", "paused"))).
		set("shift_turn", obj{}.set("unit", "shifts").set("advances", []string{"runtime.shift"}).
			set("modes", obj{}.set("day", "steps").set("night", "none")))))
	for c, ch := range g.chaps {
		if c%3 != 2 {
			continue
		}
		content := g.w.files[ch.name]
		title, rest, ok := bytes.Cut(content, []byte("\n"))
		if !ok {
			continue
		}
		tag := []string{"[NIGHT]", "[DAY]"}[c%2]
		var b bytes.Buffer
		fmt.Fprintf(&b, "%s %s\n%s", title, tag, rest)
		fmt.Fprintf(&b, "The `clocks.machine_clock` moves `runtime.part-%03d` by day and keeps it at night.\n", c%parts)
		g.rep.ProseCitations++
		g.w.add(ch.name, b.Bytes())
	}
}
