package noimport

import (
	"testing"

	"example.com/not/there"
)

func TestUsesMissingModule(t *testing.T) { there.Do() }
