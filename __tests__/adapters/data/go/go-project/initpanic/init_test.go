package initpanic

import "testing"

func TestLookup(t *testing.T) {
	if Lookup("boot") != 1 {
		t.Error("boot missing")
	}
}
