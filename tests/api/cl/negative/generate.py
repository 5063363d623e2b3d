#!/usr/bin/env python3
"""Generates the OpenCL invalid-handle tests from the OpenCL headers.

For every entry point of the ICD dispatch table (cl_shim/api.h's list) and every handle parameter
(cl_context, cl_command_queue, cl_mem, ...), three calls with all other arguments valid: the handle
null, a live handle of another type, and a handle whose object was released. Each must return the
code the OpenCL specification names for an invalid object of that type (CL_INVALID_CONTEXT, ...),
in the return value or in errcode_ret, and not crash. The calls go straight to Tessera's dispatch
table, as the ICD loader would forward them: the loader itself reads a handle before forwarding it,
so through the loader only Tessera's own answers are seen for handles it can read.

With --coverage <out.md> before the headers it also writes the OpenCL part of docs/api-coverage.md:
every entry point, whether Tessera implements it, and its generated cases.

Usage: generate.py <api.h> <out.cpp> [--coverage <out.md>] <CL headers...>
"""
import re
import sys

INVALID = {
    "cl_platform_id": "CL_INVALID_PLATFORM", "cl_device_id": "CL_INVALID_DEVICE",
    "cl_context": "CL_INVALID_CONTEXT", "cl_command_queue": "CL_INVALID_COMMAND_QUEUE",
    "cl_mem": "CL_INVALID_MEM_OBJECT", "cl_program": "CL_INVALID_PROGRAM",
    "cl_kernel": "CL_INVALID_KERNEL", "cl_event": "CL_INVALID_EVENT",
    "cl_sampler": "CL_INVALID_SAMPLER",
}
FIXTURE = {
    "cl_platform_id": "fx.platform", "cl_device_id": "fx.device", "cl_context": "fx.context",
    "cl_command_queue": "fx.queue", "cl_mem": "fx.buffer", "cl_program": "fx.program",
    "cl_kernel": "fx.kernel", "cl_event": "fx.event", "cl_sampler": "fx.sampler",
}
# A live handle of another type for each: wrong-type handles must be refused too.
OTHER = {
    "cl_platform_id": "fx.context", "cl_device_id": "fx.context", "cl_context": "fx.queue",
    "cl_command_queue": "fx.context", "cl_mem": "fx.context", "cl_program": "fx.kernel",
    "cl_kernel": "fx.program", "cl_event": "fx.buffer", "cl_sampler": "fx.context",
}
# Where a null handle is not an error.
NULL_ALLOWED = {
    ("clGetPlatformInfo", "platform"): "a null platform selects Tessera's",
    ("clGetDeviceIDs", "platform"): "a null platform selects Tessera's",
    ("clGetExtensionFunctionAddressForPlatform", "platform"): "returns NULL, no error code",
    # "device ... can be NULL if there is only one device associated with kernel"
    ("clGetKernelWorkGroupInfo", "device"): "the kernel's single device",
    ("clGetKernelSubGroupInfo", "device"): "the kernel's single device",
    ("clGetKernelSubGroupInfoKHR", "in_device"): "the kernel's single device",
}
# Where the specification names another code for an invalid handle of that parameter.
CODE_OVERRIDE = {
    # The OpenCL 3.0 backwards-compatibility table: "Returns CL_INVALID_OPERATION if device does
    # not support on-device queues", which the CTS checks with a null command_queue.
    ("clSetDefaultDeviceCommandQueue", "command_queue"): "CL_INVALID_OPERATION",
}
# Entry points Tessera answers without doing the work, and why (cl_shim/api_unsupported*.cpp).
UNSUPPORTED = [
    (r"Pipe", "pipes are an optional OpenCL 3.0 feature the device does not report"),
    (r"GL|EGL", "no OpenGL/EGL sharing extension is reported"),
    (r"NativeKernel", "CL_EXEC_NATIVE_KERNEL is not reported"),
    (r"DefaultDeviceCommandQueue", "no device-side queues"),
    (r"ProgramReleaseCallback", "no program-scope global destructors (OpenCL 3.0 allows refusing)"),
]
SKIP = {
    "clGetExtensionFunctionAddressForPlatform": "returns a function pointer, no error code",
    "clGetExtensionFunctionAddress": "no handle",
    "clSVMFree": "returns nothing",
}


