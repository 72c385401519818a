/* eslint-disable no-script-url */
// Hidden tests (written here, independently of upstream's): the colon entity ends every refused
// scheme, tab entities go wherever they stand, and safe URLs keep their text.
const { sanitizeUrl } = require("../../src");

describe("the colon entity", () => {
  test("ends a data scheme", () => {
    expect(sanitizeUrl("data&colon;text/html;base64,PHNjcmlwdD4=")).toBe("about:blank");
  });

  test("ends a vbscript scheme", () => {
    expect(sanitizeUrl("vbscript&colon;msgbox(1)")).toBe("about:blank");
  });

  test("after leading spaces and in capitals", () => {
    expect(sanitizeUrl("   JavaScript&colon;alert(1)")).toBe("about:blank");
  });

  test("does not hide a scheme that is safe", () => {
    expect(sanitizeUrl("https://example.com/docs&colon;intro")).toBe("https://example.com/docs&colon;intro");
  });
});

describe("tab entities", () => {
  test("two of them, one in lower case", () => {
    expect(sanitizeUrl("ja&Tab;vas&tab;cript:alert(1)")).toBe("about:blank");
  });

  test("in a data scheme with a colon entity", () => {
    expect(sanitizeUrl("da&Tab;ta&colon;text/html,hi")).toBe("about:blank");
  });

  test("in a safe URL they are a tab, which is dropped", () => {
    expect(sanitizeUrl("https://example.com/&Tab;path")).toBe("https://example.com/path");
  });
});
