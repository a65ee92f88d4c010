package direction

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/gddls/gddls/analysis/jsonshape"
	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/source"
)

// File is a parsed direction.json.
type File struct {
	// Path is the file's absolute path.
	Path string
	// Value is the parsed JSON document.
	Value *jsonsrc.Value
	// Palettes are the palettes whose key is valid, in document order;
	// one whose value is not an array has no colors.
	Palettes []*Palette
	// Entries are the entries of the seven addressable sections, in
	// document order. An entry whose key is not kebab-case (a
	// DIRECTION_SCHEMA fault) is still declared, so a citation of it
	// resolves, and its value is read (see Entry.WellNamed).
	Entries []*Entry
	// Moods are the moods whose `palette` is a well-spelled palette
	// address.
	MoodPalettes []Ref
	// Colors, Contrasts and Timings are the measured promises whose value
	// is an object.
	Colors    []*ColorPromise
	Contrasts []*ContrastPromise
	Timings   []*TimingPromise
	// Findings are the findings of the file by itself.
	Findings []source.Finding

	palettes map[string]*Palette
	entries  map[[2]string]*Entry
}

// Palette is one palette of the `palette` map.
type Palette struct {
	Key     string
	KeySpan source.Span
	// Colors are the named colors in document order; a repeated name is
	// kept once, with its first entry.
	Colors []*Color

	byName map[string]*Color
}

// Color is one named color of a palette.
type Color struct {
	Palette  *Palette
	Name     string
	NameSpan source.Span
	// Hex is the written color string and HexSpan its span; RGB its
	// decoded channels.
	Hex     string
	HexSpan source.Span
	RGB     RGB
}

// Address is the color's address, `palette.<key>.<name>`.
func (c *Color) Address() string { return "palette." + c.Palette.Key + "." + c.Name }

// Address is the palette's address, `palette.<key>`.
func (p *Palette) Address() string { return "palette." + p.Key }

// Color returns the color named name, or nil.
func (p *Palette) Color(name string) *Color { return p.byName[name] }

// Entry is one entry of an addressable section (§9 rule 6).
type Entry struct {
	Section string
	Key     string
	KeySpan source.Span
	Value   *jsonsrc.Value
}

// WellNamed reports whether the entry's key is a kebab-case name. The
// entry of a key that is not (a DIRECTION_SCHEMA fault) is not a promise
// the covering rule asks a test for, and not warned about as uncited; but
// the addresses and the tuning key of its value are still resolved, since
// each of those faults is a row of §9 of its own (a mood palette that
// names no palette is DIRECTION_MOOD_PALETTE_DANGLING whatever the mood's
// key).
func (e *Entry) WellNamed() bool { return ValidKey(e.Key) }

// Address is the entry's two-segment address.
func (e *Entry) Address() string { return e.Section + "." + e.Key }

// Ref is a string value with its span.
type Ref struct {
	Text string
	Span source.Span
}

// ColorPromise is one `colors` entry.
type ColorPromise struct {
	Entry *Entry
	// Is is the `is` address when it is well spelled.
	Is *Ref
}

// ContrastPromise is one `contrast` entry.
type ContrastPromise struct {
	Entry *Entry
	// Colors are the well-spelled addresses of `colors`; Against is the
	// well-spelled `against`, or nil.
	Colors  []Ref
	Against *Ref
	// AtLeast is the minimum ratio when HasAtLeast (a number above 0).
	AtLeast     float64
	AtLeastSpan source.Span
	HasAtLeast  bool
}

// TimingPromise is one `timing` entry.
type TimingPromise struct {
	Entry *Entry
	// Key is the well-spelled tuning key, or nil.
	Key *Ref
}

// Palette returns the palette with key key, or nil.
func (f *File) Palette(key string) *Palette {
	if f == nil {
		return nil
	}
	return f.palettes[key]
}

