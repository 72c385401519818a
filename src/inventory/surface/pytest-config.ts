/**
 * The pytest plugins a repository's configuration names, read statically (never by running
 * Python): `-p NAME` in `addopts` (pytest.ini and tox.ini `[pytest]`, setup.cfg `[tool:pytest]`,
 * pyproject.toml `[tool.pytest.ini_options]`), `pytest_plugins = ...` in conftest.py files and in
 * plugin modules, and the `pythonpath` entries that decide where a module name is found. Pure.
 */

export interface PytestConfigScan {
  /** Dotted module names of plugins (`-p no:x` disables a plugin and is not listed). */
  plugins: string[];
  /** `pythonpath` entries (repository-relative folders). */
  pythonpath: string[];
}

function section(text: string, names: readonly string[]): string | undefined {
  const lines = text.split(/\r?\n/);
  let inside = false;
  const body: string[] = [];
  let found = false;
  for (const line of lines) {
    const header = /^\s*\[([^\]]+)\]\s*$/.exec(line);
    if (header !== null) {
      inside = names.includes(header[1]!.trim());
      found ||= inside;
      continue;
    }
    if (inside) body.push(line);
  }
  return found ? body.join('\n') : undefined;
}

/** An ini option's value, continuation lines included (indented lines after `key =`). */
function iniValue(body: string, key: string): string | undefined {
  const lines = body.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const match = new RegExp(`^${key}\\s*[=:]\\s*(.*)$`).exec(lines[i]!);
    if (match === null) continue;
    const parts = [match[1]!];
    for (let j = i + 1; j < lines.length && /^\s+\S/.test(lines[j]!); j++) parts.push(lines[j]!.trim());
    return parts.join(' ');
  }
  return undefined;
}

/** A pyproject value: a TOML string, a multi-line string or an array of strings. */
function tomlValue(body: string, key: string): string | undefined {
  const match = new RegExp(`^${key}\\s*=\\s*([\\s\\S]*)`, 'm').exec(body);
  if (match === null) return undefined;
  const rest = match[1]!;
  if (rest.startsWith('[')) {
    const end = rest.indexOf(']');
    return [...rest.slice(0, end < 0 ? undefined : end).matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'/g)].map((m) => m[1] ?? m[2]).join(' ');
  }
  const triple = /^("""|''')([\s\S]*?)\1/.exec(rest);
  if (triple !== null) return triple[2]!.replace(/\s+/g, ' ');
  const single = /^"((?:[^"\\]|\\.)*)"|^'([^']*)'/.exec(rest);
  return single === null ? undefined : (single[1] ?? single[2]);
}

/** Plugin names in an addopts string: `-p name`, `-pname`, `-p=name`, `--plugin...` is not an option. */
export function addoptsPlugins(addopts: string): string[] {
  const tokens = addopts.split(/\s+/).filter((t) => t !== '');
  const plugins: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!.replace(/^["']|["']$/g, '');
    let name: string | undefined;
    if (token === '-p') name = tokens[++i]?.replace(/^["']|["']$/g, '');
    else if (token.startsWith('-p') && !token.startsWith('--')) name = token.slice(2).replace(/^=/, '');
    if (name !== undefined && name !== '' && !name.startsWith('no:')) plugins.push(name);
  }
  return plugins;
}

/** Scan one pytest configuration file, by its name (pytest.ini, tox.ini, setup.cfg, pyproject.toml). */
export function scanPytestConfig(fileName: string, text: string): PytestConfigScan {
  let addopts: string | undefined;
  let pythonpath: string | undefined;
  if (fileName === 'pyproject.toml') {
    const body = section(text, ['tool.pytest.ini_options']);
    if (body !== undefined) {
      addopts = tomlValue(body, 'addopts');
      pythonpath = tomlValue(body, 'pythonpath');
    }
  } else {
    const body = section(text, fileName === 'setup.cfg' ? ['tool:pytest'] : ['pytest']);
    if (body !== undefined) {
      addopts = iniValue(body, 'addopts');
      pythonpath = iniValue(body, 'pythonpath');
    }
  }
  return {
    plugins: addopts === undefined ? [] : addoptsPlugins(addopts),
    pythonpath: pythonpath === undefined ? [] : pythonpath.split(/\s+/).filter((p) => p !== '')
  };
}

/**
 * The module names a Python module lists in `pytest_plugins = "a"` / `["a", "b"]` / `("a",)`
 * (at the start of a line, the form pytest reads at module level).
 */
export function pytestPluginsOf(source: string): string[] {
  const out: string[] = [];
  for (const match of source.matchAll(/^pytest_plugins\s*=\s*([\s\S]*?)(?=^\S|$(?![\s\S]))/gm)) {
    for (const literal of match[1]!.matchAll(/"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'/g)) {
      const name = literal[1] ?? literal[2];
      if (name !== undefined && /^[A-Za-z_][\w.]*$/.test(name)) out.push(name);
    }
  }
  return out;
}

/** Repository paths a dotted module name can be imported from, under each import root. */
export function moduleFiles(name: string, roots: readonly string[]): string[] {
  const rel = name.split('.').join('/');
  const out: string[] = [];
  for (const root of roots) {
    const prefix = root === '' || root === '.' ? '' : `${root.replace(/^\.\/+/, '').replace(/\/+$/, '')}/`;
    out.push(`${prefix}${rel}.py`, `${prefix}${rel}/__init__.py`);
  }
  return out;
}
