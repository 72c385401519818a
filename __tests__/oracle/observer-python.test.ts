import { describe, expect, test } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compareValue, parseObservations } from '../../src/core/oracle.js';
import { observerFiles } from '../../src/oracle/observer.js';

/**
 * The Python observer reads values without running code the candidate defined (issues 26 and 28):
 * builtin values by their base type's own methods with the exact type in the observation, other
 * objects field by field through the interpreter's descriptors, no memory address, exceptions with
 * their qualified type and a message only when the stdlib's __str__ makes it.
 */

const NONCE = 'b'.repeat(32);

/** Hostile classes: every method the candidate defined leaves a mark in ran.txt when called. */
const CANDIDATE = String.raw`
import os

def _mark(what):
    with open(os.path.join(os.path.dirname(__file__), "ran.txt"), "a") as f:
        f.write(what + "\n")

class LyingFloat(float):
    def __eq__(self, other):
        _mark("LyingFloat.__eq__")
        return True
    __hash__ = float.__hash__
    def __repr__(self):
        _mark("LyingFloat.__repr__")
        return "3.0"

class LyingStr(str):
    def __eq__(self, other):
        _mark("LyingStr.__eq__")
        return True
    __hash__ = str.__hash__
    def __str__(self):
        _mark("LyingStr.__str__")
        return "right"
    def __iter__(self):
        _mark("LyingStr.__iter__")
        return iter("right")

class LyingList(list):
    def __iter__(self):
        _mark("LyingList.__iter__")
        return iter([3.0])

class Point:
    def __init__(self, x, y):
        self.x = x
        self.y = y
    def __repr__(self):
        _mark("Point.__repr__")
        return "Point(3, 4)"
    def __eq__(self, other):
        _mark("Point.__eq__")
        return True
    @property
    def norm(self):
        _mark("Point.norm")
        return 5

class Slotted:
    __slots__ = ("a", "b")
    def __init__(self):
        self.a = 1

class OwnDict:
    @property
    def __dict__(self):
        _mark("OwnDict.__dict__")
        return {"x": 3}

class Disguised(float):
    __module__ = "builtins"
    __qualname__ = "float"

class Bad(ValueError):
    def __str__(self):
        _mark("Bad.__str__")
        return "expected message"
`;

const SCRIPT = String.raw`
from patchproof_oracle import observe, observe_pair, observe_raises
import candidate as c

observe("honest_float", lambda: 0.5)
observe("lying_float", lambda: c.LyingFloat(0.5))
observe("lying_float_right", lambda: c.LyingFloat(3.0))
observe("lying_str", lambda: c.LyingStr("wrong"))
observe("lying_list", lambda: c.LyingList([1.0]))
observe("point", lambda: c.Point(1, 2))
observe("slotted", lambda: c.Slotted())
observe("own_dict", lambda: c.OwnDict())
observe("plain_object", lambda: object())
observe("disguised", lambda: c.Disguised(3.0))
observe("nested", lambda: {"k": [c.LyingFloat(1.0), (1, "a")], 2: {1, 2}})
observe("bytes", lambda: b"\x00ab")
observe("nan", lambda: float("nan"))
observe_raises("bad", lambda: (_ for _ in ()).throw(c.Bad("real")))
observe_raises("value_error", lambda: int("x"))
observe_pair("pair", "eq", lambda: c.LyingFloat(0.5), lambda: 3.0)
`;

