package ide

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/gddls/gddls/analysis"
	"github.com/gddls/gddls/analysis/direction"
	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/source"
)

// The editor queries of art direction (SPEC §9): in direction.json,
// completion of color addresses in the color positions (`is`, `colors`,
// `against`), of palette addresses in a mood's `palette` and of tuning
// keys in a timing `key`, and hover on a palette address or a declared
// color with its hex value and its contrast; in chapters, completion and
// hover of direction addresses in inline code; the color swatches of the
// palettes (DocumentColors, ColorPresentations). Definition, references
// and rename of palette keys, colors and direction entries go through the
// citation index (targets.go); their locations and renames are here.

// isDirectionFile reports whether f is the direction.json of its package.
func isDirectionFile(f *analysis.File) bool {
	if f == nil {
		return false
	}
	rel, ok := f.PackageRel()
	return ok && rel == "direction.json"
}

// draftDirection returns the model of direction.json for a query at c:
// the snapshot's model, or the model of a repaired copy when the file does
// not parse while it is being typed.
func draftDirection(p *analysis.Package, f *analysis.File, c jsonsrc.Context) *direction.File {
	if d := p.DirectionFile; d != nil {
		return d
	}
	return direction.Parse(f.Path, draftJSON(f.Content, c))
}

// directionPosition says what the JSON place c of direction.json takes:
// "color" for a color position, "palette" for a mood's palette, "key" for
// a timing key, "" elsewhere.
func directionPosition(c jsonsrc.Context) string {
	keys := c.Keys()
	switch {
	case c.Pos == jsonsrc.PosValue && len(keys) == 3 && keys[0] == "colors" && keys[2] == "is",
		c.Pos == jsonsrc.PosValue && len(keys) == 3 && keys[0] == "contrast" && keys[2] == "against",
		c.Pos == jsonsrc.PosElement && len(keys) == 4 && keys[0] == "contrast" && keys[2] == "colors":
		return "color"
	case c.Pos == jsonsrc.PosValue && len(keys) == 3 && keys[0] == "mood" && keys[2] == "palette":
		return "palette"
	case c.Pos == jsonsrc.PosValue && len(keys) == 3 && keys[0] == "timing" && keys[2] == "key":
		return "key"
	}
	return ""
}

// completeDirection completes in direction.json: addresses and tuning keys
// where the file takes them, and otherwise the members and values of its
// shape.
func completeDirection(s *analysis.Snapshot, f *analysis.File, offset int) []CompletionItem {
	c := jsonsrc.ContextAt(f.Content, offset)
	edit := func(text string) *TextEdit { return valueEditAt(c, text, true) }
	switch directionPosition(c) {
	case "color":
		return colorItems(draftDirection(s.PackageFor(f), f, c), edit)
	case "palette":
		return paletteItems(draftDirection(s.PackageFor(f), f, c), edit)
	case "key":
		var out []CompletionItem
		for _, it := range tuningItems(s.PackageFor(f).Tuning, true, edit) {
			if !it.Deprecated { // an open number cannot carry a timing promise
				out = append(out, it)
			}
		}
		return out
	}
	return completeShaped(shapedKind{direction.Shape, direction.CodeSchema}, f.Content, offset)
}

// colorItems lists the named colors of d as color addresses.
func colorItems(d *direction.File, edit func(string) *TextEdit) []CompletionItem {
	if d == nil {
		return nil
	}
	var out []CompletionItem
	for _, p := range d.Palettes {
		for _, c := range p.Colors {
			addr := c.Address()
			out = append(out, CompletionItem{Label: addr, Kind: CompleteOption, Detail: c.Hex,
				Documentation: fmt.Sprintf("color %q of palette %q", c.Name, p.Key),
				SortText:      fmt.Sprintf("1%04d", len(out)), Edit: edit(addr)})
		}
	}
	return out
}

// paletteItems lists the palettes of d as palette addresses.
func paletteItems(d *direction.File, edit func(string) *TextEdit) []CompletionItem {
	if d == nil {
		return nil
	}
	var out []CompletionItem
	for _, p := range d.Palettes {
		addr := p.Address()
		out = append(out, CompletionItem{Label: addr, Kind: CompleteOption, Detail: paletteSummary(p),
			SortText: fmt.Sprintf("0%04d", len(out)), Edit: edit(addr)})
	}
	return out
}

// paletteSummary lists a palette's colors in a line.
func paletteSummary(p *direction.Palette) string {
	parts := make([]string, 0, len(p.Colors))
	for _, c := range p.Colors {
		parts = append(parts, c.Name+" "+c.Hex)
	}
	if len(parts) == 0 {
		return "palette with no named color"
	}
	return strings.Join(parts, ", ")
}

