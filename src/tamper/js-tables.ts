import type { TamperRule } from '../core/tamper.js';

/**
 * What the JavaScript/TypeScript rules look for, by qualified name: an import's module (its
 * `node:` prefix dropped, but `node:test`), a free global (`process`, `Math`, `expect`), or a chain
 * below one (`process.env.CI`, `Function.prototype.toString`). Matching is src/tamper/qualified.ts's.
 */
export const JS_QUALIFIED: Readonly<Record<Exclude<TamperRule, 'monkeypatch' | 'lying_type' | 'unparsed'>, readonly string[]>> = {
  test_framework_reference: [
    // Modules.
    'assert',
    'assert/strict',
    'node:test',
    'vitest',
    'vitest/*',
    '@vitest/*',
    'jest',
    '@jest/*',
    'jest-*',
    'expect',
    'chai',
    'chai-*',
    'sinon',
    'mocha',
    'ava',
    'tap',
    'tape',
    'uvu',
    'jasmine',
    'jasmine-*',
    'should',
    'power-assert',
    '@testing-library/*',
    // The test frameworks' globals, free in the code under test.
    'describe',
    'it',
    'test',
    'xit',
    'xtest',
    'fit',
    'xdescribe',
    'fdescribe',
    'suite',
    'beforeEach',
    'afterEach',
    'beforeAll',
    'afterAll',
    'vi',
    'fail',
    'pending',
    'spyOn',
    '__vitest*',
    '__VITEST*',
    '__jest*'
  ],
  introspection: [
    'Function.prototype.toString',
    'Function.prototype.caller',
    'Function.prototype.arguments',
    'Error.prepareStackTrace',
    'arguments.callee',
    'arguments.caller',
    'v8',
    'inspector',
    'inspector/promises',
    'trace_events',
    'process.binding',
    'process._linkedBinding',
    'process.report',
    'util.getCallSite',
    'util.getCallSites'
  ],
  env_argv_read: ['process.env', 'process.argv', 'process.argv0', 'process.execArgv', 'process.cwd', 'Deno.env', 'Deno.args', 'Deno.cwd', 'Bun.env', 'Bun.argv', 'import.meta.env'],
  process_control: [
    'process.exit',
    'process.reallyExit',
    'process.abort',
    'process.kill',
    'process.on',
    'process.once',
    'process.addListener',
    'process.prependListener',
    'process.prependOnceListener',
    'process.removeListener',
    'process.removeAllListeners',
    'process.off',
    'process.emit',
    'process.exitCode',
    'process.execPath',
    'process.send',
    'process.disconnect',
    'process.chdir',
    'process.setUncaughtExceptionCaptureCallback',
    'child_process',
    'cluster',
    'worker_threads',
    'Deno.exit',
    'Deno.run',
    'Deno.Command',
    'Bun.spawn',
    'Bun.spawnSync'
  ],
  import_hook: [
    'require.cache',
    'require.extensions',
    'require.main',
    'module.constructor',
    'module.parent',
    'module.children',
    'module.paths',
    'module._load',
    'module._resolveFilename',
    'module._extensions',
    'module._cache',
    'module._nodeModulePaths',
    'module._findPath',
    'module._initPaths',
    'module.register',
    'module.registerHooks',
    'module.Module',
    'module.prototype',
    'module.wrap',
    'module.wrapper',
    'module.syncBuiltinESMExports',
    'module.require',
    'module.createRequire',
    'process.mainModule',
    'process.moduleLoadList',
    'process.getBuiltinModule'
  ],
  dynamic_code: ['=eval', '=Function', 'vm', 'process.dlopen', 'WebAssembly.compile', 'WebAssembly.instantiate', 'WebAssembly.Module', 'WebAssembly.Instance']
};

/** Names through which the global object is reached: `globalThis.expect` is the global `expect`. */
export const JS_GLOBAL_OBJECTS = new Set(['globalThis', 'global', 'window', 'self']);

/** Free names that belong to the module wrapper, not the global object: writing `module.exports` or `exports.x` patches nothing. */
export const JS_MODULE_WRAPPER = new Set(['module', 'exports', 'require', '__filename', '__dirname', 'arguments', 'undefined', 'NaN', 'Infinity']);

/**
 * Property names that are introspection on any object: a stack's text (`new Error().stack`, or any
 * error's, names the test files and lines that called), a sloppy function's caller, V8's structured
 * call sites. (`Error.captureStackTrace` alone only writes a stack: reading it is what counts.)
 */
export const JS_INTROSPECTION_PROPERTIES = new Set(['stack', 'caller', 'prepareStackTrace']);

/** Keys that make a value answer equality or conversion its own way, wherever they are defined. */
export const JS_ALWAYS_LYING_KEYS = new Set(['asymmetricMatch', 'valueOf', 'Symbol.toPrimitive', 'Symbol.hasInstance', 'Symbol.toStringTag']);

/** Keys a subclass of a builtin value type may not define without it being lying_type. */
export const JS_VALUE_TYPE_KEYS = new Set(['toString', 'toJSON', 'toLocaleString', 'equals', 'then', 'length', 'Symbol.iterator', 'Symbol.species', 'Symbol.isConcatSpreadable']);

/** Builtin value types (a subclass overriding a conversion can pass for a plain value). */
export const JS_VALUE_BASES = new Set([
  'Number',
  'String',
  'Boolean',
  'BigInt',
  'Array',
  'Object',
  'Date',
  'RegExp',
  'Map',
  'Set',
  'WeakMap',
  'WeakSet',
  'Promise',
  'ArrayBuffer',
  'DataView',
  'Int8Array',
  'Uint8Array',
  'Uint8ClampedArray',
  'Int16Array',
  'Uint16Array',
  'Int32Array',
  'Uint32Array',
  'Float32Array',
  'Float64Array',
  'BigInt64Array',
  'BigUint64Array',
  'URL',
  'Buffer'
]);

/** Calls that write a property of their first argument. */
export const JS_PROPERTY_WRITERS = new Set([
  'Object.defineProperty',
  'Object.defineProperties',
  'Object.assign',
  'Object.setPrototypeOf',
  'Reflect.defineProperty',
  'Reflect.set',
  'Reflect.setPrototypeOf',
  'Reflect.deleteProperty'
]);

/** Names of the test runners' environment variables and internal globals: naming one (a variable, a property, a string) is test_framework_reference. */
export const JS_FRAMEWORK_NAME = /^(?:VITEST\w*|JEST_\w+|NODE_TEST_CONTEXT|PATCHPROOF\w*|__vitest\w*|__VITEST\w*|__jest\w*)$/;

/** String values that name a test framework's module (a specifier built or passed around, `createRequire(…)('assert')`). */
export const JS_FRAMEWORK_STRING = /^(?:(?:@jest|@vitest)\/.*|vitest(?:\/.*)?|node:test(?:\/.*)?|(?:node:)?assert(?:\/strict)?|jest|chai|mocha|sinon)$/;

/** String values that name an asymmetric matcher (jest/vitest consult `asymmetricMatch` and `$$typeof: Symbol.for('jest.asymmetricMatcher')`). */
export const JS_LYING_STRING = /asymmetricMatch|^(?:valueOf)$/;
