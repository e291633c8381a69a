#!/usr/bin/python3
"""clang-tidy over the files of a compile_commands.json that match a regex, skipping the files it already passed.

A pass is remembered under a key that covers everything clang-tidy's verdict depends on: clang-tidy's version,
the .clang-tidy file, the file's compile command, and the bytes of the file and of every header it includes (the
list Ninja recorded when it compiled the object: `ninja -t deps`, so NOLINT comments and line numbers count too;
where Ninja has no valid list, the file's preprocessed text with comments, -E -C, stands in). The checkout's path
is replaced by a placeholder before hashing, so a clean clone in another folder hits what this one passed. Only passes are kept: a file
with findings is checked again next time and its findings printed. The cache is a folder of empty files
(${XDG_CACHE_HOME:-~/.cache}/dmtune/clang-tidy); entries unused for 30 days are removed. DMTUNE_TIDY_CACHE=0
checks every file again (and still remembers the passes).

usage: clang-tidy-cached.py BUILD_DIR FILE_REGEX
"""
import concurrent.futures
import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import time

TIDY = "clang-tidy-14"
KEEP_DAYS = 30


def cache_dir():
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    path = os.path.join(base, "dmtune", "clang-tidy")
    os.makedirs(path, mode=0o700, exist_ok=True)
    return path


def without_pch(entry):
    """The entry without the build's precompiled header (CMakeLists.txt, DMTUNE_PCH): clang would take GCC's
    cmake_pch.hxx.gch beside the -include for its own PCH and fail, and tidy should see the file's own includes."""
    args = shlex.split(entry["command"]) if "command" in entry else list(entry["arguments"])
    out, skip = [], False
    for i, a in enumerate(args):
        if skip:
            skip = False
            continue
        if a == "-Winvalid-pch":
            continue
        if a == "-include" and i + 1 < len(args) and args[i + 1].endswith("cmake_pch.hxx"):
            skip = True
            continue
        out.append(a)
    filtered = {k: v for k, v in entry.items() if k not in ("command", "arguments")}
    filtered["command"] = shlex.join(out)
    return filtered


UNITY_SOURCE = re.compile(r'^#include "(.+\.cpp)"$', re.M)


def without_unity(entries):
    """A unity build's entries (CMAKE_UNITY_BUILD: build/.../unity_N.cpp, which only #includes sources) as one entry
    per source it includes, with the same command: tidy sees and caches each source as its own file, and a check
    such as bugprone-suspicious-include does not fire on the generated file."""
    out = []
    for entry in entries:
        if not re.search(r"_unity/unity_\d+(_cxx)?\.cpp$", entry["file"]):
            out.append(entry)
            continue
        unity = entry["file"] if os.path.isabs(entry["file"]) else os.path.join(entry["directory"], entry["file"])
        with open(unity, encoding="utf-8") as f:
            included = UNITY_SOURCE.findall(f.read())
        for source in included:
            path = os.path.normpath(os.path.join(os.path.dirname(unity), source))
            copy = dict(entry)
            copy["file"] = path
            copy["command"] = entry["command"].replace(unity, path).replace(entry["file"], path)
            out.append(copy)
    return out


def preprocess_command(entry):
    """The entry's compile command with -c/-o dropped and -E -C added: the text the compiler (and tidy) sees."""
    args = shlex.split(entry["command"]) if "command" in entry else list(entry["arguments"])
    out, skip = [], False
    for a in args:
        if skip:
            skip = False
            continue
        if a == "-o":
            skip = True
            continue
        if a == "-c" or a.startswith("-o"):
            continue
        out.append(a)
    return out + ["-E", "-C"]