// directionItems lists what inline code of a chapter can cite in
// direction.json: every entry of the seven addressable sections, every
// palette and every named color.
func directionItems(p *analysis.Package, edit func(string) *TextEdit) []CompletionItem {
	d := p.DirectionFile
	if d == nil {
		return nil
	}
	var out []CompletionItem
	for _, e := range d.Entries {
		addr := e.Address()
		out = append(out, CompletionItem{Label: addr, Kind: CompleteKeyword, Detail: "entry of direction.json",
			Documentation: entrySummary(p, e), SortText: "4" + addr, Edit: edit(addr)})
	}
	for _, it := range paletteItems(d, edit) {
		it.SortText = "5" + it.SortText
		out = append(out, it)
	}
	for _, it := range colorItems(d, edit) {
		it.SortText = "5" + it.SortText
		out = append(out, it)
	}
	return out
}

// entrySummary is the JSON text of an entry of p's direction.json, for
// documentation.
func entrySummary(p *analysis.Package, e *direction.Entry) string {
	f := p.FileAt("direction.json")
	if e.Value == nil || f == nil || e.Value.Span().End > len(f.Content) {
		return ""
	}
	return "```json\n" + string(f.Content[e.Value.Span().Start:e.Value.Span().End]) + "\n```"
}

// hoverDirection answers a hover in direction.json on an address, a color
// string or a color name, and otherwise on a member of the shape.
func hoverDirection(s *analysis.Snapshot, f *analysis.File, offset int) *HoverInfo {
	d := s.PackageFor(f).DirectionFile
	if d == nil {
		return nil
	}
	hit := LocateJSON(d.Value, offset)
	if hit.Value != nil && hit.Value.Kind() == jsonsrc.String && !hit.OnKey {
		if md := addressMarkdown(d, hit.Value.Str(), contrastOf(d, hit.Value)); md != "" {
			return &HoverInfo{Markdown: md, Span: hit.Value.Span()}
		}
		if c := colorAt(d, offset); c != nil {
			return &HoverInfo{Markdown: colorMarkdown(d, c, nil), Span: hit.Value.Span()}
		}
	}
	if c := colorAt(d, offset); c != nil {
		return &HoverInfo{Markdown: colorMarkdown(d, c, nil), Span: c.NameSpan}
	}
	for _, p := range d.Palettes {
		if p.KeySpan.Contains(offset) {
			return &HoverInfo{Markdown: paletteMarkdown(p), Span: p.KeySpan}
		}
	}
	return hoverShaped(shapedKind{direction.Shape, direction.CodeSchema}, d.Value, offset)
}

// colorAt returns the named color whose name or hex value holds offset.
func colorAt(d *direction.File, offset int) *direction.Color {
	for _, p := range d.Palettes {
		for _, c := range p.Colors {
			if c.NameSpan.Contains(offset) || c.HexSpan.Contains(offset) {
				return c
			}
		}
	}
	return nil
}

// contrastOf returns the contrast promise whose colors or against holds v.
func contrastOf(d *direction.File, v *jsonsrc.Value) *direction.ContrastPromise {
	for _, c := range d.Contrasts {
		if c.Against != nil && c.Against.Span == v.Span() {
			return c
		}
		for _, r := range c.Colors {
			if r.Span == v.Span() {
				return c
			}
		}
	}
	return nil
}

// addressMarkdown describes what a palette address names: a palette with
// its colors, or a color with its hex value and, inside a contrast promise,
// its ratio against the promise's other side. It is "" for a string that
// is not a palette address.
func addressMarkdown(d *direction.File, addr string, in *direction.ContrastPromise) string {
	if !strings.HasPrefix(addr, "palette.") {
		return ""
	}
	pal, col := d.Resolve(addr)
	switch {
	case col != nil:
		return colorMarkdown(d, col, in)
	case pal != nil:
		return paletteMarkdown(pal)
	}
	return fmt.Sprintf("`%s` names no palette and no color of direction.json", addr)
}

// paletteMarkdown describes a palette.
func paletteMarkdown(p *direction.Palette) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**palette `%s`**", p.Key)
	for _, c := range p.Colors {
		fmt.Fprintf(&b, "\n- `%s` %s", c.Name, c.Hex)
	}
	return b.String()
}

