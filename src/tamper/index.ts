/**
 * The tamper screen (issue 26): the candidate's changed non-test files read with real parsers
 * (tree-sitter's Python grammar, @babel/parser for JS/TS, tokenizers for Go and Rust), and the
 * constructs the patch introduced that let code under test make the in-process grader lie, learn it
 * is being graded, or act outside the test. A finding withholds proof grade; the verdict stays.
 * The record's type and what withholds proof grade are in src/core/tamper.ts.
 */
export { screenChanges, type ChangedFile, type TamperAllowance } from './screen.js';
export { languageOf, type ScreenedLanguage } from './languages.js';
export { TAMPER_RULES, type TamperRule, type TamperScreen, type TamperFinding } from '../core/tamper.js';