// Entry returns the entry of section with key key, or nil.
func (f *File) Entry(section, key string) *Entry {
	if f == nil {
		return nil
	}
	return f.entries[[2]string{section, key}]
}

// Resolve resolves a palette address in the order of SPEC §9.1: the whole
// text after `palette.` as a palette key first, then the last segment as a
// color of the palette before it. It returns the palette named, or the
// color named, or neither when the address dangles (or is not a palette
// address at all).
func (f *File) Resolve(addr string) (*Palette, *Color) {
	rest, ok := strings.CutPrefix(addr, "palette.")
	if !ok || f == nil || rest == "" {
		return nil, nil
	}
	if p := f.palettes[rest]; p != nil {
		return p, nil
	}
	i := strings.LastIndexByte(rest, '.')
	if i < 0 {
		return nil, nil
	}
	if p := f.palettes[rest[:i]]; p != nil {
		if c := p.Color(rest[i+1:]); c != nil {
			return nil, c
		}
	}
	return nil, nil
}

// Parse reads a parsed direction.json at path. A nil v gives nil.
func Parse(path string, v *jsonsrc.Value) *File {
	if v == nil {
		return nil
	}
	f := &File{Path: path, Value: v, palettes: map[string]*Palette{}, entries: map[[2]string]*Entry{}}
	problems := jsonshape.Check(Shape, v, "direction.json")
	for i := range problems {
		if problems[i].Kind == jsonshape.IsMissing && problems[i].Tag == CodeColorReference {
			problems[i].Tag = "" // a missing member is a fault of the entry's shape
		}
	}
	f.Findings = jsonshape.Findings(problems, CodeSchema, source.Error, path)
	if v.Kind() != jsonsrc.Object {
		return f
	}
	f.readPalettes(v.Get("palette"))
	for _, section := range Sections {
		sec := v.Get(section)
		if sec == nil || sec.Kind() != jsonsrc.Object {
			continue
		}
		for _, m := range sec.LastMembers() {
			if m.Value == nil {
				continue
			}
			e := &Entry{Section: section, Key: m.Key, KeySpan: m.KeySpan(), Value: m.Value}
			f.Entries = append(f.Entries, e)
			f.entries[[2]string{section, m.Key}] = e
			f.readEntry(e)
		}
	}
	f.checkResolution()
	sort.SliceStable(f.Findings, func(i, j int) bool { return f.Findings[i].Span.Start < f.Findings[j].Span.Start })
	return f
}

// readPalettes reads the palettes and reports the rules across their
// entries: repeated color names and colliding keys.
func (f *File) readPalettes(pals *jsonsrc.Value) {
	if pals == nil || pals.Kind() != jsonsrc.Object {
		return
	}
	for _, m := range pals.LastMembers() {
		if m.Value == nil || !ValidPaletteKey(m.Key) {
			continue
		}
		// A palette that is not an array (PALETTE_SHAPE) is still a
		// palette: it is named and resolved, and holds no color.
		p := &Palette{Key: m.Key, KeySpan: m.KeySpan(), byName: map[string]*Color{}}
		for _, e := range m.Value.Elems() {
			if e == nil || e.Kind() != jsonsrc.Object || distinctKeys(e) != 1 {
				continue
			}
			c := e.Members()[len(e.Members())-1]
			if c.Value == nil || !ValidSegment(c.Key) || c.Value.Kind() != jsonsrc.String || !IsHex(c.Value.Str()) {
				continue
			}
			if prev := p.Color(c.Key); prev != nil {
				f.add(CodeColorDuplicate, c.KeySpan(),
					fmt.Sprintf("palette %q names the color %q twice; a color name is unique within its palette, so rename or remove one", p.Key, c.Key),
					source.Related{File: f.Path, Span: prev.NameSpan, Message: "first named here"})
				continue
			}
			rgb, _ := ParseHex(c.Value.Str())
			col := &Color{Palette: p, Name: c.Key, NameSpan: c.KeySpan(), Hex: c.Value.Str(), HexSpan: c.Value.Span(), RGB: rgb}
			p.Colors = append(p.Colors, col)
			p.byName[col.Name] = col
		}
		f.Palettes = append(f.Palettes, p)
		f.palettes[p.Key] = p
	}
	for _, p := range f.Palettes {
		for _, c := range p.Colors {
			other := f.palettes[p.Key+"."+c.Name]
			if other == nil {
				continue
			}
			f.add(CodeKeyCollision, other.KeySpan,
				fmt.Sprintf("palette key %q is also palette %q with its color %q, so palette.%s could name either; rename the palette or the color", other.Key, p.Key, c.Name, other.Key),
				source.Related{File: f.Path, Span: c.NameSpan, Message: fmt.Sprintf("the color %q of palette %q", c.Name, p.Key)})
		}
	}
}