// colorMarkdown describes a color: its address, its written hex value, and
// its contrast in the promise in (each color against `against`, or
// `against` against each color) or, outside one, in every contrast promise
// that names it.
func colorMarkdown(d *direction.File, c *direction.Color, in *direction.ContrastPromise) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**color `%s`**: %s (sRGB %d, %d, %d)", c.Address(), c.Hex, c.RGB.R, c.RGB.G, c.RGB.B)
	promises := d.Contrasts
	if in != nil {
		promises = []*direction.ContrastPromise{in}
	}
	for _, cp := range promises {
		if cp.Against == nil {
			continue
		}
		_, against := d.Resolve(cp.Against.Text)
		if against == nil {
			continue
		}
		var others []*direction.Color
		if against == c {
			for _, r := range cp.Colors {
				if _, o := d.Resolve(r.Text); o != nil {
					others = append(others, o)
				}
			}
		} else {
			for _, r := range cp.Colors {
				if _, o := d.Resolve(r.Text); o == c {
					others = append(others, against)
					break
				}
			}
		}
		for _, o := range others {
			ratio := direction.Contrast(c.RGB, o.RGB)
			verdict := ""
			if cp.HasAtLeast {
				verdict = fmt.Sprintf(", at least %s promised", fmtFloat(cp.AtLeast))
				if !direction.Meets(ratio, cp.AtLeast) {
					verdict += ": **below**"
				}
			}
			fmt.Fprintf(&b, "\n\ncontrast `%s`: %s against `%s` (%s)%s", cp.Entry.Key, direction.FormatRatio(ratio), o.Address(), o.Hex, verdict)
		}
	}
	return b.String()
}

// directionMarkdown is the hover of a direction citation in prose, or "".
func directionMarkdown(p *analysis.Package, text string) string {
	d := p.DirectionFile
	if d == nil {
		return ""
	}
	if strings.HasPrefix(text, "palette.") {
		return addressMarkdown(d, text, nil)
	}
	section, key, ok := strings.Cut(text, ".")
	if !ok || !direction.IsSection(section) {
		return ""
	}
	e := d.Entry(section, key)
	if e == nil {
		return ""
	}
	return fmt.Sprintf("**%s** of direction.json\n\n%s", text, entrySummary(p, e))
}

// ColorInfo is one color literal of a document, for swatches and a
// picker: its span (the JSON string with its quotes) and its sRGB value
// with channels from 0 to 1.
type ColorInfo struct {
	Span             source.Span
	Red, Green, Blue float64
}

// DocumentColors returns the color strings of the palettes of a
// direction.json, in document order; nothing for any other file.
func DocumentColors(s *analysis.Snapshot, path string) []ColorInfo {
	f := s.File(path)
	if !isDirectionFile(f) || s.PackageFor(f).DirectionFile == nil {
		return nil
	}
	var out []ColorInfo
	pals := s.PackageFor(f).DirectionFile.Value.Get("palette")
	if pals == nil || pals.Kind() != jsonsrc.Object {
		return nil
	}
	for _, m := range pals.Members() {
		for _, e := range analysis.ArrayElems(m.Value) {
			v := e
			if e != nil && e.Kind() == jsonsrc.Object && len(e.Members()) > 0 {
				v = e.Members()[len(e.Members())-1].Value
			}
			if v == nil || v.Kind() != jsonsrc.String {
				continue
			}
			if rgb, ok := direction.ParseHex(v.Str()); ok {
				out = append(out, ColorInfo{Span: v.Span(), Red: float64(rgb.R) / 255, Green: float64(rgb.G) / 255, Blue: float64(rgb.B) / 255})
			}
		}
	}
	return out
}

// ColorPresentation is one way to write a picked color: its label and the
// edit that writes it over the color string.
type ColorPresentation struct {
	Label string
	Edit  TextEdit
}

// ColorPresentations returns how to write the color (channels from 0 to 1)
// over the color string at span of a direction.json: `#RRGGBB`, in the
// letter case of the string it replaces (the format keeps a color's
// written spelling, SPEC §9.1 rule 10).
func ColorPresentations(s *analysis.Snapshot, path string, span source.Span, red, green, blue float64) []ColorPresentation {
	f := s.File(path)
	if !isDirectionFile(f) || span.Start < 0 || span.End > len(f.Content) || span.Start > span.End {
		return nil
	}
	hex := fmt.Sprintf("#%02X%02X%02X", channel(red), channel(green), channel(blue))
	old := string(f.Content[span.Start:span.End])
	if strings.ToLower(old) == old && strings.ToUpper(old) != old {
		hex = strings.ToLower(hex)
	}
	return []ColorPresentation{{Label: hex, Edit: TextEdit{Span: span, NewText: `"` + hex + `"`}}}
}

