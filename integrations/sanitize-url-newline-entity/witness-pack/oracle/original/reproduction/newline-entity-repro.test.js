/* eslint-disable no-script-url */
// Reproduction (written here from the 6.0.2 changelog): an HTML "&NewLine;" entity inside a URL is
// a newline once the URL sits in an href, and browsers drop newlines from URLs, so
// "java&NewLine;script:" runs as "javascript:". sanitizeUrl must see through it.
const { sanitizeUrl } = require("../../src");

test("a javascript: scheme split by a newline entity is refused", () => {
  expect(sanitizeUrl("java&NewLine;script:alert(document.domain)")).toBe("about:blank");
});

test("a newline entity in a safe URL is dropped", () => {
  expect(sanitizeUrl("https://example.org&NewLine;/account")).toBe("https://example.org/account");
});
