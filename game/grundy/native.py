"""The C Grundy kernels (kernels.c): built once per machine with the system C compiler and
loaded with ctypes, so a run pays neither numba's import nor its first-call set-up.

The library is cached under a name that hashes the source, the compiler command and the
machine, next to this module when that folder is writable (a checkout), else in the user's
cache folder (a wheel installed read-only). `load()` returns None when no compiler works;
the kernels module then falls back to numba.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import shutil
import sys
import zlib
from pathlib import Path

SOURCE = Path(__file__).with_name("kernels.c")
FLAGS = ["-O3", "-shared", "-fPIC", "-std=c99"]
# Tuned for this processor when the compiler can (the XOR comparisons of the rare/common search
# run several times faster with its vector instructions); the library's name then names the
# processor too, so a checkout moved to another machine builds its own.
NATIVE = ["-march=native"]
# RULEFRONT_KERNELS=numba skips the C library (tests compare the two); =native refuses numba.
CHOICE = "RULEFRONT_KERNELS"


def cache_folders() -> list[Path]:
    """Where the library may live, in order: beside the module, then the user cache."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return [Path(__file__).parent / "__pycache__", Path(base) / "rulefront"]


def _compiler() -> str | None:
    return os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")


def _machine() -> str:
    """The architecture and, on Linux, the processor's model and features."""
    # os.uname where there is one: the platform module costs a few milliseconds to import.
    if hasattr(os, "uname"):
        machine = os.uname().machine
    else:
        import platform

        machine = platform.machine()
    wanted = ("model name", "flags", "Features", "CPU part")
    with contextlib.suppress(OSError), open("/proc/cpuinfo", encoding="utf-8",
                                             errors="replace") as info:
        lines = [line for line in info.read(1 << 16).splitlines() if line.startswith(wanted)]
        machine += "\n" + "\n".join(sorted(set(lines)))
    return machine


def library_name(compiler: str) -> str:
    # CRC-32s, not SHA-256: hashlib's import (OpenSSL) would cost more than a small job.
    setup = " ".join([compiler, *FLAGS, *NATIVE, _machine(), sys.platform,
                      sys.implementation.cache_tag or ""]).encode()
    return f"grundy-kernels-{zlib.crc32(SOURCE.read_bytes()):08x}{zlib.crc32(setup):08x}.so"


def _build(compiler: str, target: Path) -> bool:
    """Compile into a temporary file beside `target`, then rename: racing runs never load half
    a library."""
    import subprocess  # only a build needs these
    import tempfile

    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, temp = tempfile.mkstemp(dir=target.parent, prefix=".grundy-", suffix=".so")
        os.close(fd)
    except OSError:
        return False
    try:
        for flags in ([*FLAGS, *NATIVE], FLAGS):  # a compiler without -march=native: plain
            done = subprocess.run([compiler, *flags, "-o", temp, str(SOURCE)],
                                  capture_output=True, timeout=120, check=False)
            if done.returncode == 0:
                break
        else:
            return False
        os.replace(temp, target)
        return True
    except (OSError, subprocess.SubprocessError):
        return False
    finally:
        Path(temp).unlink(missing_ok=True)


# Each kernel's arguments (ctypes types) and result, once per value width (u8, u16, u32).
_I64, _P = ctypes.c_int64, ctypes.c_void_p
SIGNATURES: dict[str, tuple[list[type], type | None]] = {
    "dense_extend": ([_P, _I64, _I64, _P, _I64, _P, _I64, _P, _I64], _I64),
    "rarecommon_extend": ([_P, _I64, _I64, _P, _I64, _P, _I64, _P, _I64, _I64, _I64, _I64, _P,
                           _I64, _P], _I64),
    "largest": ([_P, _I64, _I64], _I64),
    "histogram": ([_P, _I64, _P, _I64], None),
    "rare_heaps": ([_P, _I64, _I64, _I64, _I64, _P, _I64], _I64),
    "proven_period": ([_P, _I64, _I64, _P], _I64),
    "promising": ([_P, _I64, _I64, _P], _I64),
}


def _declare(lib: ctypes.CDLL) -> ctypes.CDLL:
    for name, (args, result) in SIGNATURES.items():
        for suffix in ("u8", "u16", "u32"):
            function = getattr(lib, f"{name}_{suffix}")
            function.argtypes, function.restype = args, result
    lib.widen.argtypes = [_P, _I64, _P, _I64, _I64]
    lib.widen.restype = None
    return lib


_loaded: list[ctypes.CDLL | None] = []


def load() -> ctypes.CDLL | None:
    """The C kernels, built on the first call on this machine; None without a working compiler."""
    if _loaded:
        return _loaded[0]
    lib = None
    compiler = _compiler()
    if os.environ.get(CHOICE) != "numba" and compiler and SOURCE.exists():
        name = library_name(compiler)
        for folder in cache_folders():
            target = folder / name
            failed = target.with_suffix(".failed")
            if failed.exists():
                break  # this compiler could not build this source: numba, without retrying
            if target.exists() or _build(compiler, target):
                try:
                    lib = _declare(ctypes.CDLL(str(target)))
                    break
                except OSError:
                    continue
            elif folder.is_dir() and os.access(folder, os.W_OK):
                # The folder was writable, so the compiler itself failed: remember it, so
                # that later runs go straight to numba instead of compiling on every start.
                with contextlib.suppress(OSError):
                    failed.write_text("the C compiler failed on kernels.c\n")
                break
    _loaded.append(lib)
    return lib
