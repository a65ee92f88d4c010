package gen

import (
	"fmt"
	"strings"
)

// palettes is the number of palettes of direction.json: two, and one more
// for every 20 chapters.
func (g *pkg) palettes() int { return 2 + g.cfg.Chapters/20 }

// directionClaims returns the measured promises of direction.json split
// over the first three tests of the build plan: the colors, the contrast
// promises (with the planted failing one unless the package is clean) and
// the timing promises.
func (g *pkg) directionClaims() [3][]string {
	var out [3][]string
	for i := 0; i < g.palettes(); i++ {
		out[0] = append(out[0], fmt.Sprintf("colors.ink-%03d", i))
		out[1] = append(out[1], fmt.Sprintf("contrast.ink-on-paper-%03d", i))
	}
	if !g.cfg.Clean {
		out[1] = append(out[1], "contrast.faint-notes")
	}
	for i := 0; i < 4; i++ {
		out[2] = append(out[2], fmt.Sprintf("timing.part-wakes-%d", i))
	}
	return out
}

// direction writes direction.json (SPEC §9): palettes (one with a dotted
// key), moods naming them, pillars, anti-references and what must stay,
// and measured promises over the palettes' colors and decided tuning keys,
// each claimed by a test of the build plan (acceptanceTests). It appends
// to 04-presentation.md a paragraph citing every entry a chapter must
// cite. Unless the package is clean, one contrast promise fails. It uses
// no random numbers, so the files written after it do not change.
func (g *pkg) direction() {
	n := g.palettes()
	palette, colors, contrast := obj{}, obj{}, obj{}
	var cites []string
	for i := 0; i < n; i++ {
		key := fmt.Sprintf("machine-%03d", i)
		if i == 1 {
			key = "machine.night"
		}
		palette = palette.set(key, arr{
			obj{}.set("ink", fmt.Sprintf("#%02X2A26", 0x10+i%32)),
			obj{}.set("paper", fmt.Sprintf("#F7F4%02X", 0xC0+i%32)),
			obj{}.set("accent", fmt.Sprintf("#%02X6A3B", 0x80+i%64)),
			"#808080",
		})
		colors = colors.set(fmt.Sprintf("ink-%03d", i), obj{}.
			set("is", "palette."+key+".ink").set("within", 2).set("where", "every mark of the "+word(i+40)+" part"))
		contrast = contrast.set(fmt.Sprintf("ink-on-paper-%03d", i), obj{}.
			set("colors", arr{"palette." + key + ".ink"}).set("against", "palette."+key+".paper").
			set("at_least", 4.5).set("where", "the labels of the "+word(i+40)+" part"))
	}
	if !g.cfg.Clean {
		contrast = contrast.set("faint-notes", obj{}.
			set("colors", arr{"palette.machine-000.accent"}).set("against", "palette.machine-000.ink").
			set("at_least", 7).set("where", "the margin notes"))
		g.expect("DIRECTION_CONTRAST_FAILED", "direction.json")
	}
	mood := obj{}
	for i := 0; i < 2; i++ {
		name := fmt.Sprintf("hum-%d", i)
		pal := "palette.machine-000"
		if i == 1 {
			pal = "palette.machine.night"
		}
		mood = mood.set(name, obj{}.set("intent", "the steady hum of a machine at "+[]string{"dawn", "night"}[i]).
			set("anti", arr{"not a factory alarm", obj{}.set("not", "no flashing warning lights")}).
			set("palette", pal))
		cites = append(cites, "mood."+name)
	}
	timing := obj{}
	for i := 0; i < 4; i++ {
		k := g.keys[(i*31+3)%len(g.keys)]
		if k == g.keys[min(10, len(g.keys)-1)] {
			k = g.keys[0]
		}
		timing = timing.set(fmt.Sprintf("part-wakes-%d", i), obj{}.set("key", k).set("where", "the "+word(i+50)+" part waking"))
	}
	pillars := obj{}.set("parts-read-apart", "every part is told apart by its shape before its color").
		set("calm-over-busy", "a calm screen wins over a busy one")
	anti := obj{}.set("no-alarm-red", "no alarm red outside real failures")
	keep := obj{}.set("legible-labels", "every label stays legible at the smallest size")
	for _, k := range []string{"parts-read-apart", "calm-over-busy"} {
		cites = append(cites, "pillars."+k)
	}
	cites = append(cites, "anti.no-alarm-red", "must_keep.legible-labels")
	for i := 2; i < n; i++ {
		cites = append(cites, fmt.Sprintf("palette.machine-%03d", i)) // reached by their promises too
	}
	g.w.add("direction.json", encode(obj{}.
		set("palette", palette).set("pillars", pillars).set("mood", mood).set("anti", anti).
		set("must_keep", keep).set("colors", colors).set("contrast", contrast).set("timing", timing).
		set("viewing", obj{}.set("speed_and_size", "real speed, the whole machine on screen").set("calibration", "an sRGB display"))))

	const name = "04-presentation.md"
	var b strings.Builder
	b.Write(g.w.files[name])
	b.WriteString("## Art direction\n\n")
	g.rep.Headings++
	for i, c := range cites {
		if i > 0 {
			b.WriteString(" ")
		}
		fmt.Fprintf(&b, "The look follows `%s`.", c)
		g.rep.ProseCitations++
	}
	b.WriteString("\n")
	g.w.add(name, []byte(b.String()))
}
