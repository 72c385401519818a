import { spawnSync } from 'node:child_process';
import { InfrastructureError } from '../../errors.js';

/**
 * L3's first tier for Python (pytest, unittest): the repository modules each suite file imports,
 * read by the host's python3 with `ast` (isolated, no site: parsing never runs the files, like
 * python-twins.ts). `import a.b` names `a.b`; `from a.b import c` names `a.b` and `a.b.c`; relative
 * imports are resolved against the file's package. A file that does not parse is unknown.
 */
const PYTHON_IMPORTS_SOURCE = String.raw`
import ast, json, sys
request = json.load(sys.stdin)
out = {}
for item in request["files"]:
    path = item["path"]
    try:
        tree = ast.parse(item["text"], filename=path)
    except (SyntaxError, ValueError):
        out[path] = None
        continue
    package = path.split("/")[:-1]
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level > 0:
                if node.level - 1 > len(package):
                    continue
                base = package[: len(package) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            if module:
                names.append(module)
            names.extend((module + "." if module else "") + alias.name for alias in node.names if alias.name != "*")
    out[path] = sorted(set(names))
json.dump(out, sys.stdout)
`;

/** The repository files a module name can be, from the root or `src/` (both usual import roots). */
export function pythonModuleFiles(name: string, files: ReadonlySet<string>): string[] {
  const rel = name.split('.').join('/');
  return ['', 'src/'].flatMap((root) => [`${root}${rel}.py`, `${root}${rel}/__init__.py`]).filter((f) => files.has(f));
}

/**
 * The import graph over the given suite files (repository-relative path → source): each file's
 * repository-relative imports, or undefined when it does not parse. Throws an InfrastructureError
 * when the host's python3 cannot run (the tier is then not planned; the caller skips it).
 */
export function pythonImportGraph(suite: Readonly<Record<string, string>>, allFiles: readonly string[]): (file: string) => string[] | undefined {
  const child = spawnSync('python3', ['-I', '-S', '-c', PYTHON_IMPORTS_SOURCE], {
    input: JSON.stringify({ files: Object.entries(suite).map(([path, text]) => ({ path, text })) }),
    encoding: 'utf8',
    timeout: 60_000,
    maxBuffer: 64 * 1024 * 1024
  });
  if (child.error !== undefined || child.status !== 0) {
    throw new InfrastructureError(`the host's python3 could not read the suite's imports: ${child.error?.message ?? child.stderr.slice(0, 500)}`);
  }
  const names = JSON.parse(child.stdout) as Record<string, string[] | null>;
  const set = new Set(allFiles);
  return (file) => {
    const found = names[file];
    if (found === undefined) return [];
    if (found === null) return undefined;
    return [...new Set(found.flatMap((name) => pythonModuleFiles(name, set)))].sort();
  };
}
