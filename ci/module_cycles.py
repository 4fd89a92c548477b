#!/usr/bin/env python3
"""Report the cycles in a crate's module graph (default: kiln-core).

    python3 ci/module_cycles.py [--src core/src] [--tests] [--quiet]
    python3 ci/module_cycles.py --check [ci/module_cycles.allow]   # CI

What counts as an edge: module A depends on module B when code in A names
a path into B: a `use` item (trees expanded: `use crate::{ir::Type, text}`)
or a path written inline in code (`crate::binary::reflect::f(..)`),
starting with `crate::` or `super::` (resolved against the module the code
sits in, inline `mod x { .. }` blocks included). Comments, doc comments (and
so intra-doc links) and string literals are not code and are skipped; so
is code under `#[cfg(test)]` unless `--tests` is given. `self::` paths go
from a module to its own children and never close a cycle.

What is reported, level by level:
  * top level: the crate's top-level modules (`abi`, `binary`, `text`,
    ...); a reference from anywhere under `text/` into anywhere under
    `target/` is an edge `text -> target`;
  * inside each top-level module with submodules: its direct children
    (`text::parser`, `text::printer`, ...) as nodes. A path to the parent
    itself (`crate::text::Foo`) counts as an edge to the child that
    `pub use`s `Foo` in the parent's `mod.rs`, and is ignored when the parent
    defines `Foo` itself (a child using its parent is how Rust modules are
    written, not a cycle).

For every strongly connected group of two or more nodes the report prints
its members and each edge inside it with the places (file:line and the
path) that make it. The exit status is 0 whatever is found: this is a
report, not a check.

`--check` is the check CI runs: it analyses every workspace member's `src/`
and exits 1 when a cycle group is not on the allow-list (default
`ci/module_cycles.allow`: one group a line, `CRATE_SRC | LEVEL | MEMBERS`,
each with a comment saying why it is there), printing the report of the
crates where one is; an allow-list line that no longer matches a cycle is
reported too (remove it: the list only shrinks).
"""

import argparse
import os
import re
import signal
import sys
from collections import defaultdict

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"


def strip_code(text):
    """Blank comments and the contents of string and char literals,
    keeping every newline (so offsets map to the same lines)."""
    out = []
    i, n = 0, len(text)

    def blank(s):
        return "".join(c if c == "\n" else " " for c in s)

    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(blank(text[i:j]))
            i = j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append(blank(text[i:j]))
            i = j
        elif re.match(r'b?r#*"', text[i:i + 20]) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'b?r(#*)"', text[i:])
            end = '"' + m.group(1)
            j = text.find(end, i + m.end())
            j = n if j < 0 else j + len(end)
            out.append('""' + blank(text[i + 2:j]))
            i = j
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            j += 1
            out.append('""' + blank(text[i + 2:j]))
            i = j
        elif c == "'":
            m = re.match(r"'(\\(x[0-9a-fA-F]{2}|u\{[0-9a-fA-F]+\}|.)|[^\\'])'", text[i:], re.S)
            if m:
                out.append(blank(text[i:i + m.end()]))
                i += m.end()
            else:  # a lifetime or label
                out.append(c)
                i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def matching_brace(code, open_at):
    depth = 0
    for j in range(open_at, len(code)):
        if code[j] == "{":
            depth += 1
        elif code[j] == "}":
            depth -= 1
            if depth == 0:
                return j
    return len(code) - 1


def item_end(code, start):
    """End offset of the item starting at `start`: its `;` or its block."""
    depth = 0
    for j in range(start, len(code)):
        ch = code[j]
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == ";" and depth == 0:
            return j
        elif ch == "{" and depth == 0:
            return matching_brace(code, j)
    return len(code) - 1


def expand_use_tree(tree):
    """`a::{b, c::{d, e as f}, self}` -> ['a::b', 'a::c::d', 'a::c::e', 'a']."""
    tree = re.sub(r"\s+", "", tree)

    def split_top(s):
        parts, depth, cur = [], 0, ""
        for ch in s:
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
            if ch == "," and depth == 0:
                parts.append(cur)
                cur = ""
            else:
                cur += ch
        if cur:
            parts.append(cur)
        return parts

    def expand(prefix, s):
        brace = s.find("{")
        if brace < 0:
            path = s
            if path.endswith("::self"):
                path = path[: -len("::self")]
            if path == "self":
                return [prefix.rstrip(":")]
            return [prefix + path]
        head, inner = s[:brace], s[brace + 1: s.rfind("}")]
        result = []
        for part in split_top(inner):
            result.extend(expand(prefix + head, part))
        return result

    return expand("", tree)


