const { observe, observeThrows } = require("./patchproof-oracle.cjs"); // sealed by patchproof witness seal
/* eslint-disable no-script-url */
// Hidden tests (written here, independently of upstream's): the colon entity ends every refused
// scheme, tab entities go wherever they stand, and safe URLs keep their text.
const { sanitizeUrl } = require("../../src");

describe("the colon entity", () => {
  test("ends a data scheme", () => {
    observe("hidden:colon-tab-hidden.test.js/8", () => (sanitizeUrl("data&colon;text/html;base64,PHNjcmlwdD4=")));
  });

  test("ends a vbscript scheme", () => {
    observe("hidden:colon-tab-hidden.test.js/12", () => (sanitizeUrl("vbscript&colon;msgbox(1)")));
  });

  test("after leading spaces and in capitals", () => {
    observe("hidden:colon-tab-hidden.test.js/16", () => (sanitizeUrl("   JavaScript&colon;alert(1)")));
  });

  test("does not hide a scheme that is safe", () => {
    observe("hidden:colon-tab-hidden.test.js/20", () => (sanitizeUrl("https://example.com/docs&colon;intro")));
  });
});

describe("tab entities", () => {
  test("two of them, one in lower case", () => {
    observe("hidden:colon-tab-hidden.test.js/26", () => (sanitizeUrl("ja&Tab;vas&tab;cript:alert(1)")));
  });

  test("in a data scheme with a colon entity", () => {
    observe("hidden:colon-tab-hidden.test.js/30", () => (sanitizeUrl("da&Tab;ta&colon;text/html,hi")));
  });

  test("in a safe URL they are a tab, which is dropped", () => {
    observe("hidden:colon-tab-hidden.test.js/34", () => (sanitizeUrl("https://example.com/&Tab;path")));
  });
});
