"""Independent edge tests for CVE-2025-67724: a reason phrase that is not a valid HTTP
reason-phrase (CR, LF, other control characters, markup) never reaches the status line nor the
error page, whichever way it is set; valid custom reasons and the standard ones stay as they were."""

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
        self.assertEqual(code, 200)
        self.assertEqual("X-Injected" in headers, False)
        self.assertEqual("\n" in reason, False)
        self.assertEqual(body, "body")

    def test_bare_lf_in_a_reason(self):
        code, reason, headers, body = self.fetch_reason("/set?code=201&reason=Made%0Ait")
        self.assertEqual(code, 201)
        self.assertEqual("\n" in reason, False)

    def test_control_characters_in_a_reason(self):
        code, reason, headers, body = self.fetch_reason("/set?code=202&reason=A%01B%7FC")
        self.assertEqual(code, 202)
        self.assertEqual(any(ord(c) < 32 or ord(c) == 127 for c in reason), False)

    def test_markup_never_reaches_the_status_line(self):
        code, reason, headers, body = self.fetch_reason("/set?code=200&reason=%3Cimg%20src=x%3E")
        self.assertEqual(code, 200)
        self.assertEqual("<" in reason, False)

    def test_markup_reason_of_an_error_is_neither_in_status_line_nor_page(self):
        code, reason, headers, body = self.fetch_reason("/raise?code=418&reason=%3Cb%3Ehi%3C/b%3E")
        self.assertEqual(code, 418)
        self.assertEqual("<" in reason, False)
        self.assertEqual("<b>" in body, False)

    def test_crlf_reason_of_an_error_still_gives_its_code(self):
        code, reason, headers, body = self.fetch_reason("/raise?code=400&reason=Bad%0D%0ASet-Cookie:%20a=b")
        self.assertEqual(code, 400)
        self.assertEqual("Set-Cookie" in headers, False)

    def test_valid_custom_reasons_are_kept(self):
        self.assertEqual(self.fetch_reason("/set?code=299&reason=Fine%20And%20Dandy")[1], "Fine And Dandy")
        self.assertEqual(self.fetch_reason("/raise?code=499&reason=Client%20Went%20Away")[1], "Client Went Away")

    def test_standard_reasons_are_unchanged(self):
        code, reason, headers, body = self.fetch_reason("/missing")
        self.assertEqual(code, 404)
        self.assertEqual(reason, "Not Found")
        self.assertEqual(body, "<html><title>404: Not Found</title><body>404: Not Found</body></html>")
