#!/usr/bin/env python3
"""Generates the Level Zero negative-argument tests from the spec's own header.

ze_api.h documents, for every function, which argument values are invalid and the code each must
return:
    /// @returns
    ///     - ::ZE_RESULT_ERROR_INVALID_NULL_HANDLE
    ///         + `nullptr == hCommandList`
    ///     - ::ZE_RESULT_ERROR_INVALID_SIZE
    ///         + `(nullptr == phWaitEvents) && (0 < numWaitEvents)`
This script reads those conditions, builds for each a call in which every other argument is valid
(objects from a fixture, filled descriptors) and only that one is wrong, and writes a Catch2 test
per function that checks the documented code. It also writes the list of cases as Markdown
(docs/api-coverage.md's Level Zero part).

Functions the driver library does not export are not implemented; the loader answers
ZE_RESULT_ERROR_UNSUPPORTED_FEATURE for them, and they are listed as such.

Usage: generate.py <ze_api.h> <libze_tessera.so> <out.cpp> [<out.md>]
"""
import re
import subprocess
import sys

HANDLE_FIXTURE = {
    "ze_driver_handle_t": "fx.driver", "ze_device_handle_t": "fx.device",
    "ze_context_handle_t": "fx.context", "ze_command_queue_handle_t": "fx.queue",
    "ze_command_list_handle_t": "fx.list", "ze_fence_handle_t": "fx.fence",
    "ze_event_pool_handle_t": "fx.eventPool", "ze_event_handle_t": "fx.event",
    "ze_module_handle_t": "fx.module", "ze_module_build_log_handle_t": "fx.buildLog",
    "ze_kernel_handle_t": "fx.kernel", "ze_physical_mem_handle_t": "fx.physicalMem",
    "ze_image_handle_t": "fx.image", "ze_sampler_handle_t": "fx.sampler",
}
# Functions left out, and why (they are covered by hand-written tests or cannot run in-process).
SKIP = {
    "zeInit": "initializes the driver for the whole process: tested in test_init.cpp",
}
# Conditions the header lists that its own description contradicts; the description is followed.
CONTRADICTED = {
    ("zeVirtualMemReserve", "nullptr == pStart"):
        "pStart is optional: \"If nullptr then implementation will choose a start address\"",
    ("zeKernelGetSourceAttributes", "nullptr == pString"):
        "pString is optional from the 1.5 specification on (a null pString asks for the size), "
        "which programs rely on",
    # Level Zero 1.9 added IN_ORDER and COPY_OFFLOAD_HINT to both flag sets (and EXP_CLONEABLE to the
    # list's): the later headers say "0x7 < desc->flags" for queues and "0x3f < desc->flags" for
    # lists. test_in_order.cpp checks those limits.
    ("zeCommandQueueCreate", "0x1 < desc->flags"):
        "1.9 raised the limit to 0x7 (IN_ORDER, COPY_OFFLOAD_HINT); test_in_order.cpp checks it",
    ("zeCommandListCreateImmediate", "0x1 < altdesc->flags"):
        "1.9 raised the limit to 0x7 (IN_ORDER, COPY_OFFLOAD_HINT); test_in_order.cpp checks it",
    ("zeCommandListCreate", "0x7 < desc->flags"):
        "1.9 raised the limit to 0x3f (IN_ORDER, EXP_CLONEABLE, COPY_OFFLOAD_HINT); "
        "test_in_order.cpp checks it",
    # Later headers added ZE_MEMORY_ADVICE_SET/CLEAR_SYSTEM_MEMORY_PREFERRED_LOCATION (8, 9).
    ("zeCommandListAppendMemAdvise", "::ZE_MEMORY_ADVICE_BIAS_UNCACHED < advice"):
        "later headers raised the limit to CLEAR_SYSTEM_MEMORY_PREFERRED_LOCATION (9); "
        "test_cmdlist.cpp checks it",
    # Level Zero 1.11 added ZE_PHYSICAL_MEM_FLAG_ALLOCATE_ON_HOST: "0x3 < desc->flags".
    ("zePhysicalMemCreate", "0x1 < desc->flags"):
        "1.11 raised the limit to 0x3 (ALLOCATE_ON_HOST); test_virtual_memory.cpp checks it",
    # Level Zero 1.6 added ZE_EVENT_POOL_FLAG_KERNEL_MAPPED_TIMESTAMP: "0xf < desc->flags".
    ("zeEventPoolCreate", "0x7 < desc->flags"):
        "1.6 raised the limit to 0xf (KERNEL_MAPPED_TIMESTAMP); test_kernel_timestamps_ext.cpp "
        "checks it",
}