def prototypes(headers):
    text = ""
    for h in headers:
        text += open(h).read()
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    protos = {}
    for m in re.finditer(r"extern CL_API_ENTRY\s+(?:CL_API_PREFIX__VERSION_\w+\s+)?([\w\s\*]+?)"
                         r"\s*CL_API_CALL\s*(cl\w+)\s*\(", text):
        ret, name = m.group(1).strip(), m.group(2)
        depth, end = 1, m.end()
        while depth:  # the parameter list, callbacks' own parentheses included
            depth += {"(": 1, ")": -1}.get(text[end], 0)
            end += 1
        params = text[m.end():end - 1]
        if name in protos:
            continue
        plist = []
        depth, cur = 0, ""
        for ch in params:
            if ch == "(":
                depth += 1
            elif ch == ")":
                depth -= 1
            if ch == "," and depth == 0:
                plist.append(cur.strip())
                cur = ""
            else:
                cur += ch
        if cur.strip() and cur.strip() != "void":
            plist.append(cur.strip())
        parsed = []
        for p in plist:
            p = " ".join(p.split())
            fm = re.search(r"\(\s*(?:CL_CALLBACK\s*)?\*\s*(\w+)\s*\)", p)
            if fm:
                parsed.append(("callback", fm.group(1)))
                continue
            pm = re.fullmatch(r"(.*?)\s*(\w+)(\s*\[\s*\w*\s*\])?", p)
            if not pm:
                raise SystemExit(f"cannot read parameter {p!r} of {name}")
            t = pm.group(1).strip() + (" *" if pm.group(3) else "")
            parsed.append((t, pm.group(2)))
        protos[name] = (ret, parsed)
    return protos


def valid(t, p):
    base = t.replace("const", "").strip()
    if base in FIXTURE:
        return FIXTURE[base]
    if t == "callback":
        return "nullptr"
    if p == "errcode_ret":
        return "&err"
    if p in ("event_wait_list", "event"):
        return "nullptr"
    if "*" in base:
        return f"reinterpret_cast<{t}>(fx.scratch())"
    return f"({base})0"


def main():
    api_h, out_cpp, headers = sys.argv[1], sys.argv[2], sys.argv[3:]
    out_md = None
    if headers[:1] == ["--coverage"]:
        out_md, headers = headers[1], headers[2:]
    rows = []
    names = re.findall(r"X\((cl\w+)\)", open(api_h).read())
    protos = prototypes(headers)
    tests, total = [], 0
    for name in names:
        if name in SKIP or name not in protos:
            continue
        ret, params = protos[name]
        handles = [(t, p) for t, p in params if t.replace("const", "").strip() in INVALID]
        if not handles:
            continue
        body = []
        for t, p in handles:
            base = t.replace("const", "").strip()
            if (name, p) in NULL_ALLOWED:
                continue
            variants = [("null", "nullptr"), ("wrong type", f"reinterpret_cast<{base}>({OTHER[base]})"),
                        ("released", f"reinterpret_cast<{base}>(fx.released(\"{base}\"))")]
            for label, value in variants:
                args = ", ".join(value if q == p else valid(u, q) for u, q in params)
                code = CODE_OVERRIDE.get((name, p), INVALID[base])
                call = f"fx.table->{name}({args})"
                lines = ["  {", "    cl_int err = CL_SUCCESS;", "    (void)err;",
                         f'    INFO("{name}: {label} {p}");']
                if ret == "cl_int":
                    lines.append(f"    CHECK({call} == {code});")
                elif "errcode_ret" in [q for _, q in params]:
                    lines.append(f"    CHECK({call} == nullptr);")
                    lines.append(f"    CHECK(err == {code});")
                elif ret.endswith("*") or ret.startswith("cl_"):
                    lines.append(f"    CHECK({call} == nullptr);")
                else:
                    continue
                lines.append("  }")
                body.append("\n".join(lines))
        total += len(body)
        status = "implemented"
        for pattern, why in UNSUPPORTED:
            if re.search(pattern, name):
                status = "refused: " + why
        rows.append((name, status, len(body)))
        if body:
            tests.append(f'TEST_CASE("{name}: invalid handles return their codes", '
                         f'"[cl][negative][generated]") {{\n  ClNegativeFixture& fx = ClNegativeFixture::get();\n'
                         + "\n".join(body) + "\n}\n")
    with open(out_cpp, "w") as f:
        f.write("// Generated by tests/api/cl/negative/generate.py: do not edit.\n")
        f.write('#include "cl_negative_fixture.h"\n\n' + "\n".join(tests))
    if out_md:
        with open(out_md, "w") as f:
            f.write("| entry point | status | generated invalid-handle cases |\n|---|---|---|\n")
            listed = {r[0] for r in rows}
            for name in names:
                if name not in listed:
                    status = "implemented" if name not in SKIP else "implemented (" + SKIP[name] + ")"
                    rows.append((name, status, 0))
            for name, status, n in sorted(rows):
                f.write(f"| `{name}` | {status} | {n} |\n")
    print(f"{len(tests)} functions, {total} cases")


if __name__ == "__main__":
    main()
