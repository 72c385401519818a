package reproduction

import (
	"testing"

	"example.com/gocases/codepanic"
	"example.com/gocases/passing"
)

func TestSumAssertion(t *testing.T) {
	if got := passing.Sum(2, 2); got != 5 {
		t.Errorf("Sum(2, 2) = %d, want 5", got)
	}
}

func TestThirdPanicsInCode(t *testing.T) {
	codepanic.Third(nil)
}