def ninja_deps(build):
    """{object path relative to the build dir: [dependency paths as Ninja wrote them]}, valid entries only."""
    proc = subprocess.run(["ninja", "-C", build, "-t", "deps"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                          check=False)
    deps, current = {}, None
    for line in proc.stdout.decode(errors="surrogateescape").splitlines():
        if not line.startswith(" "):
            m = re.match(r"^(.*): #deps \d+, deps mtime \d+ \((\w+)\)$", line)
            current = None
            if m and m.group(2) == "VALID":
                current = deps.setdefault(m.group(1), [])
        elif current is not None and line.strip():
            current.append(line.strip())
    return deps


def object_of(entry):
    args = shlex.split(entry["command"]) if "command" in entry else list(entry["arguments"])
    for i, a in enumerate(args):
        if a == "-o" and i + 1 < len(args):
            return args[i + 1]
        if a.startswith("-o") and len(a) > 2:
            return a[2:]
    return None


_content_digests = {}
_digest_lock = threading.Lock()


def content_digest(path):
    """SHA-256 of a file's bytes, once per file for the whole run (Qt's headers are shared by every file)."""
    with _digest_lock:
        known = _content_digests.get(path)
    if known is None:
        try:
            with open(path, "rb") as f:
                known = hashlib.sha256(f.read()).digest()
        except OSError:
            known = b"missing"
        with _digest_lock:
            _content_digests[path] = known
    return known


def key_of(entry, source_dir, common, deps):
    """The hex key of one file, or None when it cannot be preprocessed (then tidy runs and reports it)."""
    placeholder = b"@SOURCE_DIR@"
    h = hashlib.sha256(common)
    h.update(entry.get("command", " ".join(entry.get("arguments", []))).encode().replace(source_dir, placeholder))
    h.update(b"\0")
    h.update(entry["file"].encode().replace(source_dir, placeholder))
    h.update(b"\0")
    listed = deps.get(object_of(entry) or "")
    if listed:
        h.update(b"deps\0")
        for dep in listed:
            if "cmake_pch" in dep:  # the PCH is not part of what tidy sees (without_pch)
                continue
            h.update(dep.encode().replace(source_dir, placeholder) + b"\0")
            h.update(content_digest(os.path.join(entry["directory"], dep)))
        return h.hexdigest()
    proc = subprocess.run(preprocess_command(entry), cwd=entry["directory"], stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, check=False)
    if proc.returncode != 0:
        return None
    h.update(b"preprocessed\0")
    h.update(proc.stdout.replace(source_dir, placeholder))
    return h.hexdigest()


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    build, pattern = sys.argv[1], re.compile(sys.argv[2])
    source_dir = os.getcwd().encode()
    with open(os.path.join(build, "compile_commands.json"), encoding="utf-8") as f:
        entries = [without_pch(e) for e in without_unity(json.load(f)) if pattern.search(e["file"])]
    # A source built into several targets (dmtunectl's cli.cpp) is checked once, with its first command.
    seen = set()
    entries = [e for e in entries if not (e["file"] in seen or seen.add(e["file"]))]
    # tidy reads its commands from a database: the same entries, without the PCH, in a folder of our own
    tidy_db = tempfile.mkdtemp(prefix="dmtune-tidy-")
    with open(os.path.join(tidy_db, "compile_commands.json"), "w", encoding="utf-8") as f:
        json.dump(entries, f)
    version = subprocess.run([TIDY, "--version"], stdout=subprocess.PIPE, check=True).stdout
    with open(".clang-tidy", "rb") as f:
        config = f.read()
    common = hashlib.sha256(version + b"\0" + config + b"\0" + open(__file__, "rb").read()).digest()
    cache = cache_dir()
    deps = ninja_deps(build)
    use_cache = os.environ.get("DMTUNE_TIDY_CACHE", "1") != "0"  # 0: check every file, still remember passes

    def check(entry):
        key = key_of(entry, source_dir, common, deps)
        marker = os.path.join(cache, key) if key else None
        if marker and use_cache and os.path.exists(marker):
            os.utime(marker)  # still in use: kept by the pruning below
            return entry["file"], True, 0, ""
        proc = subprocess.run([TIDY, "-p", tidy_db, "-quiet", entry["file"]], stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, check=False)
        if proc.returncode == 0 and marker:
            tmp = "%s.%d.tmp" % (marker, os.getpid())
            with open(tmp, "wb"):
                pass
            os.replace(tmp, marker)
        return entry["file"], False, proc.returncode, proc.stdout.decode(errors="replace")

    started = time.monotonic()
    cached = failed = 0
    jobs = os.cpu_count() or 1
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        for path, hit, rc, output in pool.map(check, entries):
            cached += hit
            if rc != 0:
                failed += 1
                print("clang-tidy: findings in %s:" % path)
            if rc != 0 or output.strip():
                # clang-tidy's own "N warnings generated" lines from headers outside the filter are noise
                lines = [l for l in output.splitlines() if not re.match(r"^\d+ warnings? (and \d+ errors? )?generated", l)
                         and not l.startswith("Suppressed ") and not l.startswith("Use -header-filter")]
                if lines:
                    print("\n".join(lines))
    shutil.rmtree(tidy_db, ignore_errors=True)
    cutoff = time.time() - KEEP_DAYS * 86400
    for name in os.listdir(cache):
        path = os.path.join(cache, name)
        try:
            if os.stat(path).st_mtime < cutoff:
                os.unlink(path)
        except FileNotFoundError:
            pass
    print("clang-tidy: %d files, %d passed before (cached), %d checked now, %d with findings, %.0f s"
          % (len(entries), cached, len(entries) - cached, failed, time.monotonic() - started))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
