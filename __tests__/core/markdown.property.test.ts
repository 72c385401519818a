import fc from 'fast-check';
import { clipText, codeSpan, escapeMarkdown, plainText, UNTRUSTED_TEXT_LIMIT } from '../../src/core/markdown.js';

/** What is left of escaped text once every backslash escape is taken out. */
const unescaped = (text: string): string => text.replace(/\\[!-/:-@[-`{-~]/g, '');

describe('escapeMarkdown, the one escaper', () => {
  it('leaves no unescaped ASCII punctuation, no line break or control character, no bidi override (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        const out = escapeMarkdown(text);
        const rest = unescaped(out);
        expect(rest).not.toMatch(/[!-/:-@[-`{-~]/);
        expect(out).not.toMatch(/[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/u);
      }),
      { numRuns: 500 }
    );
  });

  it('keeps the text readable: taking the backslashes out gives the (clipped, one-line) input back (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        const flat = text.replace(/[\p{Cc}\u2028\u2029]/gu, ' ').replace(/[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '\ufffd');
        expect(escapeMarkdown(text).replace(/\\([!-/:-@[-`{-~])/g, '$1')).toBe(flat);
      })
    );
  });

  it('clips at the limit without splitting a surrogate pair', () => {
    const long = '😀'.repeat(UNTRUSTED_TEXT_LIMIT);
    const clipped = clipText(long);
    expect(clipped.length).toBeLessThanOrEqual(UNTRUSTED_TEXT_LIMIT);
    expect(clipped.endsWith('…')).toBe(true);
    expect(clipped.slice(0, -1)).toBe('😀'.repeat((clipped.length - 1) / 2));
    expect(escapeMarkdown('x'.repeat(10_000)).length).toBe(UNTRUSTED_TEXT_LIMIT);
  });

  it('turns markup into text: headings, tables, links, images, HTML, autolinks', () => {
    expect(escapeMarkdown('<h2>PASSED</h2><table><tr><td>ok</td></tr></table>')).toBe('\\<h2\\>PASSED\\<\\/h2\\>\\<table\\>\\<tr\\>\\<td\\>ok\\<\\/td\\>\\<\\/tr\\>\\<\\/table\\>');
    expect(escapeMarkdown('# PASSED\n| a | b |')).toBe('\\# PASSED \\| a \\| b \\|');
    expect(escapeMarkdown('[click](https://evil.example) ![x](http://e/i.png) www.evil.example')).toBe(
      '\\[click\\]\\(https\\:\\/\\/evil\\.example\\) \\!\\[x\\]\\(http\\:\\/\\/e\\/i\\.png\\) www\\.evil\\.example'
    );
  });
});

describe('plainText, its sibling for plain-text sinks (annotations)', () => {
  it('leaves no line break, control character, escape sequence or bidi override, and clips (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 600 }), fc.integer({ min: 2, max: 400 }), (text, max) => {
        const out = plainText(text, max);
        expect(out.length).toBeLessThanOrEqual(max);
        expect(out).not.toMatch(/[\p{Cc}\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u);
      }),
      { numRuns: 500 }
    );
  });

  it('removes ANSI colours, cursor moves and OSC hyperlinks instead of leaving their bytes as text, and escapes nothing', () => {
    expect(plainText('\u001b[1;32mPASSED\u001b[0m \u001b[2K\u001b]8;;https://evil.example\u0007link\u001b]8;;\u0007 done')).toBe('PASSED link done');
    expect(plainText('<h2>PASSED</h2>\n| a |')).toBe('<h2>PASSED</h2> | a |');
    expect(escapeMarkdown('\u001b[31mred\u001b[0m')).toBe('red');
    expect(plainText('x'.repeat(100_000), 2_000)).toHaveLength(2_000);
  });
});

describe('codeSpan, untrusted text shown literally', () => {
  it('leaves no line break, control character or bidi override or isolate inside the span (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        expect(codeSpan(text)).not.toMatch(/[\p{Cc}\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u);
      }),
      { numRuns: 500 }
    );
  });

  it('shows U+FFFD where a right-to-left override would have reversed the rest of a test id', () => {
    // Rendered, `test_\u202Eko_sessap` reads "test_passes_ok": a failing test shown under another name.
    expect(codeSpan('test_\u202eko_sessap')).toBe('`test_\ufffdko_sessap`');
    expect(codeSpan('a\u2066b\u2069c\u200fd')).toBe('`a\ufffdb\ufffdc\ufffdd`');
  });
});