function run(): { values: Map<string, unknown>; ran: boolean; stderr: string } {
  const dir = mkdtempSync(join(tmpdir(), 'observer-py-'));
  try {
    for (const [name, text] of Object.entries(observerFiles(NONCE))) writeFileSync(join(dir, name), text);
    writeFileSync(join(dir, 'candidate.py'), CANDIDATE);
    writeFileSync(join(dir, 'script.py'), SCRIPT);
    // -s/-I are not used: the script imports from its own folder; sh keeps an ancestor in the folder.
    const result = spawnSync('sh', ['-c', 'python3 -B script.py; exit $?'], { cwd: dir, encoding: 'utf8' });
    const parsed = parseObservations(result.stdout, NONCE);
    expect(parsed.malformed).toEqual([]);
    return { values: new Map(parsed.observations.map((o) => [o.case, o.value])), ran: existsSync(join(dir, 'ran.txt')), stderr: result.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the Python observer reads values safely', () => {
  const { values, ran, stderr } = run();

  test('no method the candidate defined ran while observing', () => {
    expect(stderr).toBe('');
    expect(ran).toBe(false);
  });

  test('a builtin subclass is its base value with its exact type: a lying float never observes like the honest one', () => {
    expect(values.get('honest_float')).toBe(0.5);
    expect(values.get('lying_float')).toEqual({ $type: 'candidate.LyingFloat', value: 0.5 });
    // Right value, lying type: still not the plain float a literal expectation holds.
    expect(values.get('lying_float_right')).toEqual({ $type: 'candidate.LyingFloat', value: 3 });
    expect(compareValue(values.get('lying_float_right'), 3, { kind: 'exact' })).toBe(false);
    expect(compareValue(values.get('honest_float'), 0.5, { kind: 'exact' })).toBe(true);
    expect(values.get('lying_str')).toEqual({ $type: 'candidate.LyingStr', value: 'wrong' });
    expect(values.get('lying_list')).toEqual({ $type: 'candidate.LyingList', value: [1] });
    // A class that names itself builtins.float is still tagged: the tag is decided by identity.
    expect(values.get('disguised')).toEqual({ $type: 'builtins.float', value: 3 });
  });

  test('objects field by field, no repr, no address; what cannot be read safely is unobservable', () => {
    expect(values.get('point')).toEqual({ $type: 'candidate.Point', fields: { x: 1, y: 2 } });
    expect(values.get('slotted')).toEqual({ $type: 'candidate.Slotted', fields: { a: 1 } });
    expect(values.get('own_dict')).toEqual({ $unobservable: 'candidate.OwnDict' });
    expect(values.get('plain_object')).toEqual({ $type: 'builtins.object', fields: {} });
    expect(JSON.stringify([...values.values()])).not.toMatch(/0x[0-9a-f]{6,}/);
  });

  test('containers, keys, sets, bytes and non-finite floats', () => {
    expect(values.get('nested')).toEqual({ '2': { $set: ['1', '2'] }, k: [{ $type: 'candidate.LyingFloat', value: 1 }, [1, 'a']] });
    expect(values.get('bytes')).toEqual({ $bytes: '006162' });
    expect(values.get('nan')).toEqual({ $float: 'nan' });
  });

  test('exceptions: qualified type; the message only from the stdlib’s __str__', () => {
    expect(values.get('bad')).toEqual({ $raised: 'Bad', type: 'candidate.Bad', message: { $unobservable: 'candidate.Bad' } });
    expect(values.get('value_error')).toEqual({ $raised: 'ValueError', type: 'builtins.ValueError', message: "invalid literal for int() with base 10: 'x'" });
    // A pattern on a message the observer could not read never matches.
    expect(compareValue(values.get('bad'), null, { kind: 'raises', type: 'Bad', pattern: 'expected' })).toBe(false);
    expect(compareValue(values.get('value_error'), { type: 'builtins.ValueError' }, { kind: 'raises', type: 'ValueError', pattern: 'invalid literal' })).toBe(true);
    expect(compareValue(values.get('value_error'), { type: 'candidate.ValueError' }, { kind: 'raises', type: 'ValueError' })).toBe(false);
  });

  test('a pair with a lying float: judged by base values on the host, no in-process answer taken', () => {
    const pair = values.get('pair');
    expect(pair).toEqual({ $left: { $type: 'candidate.LyingFloat', value: 0.5 }, $right: 3 });
    expect(compareValue(pair, null, { kind: 'predicate', predicate: 'eq', observed: 'both' })).toBe(false);
    expect(compareValue({ ...(pair as object), $inprocess: true }, null, { kind: 'predicate', predicate: 'eq', observed: 'both' })).toBe(false);
  });
});