def module_files(src):
    """{module path tuple: file} for every module file under `src`."""
    files = {}
    for root, _, names in os.walk(src):
        for name in names:
            if not name.endswith(".rs"):
                continue
            full = os.path.join(root, name)
            rel = os.path.relpath(full, src)
            parts = rel[:-3].split(os.sep)
            if parts == ["lib"] or parts == ["main"]:
                parts = []
            elif parts[-1] == "mod":
                parts = parts[:-1]
            files[tuple(parts)] = full
    return files


def declared_children(code):
    return set(re.findall(r"\bmod\s+(" + IDENT + r")\s*[;{]", code))


def reexports(code):
    """{name: child} for `pub use child::...::Name` (and trees) in a module."""
    names = {}
    for m in re.finditer(r"\bpub(\s*\([^)]*\))?\s+use\s+([^;]+);", code):
        tree = re.sub(r"\s+as\s+" + IDENT, lambda a: "@" + a.group(0).split()[-1], m.group(2))
        for path in expand_use_tree(tree):
            segs = path.split("::")
            if segs and segs[0] == "self":
                segs = segs[1:]
            if len(segs) < 2:
                continue
            last = segs[-1]
            if "@" in last:
                last = last.split("@")[1]
            names[last] = segs[0]
    return names


def references(code, test_ranges):
    """(offset, path) for every `crate::`/`super::` path in `code`."""
    refs = []

    def in_tests(off):
        return any(a <= off <= b for a, b in test_ranges)

    use_spans = []
    for m in re.finditer(r"\buse\s+([^;]+);", code):
        use_spans.append((m.start(), m.end()))
        if in_tests(m.start()):
            continue
        tree = re.sub(r"\s+as\s+" + IDENT, "", m.group(1))
        for path in expand_use_tree(tree):
            if path.startswith(("crate::", "super::")) or path in ("crate", "super"):
                refs.append((m.start(), path))
    for m in re.finditer(r"(?<![A-Za-z0-9_:])((?:crate|super)(?:\s*::\s*" + IDENT + r")+)", code):
        if in_tests(m.start()) or any(a <= m.start() < b for a, b in use_spans):
            continue
        refs.append((m.start(), re.sub(r"\s+", "", m.group(1))))
    return refs


def analyse(src, include_tests):
    files = module_files(src)
    codes = {mod: strip_code(open(path, encoding="utf-8").read()) for mod, path in files.items()}

    # Test-only modules (`#[cfg(test)] mod tests;`) and test ranges in files.
    test_ranges = defaultdict(list)
    test_modules = set()
    for mod, code in codes.items():
        for m in re.finditer(r"#\s*\[\s*cfg\s*\(\s*test\s*\)\s*\]", code):
            start = m.end()
            end = item_end(code, start)
            test_ranges[mod].append((m.start(), end))
            child = re.match(r"\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(" + IDENT + r")\s*;", code[start:end + 1])
            if child:
                test_modules.add(mod + (child.group(1),))

    def is_test_module(mod):
        return any(mod[: len(t)] == t for t in test_modules)

    children = {mod: declared_children(code) for mod, code in codes.items()}
    reexported = {mod: reexports(code) for mod, code in codes.items()}

    # Inline `mod name { .. }` blocks: the module path at an offset.
    inline = {}
    for mod, code in codes.items():
        spans = []
        for m in re.finditer(r"\bmod\s+(" + IDENT + r")\s*\{", code):
            spans.append((m.end() - 1, matching_brace(code, m.end() - 1), m.group(1)))
        inline[mod] = spans

    def module_at(mod, off):
        path = list(mod)
        for a, b, name in sorted(inline[mod]):
            if a <= off <= b:
                path.append(name)
        return tuple(path)

    edges = []  # (from module, to path tuple, file, line, written path)
    for mod, code in codes.items():
        if not include_tests and is_test_module(mod):
            continue
        ranges = [] if include_tests else test_ranges[mod]
        for off, path in references(code, ranges):
            here = list(module_at(mod, off))
            segs = path.split("::")
            if segs[0] == "crate":
                target = segs[1:]
            else:
                base = here
                while segs and segs[0] == "super":
                    base = base[:-1]
                    segs = segs[1:]
                target = base + segs
            line = code.count("\n", 0, off) + 1
            edges.append((tuple(here), tuple(target), os.path.relpath(files[mod]), line, path))
    return files, children, reexported, edges


def resolve_child(parent, target, children, reexported):
    """The direct child of `parent` that path `target` (under `parent`) names."""
    rest = target[len(parent):]
    if not rest:
        return None
    if rest[0] in children.get(parent, ()):
        return rest[0]
    via = reexported.get(parent, {}).get(rest[0])
    if via in children.get(parent, ()):
        return via
    return None


def sccs(nodes, graph):
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(sorted(comp))

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return [c for c in out if len(c) > 1]


