/* eslint-disable no-script-url */
// Hidden tests (written here, independently of upstream's): every newline entity goes, wherever
// it stands and however many there are, in every refused scheme; other named entities stay.
const { sanitizeUrl } = require("../../src");

describe("newline entities in refused schemes", () => {
  test("two entities inside javascript", () => {
    expect(sanitizeUrl("jav&NewLine;asc&NewLine;ript:alert(1)")).toBe("about:blank");
  });

  test("an entity before the scheme", () => {
    expect(sanitizeUrl("&NewLine;javascript:alert(1)")).toBe("about:blank");
  });

  test("entities inside data and vbscript", () => {
    expect(sanitizeUrl("da&NewLine;ta:text/html;base64,PHNjcmlwdD4=")).toBe("about:blank");
    expect(sanitizeUrl("vb&NewLine;script:msgbox(1)")).toBe("about:blank");
  });

  test("a newline entity beside a tab entity", () => {
    expect(sanitizeUrl("java&Tab;scr&NewLine;ipt:alert(1)")).toBe("about:blank");
  });
});

describe("safe URLs with newline entities", () => {
  test("a run of entities in the path", () => {
    expect(sanitizeUrl("https://shop.example.net&NewLine;&NewLine;&NewLine;/cart")).toBe("https://shop.example.net/cart");
  });

  test("an entity at the end of a mailto URL", () => {
    expect(sanitizeUrl("mailto:someone@example.com&NewLine;")).toBe("mailto:someone@example.com");
  });

  test("other named entities are left as they are", () => {
    expect(sanitizeUrl("https://example.com/search?a=1&amp;b=2")).toBe("https://example.com/search?a=1&amp;b=2");
  });
});
