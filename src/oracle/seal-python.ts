/**
 * `witness seal` for Python tests (unittest, pytest): this script runs in the host's python3, parses
 * the author's tests with the standard `ast` module (never imports or runs them) and rewrites every
 * assertion whose expected side is a literal (`ast.literal_eval`) into an observation. It reads
 * {phase, files} on stdin and writes {files, cases, unsealed} on stdout.
 */
export const SEAL_PYTHON_SOURCE = String.raw`"""Seal Python tests: rewrite assertions whose expected side is a literal into observations.

Reads {"phase": ..., "files": [{"path": ..., "source": ...}]} as JSON on stdin and writes
{"files": [...], "cases": [...], "unsealed": [...]} on stdout. It parses the author's own tests
with the ast module and never imports or runs them.
"""
import ast
import json
import re
import sys

EQUAL = {"assertEqual", "assertEquals", "assertListEqual", "assertDictEqual", "assertTupleEqual", "assertSequenceEqual", "assertSetEqual"}
RAISES = {"assertRaises", "assertRaisesRegex", "assertRaisesRegexp"}


def _default(value):
    if isinstance(value, (set, frozenset)):
        return {"$set": sorted(json.dumps(v, sort_keys=True, default=_default) for v in value)}
    if isinstance(value, bytes):
        return {"$bytes": value.hex()}
    raise TypeError("not a JSON literal")


def literal(node):
    """The JSON form of a literal expected side, or raise ValueError."""
    value = ast.literal_eval(node)
    if isinstance(value, complex):
        raise ValueError("complex")
    return json.loads(json.dumps(value, allow_nan=False, sort_keys=True, default=_default))


def is_literal(node):
    try:
        literal(node)
        return True
    except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError):
        return False


def func_name(call):
    f = call.func
    if isinstance(f, ast.Attribute):
        return f.attr
    if isinstance(f, ast.Name):
        return f.id
    return None


def kw(call, name):
    for k in call.keywords:
        if k.arg == name:
            return k.value
    return None


def main():
    request = json.load(sys.stdin)
    phase = request["phase"]
    out = {"files": [], "cases": [], "unsealed": []}
    for entry in request["files"]:
        path, source = entry["path"], entry["source"]
        tree = ast.parse(source, filename=path)
        lines = source.splitlines(keepends=True)
        starts = [0]
        for line in lines:
            starts.append(starts[-1] + len(line))

        def offset(lineno, col):
            # ast columns are UTF-8 byte offsets
            text = lines[lineno - 1].encode("utf-8")[:col].decode("utf-8")
            return starts[lineno - 1] + len(text)

        def segment(node):
            return source[offset(node.lineno, node.col_offset):offset(node.end_lineno, node.end_col_offset)]

        edits = []
        used = {}
        stem = re.sub(r"[^A-Za-z0-9_./-]", "_", path)

        def new_id(node):
            base = "%s:%s/%d" % (phase, stem, node.lineno)
            used[base] = used.get(base, 0) + 1
            return base if used[base] == 1 else "%s.%d" % (base, used[base])

        def unsealed(node):
            out["unsealed"].append({"phase": phase, "file": path, "line": node.lineno, "text": segment(node).splitlines()[0][:200]})

        def observe(stmt, actual, expected, comparator):
            case = new_id(stmt)
            out["cases"].append({"id": case, "phase": phase, "expected": expected, "comparator": comparator})
            edits.append((offset(stmt.lineno, stmt.col_offset), offset(stmt.end_lineno, stmt.end_col_offset),
                          "observe(%s, lambda: (%s))" % (json.dumps(case), segment(actual))))

        handled = set()
        for stmt in ast.walk(tree):
            if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
                call = stmt.value
                name = func_name(call)
                if name is None or not name.startswith("assert"):
                    continue
                handled.add(id(call))
                args = call.args
                if name in EQUAL | {"assertCountEqual", "assertAlmostEqual"} and len(args) >= 2:
                    a, b = args[0], args[1]
                    if is_literal(b) and not is_literal(a):
                        actual, expected = a, b
                    elif is_literal(a) and not is_literal(b):
                        actual, expected = b, a
                    else:
                        unsealed(stmt)
                        continue
                    comparator = {"kind": "exact"}
                    if name == "assertCountEqual":
                        comparator = {"kind": "unordered"}
                    elif name == "assertAlmostEqual":
                        if kw(call, "delta") is not None:
                            try:
                                comparator = {"kind": "float", "abs": float(ast.literal_eval(kw(call, "delta"))), "rel": 0}
                            except ValueError:
                                unsealed(stmt)
                                continue
                        else:
                            places = kw(call, "places") or (args[2] if len(args) > 2 else None)
                            p = ast.literal_eval(places) if places is not None else 7
                            comparator = {"kind": "float", "abs": 0.5 * 10 ** (-p), "rel": 0}
                        if len(args) > 3:
                            unsealed(stmt)
                            continue
                    observe(stmt, actual, literal(expected), comparator)
                elif name in {"assertTrue", "assertFalse", "assertIsNone", "assertIsNotNone"} and len(args) >= 1 and not is_literal(args[0]):
                    a = args[0]
                    expr = {"assertTrue": "bool(%s)", "assertFalse": "not (%s)", "assertIsNone": "(%s) is None", "assertIsNotNone": "(%s) is not None"}[name]
                    case = new_id(stmt)
                    out["cases"].append({"id": case, "phase": phase, "expected": True, "comparator": {"kind": "exact"}})
                    edits.append((offset(stmt.lineno, stmt.col_offset), offset(stmt.end_lineno, stmt.end_col_offset),
                                  "observe(%s, lambda: %s)" % (json.dumps(case), expr % segment(a))))
                else:
                    unsealed(stmt)
            elif isinstance(stmt, ast.Assert):
                test = stmt.test
                if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq) and stmt.msg is None:
                    a, b = test.left, test.comparators[0]
                    if is_literal(b) and not is_literal(a):
                        observe(stmt, a, literal(b), {"kind": "exact"})
                        continue
                    if is_literal(a) and not is_literal(b):
                        observe(stmt, b, literal(a), {"kind": "exact"})
                        continue
                unsealed(stmt)
            elif isinstance(stmt, ast.With) and len(stmt.items) == 1 and isinstance(stmt.items[0].context_expr, ast.Call):
                call = stmt.items[0].context_expr
                name = func_name(call)
                is_pytest = name == "raises" and isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name) and call.func.value.id == "pytest"
                if name not in RAISES and not is_pytest:
                    continue
                handled.add(id(call))
                body = stmt.body
                exc = call.args[0] if call.args else None
                pattern = None
                ok = exc is not None and isinstance(exc, (ast.Name, ast.Attribute)) and stmt.items[0].optional_vars is None
                if ok and name in {"assertRaisesRegex", "assertRaisesRegexp"}:
                    ok = len(call.args) == 2 and isinstance(call.args[1], ast.Constant) and isinstance(call.args[1].value, str)
                    pattern = call.args[1].value if ok else None
                elif ok and is_pytest:
                    match = kw(call, "match")
                    ok = len(call.args) == 1 and (match is None or (isinstance(match, ast.Constant) and isinstance(match.value, str))) and all(k.arg == "match" for k in call.keywords)
                    pattern = match.value if ok and match is not None else None
                elif ok:
                    ok = len(call.args) == 1 and not call.keywords
                ok = ok and len(body) == 1 and isinstance(body[0], ast.Expr)
                if not ok:
                    unsealed(stmt)
                    continue
                case = new_id(stmt)
                comparator = {"kind": "raises", "type": exc.attr if isinstance(exc, ast.Attribute) else exc.id}
                if pattern is not None:
                    comparator["pattern"] = pattern
                out["cases"].append({"id": case, "phase": phase, "expected": None, "comparator": comparator})
                edits.append((offset(stmt.lineno, stmt.col_offset), offset(stmt.end_lineno, stmt.end_col_offset),
                              "observe_raises(%s, lambda: (%s))" % (json.dumps(case), segment(body[0].value))))
        # assertion calls not at statement level (inside expressions) stay in-process
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and id(node) not in handled:
                name = func_name(node)
                if name is not None and (name.startswith("assert") or name == "raises") and name != "assert_":
                    unsealed(node)
        # nested edits (an assertion inside a with block that was replaced) cannot both apply
        edits.sort()
        kept = []
        for e in edits:
            if kept and e[0] < kept[-1][1]:
                continue
            kept.append(e)
        text = source
        for start, end, new in reversed(kept):
            text = text[:start] + new + text[end:]
        if kept:
            # import after the docstring and __future__ imports
            body = tree.body
            index = 0
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
                index = 1
            while index < len(body) and isinstance(body[index], ast.ImportFrom) and body[index].module == "__future__":
                index += 1
            if index < len(body):
                at = starts[body[index].lineno - 1]
                # earlier edits do not touch text before the first statement after the docstring
                shift = sum(len(new) - (end - start) for start, end, new in kept if end <= at)
                at += shift
            else:
                at = len(text)
            text = text[:at] + "from patchproof_oracle import observe, observe_raises  # sealed by patchproof witness seal\n" + text[at:]
        out["files"].append({"path": path, "source": text})
    json.dump(out, sys.stdout)


main()
`;
