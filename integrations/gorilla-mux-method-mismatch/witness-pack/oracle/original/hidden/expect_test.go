package hidden

// The expected values of routing_test.go's checks (sealed into oracle/expected.json).

import (
	"encoding/json"
	"testing"
)

var want = map[string]string{
	"hidden:query/status": "[404,\"404 page not found\\n\"]",
	"hidden:header/status": "[404,\"404 page not found\\n\"]",
	"hidden:host/status": "[404,\"404 page not found\\n\"]",
	"hidden:scheme/status": "[404,\"404 page not found\\n\"]",
	"hidden:matcher-func/status": "[404,\"404 page not found\\n\"]",
	"hidden:match/query-mismatch": "[false,\"no matching route was found\",\"\"]",
	"hidden:match/query-match": "[true,\"\",\"7\"]",
	"hidden:match/post": "[true,\"\",\"\"]",
	"hidden:match/delete": "[false,\"method is not allowed\",\"\"]",
	"hidden:serve/get-page": "[200,\"page=12\"]",
	"hidden:serve/post": "[200,\"page=\"]",
	"hidden:mismatch/one-route": "[405,\"\"]",
	"hidden:mismatch/later-route-elsewhere": "[405,\"\"]",
	"hidden:mismatch/both-routes": "[405,\"\"]",
	"hidden:custom/query-mismatch": "[418,\"custom not found\"]",
	"hidden:custom/method-mismatch": "[409,\"custom not allowed\"]",
}

func observe(t *testing.T, id string, compute func() any) {
	t.Helper()
	got, _ := json.Marshal(compute())
	if string(got) != want[id] {
		t.Errorf("%s: got %s, want %s", id, got, want[id])
	}
}