def report_level(title, nodes, level_edges, quiet):
    graph = defaultdict(set)
    for (a, b) in level_edges:
        graph[a].add(b)
    groups = sorted(sccs(nodes, graph))
    FOUND.extend((title, tuple(g)) for g in groups)
    lines = [f"{title}: {len(groups)} cycle group(s)"]
    for group in groups:
        lines.append("  {" + ", ".join(group) + "}")
        members = set(group)
        for (a, b), places in sorted(level_edges.items()):
            if a in members and b in members:
                lines.append(f"    {a} -> {b}  ({len(places)} place(s))")
                if not quiet:
                    for file, line, path in sorted(set(places)):
                        lines.append(f"      {file}:{line}  {path}")
    return lines, len(groups)


# The cycle groups the last `report` found: (level title, members).
FOUND = []


def workspace_sources(root):
    """The `src/` folder of every workspace member (Cargo.toml's `members`)."""
    with open(os.path.join(root, "Cargo.toml")) as f:
        text = f.read()
    m = re.search(r"^members\s*=\s*\[(.*?)\]", text, re.S | re.M)
    members = re.findall(r'"([^"]+)"', m.group(1)) if m else []
    return [f"{d}/src" for d in members if os.path.isdir(os.path.join(root, d, "src"))]


def check(allow_path):
    """CI's check: every cycle group of every workspace crate is allowed."""
    root = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    allowed = {}
    with open(allow_path) as f:
        for n, raw in enumerate(f, 1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            parts = [p.strip() for p in line.split("|")]
            if len(parts) != 3:
                print(f"{allow_path}:{n}: expected `CRATE_SRC | LEVEL | MEMBERS`")
                return 2
            allowed[(parts[0], parts[1], tuple(sorted(parts[2].split())))] = n
    bad, seen = [], set()
    for src in workspace_sources(root):
        FOUND.clear()
        text = report(os.path.join(root, src), False, True)
        new = []
        for title, group in FOUND:
            key = (src, title, group)
            seen.add(key)
            if key not in allowed:
                new.append(f"{src} | {title} | {' '.join(group)}")
        if new:
            bad.append((src, new, text))
    stale = [(n, k) for k, n in allowed.items() if k not in seen]
    for src, new, text in bad:
        print(text)
        for line in new:
            print(f"NEW CYCLE (not on {os.path.relpath(allow_path)}): {line}")
        print()
    for n, (src, title, group) in sorted(stale):
        print(f"{os.path.relpath(allow_path)}:{n}: {src} | {title} | {' '.join(group)}: "
              "no longer a cycle; remove the line")
    if bad or stale:
        return 1
    print(f"module cycles: {len(seen)} group(s), all on {os.path.relpath(allow_path)}")
    return 0


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `| head` is fine
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--src", default=os.path.join(os.path.dirname(__file__), "..", "core", "src"))
    ap.add_argument("--tests", action="store_true", help="count code under #[cfg(test)] too")
    ap.add_argument("--quiet", action="store_true", help="edges only, not the places")
    ap.add_argument("--check", nargs="?", const=os.path.join(os.path.dirname(__file__), "module_cycles.allow"),
                    metavar="ALLOW", help="CI: fail on a cycle group of any workspace crate not on ALLOW")
    args = ap.parse_args()
    if args.check:
        return check(args.check)
    print(report(os.path.normpath(args.src), args.tests, args.quiet))
    return 0


def report(src, tests, quiet):
    """The report of crate source folder `src` (see the module docs)."""
    args = argparse.Namespace(tests=tests, quiet=quiet)
    files, children, reexported, edges = analyse(src, args.tests)
    out = [f"module cycles in {os.path.relpath(src)} ({'with' if args.tests else 'without'} #[cfg(test)] code)"]
    total = 0

    # Top level.
    tops = sorted(children.get((), ()))
    level = defaultdict(list)
    for here, target, file, line, path in edges:
        if not here or not target or here[0] == target[0] or target[0] not in tops:
            continue
        level[(here[0], target[0])].append((file, line, path))
    lines, n = report_level("top level", tops, level, args.quiet)
    out += lines
    total += n

    # Inside each top-level module with submodules.
    for top in tops:
        kids = sorted(children.get((top,), ()))
        if len(kids) < 2:
            continue
        level = defaultdict(list)
        for here, target, file, line, path in edges:
            if len(here) < 2 or here[0] != top or len(target) < 1 or target[0] != top:
                continue
            dest = resolve_child((top,), target, children, reexported)
            if dest is None or dest == here[1]:
                continue
            level[(here[1], dest)].append((file, line, path))
        groups_lines, n = report_level(f"inside {top}", kids, level, args.quiet)
        if n:
            out += groups_lines
        total += n
    out.append(f"total: {total} cycle group(s)")
    return "\n".join(out)


if __name__ == "__main__":
    sys.exit(main())
