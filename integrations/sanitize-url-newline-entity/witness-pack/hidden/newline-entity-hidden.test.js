const { observe, observeThrows } = require("./patchproof-oracle.cjs"); // sealed by patchproof witness seal
/* eslint-disable no-script-url */
// Hidden tests (written here, independently of upstream's): every newline entity goes, wherever
// it stands and however many there are, in every refused scheme; other named entities stay.
const { sanitizeUrl } = require("../../src");

describe("newline entities in refused schemes", () => {
  test("two entities inside javascript", () => {
    observe("hidden:newline-entity-hidden.test.js/8", () => (sanitizeUrl("jav&NewLine;asc&NewLine;ript:alert(1)")));
  });

  test("an entity before the scheme", () => {
    observe("hidden:newline-entity-hidden.test.js/12", () => (sanitizeUrl("&NewLine;javascript:alert(1)")));
  });

  test("entities inside data and vbscript", () => {
    observe("hidden:newline-entity-hidden.test.js/16", () => (sanitizeUrl("da&NewLine;ta:text/html;base64,PHNjcmlwdD4=")));
    observe("hidden:newline-entity-hidden.test.js/17", () => (sanitizeUrl("vb&NewLine;script:msgbox(1)")));
  });

  test("a newline entity beside a tab entity", () => {
    observe("hidden:newline-entity-hidden.test.js/21", () => (sanitizeUrl("java&Tab;scr&NewLine;ipt:alert(1)")));
  });
});

describe("safe URLs with newline entities", () => {
  test("a run of entities in the path", () => {
    observe("hidden:newline-entity-hidden.test.js/27", () => (sanitizeUrl("https://shop.example.net&NewLine;&NewLine;&NewLine;/cart")));
  });

  test("an entity at the end of a mailto URL", () => {
    observe("hidden:newline-entity-hidden.test.js/31", () => (sanitizeUrl("mailto:someone@example.com&NewLine;")));
  });

  test("other named entities are left as they are", () => {
    observe("hidden:newline-entity-hidden.test.js/35", () => (sanitizeUrl("https://example.com/search?a=1&amp;b=2")));
  });
});
