package direction

import (
	"math"
	"strconv"
)

// RGB is a decoded sRGB color, 8 bits per channel.
type RGB struct{ R, G, B uint8 }

// ParseHex decodes a `#RRGGBB` string, in either letter case.
func ParseHex(s string) (RGB, bool) {
	if !IsHex(s) {
		return RGB{}, false
	}
	n, err := strconv.ParseUint(s[1:], 16, 32)
	if err != nil {
		return RGB{}, false
	}
	return RGB{uint8(n >> 16), uint8(n >> 8), uint8(n)}, true
}

// linear decodes one sRGB channel to linear light as WCAG 2.1 defines it.
func linear(c uint8) float64 {
	x := float64(c) / 255
	if x <= 0.03928 {
		return x / 12.92
	}
	return math.Pow((x+0.055)/1.055, 2.4)
}

// Luminance is the WCAG 2.1 relative luminance of c, from 0 (black) to 1
// (white).
func Luminance(c RGB) float64 {
	return 0.2126*linear(c.R) + 0.7152*linear(c.G) + 0.0722*linear(c.B)
}

// Contrast is the WCAG 2.1 contrast ratio of two colors, from 1 to 21:
// the lighter luminance plus 0.05 over the darker plus 0.05.
func Contrast(a, b RGB) float64 {
	la, lb := Luminance(a), Luminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// Meets reports whether ratio meets the minimum atLeast, with the
// tolerance of 1e-9 the format gives the comparison (SPEC §9.6 rule 3).
func Meets(ratio, atLeast float64) bool { return ratio+contrastTolerance >= atLeast }

// FormatRatio writes a contrast ratio for people, to two decimals.
func FormatRatio(r float64) string { return strconv.FormatFloat(r, 'f', 2, 64) + ":1" }
