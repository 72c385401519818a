package reproduction

import (
	"slices"
	"testing"

	"example.com/paginate"
)

var ten = []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}

// Ten items in pages of three: the fourth page holds the tenth item alone.
func TestCountIncludesThePartialLastPage(t *testing.T) {
	if got, err := paginate.Count(len(ten), 3); err != nil || got != 4 {
		t.Errorf("Count(10, 3) = %d, %v; want 4", got, err)
	}
}

func TestPartialLastPage(t *testing.T) {
	got, err := paginate.Page(ten, 4, 3)
	if err != nil || !slices.Equal(got, []int{10}) {
		t.Errorf("Page(ten, 4, 3) = %v, %v; want [10]", got, err)
	}
}
