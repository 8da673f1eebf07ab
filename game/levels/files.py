"""The one writer of every file Rulefront writes (saves, maps, replays, results, scores,
images, GIFs, tuned weights, generated levels): targets checked before the work, written
through a temporary and a rename, every OS error one sentence. It imports nothing heavy, so
an output flag is checked (game/cli/args.py) without loading Pillow or numpy."""

from __future__ import annotations

import errno
import os
import shutil
import stat
import tempfile
import time
from pathlib import Path

from game.errors import UserError

STALE_SECONDS = 3600.0  # a temporary whose writer still runs is swept only when this old

_FIXES = {
    errno.ENOSPC: "the disk is full; free some space or write elsewhere",
    errno.EDQUOT: "the disk quota is used up; free some space or write elsewhere",
    errno.EACCES: "permission denied; write to a folder you own",
    errno.EPERM: "permission denied; write to a folder you own",
    errno.EROFS: "the file system is read-only; write elsewhere",
    errno.EISDIR: "it is a folder; name a file",
    errno.ENOTDIR: "a part of the path is a file, not a folder",
    errno.ENAMETOOLONG: "the name is too long",
}


def write_error(path: Path | str, error: OSError) -> UserError:
    """An OS error while writing `path`, as the one sentence the CLI prints."""
    fix = _FIXES.get(error.errno or 0, error.strerror or str(error))
    return UserError(f"{path}: cannot be written: {fix}.")


def writable(path: Path | str, need_bytes: int = 0) -> Path:
    """The file a write to `path` replaces (a symlink is followed, never replaced), checked
    before anything is written: a regular file or nothing, under a writable folder (or one
    that can be made) with `need_bytes` free; a UserError says what is wrong. Commands check
    their output files with it when they parse them (game/cli/args.py), so a bad --replay or
    -o is found before the work, not after."""
    if str(path) == "":
        raise UserError("an empty file name; name the file to write.")
    target = Path(path)
    try:
        info = os.stat(target)  # through any symlink: what a write would land on
    except OSError:
        info = None
    try:
        if target.is_symlink():
            target = target.resolve()
    except (OSError, RuntimeError) as error:  # a name too long, a loop of links
        if isinstance(error, OSError):
            raise write_error(path, error) from None
        raise UserError(f"{path}: cannot be written: its links loop.") from None
    if info is not None and not stat.S_ISREG(info.st_mode):
        # Renaming over /dev/null, /dev/stdout or a pipe would replace it with a plain file.
        raise UserError(f"{path}: is not a regular file (a folder, pipe or device); write "
                        "saves, maps and replays to a file.")
    writable_folder(target.parent, path, need_bytes)
    return target


def writable_folder(folder: Path | str, named: Path | str | None = None,
                    need_bytes: int = 0) -> Path:
    """`folder`, checked to be a folder we can write in, or one we can make (its nearest
    existing parent is a writable folder); a UserError names `named` (default: the folder)."""
    if str(folder) == "":
        raise UserError("an empty folder name; name the folder to write to.")
    folder = Path(folder)
    named = folder if named is None else named
    existing = folder
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        raise UserError(f"{named}: cannot be written: {existing} is a file, not a folder.")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise UserError(f"{named}: cannot be written: the folder {existing} is not writable; "
                        "write to a folder you own.")
    if need_bytes and shutil.disk_usage(existing).free < need_bytes:
        raise UserError(f"{named}: cannot be written: {existing} has less than "
                        f"{need_bytes:,} bytes free; free some space or write elsewhere.")
    return folder


def path_under(folder: Path | str, name: str, source: Path | str) -> Path:
    """`folder / name` for a file name built from a file's contents (a level id in a set): a
    UserError naming `source` when the name has a separator, is `..` or empty, or would land
    outside `folder`, so no file we read chooses where we write."""
    folder = Path(folder)
    bad = (not name or name in (".", "..") or "/" in name or "\\" in name or "\0" in name
           or name != name.strip())
    target = folder / name
    if bad or target.resolve().parent != folder.resolve():
        raise UserError(f"{source}: the name {name!r} is not a plain file name; a level id "
                        "may not hold a path (/, \\, ..).")
    return target


_swept: set[Path] = set()  # files whose stale temporaries this process has removed


