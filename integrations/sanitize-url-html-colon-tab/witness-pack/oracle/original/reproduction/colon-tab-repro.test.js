/* eslint-disable no-script-url */
// Reproduction (written here from the 6.0.1 changelog): in an href, "&colon;" is a colon and
// "&Tab;" a tab (which browsers drop from URLs), so both hide a javascript: scheme from a
// sanitizer that reads the raw text.
const { sanitizeUrl } = require("../../src");

test("a javascript scheme whose colon is an entity is refused", () => {
  expect(sanitizeUrl("javascript&colon;alert(document.cookie)")).toBe("about:blank");
});

test("a javascript scheme split by a tab entity is refused", () => {
  expect(sanitizeUrl("javasc&Tab;ript:alert(document.cookie)")).toBe("about:blank");
});
