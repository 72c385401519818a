package duplicates

import "testing"

// Three subtests named alike: go test itself numbers them (same, same#01, same#02).
func TestDivide(t *testing.T) {
	for _, c := range []struct{ a, b, q int }{{6, 3, 2}, {8, 4, 2}, {9, 3, 3}} {
		t.Run("same", func(t *testing.T) {
			if got := Divide(c.a, c.b); got != c.q {
				t.Fatalf("Divide(%d, %d) = %d, want %d", c.a, c.b, got, c.q)
			}
		})
	}
}