def parse(header):
    src = open(header).read()
    stypes = dict((m.group(2), m.group(1)) for m in re.finditer(
        r"(ZE_STRUCTURE_TYPE_\w+)\s*=\s*0x[0-9a-fA-F]+,\s*///< ::(ze_\w+_t)", src))
    structs = {}
    for m in re.finditer(r"typedef struct _(ze_\w+_t)\n\{\n(.*?)\n\} \1;", src, re.S):
        fields = []
        for line in m.group(2).splitlines():
            code = line.split("///")[0].strip().rstrip(";")
            if not code or "[" in code:
                continue
            t, _, name = code.rpartition(" ")
            fields.append((t.strip(), name.strip()))
        structs[m.group(1)] = fields
    funcs = []
    pat = re.compile(r"((?:///[^\n]*\n)+)ZE_APIEXPORT ze_result_t ZE_APICALL\n(ze\w+)\(\s*(.*?)\);",
                     re.S)
    for doc, name, params in pat.findall(src):
        plist = []
        for line in params.splitlines():
            code = line.split("///")[0].strip().rstrip(",").strip()
            if not code or code == "void":
                continue
            t, _, pname = code.rpartition(" ")
            plist.append((t.strip(), pname.strip()))
        cases = []
        for m in re.finditer(r"- ::(ZE_RESULT_\w+)((?:\n///\s+\+ `[^`]*`)*)", doc):
            for cond in re.findall(r"`([^`]*)`", m.group(2)):
                cases.append((m.group(1), cond))
        funcs.append((name, plist, cases))
    return stypes, structs, funcs


class Call:
    """The arguments of one call: every parameter valid, then one condition made true."""

    def __init__(self, name, params, stypes, structs):
        self.name, self.params, self.stypes, self.structs = name, params, stypes, structs
        self.decls, self.args = [], {}
        for t, p in params:
            self.args[p] = self.valid(t, p)

    def valid(self, t, p):
        base = t.replace("const ", "").strip()
        if base in HANDLE_FIXTURE:
            return HANDLE_FIXTURE[base]
        if base.endswith("*"):
            pointee = base[:-1].strip()
            if pointee == "char":
                return '"x"'
            if pointee in self.structs:
                var = f"s_{p}"
                self.decls.append(f"{pointee} {var}{{}};")
                self.fill(var, pointee)
                return f"&{var}"
            return f"reinterpret_cast<{t}>(fx.scratch())"
        if base in self.structs:  # by value (IPC handles, ...)
            return f"{base}{{}}"
        if base in ("size_t", "uint64_t"):
            return "64"
        if base in ("uint32_t", "int32_t") and (p.startswith("num") or p.startswith("count")):
            return "0"
        if base == "uint32_t":
            return "1" if p not in ("ordinal", "index", "argIndex") else "0"
        if base == "ze_bool_t":
            return "0"
        return f"static_cast<{base}>(0)"

    def fill(self, var, struct):
        for ft, fn in self.structs[struct]:
            if fn == "stype" and struct in self.stypes:
                self.decls.append(f"{var}.stype = {self.stypes[struct]};")
            elif fn == "pNext":
                continue
            elif "*" in ft:
                if "char" in ft:
                    self.decls.append(f'{var}.{fn} = "x";')
                else:
                    self.decls.append(
                        f"{var}.{fn} = reinterpret_cast<{ft}>(fx.scratch());")
            elif ft in ("size_t", "uint32_t", "uint64_t") and (
                    fn in ("size", "count", "inputSize") or fn.startswith("groupCount")):
                self.decls.append(f"{var}.{fn} = 1;")

    def apply(self, cond):
        """Makes `cond` true; returns False when the condition is not understood."""
        m = re.fullmatch(r"nullptr == (\w+)", cond)
        if m and m.group(1) in self.args:
            self.args[m.group(1)] = "nullptr"
            return True
        m = re.fullmatch(r"nullptr == (\w+)->(\w+)", cond)
        if m and m.group(1) in self.args:
            self.decls.append(f"s_{m.group(1)}.{m.group(2)} = nullptr;")
            return True
        m = re.fullmatch(r"\(nullptr == (\w+)\) && \(0 < (\w+)\)", cond)
        if m and m.group(1) in self.args and m.group(2) in self.args:
            self.args[m.group(1)] = "nullptr"
            self.args[m.group(2)] = "1"
            return True
        m = re.fullmatch(r"0 == (\w+)", cond)
        if m and m.group(1) in self.args:
            self.args[m.group(1)] = "0"
            return True
        m = re.fullmatch(r"0 == (\w+)->(\w+)", cond)
        if m and m.group(1) in self.args:
            self.decls.append(f"s_{m.group(1)}.{m.group(2)} = 0;")
            return True
        # An enumeration or flags past the last defined value: "0x7 < desc->flags",
        # "::ZE_MEMORY_ADVICE_BIAS_UNCACHED < advice".
        m = re.fullmatch(r"(0x[0-9a-fA-F]+|::ZE_\w+) < (\w+)(?:->(\w+))?", cond)
        if m and m.group(2) in self.args and "::" not in m.group(1)[2:]:
            limit = m.group(1).lstrip(":")
            value = f"({limit} + 1)"
            t = next(t for t, p in self.params if p == m.group(2))
            if m.group(3):
                self.decls.append(f"s_{m.group(2)}.{m.group(3)} = decltype(s_{m.group(2)}.{m.group(3)}){value};")
            else:
                base = t.replace("const ", "").strip()
                self.args[m.group(2)] = f"static_cast<{base}>{value}"
            return True
        return False

    def code(self, expected, cond):
        lines = ["  {"]
        lines += [f"    {d}" for d in self.decls]
        args = ", ".join(self.args[p] for _, p in self.params)
        lines.append(f'    INFO("{self.name}: {cond.replace(chr(34), chr(39))}");')
        lines.append(f"    CHECK({self.name}({args}) == {expected});")
        lines.append("  }")
        return "\n".join(lines)


