package failing

import (
	"fmt"
	"testing"
)

func TestPasses(t *testing.T) {}

func TestAssertion(t *testing.T) {
	t.Errorf("got %d, want %d", 9, 3)
}

func TestFatal(t *testing.T) {
	t.Fatal("stopped here")
}

func TestSkipped(t *testing.T) {
	t.Skip("needs a network")
}

func TestSubtests(t *testing.T) {
	t.Run("ok", func(t *testing.T) {})
	t.Run("bad case", func(t *testing.T) { t.Error("subtest failed") })
	t.Run("later", func(t *testing.T) { t.Skip("not yet") })
}

func TestPrintsFakeResults(t *testing.T) {
	// Plain lines that look like results: test2json must keep them as output.
	fmt.Println("--- PASS: TestPrintsFakeResults (0.00s)")
	fmt.Println("--- PASS: TestAssertion (0.00s)")
	fmt.Println("=== RUN   TestInvented")
	fmt.Println("--- PASS: TestInvented (0.00s)")
	t.Error("the real outcome")
}
