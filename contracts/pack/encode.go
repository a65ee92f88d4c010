package pack

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gddls/gddls/contracts/jsonsrc"
)

// encodeIndent writes v as JSON indented by two spaces per level, keeping
// member order. Numbers keep their literal text.
func encodeIndent(v *jsonsrc.Value) string {
	var b strings.Builder
	writeValue(&b, v, 0)
	return b.String()
}

func writeValue(b *strings.Builder, v *jsonsrc.Value, depth int) {
	if v == nil {
		b.WriteString("null")
		return
	}
	switch v.Kind {
	case jsonsrc.Null, jsonsrc.Invalid:
		b.WriteString("null")
	case jsonsrc.Bool:
		b.WriteString(strconv.FormatBool(v.Bool))
	case jsonsrc.Number:
		if v.Raw != "" {
			b.WriteString(v.Raw)
		} else {
			b.WriteString(jsNumber(v.Num))
		}
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
			newline(b, depth+1)
			writeValue(b, e, depth+1)
		}
		newline(b, depth)
		b.WriteString("]")
	case jsonsrc.Object:
		if len(v.Members) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteString("{")
		for i, m := range v.Members {
			if i > 0 {
				b.WriteString(",")
			}
			newline(b, depth+1)
			writeString(b, m.Key)
			b.WriteString(": ")
			writeValue(b, m.Value, depth+1)
		}
		newline(b, depth)
		b.WriteString("}")
	}
}

func newline(b *strings.Builder, depth int) {
	b.WriteByte('\n')
	for i := 0; i < depth; i++ {
		b.WriteString("  ")
	}
}

// writeString writes s as a JSON string, escaping only what JSON requires.
func writeString(b *strings.Builder, s string) {
	b.WriteByte('"')
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				b.WriteString(`\ufffd`)
			} else {
				b.WriteString(s[i : i+size])
			}
			i += size
			continue
		}
		switch c {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		default:
			if c < 0x20 {
				b.WriteString(`\u00`)
				b.WriteByte("0123456789abcdef"[c>>4])
				b.WriteByte("0123456789abcdef"[c&15])
			} else {
				b.WriteByte(c)
			}
		}
		i++
	}
	b.WriteByte('"')
}

// jsNumber formats f the way JSON.stringify does: the shortest decimal
// that round-trips, with an exponent only for very large or small numbers.
func jsNumber(f float64) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "null"
	}
	if f == 0 {
		return "0"
	}
	abs := math.Abs(f)
	if abs >= 1e21 || abs < 1e-6 {
		s := strconv.FormatFloat(f, 'e', -1, 64)
		// Go writes 1e+21 and 1e-07; JavaScript writes 1e+21 and 1e-7.
		if i := strings.IndexAny(s, "e"); i >= 0 {
			mant, exp := s[:i], s[i+1:]
			sign := exp[0]
			digits := strings.TrimLeft(exp[1:], "0")
			if digits == "" {
				digits = "0"
			}
			return mant + "e" + string(sign) + digits
		}
		return s
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// textOf renders a scalar JSON value as text inside a string. ok is false
// for arrays and objects.
func textOf(v *jsonsrc.Value) (string, bool) {
	switch v.Kind {
	case jsonsrc.String:
		return v.Str, true
	case jsonsrc.Number:
		return jsNumber(v.Num), true
	case jsonsrc.Bool:
		return strconv.FormatBool(v.Bool), true
	case jsonsrc.Null:
		return "null", true
	}
	return "", false
}

// copyValue copies v without spans and without annotation members.
func copyValue(v *jsonsrc.Value) *jsonsrc.Value {
	if v == nil {
		return nil
	}
	out := &jsonsrc.Value{Kind: v.Kind, Str: v.Str, Num: v.Num, Raw: v.Raw, Bool: v.Bool}
	switch v.Kind {
	case jsonsrc.Array:
		out.Elems = make([]*jsonsrc.Value, 0, len(v.Elems))
		for _, e := range v.Elems {
			out.Elems = append(out.Elems, copyValue(e))
		}
	case jsonsrc.Object:
		for _, m := range v.Members {
			if strings.HasPrefix(m.Key, "_") {
				continue
			}
			out.Members = append(out.Members, jsonsrc.Member{Key: m.Key, Value: copyValue(m.Value)})
		}
	}
	return out
}
