package initpanic

var table = build()

func build() map[string]int {
	var m map[string]int
	m["boot"] = 1
	return m
}

// Lookup reads the table.
func Lookup(key string) int { return table[key] }
