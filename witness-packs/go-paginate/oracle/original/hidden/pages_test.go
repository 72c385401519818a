package hidden

import (
	"slices"
	"testing"

	"example.com/paginate"
)

func TestCount(t *testing.T) {
	cases := []struct{ total, size, want int }{
		{9, 3, 3},
		{10, 3, 4},
		{1, 3, 1},
		{3, 3, 1},
		{100, 10, 10},
		{101, 10, 11},
		{5, 1, 5},
		{0, 4, 0},
	}
	for _, c := range cases {
		if got, err := paginate.Count(c.total, c.size); err != nil || got != c.want {
			t.Errorf("Count(%d, %d) = %d, %v; want %d", c.total, c.size, got, err, c.want)
		}
	}
}

func TestEveryItemOnExactlyOnePage(t *testing.T) {
	for total := 0; total <= 12; total++ {
		items := make([]int, total)
		for i := range items {
			items[i] = i
		}
		for size := 1; size <= 5; size++ {
			pages, err := paginate.Count(total, size)
			if err != nil {
				t.Fatalf("Count(%d, %d): %v", total, size, err)
			}
			var seen []int
			for n := 1; n <= pages; n++ {
				page, err := paginate.Page(items, n, size)
				if err != nil || len(page) == 0 || len(page) > size {
					t.Fatalf("Page(%d items, %d, %d) = %v, %v; want 1 to %d items", total, n, size, page, err, size)
				}
				seen = append(seen, page...)
			}
			if !slices.Equal(seen, items) {
				t.Errorf("%d items in pages of %d: pages 1..%d hold %v", total, size, pages, seen)
			}
			if after, _ := paginate.Page(items, pages+1, size); len(after) != 0 {
				t.Errorf("%d items in pages of %d: page %d = %v; want empty", total, size, pages+1, after)
			}
		}
	}
}

func TestPartialPageDoesNotExposeSpareCapacity(t *testing.T) {
	items := make([]string, 5, 16)
	copy(items, []string{"a", "b", "c", "d", "e"})
	page, err := paginate.Page(items, 2, 4)
	if err != nil || !slices.Equal(page, []string{"e"}) {
		t.Errorf("Page(5 items, 2, 4) = %q, %v; want [e]", page, err)
	}
}
