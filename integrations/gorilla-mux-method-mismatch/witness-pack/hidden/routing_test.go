package hidden

// Sealed by hand from oracle/original/hidden/routing_test.go: each check observes what the router
// answers; the expected values are in oracle/expected.json, never in the container. Written here
// from gorilla/mux issue #704, independently of upstream's tests: a route that matched the request
// up to some matcher, then failed on it, must not leave an earlier route's method mismatch behind
// (whatever that matcher is), while a real method mismatch still answers 405.

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gorilla/mux"
)

func echoPage(w http.ResponseWriter, req *http.Request) {
	w.Write([]byte("page=" + mux.Vars(req)["page"]))
}

func status(r http.Handler, method, target string, header http.Header) []any {
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(method, target, nil)
	for name, values := range header {
		req.Header[name] = values
	}
	r.ServeHTTP(rec, req)
	return []any{rec.Code, rec.Body.String()}
}

// A POST route, then a GET route on the same path that also needs one more matcher.
func postThenGet(more func(*mux.Route) *mux.Route) *mux.Router {
	r := mux.NewRouter()
	r.HandleFunc("/orders", echoPage).Methods(http.MethodPost)
	more(r.HandleFunc("/orders", echoPage)).Methods(http.MethodGet)
	return r
}

func TestOtherMatchersAfterAMethodMismatch(t *testing.T) {
	observe(t, "hidden:query/status", func() any {
		r := postThenGet(func(m *mux.Route) *mux.Route { return m.Queries("page", "{page:[0-9]+}") })
		return status(r, http.MethodGet, "/orders?page=-4", nil)
	})
	observe(t, "hidden:header/status", func() any {
		r := postThenGet(func(m *mux.Route) *mux.Route { return m.Headers("X-Version", "2") })
		return status(r, http.MethodGet, "/orders", http.Header{"X-Version": {"1"}})
	})
	observe(t, "hidden:host/status", func() any {
		r := postThenGet(func(m *mux.Route) *mux.Route { return m.Host("api.example.com") })
		return status(r, http.MethodGet, "http://www.example.com/orders", nil)
	})
	observe(t, "hidden:scheme/status", func() any {
		r := postThenGet(func(m *mux.Route) *mux.Route { return m.Schemes("https") })
		return status(r, http.MethodGet, "http://example.com/orders", nil)
	})
	observe(t, "hidden:matcher-func/status", func() any {
		r := postThenGet(func(m *mux.Route) *mux.Route {
			return m.MatcherFunc(func(*http.Request, *mux.RouteMatch) bool { return false })
		})
		return status(r, http.MethodGet, "/orders", nil)
	})
}

func TestMatchErrorAfterAMethodMismatch(t *testing.T) {
	for _, c := range []struct{ id, method, target string }{
		{"hidden:match/query-mismatch", http.MethodGet, "/orders?page=last"},
		{"hidden:match/query-match", http.MethodGet, "/orders?page=7"},
		{"hidden:match/post", http.MethodPost, "/orders"},
		{"hidden:match/delete", http.MethodDelete, "/orders?page=7"},
	} {
		observe(t, c.id, func() any {
			r := postThenGet(func(m *mux.Route) *mux.Route { return m.Queries("page", "{page:[0-9]+}") })
			var match mux.RouteMatch
			matched := r.Match(httptest.NewRequest(c.method, c.target, nil), &match)
			errText := ""
			if match.MatchErr != nil {
				errText = match.MatchErr.Error()
			}
			return []any{matched, errText, match.Vars["page"]}
		})
	}
}

func TestMatchingRoutesStillServe(t *testing.T) {
	r := postThenGet(func(m *mux.Route) *mux.Route { return m.Queries("page", "{page:[0-9]+}") })
	observe(t, "hidden:serve/get-page", func() any { return status(r, http.MethodGet, "/orders?page=12", nil) })
	observe(t, "hidden:serve/post", func() any { return status(r, http.MethodPost, "/orders", nil) })
}

func TestRealMethodMismatchesStay405(t *testing.T) {
	observe(t, "hidden:mismatch/one-route", func() any {
		r := mux.NewRouter()
		r.HandleFunc("/pay", echoPage).Methods(http.MethodPost)
		return status(r, http.MethodGet, "/pay", nil)
	})
	observe(t, "hidden:mismatch/later-route-elsewhere", func() any {
		r := mux.NewRouter()
		r.HandleFunc("/pay", echoPage).Methods(http.MethodPost)
		r.HandleFunc("/refund", echoPage).Methods(http.MethodGet)
		return status(r, http.MethodGet, "/pay", nil)
	})
	observe(t, "hidden:mismatch/both-routes", func() any {
		r := mux.NewRouter()
		r.HandleFunc("/orders", echoPage).Methods(http.MethodPost)
		r.HandleFunc("/orders", echoPage).Queries("page", "{page:[0-9]+}").Methods(http.MethodPut)
		return status(r, http.MethodGet, "/orders?page=3", nil)
	})
}

func TestCustomHandlers(t *testing.T) {
	custom := func(r *mux.Router) *mux.Router {
		r.NotFoundHandler = http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.WriteHeader(http.StatusTeapot)
			w.Write([]byte("custom not found"))
		})
		r.MethodNotAllowedHandler = http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.WriteHeader(http.StatusConflict)
			w.Write([]byte("custom not allowed"))
		})
		return r
	}
	observe(t, "hidden:custom/query-mismatch", func() any {
		r := custom(postThenGet(func(m *mux.Route) *mux.Route { return m.Queries("page", "{page:[0-9]+}") }))
		return status(r, http.MethodGet, "/orders?page=x", nil)
	})
	observe(t, "hidden:custom/method-mismatch", func() any {
		r := mux.NewRouter()
		r.HandleFunc("/pay", echoPage).Methods(http.MethodPost)
		return status(custom(r), http.MethodGet, "/pay", nil)
	})
}
