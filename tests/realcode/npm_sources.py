#!/usr/bin/env python3
"""Real code bases from the npm registry: fetch a pinned package once into a
cache directory, and read its own node-gyp build description (sources,
defines, cflags of a target, Linux x64 Release) so the e2e cases compile it
the way the package does.

Usage as a script (prints the build steps):
    npm_sources.py CACHE_DIR better-sqlite3|argon2
"""
import ast
import os
import shutil
import subprocess
import sys
import tempfile

# Exact versions: the sources and their results must not move under the tests.
PACKAGES = {
    # SQLite amalgamation in deps/sqlite3, built by deps/sqlite3.gyp.
    "better-sqlite3": {"version": "12.11.1", "gyp": "deps/sqlite3.gyp", "target": "sqlite3"},
    # Argon2 reference implementation in argon2/, built by binding.gyp.
    "argon2": {"version": "0.45.1", "gyp": "binding.gyp", "target": "libargon2"},
}
FETCH_TIMEOUT_S = 60
# Variables node-gyp sets on a Linux x86-64 Release build; fortify_source_defined
# is binding.gyp's own probe of CFLAGS (which the tests leave unset).
GYP_VARIABLES = {"OS": "linux", "target_arch": "x64", "sqlite3": "",
                 "fortify_source_defined": "false"}
CONFIGURATION = "Release"
# What node-gyp adds to every C target of a Release build (node's own
# common.gypi; its warning flags left out): the optimisation level.
NODE_GYP_RELEASE_CFLAGS = ["-O3"]


class Unreachable(Exception):
    """The registry could not be reached: the caller skips."""


