#!/usr/bin/env python3
"""Runs a command where the kernel seems to have neither Landlock nor
unshare: a seccomp filter makes landlock_create_ruleset, landlock_add_rule,
landlock_restrict_self and unshare fail with ENOSYS, as on an old kernel or
in a container whose profile refuses them.

    no-landlock.py PROGRAM [ARG]...

x86-64 and aarch64 Linux only (it exits with 3 elsewhere)."""

import ctypes
import os
import platform
import struct
import sys

ARCHES = {
    # machine: (AUDIT_ARCH, {name: number})
    "x86_64": (0xC000003E, {"unshare": 272, "landlock_create_ruleset": 444,
                            "landlock_add_rule": 445, "landlock_restrict_self": 446}),
    "aarch64": (0xC00000B7, {"unshare": 97, "landlock_create_ruleset": 444,
                             "landlock_add_rule": 445, "landlock_restrict_self": 446}),
}

BPF_LD_W_ABS = 0x20
BPF_JEQ_K = 0x15
BPF_RET_K = 0x06
SECCOMP_RET_ALLOW = 0x7FFF0000
SECCOMP_RET_ERRNO = 0x00050000
ENOSYS = 38
PR_SET_NO_NEW_PRIVS = 38
PR_SET_SECCOMP = 22
SECCOMP_MODE_FILTER = 2


def program(arch, numbers):
    """The filter: wrong architecture or any other call is allowed."""
    ins = [(BPF_LD_W_ABS, 0, 0, 4), (BPF_JEQ_K, 1, 0, arch),
           (BPF_RET_K, 0, 0, SECCOMP_RET_ALLOW), (BPF_LD_W_ABS, 0, 0, 0)]
    n = len(numbers)
    for i, nr in enumerate(numbers):
        # Match: jump to the ERRNO return after the remaining tests and ALLOW.
        ins.append((BPF_JEQ_K, n - i, 0, nr))
    ins.append((BPF_RET_K, 0, 0, SECCOMP_RET_ALLOW))
    ins.append((BPF_RET_K, 0, 0, SECCOMP_RET_ERRNO | ENOSYS))
    return b"".join(struct.pack("HBBI", *i) for i in ins), len(ins)


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: no-landlock.py PROGRAM [ARG]...")
    machine = platform.machine()
    if machine not in ARCHES or sys.platform != "linux":
        sys.stderr.write(f"no-landlock.py: no filter for {machine}\n")
        sys.exit(3)
    arch, calls = ARCHES[machine]
    code, count = program(arch, list(calls.values()))
    buf = ctypes.create_string_buffer(code)

    class Fprog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    prog = Fprog(count, ctypes.cast(buf, ctypes.c_void_p))
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_void_p,
                           ctypes.c_ulong, ctypes.c_ulong]
    if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, None, 0, 0) != 0:
        sys.exit(f"no-landlock.py: no_new_privs: {os.strerror(ctypes.get_errno())}")
    if libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(prog), 0, 0) != 0:
        sys.exit(f"no-landlock.py: seccomp: {os.strerror(ctypes.get_errno())}")
    os.execvp(sys.argv[1], sys.argv[1:])


main()