// channel converts a channel from 0 to 1 to a byte, rounding and clamping.
func channel(x float64) uint8 {
	switch {
	case x != x || x <= 0:
		return 0
	case x >= 1:
		return 255
	}
	return uint8(x*255 + 0.5)
}

// paletteTarget is one target a palette address names, with the part of
// the address that names it.
type paletteTarget struct {
	target   targetKey
	from, to int
}

// paletteTargets returns what a palette address names in package p: the
// palette (its key after `palette.`), and for a color address also the
// color (its last segment). A dangling address names nothing.
func paletteTargets(p *analysis.Package, addr string) []paletteTarget {
	pal, col := p.DirectionFile.Resolve(addr)
	head := len("palette.")
	switch {
	case pal != nil:
		return []paletteTarget{{targetKey{kind: targetPalette, scope: p.Root, name: pal.Key}, head, len(addr)}}
	case col != nil:
		key := col.Palette.Key
		return []paletteTarget{
			{targetKey{kind: targetPalette, scope: p.Root, name: key}, head, head + len(key)},
			{targetKey{kind: targetColor, scope: p.Root, name: key, sub: col.Name}, len(addr) - len(col.Name), len(addr)},
		}
	}
	return nil
}

// direction indexes direction.json: its palettes, colors and entries, the
// addresses of its color positions and mood palettes, the tuning keys of
// its timing promises, and the claims of the build plan's tests.
func (b *indexBuilder) direction(p *analysis.Package) {
	d := p.DirectionFile
	if d == nil {
		return
	}
	content := p.FileAt("direction.json").Content
	for _, pal := range d.Palettes {
		b.add(jsonRef(d.Path, content, refDecl, targetKey{kind: targetPalette, scope: p.Root, name: pal.Key}, pal.KeySpan, pal.Key, 0, len(pal.Key)))
		for _, c := range pal.Colors {
			b.add(jsonRef(d.Path, content, refDecl, targetKey{kind: targetColor, scope: p.Root, name: pal.Key, sub: c.Name}, c.NameSpan, c.Name, 0, len(c.Name)))
		}
	}
	for _, e := range d.Entries {
		b.add(jsonRef(d.Path, content, refDecl, targetKey{kind: targetDirection, scope: p.Root, name: e.Section, sub: e.Key}, e.KeySpan, e.Key, 0, len(e.Key)))
	}
	refs := append(d.ColorRefs(), d.MoodPalettes...)
	for _, r := range refs {
		for _, a := range paletteTargets(p, r.Text) {
			b.add(jsonRef(d.Path, content, refAddress, a.target, r.Span, r.Text, a.from, a.to))
		}
	}
	// The key of a timing promise cites a tuning key: it follows the key's
	// renames like any other citation of it.
	for _, tp := range d.Timings {
		if tp.Key != nil {
			t := targetKey{kind: targetTuningKey, scope: p.Root, name: tp.Key.Text}
			b.add(jsonRef(d.Path, content, refAddress, t, tp.Key.Span, tp.Key.Text, 0, len(tp.Key.Text)))
		}
	}
	f := p.FileAt("05-build-plan.md")
	if f == nil {
		return
	}
	plan := planOf(f)
	if plan == nil {
		return
	}
	for _, t := range plan.Tests {
		for _, c := range t.Claims {
			section, key, ok := strings.Cut(c.Path, ".")
			if !ok || !direction.IsMeasured(section) || d.Entry(section, key) == nil {
				continue
			}
			b.add(jsonRef(f.Path, f.Content, refAddress, targetKey{kind: targetDirection, scope: p.Root, name: section, sub: key}, c.Span, c.Path, len(section)+1, len(c.Path)))
		}
	}
}

// directionLocations returns where a palette, a color or an entry of
// direction.json is declared.
func directionLocations(p *analysis.Package, t targetKey) []Location {
	d := p.DirectionFile
	if d == nil {
		return nil
	}
	switch t.kind {
	case targetPalette:
		if pal := d.Palette(t.name); pal != nil {
			return []Location{{File: d.Path, Span: pal.KeySpan}}
		}
	case targetColor:
		if c := d.Palette(t.name).Color(t.sub); c != nil {
			return []Location{{File: d.Path, Span: c.NameSpan}}
		}
	case targetDirection:
		if e := d.Entry(t.name, t.sub); e != nil {
			return []Location{{File: d.Path, Span: e.KeySpan}}
		}
	}
	return nil
}

