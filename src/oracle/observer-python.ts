import { OBSERVATION_MARKER } from '../core/oracle.js';

/**
 * The Python observer of a sealed oracle, generated for one run with its nonce (see observer.ts).
 *
 * Safe observation (issues 26 and 28): a value is serialized without running code the candidate
 * defined. Builtin values are read by their base type's own methods (`int.__repr__`,
 * `float.__repr__`, `str.__str__`, `list.__iter__`, `dict.items`, …), never the object's own
 * `__eq__`, `__repr__`, `__str__`, `__hash__`, `__iter__` or properties. The exact type is part of the
 * observation: an instance of a builtin type is its plain JSON form (so literal expectations keep
 * matching); an instance of a *subclass* of a builtin type is `{"$type": "module.Qualname", "value":
 * <base form>}`, so a `float` subclass with a lying `__eq__` never observes like the honest float.
 * Any other object is observed field by field (`{"$type", "fields"}`) from its instance `__dict__`
 * and `__slots__`, read through the interpreter's own descriptors (a class that defines its own
 * `__dict__` or slot descriptors is `{"$unobservable": type}`); a few stdlib value types
 * (datetime, Decimal, Fraction, UUID, paths, ipaddress) by their stdlib repr. A memory address never
 * appears. Exceptions are observed as `{"$raised": Name, "type": "module.Qualname", "message": …}`,
 * the message only when the exception's `__str__` is the stdlib's and its arguments are builtin values.
 */
