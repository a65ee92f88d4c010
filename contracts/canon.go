package contracts

import (
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gddls/gddls/contracts/jsonsrc"
	"github.com/gddls/gddls/contracts/source"
)

// definitionFields are the definition fields in the order of the table of
// SPEC §10.2.
var definitionFields = []string{"contract", "version", "origin", "summary", "mechanism", "questions", "declares", "rules", "pack"}

// DefinitionText returns the canonical text of a's definition part (SPEC
// §10.11 rule 2): the definition fields in the order of the §10.2 table,
// the designer fields, unknown top-level fields and every annotation
// removed, written as JSON indented with two spaces, the order of members
// inside each field kept. It returns "" when a holds no object.
func DefinitionText(a *Adoption) string {
	if a == nil || a.Root == nil || a.Root.Kind != jsonsrc.Object {
		return ""
	}
	var b strings.Builder
	b.WriteString("{")
	n := 0
	for _, k := range definitionFields {
		v := a.Root.Get(k)
		if v == nil {
			continue
		}
		if n > 0 {
			b.WriteString(",")
		}
		n++
		b.WriteString("\n  ")
		writeString(&b, k)
		b.WriteString(": ")
		writeJSON(&b, v, "  ", true)
	}
	if n > 0 {
		b.WriteString("\n")
	}
	b.WriteString("}")
	return b.String()
}

// writeJSON writes v as JSON. With pretty, containers are indented by two
// spaces per level, starting at indent; annotations are left out of
// objects. A duplicated key keeps its first position and its last value,
// as JavaScript's JSON.parse does.
func writeJSON(b *strings.Builder, v *jsonsrc.Value, indent string, pretty bool) {
	if v == nil {
		b.WriteString("null")
		return
	}
	nl := func(ind string) {
		if pretty {
			b.WriteString("\n")
			b.WriteString(ind)
		}
	}
	switch v.Kind {
	case jsonsrc.Null:
		b.WriteString("null")
	case jsonsrc.Bool:
		b.WriteString(strconv.FormatBool(v.Bool))
	case jsonsrc.Number:
		b.WriteString(jsNumber(v.Num))
	case jsonsrc.String:
		writeString(b, v.Str)
	case jsonsrc.Array:
		if len(v.Elems) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteString("[")
		for i, e := range v.Elems {
			if i > 0 {
				b.WriteString(",")
			}
			nl(indent + "  ")
			writeJSON(b, e, indent+"  ", pretty)
		}
		nl(indent)
		b.WriteString("]")
	case jsonsrc.Object:
		var keys []string
		last := map[string]*jsonsrc.Value{}
		for _, m := range v.Members {
			if isAnnotation(m.Key) {
				continue
			}
			if _, dup := last[m.Key]; !dup {
				keys = append(keys, m.Key)
			}
			last[m.Key] = m.Value
		}
		if len(keys) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteString("{")
		for i, k := range keys {
			if i > 0 {
				b.WriteString(",")
			}
			nl(indent + "  ")
			writeString(b, k)
			b.WriteString(":")
			if pretty {
				b.WriteString(" ")
			}
			writeJSON(b, last[k], indent+"  ", pretty)
		}
		nl(indent)
		b.WriteString("}")
	default:
		b.WriteString("null")
	}
}

// writeString writes s as a JSON string the way JSON.stringify does.
func writeString(b *strings.Builder, s string) {
	b.WriteByte('"')
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '"':
			b.WriteString(`\"`)
		case c == '\\':
			b.WriteString(`\\`)
		case c == '\b':
			b.WriteString(`\b`)
		case c == '\f':
			b.WriteString(`\f`)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\r':
			b.WriteString(`\r`)
		case c == '\t':
			b.WriteString(`\t`)
		case c < 0x20:
			b.WriteString(`\u00`)
			b.WriteByte("0123456789abcdef"[c>>4])
			b.WriteByte("0123456789abcdef"[c&15])
		case c < utf8.RuneSelf:
			b.WriteByte(c)
		default:
			_, size := utf8.DecodeRuneInString(s[i:])
			b.WriteString(s[i : i+size])
			i += size
			continue
		}
		i++
	}
	b.WriteByte('"')
}

// jsNumber formats f as JavaScript's Number.prototype.toString does, so
// that 1.0 and 1 read the same.
func jsNumber(f float64) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "null"
	}
	if f == 0 {
		return "0"
	}
	sign := ""
	if f < 0 {
		sign, f = "-", -f
	}
	e := strconv.FormatFloat(f, 'e', -1, 64) // d.ddde±xx
	mant, expS, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	exp, _ := strconv.Atoi(expS)
	k := len(digits)
	n := exp + 1 // decimal point position
	switch {
	case k <= n && n <= 21:
		return sign + digits + strings.Repeat("0", n-k)
	case 0 < n && n <= 21:
		return sign + digits[:n] + "." + digits[n:]
	case -6 < n && n <= 0:
		return sign + "0." + strings.Repeat("0", -n) + digits
	}
	es := "+"
	if n-1 < 0 {
		es = "-"
	}
	ev := strconv.Itoa(int(math.Abs(float64(n - 1))))
	if k == 1 {
		return sign + digits + "e" + es + ev
	}
	return sign + digits[:1] + "." + digits[1:] + "e" + es + ev
}

// CheckDivergence compares the definition parts of adoptions that share a
// definition identity (SPEC §10.11) and reports
// CONTRACT_DEFINITION_DIVERGENT on the `contract` key of each adoption
// whose definition part differs from another's, with the others as
// Related.
func CheckDivergence(adoptions []*Adoption) []source.Finding {
	groups := map[string][]*Adoption{}
	var ids []string
	for _, a := range adoptions {
		if a == nil || a.ParseError != nil {
			continue
		}
		id := a.Identity()
		if id == "" {
			continue
		}
		if _, ok := groups[id]; !ok {
			ids = append(ids, id)
		}
		groups[id] = append(groups[id], a)
	}
	sort.Strings(ids)
	var out []source.Finding
	for _, id := range ids {
		g := groups[id]
		if len(g) < 2 {
			continue
		}
		texts := make([]string, len(g))
		for i, a := range g {
			texts[i] = DefinitionText(a)
		}
		for i, a := range g {
			var rel []source.Related
			var others []string
			for j, b := range g {
				if i != j && texts[i] != texts[j] {
					rel = append(rel, source.Related{File: b.File, Span: b.ContractKey, Message: "adoption " + strconv.Quote(b.ID) + " holds a different copy"})
					others = append(others, b.ID)
				}
			}
			if len(rel) == 0 {
				continue
			}
			out = append(out, source.Finding{Code: "CONTRACT_DEFINITION_DIVERGENT", Severity: source.Error, File: a.File, Span: a.ContractKey,
				Message: "the definition " + id + " in this adoption differs from its copy in " + quoteList(others) +
					"; copies of one contract and version must be identical (publish a changed copy under a new contract or version)",
				Related: rel})
		}
	}
	return out
}
