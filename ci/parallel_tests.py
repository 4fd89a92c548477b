#!/usr/bin/env python3
"""Runs cargo test binaries one test per process, several processes at once.

    python3 ci/parallel_tests.py [--jobs N] [--log DIR] [--filter RE]
        [--build-only PACKAGE]... -- CARGO_TEST_ARGS...

The GPU tests cannot run on several threads of one process: the Khronos
validation layer Debian 12 ships keeps per-handle state in a process-wide
map that creating an instance writes without a lock
(KhronosGroup/Vulkan-ValidationLayers#4391). Separate processes share
nothing, and no GPU test shares a device with another, so this script runs
each test in a process of its own, `--jobs` of them at a time (default: the
machine's CPU count), taking the next test from one queue as a process ends.

The binaries are built first (`cargo test --no-run` with the given
arguments; cargo reports their paths), each runs in its package's folder as
`cargo test` would, and the tests known to be long start first so that no
long test is left to run alone at the end. A package named by
`--build-only` (also given to cargo with `-p`) takes part in the build but
its tests do not run: cargo resolves features over the packages it is
given, so naming one there makes the others build with the features (and
reuse the artifacts) of a wider build. A test's output is printed only
when it fails; the slowest tests are listed at the end with their times.
Exit status: 0 when every test passed, 1 otherwise.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import threading
import time

# Tests that take tens of seconds on a 2-core machine start first (a regular
# expression on `binary test::path`); the rest follow in listing order.
LONG_FIRST = [
    r"tensor_programs::corpus",
    r"tensor_cpu_differential::",
    r"tensor_dynamic_matmul::",
    r"tensor_generic_form::",
    r"tensor_arg_reductions::",
    r"tensor_tiles::",
    r"tensor_split_rows::",
    r"tensor_texel::",
    r"tensor_random::tensor_random_differential",
    r"models::",
]


def package_name(package_id):
    """The name in a cargo package id: `path+file:///p/x#NAME@0.1.0` (cargo
    1.77 on), `path+file:///p/NAME#0.1.0`, or `NAME 0.1.0 (path+...)`."""
    if " " in package_id:
        return package_id.split(" ")[0]
    tail = package_id.rsplit("/", 1)[-1]
    name, _, version = tail.partition("#")
    return version.split("@")[0] if "@" in version else name


def test_binaries(cargo_args, build_only=()):
    """(name, path, folder) of every test executable cargo builds, those of
    the packages in `build_only` left out."""
    out = subprocess.run(
        ["cargo", "test", "--no-run", "--message-format=json", *cargo_args],
        check=True,
        stdout=subprocess.PIPE,
        text=True,
    ).stdout
    found = []
    for line in out.splitlines():
        if not line.startswith("{"):
            continue
        msg = json.loads(line)
        if msg.get("reason") != "compiler-artifact" or not msg.get("executable"):
            continue
        if not msg["profile"]["test"]:
            continue
        if package_name(msg["package_id"]) in build_only:
            continue
        folder = os.path.dirname(msg["manifest_path"])
        found.append((msg["target"]["name"], msg["executable"], folder))
    return found


def list_tests(path, folder):
    out = subprocess.run(
        [path, "--list", "--format", "terse"],
        cwd=folder,
        check=True,
        stdout=subprocess.PIPE,
        text=True,
    ).stdout
    return [line[: -len(": test")] for line in out.splitlines() if line.endswith(": test")]


def ordered(jobs):
    def rank(job):
        key = f"{job[0]} {job[3]}"
        for i, pattern in enumerate(LONG_FIRST):
            if re.search(pattern, key):
                return i
        return len(LONG_FIRST)

    return sorted(jobs, key=rank)  # stable: listing order within a rank


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--log", help="folder for each failed test's output")
    parser.add_argument("--filter", help="run only tests whose `binary test::path` matches")
    parser.add_argument(
        "--build-only",
        action="append",
        default=[],
        metavar="PACKAGE",
        help="a package built with the others (`-p PACKAGE`) whose tests are not run",
    )
    parser.add_argument("cargo_args", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    cargo_args = [a for a in args.cargo_args if a != "--"]

    jobs = []
    for package in args.build_only:
        cargo_args += ["-p", package]
    for name, path, folder in test_binaries(cargo_args, args.build_only):
        for test in list_tests(path, folder):
            if args.filter and not re.search(args.filter, f"{name} {test}"):
                continue
            jobs.append((name, path, folder, test))
    queue = ordered(jobs)
    total = len(queue)
    print(f"running {total} tests, {args.jobs} processes at a time", flush=True)

    lock = threading.Lock()
    results = []  # (seconds, name, test, ok)
    failures = []

    def worker():
        while True:
            with lock:
                if not queue:
                    return
                name, path, folder, test = queue.pop(0)
            start = time.monotonic()
            run = subprocess.run(
                [path, "--exact", test, "--test-threads=1"],
                cwd=folder,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
                errors="replace",
            )
            seconds = time.monotonic() - start
            # A filter that matched nothing would exit 0: ask for the verdict.
            ran = re.search(
                r"test result: ok\. (1 passed; 0 failed; 0 ignored|0 passed; 0 failed; 1 ignored)",
                run.stdout,
            )
            ok = run.returncode == 0 and ran is not None
            with lock:
                results.append((seconds, name, test, ok))
                verdict = "ok" if ok else "FAILED"
                print(f"[{len(results)}/{total}] {name} {test} ... {verdict} ({seconds:.1f} s)", flush=True)
                if not ok:
                    failures.append((name, test, run.stdout))

    threads = [threading.Thread(target=worker) for _ in range(max(1, args.jobs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()

    print("\nslowest tests:")
    for seconds, name, test, _ in sorted(results, reverse=True)[:12]:
        print(f"  {seconds:7.1f} s  {name} {test}")
    for name, test, output in failures:
        print(f"\n---- {name} {test} output ----\n{output}")
        if args.log:
            os.makedirs(args.log, exist_ok=True)
            safe = re.sub(r"[^A-Za-z0-9_.-]", "_", f"{name}-{test}")
            with open(os.path.join(args.log, safe + ".txt"), "w") as f:
                f.write(output)
    passed = sum(1 for r in results if r[3])
    print(f"\n{passed} passed, {len(failures)} failed of {total}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
