package buildplan

import (
	"fmt"
	"testing"

	"github.com/gddls/gddls/analysis/jsonshape"
)

// TestShapesReadNoText holds what pack.CheckTestsMemo relies on when it
// checks one generated block for all the blocks of a template that
// render alike: outside "type", the shapes of a test block judge a string
// by whether it is empty and never by its text (no enum, pattern,
// length, uniqueness, tag or further check). CheckBlock reads the text
// besides only for the message of a problem it has found.
func TestShapesReadNoText(t *testing.T) {
	for _, typ := range []string{Scenario, General, ""} {
		for _, f := range Shape(typ).Fields {
			if f.Name == "type" {
				continue
			}
			if err := readsNoText(f.Shape); err != nil {
				t.Errorf("type %q, field %q: %v", typ, f.Name, err)
			}
		}
	}
}

// readsNoText returns what in s would judge a string by its text.
func readsNoText(s jsonshape.Shape) error {
	switch s := s.(type) {
	case nil, jsonshape.Any, jsonshape.Null, jsonshape.Bool, jsonshape.Number:
		return nil
	case jsonshape.String:
		if len(s.Enum) > 0 || s.Pattern != nil || s.MaxLen > 0 || s.MinLen > 1 || s.Valid != nil {
			return fmt.Errorf("%s reads the text of a string", s.Describe())
		}
		return nil
	case jsonshape.Array:
		if s.Unique {
			return fmt.Errorf("%s compares its elements", s.Describe())
		}
		return readsNoText(s.Elem)
	case jsonshape.OneOf:
		for _, alt := range s.Shapes {
			if err := readsNoText(alt); err != nil {
				return err
			}
		}
		return nil
	case jsonshape.Tagged:
		return readsNoText(s.Shape)
	case jsonshape.Object:
		if s.Valid != nil || s.Tag != "" {
			return fmt.Errorf("%s reads its members' text", s.Describe())
		}
		for _, f := range s.Fields {
			if err := readsNoText(f.Shape); err != nil {
				return err
			}
		}
		return readsNoText(s.Rest)
	}
	return fmt.Errorf("unknown shape %T", s)
}