def fetch(cache, name):
    """Unpacks name@version into CACHE/name-version/package once; returns that
    directory. Raises Unreachable when npm is missing or the download fails."""
    version = PACKAGES[name]["version"]
    dest = os.path.join(cache, "%s-%s" % (name, version))
    package = os.path.join(dest, "package")
    if os.path.isfile(os.path.join(package, "package.json")):
        return package
    npm = shutil.which("npm")
    if not npm:
        raise Unreachable("npm is not installed")
    os.makedirs(cache, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix=".fetch-", dir=cache)
    try:
        try:
            r = subprocess.run([npm, "pack", "--silent", "%s@%s" % (name, version)], cwd=tmp,
                               capture_output=True, text=True, timeout=FETCH_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            raise Unreachable("npm pack %s@%s timed out after %d s"
                              % (name, version, FETCH_TIMEOUT_S))
        tarballs = [f for f in os.listdir(tmp) if f.endswith(".tgz")]
        if r.returncode != 0 or len(tarballs) != 1:
            last = (r.stderr.strip().splitlines() or ["no tarball"])[-1]
            raise Unreachable("npm pack %s@%s failed: %s" % (name, version, last))
        subprocess.run(["tar", "xzf", tarballs[0]], cwd=tmp, check=True)
        os.remove(os.path.join(tmp, tarballs[0]))
        try:
            os.rename(tmp, dest)  # atomic: a concurrent fetch of the same package wins or loses whole
        except OSError:
            if not os.path.isdir(package):
                raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return package


def _load(path):
    # .gyp/.gypi files are Python literals (comments, trailing commas allowed).
    with open(path) as f:
        return ast.literal_eval(f.read())


def _true(expr, variables):
    # gyp evaluates condition strings as Python expressions over its variables.
    return bool(eval(expr, {"__builtins__": {}}, dict(variables)))


def _merge(into, settings, base):
    """gyp merging, as far as these files need it: lists append (`key+`
    prepends, `key!` removes), dicts merge, `includes` are read relative to base."""
    for inc in settings.get("includes", []):
        _merge(into, _load(os.path.join(base, inc)), base)
    for key, value in settings.items():
        if key == "includes":
            continue
        if key == "!":  # exclusions collected by an earlier merge
            for k, v in value.items():
                into.setdefault("!", {}).setdefault(k, []).extend(v)
            continue
        if key.endswith("!"):
            into.setdefault("!", {}).setdefault(key[:-1], []).extend(value)
            continue
        name = key[:-1] if key.endswith("+") else key
        if isinstance(value, list):
            into[name] = (value + into.get(name, [])) if key.endswith("+") else \
                into.get(name, []) + value
        elif isinstance(value, dict):
            into.setdefault(name, {})
            _merge(into[name], value, base)
        else:
            into[name] = value


def _layers(settings, variables, base):
    """The settings dict without its conditions, then the matching condition
    branches and the Release configuration, in gyp's order, each still with
    its `+`/`!` keys (a branch's `key+` prepends to what came before)."""
    out = []
    for inc in settings.get("includes", []):
        out += _layers(_load(os.path.join(base, inc)), variables, base)
    out.append({k: v for k, v in settings.items()
                if k not in ("conditions", "target_conditions", "configurations", "includes")})
    for key in ("conditions", "target_conditions"):
        for cond in settings.get(key, []):
            branch = cond[1] if _true(cond[0], variables) else (cond[2] if len(cond) > 2 else {})
            out += _layers(branch, variables, base)
    config = settings.get("configurations", {}).get(CONFIGURATION)
    if config:
        out += _layers(config, variables, base)
    return out


def _flatten(settings, variables, base):
    out = {}
    for layer in _layers(settings, variables, base):
        _merge(out, layer, base)
    return out


def build_steps(package, name):
    """{"sources", "defines", "cflags", "include_dirs"} of the package's C
    library target, paths absolute."""
    info = PACKAGES[name]
    gyp_path = os.path.join(package, info["gyp"])
    base = os.path.dirname(gyp_path)
    gyp = _load(gyp_path)
    variables = dict(GYP_VARIABLES)
    for inc in gyp.get("includes", []):  # variables with % are defaults
        for k, v in _load(os.path.join(base, inc)).get("variables", {}).items():
            variables.setdefault(k.rstrip("%"), v)
    defaults = _flatten(gyp.get("target_defaults", {}), variables, base)
    for inc in gyp.get("includes", []):
        defaults_inc = _load(os.path.join(base, inc)).get("target_defaults", {})
        _merge(defaults, _flatten(defaults_inc, variables, base), base)
    target = [t for t in gyp["targets"] if t["target_name"] == info["target"]][0]
    settings = {"cflags": list(NODE_GYP_RELEASE_CFLAGS)}
    _merge(settings, defaults, base)
    _merge(settings, _flatten(target, variables, base), base)
    removed = settings.pop("!", {})
    for key, values in removed.items():
        settings[key] = [v for v in settings.get(key, []) if v not in values]

    def path(p):
        # sqlite3.gyp copies deps/sqlite3/ into SHARED_INTERMEDIATE_DIR before
        # compiling (its copy_builtin_sqlite3 action): use the originals.
        p = p.replace("<(SHARED_INTERMEDIATE_DIR)/", "")
        return os.path.normpath(os.path.join(base, p))
    return {"sources": [path(s) for s in settings.get("sources", [])],
            "defines": list(dict.fromkeys(settings.get("defines", []))),
            "cflags": settings.get("cflags", []),
            "include_dirs": [path(d) for d in settings.get("include_dirs", [])]}


def compile_flags(steps):
    return steps["cflags"] + ["-D" + d for d in steps["defines"]] + \
        ["-I" + d for d in steps["include_dirs"]]


def main(argv):
    if len(argv) != 3 or argv[2] not in PACKAGES:
        print("usage: npm_sources.py CACHE_DIR %s" % "|".join(PACKAGES), file=sys.stderr)
        return 2
    try:
        package = fetch(argv[1], argv[2])
    except Unreachable as e:
        print("npm registry unreachable: %s" % e, file=sys.stderr)
        return 77
    steps = build_steps(package, argv[2])
    print("package:", package)
    for s in steps["sources"]:
        print("source:", s)
    print("flags:", " ".join(compile_flags(steps)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
