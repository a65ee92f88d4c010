package tuning

import "testing"

func TestSchemaKey(t *testing.T) {
	for key, ok := range map[string]bool{
		"lantern.oil_units": true, "a.b": true, "x-1.y_2": true, "level.2": true,
		"single": false, "1.2": false, "a..b": false, "a.-b": false, "a.b-": false, "a.b!": false, "": false,
	} {
		if got := schemaKey(key) == ""; got != ok {
			t.Errorf("schemaKey(%q) accepts = %v, want %v (%s)", key, got, ok, schemaKey(key))
		}
	}
}