// directionRenameSite returns the rename of the palette, color or entry r
// names.
func directionRenameSite(r citeRef) (renameSite, error) {
	if !r.Exact && !r.Quoted {
		return renameSite{}, errors.New("this reference cannot be rewritten in place")
	}
	t := r.Target
	name := t.name
	if t.kind != targetPalette {
		name = t.sub
	}
	return renameSite{direction: &t, name: name, span: r.span()}, nil
}

// renameDirection rewrites a palette key, a color name or an entry key of
// direction.json everywhere the package names it, refusing a name that is
// not valid or that would clash.
func renameDirection(s *analysis.Snapshot, t targetKey, newName string) (map[string][]TextEdit, error) {
	p := packageAt(s, t.scope)
	if p == nil || p.DirectionFile == nil {
		return nil, errors.New("the package has no readable direction.json")
	}
	d := p.DirectionFile
	switch t.kind {
	case targetPalette:
		if !direction.ValidPaletteKey(newName) {
			return nil, fmt.Errorf("%q is not a palette key: write kebab-case segments joined by dots, each with a letter and none `json` or `md`", newName)
		}
		if newName != t.name && d.Palette(newName) != nil {
			return nil, fmt.Errorf("direction.json already has the palette %q", newName)
		}
		for _, other := range d.Palettes {
			if other.Key == t.name {
				continue
			}
			for _, c := range other.Colors {
				if other.Key+"."+c.Name == newName {
					return nil, fmt.Errorf("palette key %q would collide with the color %q of palette %q", newName, c.Name, other.Key)
				}
			}
			if pal := d.Palette(t.name); pal != nil {
				for _, c := range pal.Colors {
					if newName+"."+c.Name == other.Key {
						return nil, fmt.Errorf("palette key %q with its color %q would collide with the palette %q", newName, c.Name, other.Key)
					}
				}
			}
		}
	case targetColor:
		if !direction.ValidSegment(newName) {
			return nil, fmt.Errorf("%q is not a color name: one kebab-case segment with a letter, not `json` or `md`", newName)
		}
		if newName != t.sub && d.Palette(t.name).Color(newName) != nil {
			return nil, fmt.Errorf("palette %q already has the color %q", t.name, newName)
		}
		if d.Palette(t.name+"."+newName) != nil {
			return nil, fmt.Errorf("the color %q would collide with the palette %q", newName, t.name+"."+newName)
		}
	case targetDirection:
		if !direction.ValidKey(newName) {
			return nil, fmt.Errorf("%q is not a kebab-case name: use lowercase letters and digits joined by single hyphens", newName)
		}
		if newName != t.sub && d.Entry(t.name, newName) != nil {
			return nil, fmt.Errorf("%s in direction.json already has the entry %q", t.name, newName)
		}
	}
	return rewriteAll(s, t, newName)
}

// danglingAddress offers the nearest color (for a color position) or
// palette (for a mood's palette) in place of a dangling address of
// direction.json.
func (x *fixer) danglingAddress(code string, ds source.Span) {
	if !isDirectionFile(x.f) || x.pkg == nil || x.pkg.DirectionFile == nil {
		return
	}
	d := x.pkg.DirectionFile
	v := LocateJSON(d.Value, ds.Start).Value
	if v == nil || v.Kind() != jsonsrc.String || v.Span() != ds {
		return
	}
	var candidates []string
	for _, p := range d.Palettes {
		if code == direction.CodeMoodPalette {
			candidates = append(candidates, p.Address())
			continue
		}
		for _, c := range p.Colors {
			candidates = append(candidates, c.Address())
		}
	}
	if near := analysis.Nearest(v.Str(), candidates); near != "" {
		x.add(fmt.Sprintf("Replace with %s", near), code, true, TextEdit{Span: v.Span(), NewText: jsonString(near)})
	}
}

// directionLenses returns a lens over each palette and each entry of
// direction.json with the number of places that name it.
func directionLenses(s *analysis.Snapshot, path string, p *analysis.Package) []CodeLens {
	d := p.DirectionFile
	var out []CodeLens
	for _, pal := range d.Palettes {
		out = append(out, referenceLens(s, path, pal.KeySpan, targetKey{kind: targetPalette, scope: p.Root, name: pal.Key}))
	}
	for _, e := range d.Entries {
		out = append(out, referenceLens(s, path, e.KeySpan, targetKey{kind: targetDirection, scope: p.Root, name: e.Section, sub: e.Key}))
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Span.Start < out[j].Span.Start })
	return out
}
