"""Seal coverage of Python test files: assertion sites sealed / total, per file.

Usage: python3 scripts/seal-coverage-python.py SEAL_PYTHON_TS FILE... (a file may be given as
LABEL=PATH). The sealing program is read from SEAL_PYTHON_TS (src/oracle/seal-python.ts, any
version), so the same files can be measured before and after a change. A site is sealed when it
became a case or a pending (recorded) site; unsealed sites are the ones `seal` lists.
"""
import json
import re
import subprocess
import sys

ts = open(sys.argv[1], encoding="utf-8").read()
program = re.search(r"String\.raw`(.*)`;\s*$", ts, re.S).group(1)
total_sealed = total_sites = 0
for arg in sys.argv[2:]:
    label, _, path = arg.rpartition("=")
    source = open(path, encoding="utf-8").read()
    out = subprocess.run(["python3", "-I", "-B", "-c", program], input=json.dumps({"phase": "reproduction", "files": [{"path": "t.py", "source": source}]}), capture_output=True, text=True)
    if out.returncode != 0:
        print("%s: seal failed: %s" % (label or path, out.stderr.strip().splitlines()[-1]))
        continue
    result = json.loads(out.stdout)
    sites = {re.sub(r"#\d+$", "", c["id"]) for c in result["cases"]} | {p["site"] for p in result.get("pending", [])}
    unsealed = result["unsealed"]
    sealed, total = len(sites), len(sites) + len(unsealed)
    total_sealed += sealed
    total_sites += total
    print("%-60s %4d / %-4d sealed  %s" % (label or path, sealed, total, "; ".join("%d: %s" % (u["line"], u["text"].strip()[:50]) for u in unsealed[:4])))
print("%-60s %4d / %-4d sealed (%.0f%%)" % ("TOTAL", total_sealed, total_sites, 100.0 * total_sealed / max(total_sites, 1)))