// readEntry reads the model of a measured promise or a mood.
func (f *File) readEntry(e *Entry) {
	v := e.Value
	if v.Kind() != jsonsrc.Object {
		return
	}
	str := func(name string, ok func(string) bool) *Ref {
		x := v.Get(name)
		if x == nil || x.Kind() != jsonsrc.String || !ok(x.Str()) {
			return nil
		}
		return &Ref{Text: x.Str(), Span: x.Span()}
	}
	switch e.Section {
	case "mood":
		if r := str("palette", IsPaletteAddress); r != nil {
			f.MoodPalettes = append(f.MoodPalettes, *r)
		}
	case "colors":
		f.Colors = append(f.Colors, &ColorPromise{Entry: e, Is: str("is", IsColorAddress)})
	case "contrast":
		c := &ContrastPromise{Entry: e, Against: str("against", IsColorAddress)}
		if arr := v.Get("colors"); arr != nil && arr.Kind() == jsonsrc.Array {
			for _, x := range arr.Elems() {
				if x != nil && x.Kind() == jsonsrc.String && IsColorAddress(x.Str()) {
					c.Colors = append(c.Colors, Ref{Text: x.Str(), Span: x.Span()})
				}
			}
		}
		if n := v.Get("at_least"); n != nil && n.Kind() == jsonsrc.Number && n.Finite() && n.Num() > 0 {
			c.AtLeast, c.AtLeastSpan, c.HasAtLeast = n.Num(), n.Span(), true
		}
		f.Contrasts = append(f.Contrasts, c)
	case "timing":
		f.Timings = append(f.Timings, &TimingPromise{Entry: e, Key: str("key", tuningKey.MatchString)})
	}
}

// ColorRefs returns every well-spelled address in a color position, in
// document order of the promises.
func (f *File) ColorRefs() []Ref {
	var out []Ref
	for _, c := range f.Colors {
		if c.Is != nil {
			out = append(out, *c.Is)
		}
	}
	for _, c := range f.Contrasts {
		out = append(out, c.Colors...)
		if c.Against != nil {
			out = append(out, *c.Against)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Span.Start < out[j].Span.Start })
	return out
}

