const { observe, observeThrows } = require("./patchproof-oracle.cjs"); // sealed by patchproof witness seal
/* eslint-disable no-script-url */
// Reproduction (written here from the 6.0.1 changelog): in an href, "&colon;" is a colon and
// "&Tab;" a tab (which browsers drop from URLs), so both hide a javascript: scheme from a
// sanitizer that reads the raw text.
const { sanitizeUrl } = require("../../src");

test("a javascript scheme whose colon is an entity is refused", () => {
  observe("reproduction:colon-tab-repro.test.js/8", () => (sanitizeUrl("javascript&colon;alert(document.cookie)")));
});

test("a javascript scheme split by a tab entity is refused", () => {
  observe("reproduction:colon-tab-repro.test.js/12", () => (sanitizeUrl("javasc&Tab;ript:alert(document.cookie)")));
});
