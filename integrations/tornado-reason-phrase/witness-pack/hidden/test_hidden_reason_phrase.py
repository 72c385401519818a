"""Independent edge tests for CVE-2025-67724: a reason phrase that is not a valid HTTP
reason-phrase (CR, LF, other control characters, markup) never reaches the status line nor the
error page, whichever way it is set; valid custom reasons and the standard ones stay as they were."""

from patchproof_oracle import observe, observe_raises  # sealed by patchproof witness seal
from tornado.simple_httpclient import SimpleAsyncHTTPClient
from tornado.testing import AsyncHTTPTestCase
from tornado.web import Application, HTTPError, RequestHandler


class SetStatus(RequestHandler):
    def get(self):
        self.set_status(int(self.get_argument("code")), reason=self.get_argument("reason"))
        self.write("body")


class Raise(RequestHandler):
    def get(self):
        raise HTTPError(int(self.get_argument("code")), reason=self.get_argument("reason"))


class Missing(RequestHandler):
    def get(self):
        raise HTTPError(404)


class ReasonPhraseTest(AsyncHTTPTestCase):
    def get_app(self):
        return Application([("/set", SetStatus), ("/raise", Raise), ("/missing", Missing)])

    def get_http_client(self):
        # simple_httpclient exposes the reason phrase of the status line.
        return SimpleAsyncHTTPClient()

    def fetch_reason(self, path):
        response = self.fetch(path)
        return response.code, response.reason, dict(response.headers), response.body.decode("utf-8")

    def test_crlf_in_a_reason_cannot_add_a_header(self):
        code, reason, headers, body = self.fetch_reason("/set?code=200&reason=OK%0D%0AX-Injected:%20yes")
        observe("hidden:test_hidden_reason_phrase.py/40", lambda: (code))
        observe("hidden:test_hidden_reason_phrase.py/41", lambda: ("X-Injected" in headers))
        observe("hidden:test_hidden_reason_phrase.py/42", lambda: ("\n" in reason))
        observe("hidden:test_hidden_reason_phrase.py/43", lambda: (body))

    def test_bare_lf_in_a_reason(self):
        code, reason, headers, body = self.fetch_reason("/set?code=201&reason=Made%0Ait")
        observe("hidden:test_hidden_reason_phrase.py/47", lambda: (code))
        observe("hidden:test_hidden_reason_phrase.py/48", lambda: ("\n" in reason))

    def test_control_characters_in_a_reason(self):
        code, reason, headers, body = self.fetch_reason("/set?code=202&reason=A%01B%7FC")
        observe("hidden:test_hidden_reason_phrase.py/52", lambda: (code))
        observe("hidden:test_hidden_reason_phrase.py/53", lambda: (any(ord(c) < 32 or ord(c) == 127 for c in reason)))

    def test_markup_never_reaches_the_status_line(self):
        code, reason, headers, body = self.fetch_reason("/set?code=200&reason=%3Cimg%20src=x%3E")
        observe("hidden:test_hidden_reason_phrase.py/57", lambda: (code))
        observe("hidden:test_hidden_reason_phrase.py/58", lambda: ("<" in reason))

    def test_markup_reason_of_an_error_is_neither_in_status_line_nor_page(self):
        code, reason, headers, body = self.fetch_reason("/raise?code=418&reason=%3Cb%3Ehi%3C/b%3E")
        observe("hidden:test_hidden_reason_phrase.py/62", lambda: (code))
        observe("hidden:test_hidden_reason_phrase.py/63", lambda: ("<" in reason))
        observe("hidden:test_hidden_reason_phrase.py/64", lambda: ("<b>" in body))

    def test_crlf_reason_of_an_error_still_gives_its_code(self):
        code, reason, headers, body = self.fetch_reason("/raise?code=400&reason=Bad%0D%0ASet-Cookie:%20a=b")
        observe("hidden:test_hidden_reason_phrase.py/68", lambda: (code))
        observe("hidden:test_hidden_reason_phrase.py/69", lambda: ("Set-Cookie" in headers))

    def test_valid_custom_reasons_are_kept(self):
        observe("hidden:test_hidden_reason_phrase.py/72", lambda: (self.fetch_reason("/set?code=299&reason=Fine%20And%20Dandy")[1]))
        observe("hidden:test_hidden_reason_phrase.py/73", lambda: (self.fetch_reason("/raise?code=499&reason=Client%20Went%20Away")[1]))

    def test_standard_reasons_are_unchanged(self):
        code, reason, headers, body = self.fetch_reason("/missing")
        observe("hidden:test_hidden_reason_phrase.py/77", lambda: (code))
        observe("hidden:test_hidden_reason_phrase.py/78", lambda: (reason))
        observe("hidden:test_hidden_reason_phrase.py/79", lambda: (body))