// checkResolution reports the color positions and mood palettes that name
// the wrong thing, and the contrast pairs below their floor.
func (f *File) checkResolution() {
	for _, r := range f.ColorRefs() {
		pal, col := f.Resolve(r.Text)
		switch {
		case col != nil:
		case pal != nil:
			f.add(CodeColorDangling, r.Span,
				fmt.Sprintf("%s names the palette %q, not one of its colors; a color position needs palette.%s.<name>%s", r.Text, pal.Key, pal.Key, colorHint(pal)),
				source.Related{File: f.Path, Span: pal.KeySpan, Message: "the palette"})
		default:
			f.add(CodeColorDangling, r.Span, fmt.Sprintf("%s names no color of direction.json; declare it as a named color of a palette or correct the address", r.Text))
		}
	}
	for _, r := range f.MoodPalettes {
		pal, col := f.Resolve(r.Text)
		switch {
		case pal != nil:
		case col != nil:
			f.add(CodeMoodPalette, r.Span,
				fmt.Sprintf("%s names the color %q, not a palette; a mood names its palette as %s", r.Text, col.Name, col.Palette.Address()),
				source.Related{File: f.Path, Span: col.NameSpan, Message: "the color"})
		default:
			f.add(CodeMoodPalette, r.Span, fmt.Sprintf("%s names no palette of direction.json; declare the palette or correct the address", r.Text))
		}
	}
	for _, c := range f.Contrasts {
		if !c.HasAtLeast || c.Against == nil {
			continue
		}
		_, against := f.Resolve(c.Against.Text)
		if against == nil {
			continue
		}
		for _, r := range c.Colors {
			_, col := f.Resolve(r.Text)
			if col == nil {
				continue
			}
			ratio := Contrast(col.RGB, against.RGB)
			if Meets(ratio, c.AtLeast) {
				continue
			}
			shown := FormatRatio(ratio)
			if math.Round(ratio*100)/100 >= c.AtLeast {
				shown = strconv.FormatFloat(ratio, 'g', 12, 64) + ":1"
			}
			f.add(CodeContrastFailed, r.Span,
				fmt.Sprintf("%s (%s) has a contrast ratio of %s against %s (%s), below the promised %s; change one of the colors or lower at_least",
					r.Text, col.Hex, shown, c.Against.Text, against.Hex, c.atLeastText()),
				source.Related{File: f.Path, Span: c.AtLeastSpan, Message: "the promised minimum"},
				source.Related{File: f.Path, Span: col.HexSpan, Message: "the color " + col.Address()},
				source.Related{File: f.Path, Span: against.HexSpan, Message: "the color " + against.Address()})
		}
	}
}

// atLeastText is the written minimum of the promise.
func (c *ContrastPromise) atLeastText() string {
	if x := c.Entry.Value.Get("at_least"); x != nil {
		return x.Raw()
	}
	return FormatRatio(c.AtLeast)
}

// colorHint names the colors of a palette for a message.
func colorHint(p *Palette) string {
	if len(p.Colors) == 0 {
		return ""
	}
	names := make([]string, 0, 3)
	for i, c := range p.Colors {
		if i == 3 {
			names = append(names, "…")
			break
		}
		names = append(names, c.Name)
	}
	return " (its colors: " + strings.Join(names, ", ") + ")"
}

func (f *File) add(code string, span source.Span, msg string, related ...source.Related) {
	f.Findings = append(f.Findings, source.Finding{Code: code, Severity: source.Error, File: f.Path, Span: span, Message: msg, Related: related})
}

// Images calls fn with the value of every non-empty `image` string of a
// parsed direction.json in the two places the format gives an image
// (SPEC §9.9): a mood's borrow objects and anti-reference objects, and
// the anti-reference objects of the root `anti` map. A member named
// `image` elsewhere (a color named "image", a field that does not belong
// in its object) is no image; an empty one is a fault of the shape only.
func Images(v *jsonsrc.Value, fn func(image *jsonsrc.Value)) {
	visit := func(o *jsonsrc.Value) {
		if x := o.Get("image"); x != nil && x.Kind() == jsonsrc.String && x.Str() != "" {
			fn(x)
		}
	}
	// In document order, each member counting with its last value.
	last := func(obj *jsonsrc.Value, each func(*jsonsrc.Value)) {
		for _, m := range obj.LastMembers() {
			each(m.Value)
		}
	}
	for _, root := range v.LastMembers() {
		switch root.Key {
		case "anti":
			last(root.Value, visit)
		case "mood":
			last(root.Value, func(mood *jsonsrc.Value) {
				for _, list := range []string{"borrows", "anti"} {
					if arr := mood.Get(list); arr != nil && arr.Kind() == jsonsrc.Array {
						for _, e := range arr.Elems() {
							visit(e)
						}
					}
				}
			})
		}
	}
}
