package exits

import (
	"os"
	"testing"
)

func TestFirst(t *testing.T) {}

func TestExitsMidway(t *testing.T) {
	os.Exit(3)
}

func TestAfterExit(t *testing.T) {}
