package testpanic

import "testing"

func TestWritesNilMap(t *testing.T) {
	var counts map[string]int
	counts["x"]++
}
