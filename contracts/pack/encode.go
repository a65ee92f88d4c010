package pack

import (
	"strconv"
	"strings"

	"github.com/gddls/gddls/contracts/jsonsrc"
)

// textOf renders a scalar JSON value as text inside a string. ok is false
// for arrays and objects.
func textOf(v *jsonsrc.Value) (string, bool) {
	switch v.Kind() {
	case jsonsrc.String:
		return v.Str(), true
	case jsonsrc.Number:
		return jsonsrc.FormatNumber(v.Num()), true
	case jsonsrc.Bool:
		return strconv.FormatBool(v.Bool()), true
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
	switch v.Kind() {
	case jsonsrc.Array:
		elems := make([]*jsonsrc.Value, 0, len(v.Elems()))
		for _, e := range v.Elems() {
			elems = append(elems, copyValue(e))
		}
		return jsonsrc.NewArray(elems)
	case jsonsrc.Object:
		var members []jsonsrc.Member
		for _, m := range v.Members() {
			if strings.HasPrefix(m.Key, "_") {
				continue
			}
			members = append(members, jsonsrc.Member{Key: m.Key, Value: copyValue(m.Value)})
		}
		return jsonsrc.NewObject(members)
	}
	return v.CopyScalar()
}

// encodeIndent prints a generated test block as JSON indented by two
// spaces, keeping member order and the numbers as they were written.
func encodeIndent(v *jsonsrc.Value) string {
	var b strings.Builder
	jsonsrc.Write(&b, v, jsonsrc.WriteOptions{Indent: true, RawNumbers: true})
	return b.String()
}
