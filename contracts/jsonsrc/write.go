package jsonsrc

import (
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// WriteOptions choose how Write prints a value.
type WriteOptions struct {
	// Indent prints containers over several lines, two spaces per level;
	// Depth is the level the value starts at.
	Indent bool
	Depth  int
	// SkipAnnotations leaves out object members whose key starts with "_".
	SkipAnnotations bool
	// JSONParseKeys prints a repeated key once, at its first position with
	// its last value, as JavaScript's JSON.parse reads it.
	JSONParseKeys bool
	// RawNumbers prints numbers as they were written; otherwise they are
	// printed as JavaScript prints them (FormatNumber).
	RawNumbers bool
}

// Writer is what Write and WriteString print to: a *strings.Builder, or a
// *bufio.Writer in front of a hash, which digests a value without holding
// its text. Write errors are the writer's to keep (bufio.Writer.Flush
// reports them); the two named never fail.
type Writer interface {
	io.ByteWriter
	io.StringWriter
}

// Write prints v as JSON to b. A nil or invalid value prints null.
func Write(b Writer, v *Value, opt WriteOptions) {
	newline := func(depth int) {
		if opt.Indent {
			b.WriteByte('\n')
			for i := 0; i < depth; i++ {
				b.WriteString("  ")
			}
		}
	}
	if v == nil {
		b.WriteString("null")
		return
	}
	switch v.Kind() {
	case Bool:
		b.WriteString(strconv.FormatBool(v.Bool()))
	case Number:
		if opt.RawNumbers && v.Raw() != "" {
			b.WriteString(v.Raw())
		} else {
			b.WriteString(FormatNumber(v.Num()))
		}
	case String:
		WriteString(b, v.Str())
	case Array:
		if len(v.Elems()) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteByte('[')
		inner := opt
		inner.Depth++
		for i, e := range v.Elems() {
			if i > 0 {
				b.WriteByte(',')
			}
			newline(inner.Depth)
			Write(b, e, inner)
		}
		newline(opt.Depth)
		b.WriteByte(']')
	case Object:
		members := v.Members()
		if opt.SkipAnnotations || opt.JSONParseKeys {
			members = printedMembers(v.Members(), opt)
		}
		if len(members) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteByte('{')
		inner := opt
		inner.Depth++
		for i, m := range members {
			if i > 0 {
				b.WriteByte(',')
			}
			newline(inner.Depth)
			WriteString(b, m.Key)
			b.WriteByte(':')
			if opt.Indent {
				b.WriteByte(' ')
			}
			Write(b, m.Value, inner)
		}
		newline(opt.Depth)
		b.WriteByte('}')
	default:
		b.WriteString("null")
	}
}

// printedMembers applies SkipAnnotations and JSONParseKeys to an object's
// members.
func printedMembers(members []Member, opt WriteOptions) []Member {
	out := make([]Member, 0, len(members))
	index := map[string]int{}
	for _, m := range members {
		if opt.SkipAnnotations && strings.HasPrefix(m.Key, "_") {
			continue
		}
		if opt.JSONParseKeys {
			if i, dup := index[m.Key]; dup {
				out[i].Value = m.Value
				continue
			}
			index[m.Key] = len(out)
		}
		out = append(out, m)
	}
	return out
}

// WriteString prints s as a JSON string, escaping what JSON requires and
// nothing else; an invalid UTF-8 byte is printed as \ufffd.
func WriteString(b Writer, s string) {
	const hex = "0123456789abcdef"
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
				b.WriteByte(hex[c>>4])
				b.WriteByte(hex[c&15])
			} else {
				b.WriteByte(c)
			}
		}
		i++
	}
	b.WriteByte('"')
}

// Quote returns s as a JSON string.
func Quote(s string) string {
	var b strings.Builder
	WriteString(&b, s)
	return b.String()
}

// FormatNumber prints f as JavaScript's Number.prototype.toString does, so
// that 1.0 prints as 1 and large or tiny numbers use an exponent the way
// JSON.stringify writes them. NaN and infinities print as null.
func FormatNumber(f float64) string {
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
	n := exp + 1 // position of the decimal point
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
