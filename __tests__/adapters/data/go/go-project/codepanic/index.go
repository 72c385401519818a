package codepanic

// Third returns the third item.
func Third(items []int) int {
	return items[2]
}
