package migrate

import "testing"

func TestAllDigitKey(t *testing.T) {
	for _, tc := range []struct {
		quoted string
		want   bool
	}{
		{`"1.2"`, true},
		{`"7"`, true},
		{`"1.b"`, false},
		{`"lantern.oil_units"`, false},
		{`"1..2"`, false},
		{`""`, false},
	} {
		if got := allDigitKey(tc.quoted); got != tc.want {
			t.Errorf("allDigitKey(%s) = %v, want %v", tc.quoted, got, tc.want)
		}
	}
}

func TestEmptyArray(t *testing.T) {
	for _, tc := range []struct {
		text string
		want bool
	}{
		{"[]", true},
		{"[\n  ]", true},
		{`[""]`, false},
		{`""`, false},
	} {
		if got := emptyArray(tc.text); got != tc.want {
			t.Errorf("emptyArray(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}
