package reproduction

// gorilla/mux issue #704: a POST route and a GET route with a query matcher share a path. A GET
// whose query does not match matches no route, so the answer is 404; mux 1.8.0 answers 405, the
// POST route's method mismatch, as if a GET to that path existed nowhere.

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gorilla/mux"
)

func noop(http.ResponseWriter, *http.Request) {}

func TestQueryMismatchAfterMethodMismatchIsNotFound(t *testing.T) {
	r := mux.NewRouter()
	r.HandleFunc("/orders", noop).Methods(http.MethodPost)
	r.HandleFunc("/orders", noop).Queries("page", "{page:[0-9]+}").Methods(http.MethodGet)
	rec := httptest.NewRecorder()
	r.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/orders?page=last", nil))
	if rec.Code != http.StatusNotFound {
		t.Errorf("GET /orders?page=last: status %d, want 404", rec.Code)
	}
}
