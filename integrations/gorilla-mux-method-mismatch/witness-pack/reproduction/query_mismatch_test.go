package reproduction

// Sealed by hand from oracle/original/reproduction/query_mismatch_test.go: the check observes the
// status the router answers; the expected value is in oracle/expected.json, never in the container.
// gorilla/mux issue #704: a POST route and a GET route with a query matcher share a path; a GET
// whose query does not match matches no route.

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gorilla/mux"
)

func noop(http.ResponseWriter, *http.Request) {}

func TestQueryMismatchAfterMethodMismatchIsNotFound(t *testing.T) {
	observe(t, "reproduction:query-mismatch/status", func() any {
		r := mux.NewRouter()
		r.HandleFunc("/orders", noop).Methods(http.MethodPost)
		r.HandleFunc("/orders", noop).Queries("page", "{page:[0-9]+}").Methods(http.MethodGet)
		rec := httptest.NewRecorder()
		r.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/orders?page=last", nil))
		return rec.Code
	})
}