export function pythonObserver(nonce: string): string {
  return String.raw`"""Observer of a sealed oracle (generated for one run). The expected values are not here."""

import json as _json
import os as _os
import sys as _sys

_PREFIX = ${JSON.stringify(`${OBSERVATION_MARKER} ${nonce} `)}
_write = _os.write


def _open_stream():
    # The stream the host reads: the stdout of the run's first process, the topmost ancestor
    # working in this same folder (Docker's init, or the process the runner started), past any
    # runner's output capture in this process, a worker or a child.
    try:
        cwd = _os.getcwd()
        pid = _os.getpid()
        top = None
        while True:
            with open("/proc/%d/stat" % pid) as handle:
                ppid = int(handle.read().rsplit(")", 1)[1].split()[1])
            try:
                where = _os.readlink("/proc/%d/cwd" % ppid) if ppid > 0 else None
            except OSError:
                # A non-dumpable ancestor (the junit wrapper as PID 1): the climb ends below it.
                where = None
            if where != cwd:
                break
            pid = top = ppid
        if top is not None:
            return _os.open("/proc/%d/fd/1" % top, _os.O_WRONLY | _os.O_APPEND)
    except (OSError, ValueError, IndexError):
        pass
    return 1


_FD = _open_stream()

# Everything the encoder calls, taken before the code under test is imported (this module is the
# first import of a sealed test file): the interpreter's own functions and descriptors.
_type = type
_id = id
_len = len
_sorted = sorted
_dumps = _json.dumps
_Exception = Exception
_BaseException = BaseException
_T_NAME = type.__dict__["__name__"].__get__
_T_QUALNAME = type.__dict__["__qualname__"].__get__
_T_MRO = type.__dict__["__mro__"].__get__
_T_DICT = type.__dict__["__dict__"].__get__
_T_MODULE = type.__dict__["__module__"].__get__
_MP_GET = type(type.__dict__).get
_D_ITEMS = dict.items
_D_GET = dict.get
_INT_REPR = int.__repr__
_FLOAT_REPR = float.__repr__
_STR_STR = str.__str__
_BYTES_HEX = bytes.hex
_BYTEARRAY_HEX = bytearray.hex
_LIST_ITER = list.__iter__
_TUPLE_ITER = tuple.__iter__
_SET_ITER = set.__iter__
_FROZENSET_ITER = frozenset.__iter__
_EXC_ARGS = BaseException.__dict__["args"].__get__
_EXC_STR = BaseException.__str__
_GETSET = type(type.__dict__["__name__"])
_MEMBER = type(type.__dict__["__basicsize__"])
_M_DICT = type(_sys).__dict__["__dict__"].__get__
_M_NAME_OF = lambda m: _D_GET(_M_DICT(m), "__name__")
_FUNCTION = type(_open_stream)
_BUILTIN_FUNCTION = type(len)
_MODULE = type(_sys)
_STDLIB = frozenset(getattr(_sys, "stdlib_module_names", ())) | {"builtins"}
_VALUE_TYPES = {"datetime", "decimal", "_decimal", "_pydecimal", "fractions", "uuid", "pathlib", "ipaddress", "_pydatetime"}


def _module_of(t):
    try:
        d = _T_DICT(t)
        m = _MP_GET(d, "__module__")
        return m if _type(m) is str else _T_MODULE(t) if _type(_T_MODULE(t)) is str else "?"
    except _Exception:
        return "?"


def _qual(t):
    try:
        q = _T_QUALNAME(t)
    except _Exception:
        q = "?"
    return "%s.%s" % (_module_of(t), q)


def _is_stdlib_type(t):
    # A class counts as the stdlib's only when its module is a stdlib module and that module really
    # holds it under its qualified name (a class that merely sets __module__ is not).
    mod = _module_of(t)
    if mod.split(".")[0] not in _STDLIB:
        return False
    holder = _D_GET(_sys.modules, mod) if _type(_sys.modules) is dict else None
    if holder is None:
        return False
    try:
        obj = holder
        for part in _T_QUALNAME(t).split("."):
            if _type(obj) is _MODULE:
                obj = _M_DICT(obj)[part]
            elif type in _T_MRO(_type(obj)):
                obj = _T_DICT(obj)[part]
            else:
                return False
        return obj is t
    except _Exception:
        return False


def _base_of(t):
    for b in (bool, int, float, str, bytes, bytearray, list, tuple, dict, set, frozenset):
        if b in _T_MRO(t):
            return b
    return None


def _key(k, depth, path):
    t = _type(k)
    if t is str:
        return k
    if t is int:
        return _INT_REPR(k)
    if t is float:
        return _FLOAT_REPR(k)
    if t is bool:
        return "true" if k else "false"
    if k is None:
        return "null"
    return None


def _value_of(x, b, depth, path):
    # x's content read with the base type b's own methods
    if b is int:
        return int(_INT_REPR(x))
    if b is float:
        text = _FLOAT_REPR(x)
        if text in ("nan", "inf", "-inf"):
            return {"$float": text}
        return float(text)
    if b is str:
        return _STR_STR(x)
    if b is bytes:
        return {"$bytes": _BYTES_HEX(x)}
    if b is bytearray:
        return {"$bytes": _BYTEARRAY_HEX(x)}
    if b is list:
        return [_enc(v, depth + 1, path) for v in _LIST_ITER(x)]
    if b is tuple:
        return [_enc(v, depth + 1, path) for v in _TUPLE_ITER(x)]
    if b is set or b is frozenset:
        items = [_dumps(_enc(v, depth + 1, path), sort_keys=True) for v in (_SET_ITER(x) if b is set else _FROZENSET_ITER(x))]
        return {"$set": _sorted(items)}
    if b is dict:
        pairs = [(k, v) for k, v in _D_ITEMS(x)]
        keys = [_key(k, depth, path) for k, _ in pairs]
        if all(k is not None for k in keys) and _len(set(keys)) == _len(keys):
            return {k: _enc(v, depth + 1, path) for k, (_, v) in zip(keys, pairs)}
        return {"$dict": _sorted(([_enc(k, depth + 1, path), _enc(v, depth + 1, path)] for k, v in pairs), key=lambda p: _dumps(p, sort_keys=True))}
    return {"$unobservable": _qual(_type(x))}


def _fields(x, t, depth, path):
    # An instance's own state, read through the interpreter's descriptors: the instance __dict__
    # (the getset descriptor type made for the class) and each slot (member descriptors).
    out = {}
    found_dict = False
    for klass in _T_MRO(t):
        cd = _T_DICT(klass)
        desc = _MP_GET(cd, "__dict__")
        if desc is not None and not found_dict and klass is not object:
            if _type(desc) is not _GETSET:
                return None
            found_dict = True
            d = desc.__get__(x, t)
            if _type(d) is not dict:
                return None
            for k, v in _D_ITEMS(d):
                if _type(k) is not str:
                    return None
                out[k] = _enc(v, depth + 1, path)
        slots = _MP_GET(cd, "__slots__")
        if slots is not None:
            names = [slots] if _type(slots) is str else list(slots) if _type(slots) in (list, tuple) else None
            if names is None:
                return None
            for name in names:
                if _type(name) is not str or name in ("__dict__", "__weakref__"):
                    continue
                member = _MP_GET(cd, name if not name.startswith("__") or name.endswith("__") else "_%s%s" % (_T_NAME(klass).lstrip("_"), name))
                if _type(member) is not _MEMBER:
                    return None
                try:
                    out["%s.%s" % (_T_NAME(klass), name) if name in out else name] = _enc(member.__get__(x, t), depth + 1, path)
                except AttributeError:
                    pass
    return out


def _exception(error):
    t = _type(error)
    raised = {"$raised": _T_NAME(t), "type": _qual(t)}
    # The message only when str() of it runs the stdlib's code on builtin values.
    owner = None
    for klass in _T_MRO(t):
        if _MP_GET(_T_DICT(klass), "__str__") is not None:
            owner = klass
            break
    try:
        args = _EXC_ARGS(error)
    except _Exception:
        args = None
    if owner is not None and _is_stdlib_type(owner) and _type(args) is tuple and all(_type(a) in (str, int, float, bool, bytes, type(None)) for a in args):
        try:
            message = _T_DICT(owner)["__str__"](error)
            if _type(message) is str:
                raised["message"] = message
        except _Exception:
            pass
    if "message" not in raised:
        raised["message"] = {"$unobservable": _qual(t)}
    return raised


def _enc(x, depth=0, path=()):
    if depth > 60:
        return {"$unobservable": "depth"}
    t = _type(x)
    if x is None or t is bool or t is str:
        return x
    if t is int:
        return int(_INT_REPR(x))
    if t in (float, bytes, bytearray, list, tuple, set, frozenset, dict):
        if t in (list, tuple, set, frozenset, dict):
            if _id(x) in path:
                return {"$cycle": True}
            path = path + (_id(x),)
        return _value_of(x, t, depth, path)
    if type in _T_MRO(t):
        return {"$class": _qual(x)}
    if t is _MODULE:
        name = _M_NAME_OF(x)
        return {"$module": name if _type(name) is str else "?"}
    if t is _FUNCTION or t is _BUILTIN_FUNCTION:
        name = _T_DICT(t)["__qualname__"].__get__(x, t)
        return {"$function": name if _type(name) is str else "?"}
    b = _base_of(t)
    if b is not None:
        if _id(x) in path:
            return {"$cycle": True}
        return {"$type": _qual(t), "value": _value_of(x, b, depth, path + (_id(x),))}
    if _BaseException in _T_MRO(t):
        return {"$type": _qual(t), "args": _enc(_EXC_ARGS(x), depth + 1, path)}
    if _id(x) in path:
        return {"$cycle": True}
    if _is_stdlib_type(t) and _module_of(t).split(".")[0] in _VALUE_TYPES:
        owner = None
        for klass in _T_MRO(t):
            if _MP_GET(_T_DICT(klass), "__repr__") is not None:
                owner = klass
                break
        if owner is not None and owner is not object and _is_stdlib_type(owner):
            text = _T_DICT(owner)["__repr__"](x)
            if _type(text) is str and " at 0x" not in text:
                return {"$type": _qual(t), "repr": text}
    fields = _fields(x, t, depth, path + (_id(x),))
    if fields is None:
        return {"$unobservable": _qual(t)}
    for klass in _T_MRO(t):
        cd = _T_DICT(klass)
        if klass is not object and (_MP_GET(cd, "__eq__") is not None or _MP_GET(cd, "__bool__") is not None or _MP_GET(cd, "__len__") is not None):
            # Its class defines equality or truth: the host's structural reading may not be Python's.
            _CUSTOM_EQ[0] = True
            break
    return {"$type": _qual(t), "fields": fields}


def _emit(case, value):
    try:
        text = _dumps({"case": case, "value": value}, allow_nan=False, sort_keys=True, ensure_ascii=True)
    except (TypeError, ValueError, RecursionError):
        text = _dumps({"case": case, "value": {"$unobservable": "json"}}, ensure_ascii=True)
    data = (_PREFIX + text + "\n").encode("ascii")
    while data:
        data = data[_write(_FD, data):]


def _safe(x):
    try:
        return _enc(x)
    except RecursionError:
        return {"$unobservable": "depth"}
    except _Exception as error:
        return {"$unobservable": "error:" + _T_NAME(_type(error))}


_COUNTS = {}
_CUSTOM_EQ = [False]
_OPS = {
    "eq": lambda a, b: a == b, "ne": lambda a, b: a != b, "in": lambda a, b: a in b, "not_in": lambda a, b: a not in b,
    "lt": lambda a, b: a < b, "le": lambda a, b: a <= b, "gt": lambda a, b: a > b, "ge": lambda a, b: a >= b,
    "truthy": lambda a, b: a, "falsy": lambda a, b: not a,
}


def _occurrence(case):
    # A site observed again (a loop, a parametrized test) observes case#2, case#3, ... in order.
    n = _COUNTS.get(case, 0) + 1
    _COUNTS[case] = n
    return case if n == 1 else "%s#%d" % (case, n)


def observe(case, thunk):
    """Observe the value of thunk(); an exception is observed as {"$raised": name} and raised again."""
    case = _occurrence(case)
    try:
        value = thunk()
    except _Exception as error:
        _emit(case, _exception(error))
        raise
    _emit(case, _safe(value))
    return value


def observe_pair(case, op, left, right):
    """Observe both sides of a comparison; the host applies the assertion's predicate. When a side
    holds an object whose class defines __eq__ (the host's structural reading may not be Python's),
    the predicate's in-process answer is added as "$inprocess"; the host uses it only for objects
    (never for a subclass of a builtin type) and counts the case as decided in-process."""
    case = _occurrence(case)
    try:
        a = left()
        b = right()
    except _Exception as error:
        _emit(case, _exception(error))
        raise
    _CUSTOM_EQ[0] = False
    value = {"$left": _safe(a), "$right": _safe(b)}
    if _CUSTOM_EQ[0] and op in _OPS:
        try:
            value["$inprocess"] = True if _OPS[op](a, b) else False
        except _Exception:
            pass
    _emit(case, value)


def observe_type(case, thunk):
    """Observe the exact type of thunk()'s value (module.qualname), for isinstance checks."""
    case = _occurrence(case)
    try:
        value = thunk()
    except _Exception as error:
        _emit(case, _exception(error))
        raise
    _emit(case, {"$class": _qual(_type(value))})


class _Caught(object):
    """What 'with self.assertRaises(E) as cm' / 'with pytest.raises(E) as excinfo' gave the test."""

    __slots__ = ("exception", "value", "type")

    def __init__(self, error):
        self.exception = self.value = error
        self.type = _type(error)

    def match(self, pattern):
        import re

        assert re.search(pattern, str(self.value)), "Regex pattern did not match."
        return True


def observe_raises(case, thunk):
    """Observe that thunk() raises (the host checks which exception); a return is observed as such."""
    case = _occurrence(case)
    try:
        value = thunk()
    except _Exception as error:
        _emit(case, _exception(error))
        return _Caught(error)
    _emit(case, {"$returned": _safe(value)})
`;
}
