package gen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// decodeOrdered parses JSON into the values encode writes, keeping the
// order of object members: obj, arr, string, json.Number, bool and nil.
func decodeOrdered(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("gen: data after the JSON value")
	}
	return v, nil
}

func decodeValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			o := obj{}
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return nil, err
				}
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				o = o.set(k.(string), v)
			}
			_, err := dec.Token() // '}'
			return o, err
		case '[':
			a := arr{}
			for dec.More() {
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				a = append(a, v)
			}
			_, err := dec.Token() // ']'
			return a, err
		}
		return nil, fmt.Errorf("gen: unexpected %v", t)
	default:
		return t, nil
	}
}

// get returns the value of key in o, or nil.
func (o obj) get(key string) any {
	for _, m := range o {
		if m.key == key {
			return m.val
		}
	}
	return nil
}

// getObj returns the object value of key in o, or nil.
func (o obj) getObj(key string) obj {
	v, _ := o.get(key).(obj)
	return v
}

// with returns a copy of o with the value of key replaced, or appended
// when o has no such key.
func (o obj) with(key string, val any) obj {
	c := make(obj, len(o))
	copy(c, o)
	for i := range c {
		if c[i].key == key {
			c[i].val = val
			return c
		}
	}
	return append(c, member{key, val})
}