def main():
    header, library, out_cpp = sys.argv[1], sys.argv[2], sys.argv[3]
    out_md = sys.argv[4] if len(sys.argv) > 4 else None
    exported = set(subprocess.run(["nm", "-D", "--defined-only", "--format=just-symbols", library],
                                  capture_output=True, text=True, check=True).stdout.split())
    stypes, structs, funcs = parse(header)
    tests, rows = [], []
    total = 0
    for name, params, cases in funcs:
        if name not in exported:
            rows.append((name, 0, "not implemented: not exported; through the loader's tables "
                         "ZE_RESULT_ERROR_UNSUPPORTED_FEATURE"))
            continue
        if name in SKIP:
            rows.append((name, 0, "not generated: " + SKIP[name]))
            continue
        body, understood = [], []
        for expected, cond in cases:
            if (name, cond) in CONTRADICTED:
                understood.append(f"`{cond}` not checked: {CONTRADICTED[(name, cond)]}")
                continue
            call = Call(name, params, stypes, structs)
            if call.apply(cond):
                body.append(call.code(expected, cond))
                understood.append(f"`{cond}` -> {expected.replace('ZE_RESULT_', '')}")
        total += len(body)
        rows.append((name, len(body), "; ".join(understood)))
        if body:
            tests.append(
                f'TEST_CASE("{name}: the header\'s invalid arguments return their codes", '
                f'"[negative][generated]") {{\n  NegativeFixture& fx = NegativeFixture::get();\n'
                + "\n".join(body) + "\n}\n")
    with open(out_cpp, "w") as f:
        f.write("// Generated by tests/api/ze/negative/generate.py from ze_api.h: do not edit.\n")
        f.write('#include "negative_fixture.h"\n\n')
        f.write("\n".join(tests))
    if out_md:
        with open(out_md, "w") as f:
            f.write(f"| function | generated cases | conditions (from ze_api.h) |\n|---|---|---|\n")
            for name, n, text in rows:
                f.write(f"| `{name}` | {n} | {text} |\n")
    print(f"{len(tests)} functions, {total} cases")


if __name__ == "__main__":
    main()
