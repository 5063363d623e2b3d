#!/usr/bin/env python3
"""Every repository path a comment or a document cites exists (issue 31 item 5).

Scans the comments of C, C++ and OpenCL C files (after //, or lines of a /* */ block), the comments
of shell, Python and CMake files (after #), and the whole text of Markdown and .def files, for
paths such as `core/command/launch_policy.cpp` or `jit/widen.cpp`. A path is found when it names a
tracked file or folder from the repository's root, from the citing file's folder, or as the tail of
a tracked file's path (`jit/widen.cpp` for backends/cpu/jit/widen.cpp). Paths outside the
repository (system and library headers, ../shared/, the build tree, shell variables) are not
checked. Exit status 1 and one line per stale citation when any is missing.

  scripts/check_cited_paths.py [repository root]
"""
import os
import re
import subprocess
import sys

EXTERNAL = ('llvm/', 'clang/', 'CL/', 'sys/', 'level_zero/', 'catch2/', 'hwloc/', 'spirv-tools/',
            'LLVMSPIRVLib/', 'lib/SPIRV/', 'linux/', 'asm/', 'bits/', 'build/', 'third_party/',
            '../shared/', 'source/loader/', 'test/routines/',
            'source/framework/',  # intel/compute-benchmarks' framework (docs/conformance.md)
            'src/runtime/',  # AdaptiveCpp's runtime (docs/conformance.md, "SYCL: AdaptiveCpp")
            # example names in prose, not paths of this repository
            'DIR/', 'INCLUDE_PATH/', 'sub/')
PATH = re.compile(r'(?<![\w./<$}-])((?:\.\./)*[A-Za-z_][\w.-]*(?:/[\w.-]+)+'
                  r'\.(?:cpp|h|hpp|md|sh|py|cl|def|spvasm|c|map))\b')
C_LIKE = ('.cpp', '.h', '.hpp', '.c', '.cl')
HASH_COMMENTS = ('.sh', '.py', '.cmake', 'CMakeLists.txt')
WHOLE = ('.md', '.def')


def cited_text(name, line, in_block):
    """The part of `line` that is commentary, and whether a /* */ block continues after it."""
    if name.endswith(C_LIKE):
        stripped = line.lstrip()
        if in_block or stripped.startswith('/*'):
            return line, '*/' not in line
        cut = line.find('//')
        return (line[cut + 2:] if cut >= 0 else ''), False
    if name.endswith(HASH_COMMENTS):
        cut = line.find('#')
        return (line[cut + 1:] if cut >= 0 else ''), False
    return line, False


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..')
    files = subprocess.run(['git', '-C', root, 'ls-files'], capture_output=True, text=True,
                           check=True).stdout.split()
    tracked = set(files)
    folders = {os.path.dirname(f) for f in files}
    for f in list(folders):
        while f:
            folders.add(f)
            f = os.path.dirname(f)

    def exists(path, citing):
        path = os.path.normpath(path)
        if path in tracked or path in folders:
            return True
        if os.path.normpath(os.path.join(os.path.dirname(citing), path)) in tracked:
            return True
        return any(f.endswith('/' + path) for f in files)

    stale = []
    for name in files:
        if name.startswith('third_party/') or not name.endswith(C_LIKE + HASH_COMMENTS + WHOLE):
            continue
        with open(os.path.join(root, name), errors='replace') as fh:
            in_block = False
            for number, line in enumerate(fh, 1):
                if line.lstrip().startswith('#include'):
                    continue
                text, in_block = cited_text(name, line, in_block)
                for m in PATH.finditer(text):
                    path = m.group(1)
                    if not path.startswith(EXTERNAL) and not exists(path, name):
                        stale.append(f'{name}:{number}: {path}')
    for s in stale:
        print(s)
    return 1 if stale else 0


if __name__ == '__main__':
    sys.exit(main())
