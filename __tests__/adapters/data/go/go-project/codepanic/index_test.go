package codepanic_test

import (
	"testing"

	"example.com/gocases/codepanic"
)

func TestThirdOfTwo(t *testing.T) {
	if got := codepanic.Third([]int{1, 2}); got != 0 {
		t.Errorf("Third = %d", got)
	}
}

func TestNeverReached(t *testing.T) {}