def atomic_write(path: Path | str, data: bytes) -> None:
    """Write through a temporary file in the same folder and rename it over the target: a
    crash or a full disk leaves the old file whole and no temporary behind. The one writer of
    every file Rulefront writes; every OS error becomes one sentence (a UserError). The first
    rewrite of a file in a run sweeps the temporaries a killed writer left beside it."""
    target = writable(path, len(data))
    if target not in _swept and target.exists():  # a new file has no killed rewrite to sweep
        _swept.add(target)
        sweep_temporaries(target)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.{os.getpid()}-", suffix=".tmp",
                                   dir=target.parent)
    except OSError as error:
        raise write_error(path, error) from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, _file_mode(target))
        os.replace(tmp, target)
    except OSError as error:
        Path(tmp).unlink(missing_ok=True)
        raise write_error(path, error) from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def append_durably(path: Path | str, data: bytes, sync: bool = True) -> None:
    """Append `data` to `path` (made when missing) and fsync it before returning: once this
    returns, the bytes survive a crash or a `kill -9` (the server's journal and command logs,
    game/net/store.py). A file this makes has its folder synced too, so its name survives.
    With `sync=False` the bytes are only handed to the kernel (they survive `kill -9`, not a
    power cut): for a log whose lines another fsynced file already holds. An OS error is one
    sentence (a UserError) and, like a crash mid-write, may leave a torn last line, which the
    log's reader cuts off (`cut_file`)."""
    target = Path(path)
    try:
        new = not target.exists()
        fd = os.open(target, os.O_WRONLY | os.O_APPEND | os.O_CREAT, _file_mode(target))
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            if sync:
                os.fsync(fd)
        finally:
            os.close(fd)
        if new:
            sync_folder(target.parent)
    except OSError as error:
        raise write_error(path, error) from None


class Appender:
    """A file kept open for appends: the server's journal, written many times a second from
    a disk thread. Each `append` is one write and (with `sync`) one fsync and nothing else:
    that thread waits for the interpreter's lock again after every system call while the
    event loop is busy, so opening, checking and closing the file each time only added
    waits. Made when missing, with its folder synced; OS errors are one sentence (a
    UserError)."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self.fd = -1

    def append(self, data: bytes, sync: bool = True) -> None:
        try:
            if self.fd < 0:
                new = not self.path.exists()
                self.fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT,
                                  _file_mode(self.path))
                if new:
                    sync_folder(self.path.parent)
            view = memoryview(data)
            while view:
                view = view[os.write(self.fd, view):]
            if sync:
                os.fsync(self.fd)
        except OSError as error:
            raise write_error(self.path, error) from None

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


def sync_file(path: Path | str) -> None:
    """fsync a file written with `append_durably(..., sync=False)`."""
    try:
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError as error:
        raise write_error(path, error) from None


def sync_folder(folder: Path | str) -> None:
    """fsync a folder, so the names of files made or renamed in it survive a crash."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def cut_file(path: Path | str, size: int) -> None:
    """Cut `path` back to its first `size` bytes (a log's torn last line) and fsync it."""
    try:
        with open(path, "r+b") as handle:
            handle.truncate(size)
            handle.flush()
            os.fsync(handle.fileno())
    except OSError as error:
        raise write_error(path, error) from None


def temporaries(path: Path) -> list[Path]:
    """The temporary files atomic_write leaves beside `path` when killed mid-write."""
    path = Path(path)
    return sorted(path.parent.glob(f".{glob_escape(path.name)}.*.tmp"))


def _writer_alive(temporary: Path, prefix: str) -> bool:
    """Whether the process that named `temporary` (".NAME.PID-XXXX.tmp") still runs."""
    pid_text = temporary.name[len(prefix):].partition("-")[0]
    if not pid_text.isdigit():
        return False  # no writer named: an older Rulefront's temporary
    try:
        os.kill(int(pid_text), 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return True
    return True


def sweep_temporaries(path: Path) -> int:
    """Remove stale temporaries of `path` (a SIGKILL between mkstemp and rename leaves one);
    returns how many went. Only the file's own are touched, `.NAME.*.tmp` beside it, and
    never one a running writer is filling (its pid is in the name) unless it is over an hour
    old: two games autosaving to one file do not sweep each other's live writes."""
    removed = 0
    prefix = f".{Path(path).name}."
    now = time.time()
    for stale in temporaries(path):
        try:
            if _writer_alive(stale, prefix) and now - stale.stat().st_mtime < STALE_SECONDS:
                continue
            stale.unlink()
            removed += 1
        except OSError:
            pass  # another process may be renaming it right now; it is not ours to fight over
    return removed


def glob_escape(name: str) -> str:
    return "".join(f"[{c}]" if c in "*?[" else c for c in name)


def _file_mode(path: Path) -> int:
    """Keep an existing file's permissions; a new one gets the usual 0666 less the umask."""
    try:
        return path.stat().st_mode & 0o777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask

