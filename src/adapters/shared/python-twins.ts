import { spawnSync } from 'node:child_process';
import { InfrastructureError } from '../../errors.js';
import type { CanaryPlan, TwinCanary } from '../adapter.js';
import { checkCanaryPlan } from './canary.js';

/**
 * Twin canaries and mutant twins for the Python adapters (unittest, pytest), generated on the host.
 *
 * The host's python3 parses the test files with `ast` (parsing never runs them) and inserts, among
 * the real tests of those same files, copies of real test functions:
 * - a *twin* is an exact copy under a new name: it must end as its original does;
 * - a *mutant* is a copy with one top-level assertion perturbed through the very binding the test
 *   uses (`self.assertEqual(f(x), 3)` → `self.assertEqual(f(x), 7)`, `assert f(x) == "a"` →
 *   `assert f(x) == "aq"`, `self.assertTrue(x)` → `self.assertTrue(not (x))`, `assert x` →
 *   `assert not (x)`, `with self.assertRaisesRegex(E, "zero")` → `… "zerok"`): when its original
 *   passes, it must fail with an assertion.
 * Names are made of the words of the file's own test names; each copy goes right after a randomly
 * chosen real test of the same class or module, so neither name, module, class, order nor
 * environment says which tests are copies or what they must do. The roles stay on the host
 * (TwinCanary) and never enter the container.
 * Sabotage that makes assertions pass makes the mutants pass; sabotage that spares some tests
 * (by name, order, module) breaks a twin's agreement with its original.
 * Limits (docs/security.md): code that has read the base's test names can still tell a copy by a
 * name it does not know, or by comparing function bodies; this is a heuristic, not an oracle.
 */

/** How many copies to make: `all` mutants for staged reproduction/hidden tests, a sample for a suite. */
export interface TwinBudget {
  /** Mutants: 'all' (one per eligible test function) or at most this many. */
  mutants: number | 'all';
  /** Exact twins: at most this many. */
  twins: number;
}

interface GeneratorOutput {
  files: Record<string, string>;
  canaries: { path: string; owner: string | null; name: string; of: string; kind: 'twin' | 'mutant'; after: number; lines: number }[];
  skipped: string[];
}

/** The generator (Python 3.9+, standard library only): JSON on stdin, JSON on stdout. */
export const PYTHON_TWINS_SOURCE = String.raw`
import ast, json, random, re, sys

ASSERT_VALUE = {"assertEqual", "assertEquals", "assertAlmostEqual", "assertAlmostEquals"}
ASSERT_TRUTH = {"assertTrue", "assertFalse", "assert_"}
ASSERT_REGEX = {"assertRaisesRegex", "assertRaisesRegexp", "assertWarnsRegex"}


def is_testcase_base(base):
    name = base.id if isinstance(base, ast.Name) else base.attr if isinstance(base, ast.Attribute) else ""
    return name.endswith("TestCase")


def literal(node):
    try:
        return True, ast.literal_eval(node)
    except Exception:
        return False, None


def perturbed(value, rng):
    if isinstance(value, bool):
        return repr(not value)
    if isinstance(value, int):
        return repr(value + rng.choice([-1, 1]) * rng.randint(1, 9))
    if isinstance(value, float):
        return repr(value + rng.choice([-1, 1]) * (rng.randint(1, 9) + 0.5))
    if isinstance(value, str):
        return repr(value + rng.choice("abcdefghijklmnopqrstuvwxyz"))
    return None


def value_edit(expected_pair, rng):
    """For (a, b) compared for equality: a replacement (node, text) that makes them unequal."""
    a, b = expected_pair
    a_lit, a_val = literal(a)
    b_lit, b_val = literal(b)
    for is_lit, val, node, other_lit in ((b_lit, b_val, b, a_lit), (a_lit, a_val, a, b_lit)):
        if is_lit and not other_lit:
            text = perturbed(val, rng)
            if text is not None:
                return node, text
            return node, None
    return b, None


def mutation(func, style, source_of, rng):
    """Candidate edits (node, new text) of the function's top-level assertions: self.assert*() calls
    (unittest, and TestCase classes under pytest) and assert statements."""
    edits = []
    for stmt in func.body:
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            call = stmt.value
            if not (isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name)
                    and call.func.value.id == "self"):
                continue
            if call.func.attr in ASSERT_VALUE and len(call.args) >= 2 and not any(isinstance(a, ast.Starred) for a in call.args):
                node, text = value_edit((call.args[0], call.args[1]), rng)
                edits.append((node, text if text is not None else "(%s,)" % source_of(node)))
            elif call.func.attr in ASSERT_TRUTH and len(call.args) >= 1 and not isinstance(call.args[0], ast.Starred):
                edits.append((call.args[0], "not (%s)" % source_of(call.args[0])))
        elif isinstance(stmt, ast.With) and len(stmt.items) == 1 and isinstance(stmt.items[0].context_expr, ast.Call):
            # with self.assertRaisesRegex(E, "text") / pytest.raises(E, match="text"): the pattern perturbed.
            call = stmt.items[0].context_expr
            pattern = None
            if isinstance(call.func, ast.Attribute) and call.func.attr in ASSERT_REGEX and len(call.args) >= 2:
                pattern = call.args[1]
            elif isinstance(call.func, ast.Attribute) and call.func.attr == "raises":
                pattern = next((k.value for k in call.keywords if k.arg == "match"), None)
            if isinstance(pattern, ast.Constant) and isinstance(pattern.value, str) and "|" not in pattern.value:
                edits.append((pattern, repr(pattern.value + rng.choice("abcdefghijklmnopqrstuvwxyz"))))
        elif isinstance(stmt, ast.Assert):
            test = stmt.test
            if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq):
                node, text = value_edit((test.left, test.comparators[0]), rng)
                edits.append((node, text if text is not None else "(%s,)" % source_of(node)))
            else:
                edits.append((test, "not (%s)" % source_of(test)))
    return edits


def candidates(tree, style):
    """(owner class name or None, function node, sibling list) for every plain test function."""
    out = []
    inherited = {b.id for n in ast.walk(tree) if isinstance(n, ast.ClassDef) for b in n.bases if isinstance(b, ast.Name)}
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and not node.decorator_list and node.name not in inherited:
            if style == "unittest" and not any(is_testcase_base(b) for b in node.bases):
                continue
            # pytest collects TestCase subclasses of any name, and plain Test* classes without __init__.
            if style == "pytest" and not any(is_testcase_base(b) for b in node.bases) and (
                    not node.name.startswith("Test") or any(isinstance(i, ast.FunctionDef) and i.name == "__init__" for i in node.body)):
                continue
            tests = [i for i in node.body if isinstance(i, ast.FunctionDef) and i.name.startswith("test") and not i.decorator_list]
            out.extend((node.name, t, tests) for t in tests)
    if style == "pytest":
        top = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name.startswith("test") and not n.decorator_list]
        out.extend((None, t, top) for t in top)
    return out


def main():
    request = json.load(sys.stdin)
    rng = random.Random(int(request["seed"], 16))
    style = request["style"]
    parsed, skipped, pool = {}, [], []
    taken = set()
    for entry in request["files"]:
        data = entry["text"].encode("utf-8")
        try:
            tree = ast.parse(data, filename=entry["path"])
        except (SyntaxError, ValueError):
            skipped.append(entry["path"])
            continue
        lines = data.splitlines(keepends=True)
        parsed[entry["path"]] = lines
        for n in ast.walk(tree):
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                taken.add(n.name)
        for owner, func, siblings in candidates(tree, style):
            pool.append((entry["path"], owner, func, siblings))

    words = sorted({w for (_, _, f, _) in pool for w in f.name.split("_")[1:] if re.fullmatch(r"[a-z][a-z0-9]*", w)}) or ["case", "value", "input"]

    def fresh_name():
        while True:
            name = "test_" + "_".join(rng.choice(words) for _ in range(rng.randint(2, 4)))
            if name not in taken:
                taken.add(name)
                return name

    def segment(path, func):
        return b"".join(parsed[path][func.lineno - 1:func.end_lineno])

    def source_at(path, func):
        seg = segment(path, func)
        def of(node):
            return edit_span(seg, func, node, None)
        return of

    def edit_span(seg, func, node, text):
        seg_lines = seg.splitlines(keepends=True)
        starts = [0]
        for line in seg_lines:
            starts.append(starts[-1] + len(line))
        begin = starts[node.lineno - func.lineno] + node.col_offset
        end = starts[node.end_lineno - func.lineno] + node.end_col_offset
        if text is None:
            return seg[begin:end].decode("utf-8")
        return seg[:begin] + text.encode("utf-8") + seg[end:]

    inserts = {}
    made = []
    order = list(range(len(pool)))
    rng.shuffle(order)
    mutants = request["mutants"]
    mutant_count, twin_count = 0, 0
    for index in order:
        path, owner, func, siblings = pool[index]
        kinds = []
        if mutants == "all" or mutant_count < mutants:
            kinds.append("mutant")
        if twin_count < request["twins"]:
            kinds.append("twin")
        for kind in kinds:
            seg = segment(path, func)
            if kind == "mutant":
                edits = mutation(func, style, source_at(path, func), rng)
                if not edits:
                    continue
                node, text = rng.choice(edits)
                seg = edit_span(seg, func, node, text)
                mutant_count += 1
            else:
                twin_count += 1
            name = fresh_name()
            first, rest = seg.split(b"\n", 1) if b"\n" in seg else (seg, b"")
            first = re.sub(rb"^(\s*def\s+)" + re.escape(func.name.encode()) + rb"\b", lambda m: m.group(1) + name.encode(), first, count=1)
            if not seg.endswith(b"\n"):
                rest += b"\n"
            after = rng.choice(siblings)
            block = b"\n" + first + b"\n" + rest
            inserts.setdefault(path, []).append((after.end_lineno, block))
            made.append({"path": path, "owner": owner, "name": name, "of": func.name, "kind": kind,
                         "after": after.end_lineno, "lines": block.count(b"\n")})

    files = {}
    for path, items in inserts.items():
        lines = list(parsed[path])
        if lines and not lines[-1].endswith(b"\n"):
            lines[-1] += b"\n"
        for line, text in sorted(items, key=lambda item: -item[0]):
            lines.insert(line, text)
        files[path] = b"".join(lines).decode("utf-8")
    json.dump({"files": files, "canaries": made, "skipped": skipped}, sys.stdout)


main()
`;

