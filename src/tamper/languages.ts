/**
 * Which files the tamper screen reads, by extension: Python, JavaScript and TypeScript (with JSX),
 * Go and Rust. Any other changed non-test file is listed as not screened. Pure.
 */

export type ScreenedLanguage = 'python' | 'javascript' | 'typescript' | 'go' | 'rust';

const EXTENSIONS: readonly [RegExp, ScreenedLanguage][] = [
  [/\.pyi?$/, 'python'],
  [/\.(?:js|mjs|cjs|jsx)$/, 'javascript'],
  [/\.(?:ts|mts|cts|tsx)$/, 'typescript'],
  [/\.go$/, 'go'],
  [/\.rs$/, 'rust']
];

export function languageOf(path: string): ScreenedLanguage | undefined {
  const name = path.split('/').pop() ?? path;
  return EXTENSIONS.find(([pattern]) => pattern.test(name))?.[1];
}
