"""CVE-2025-67724: tornado writes an HTTPError's reason phrase into its default error page as it
is, so a reason built from request data ("<script>…") is script in the page (XSS). Written for
PatchProof from the advisory; shares no code with upstream's tests."""

from patchproof_oracle import observe, observe_raises  # sealed by patchproof witness seal
from tornado.testing import AsyncHTTPTestCase
from tornado.web import Application, HTTPError, RequestHandler


class MarkupReason(RequestHandler):
    def get(self):
        raise HTTPError(400, reason="<script>alert(document.cookie)</script>")


class ErrorPageReasonTest(AsyncHTTPTestCase):
    def get_app(self):
        return Application([("/markup", MarkupReason)])

    def test_markup_in_a_reason_is_not_script_in_the_error_page(self):
        response = self.fetch("/markup")
        # Only what the bug breaks: every sealed assertion of a reproduction must fail before the fix.
        observe("reproduction:test_repro_reason_markup.py/21", lambda: ("<script>" in response.body.decode("utf-8")))