/**
 * Runs the generator over the given test files (repository-relative path → source).
 * Throws an InfrastructureError when the host's python3 cannot run it (never a pass: the run
 * becomes an infrastructure error).
 */
export function pythonTwins(
  style: 'unittest' | 'pytest',
  sources: Readonly<Record<string, string>>,
  plan: CanaryPlan,
  budget: TwinBudget
): { stage: Record<string, string>; twins: TwinCanary[] } {
  checkCanaryPlan(plan);
  const request = {
    // A seed of its own (the nonce's tail), so positions do not follow from the canary names.
    seed: plan.nonce.slice(-16),
    style,
    mutants: budget.mutants,
    twins: budget.twins,
    files: Object.entries(sources).map(([path, text]) => ({ path, text }))
  };
  const child = spawnSync('python3', ['-I', '-S', '-c', PYTHON_TWINS_SOURCE], {
    input: JSON.stringify(request),
    encoding: 'utf8',
    timeout: 60_000,
    maxBuffer: 64 * 1024 * 1024
  });
  if (child.error !== undefined || child.status !== 0) {
    throw new InfrastructureError(`the host's python3 could not generate the test twins: ${child.error?.message ?? child.stderr.slice(0, 500)}`);
  }
  const output = JSON.parse(child.stdout) as GeneratorOutput;
  return {
    stage: output.files,
    twins: output.canaries.map((c) => ({ file: c.path, owner: c.owner, name: c.name, of: c.of, kind: c.kind, after: c.after, lines: c.lines }))
  };
}
