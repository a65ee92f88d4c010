package gen

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// obj is a JSON object whose members keep their order.
type obj []member

// member is one key and value of an obj.
type member struct {
	key string
	val any
}

// arr is a JSON array.
type arr []any

// set appends a member and returns the object.
func (o obj) set(key string, val any) obj { return append(o, member{key, val}) }

// encode writes v as JSON indented with two spaces, keeping member order.
// Values may be obj, arr, []string, string, json.Number, int, float64, bool
// or nil.
func encode(v any) []byte {
	var b strings.Builder
	writeJSON(&b, v, 0)
	b.WriteByte('\n')
	return []byte(b.String())
}

func writeJSON(b *strings.Builder, v any, depth int) {
	indent := func(d int) {
		b.WriteByte('\n')
		for i := 0; i < d; i++ {
			b.WriteString("  ")
		}
	}
	switch v := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case int:
		b.WriteString(strconv.Itoa(v))
	case float64:
		b.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
	case json.Number:
		b.WriteString(string(v))
	case string:
		b.WriteString(quote(v))
	case []string:
		a := make(arr, len(v))
		for i, s := range v {
			a[i] = s
		}
		writeJSON(b, a, depth)
	case arr:
		if len(v) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			indent(depth + 1)
			writeJSON(b, e, depth+1)
		}
		indent(depth)
		b.WriteByte(']')
	case obj:
		if len(v) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteByte('{')
		for i, m := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			indent(depth + 1)
			b.WriteString(quote(m.key))
			b.WriteString(": ")
			writeJSON(b, m.val, depth+1)
		}
		indent(depth)
		b.WriteByte('}')
	default:
		b.WriteString("null") // not produced by this package
	}
}

// quote returns s as a JSON string, without escaping '<', '>' and '&'.
func quote(s string) string {
	plain := true
	for i := 0; i < len(s) && plain; i++ {
		c := s[i]
		plain = c >= 0x20 && c < 0x7f && c != '"' && c != '\\'
	}
	if plain {
		return `"` + s + `"`
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return strings.TrimSuffix(b.String(), "\n")
}
