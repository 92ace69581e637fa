"""Reading a workspace file the agent may have made anything: a regular file only, never waiting on it.

A FIFO, a socket or a device named like a settings file (``.npmrc``) would make ``open`` wait for a writer, or a read
never end, while the adapter grades: the file is opened without blocking, and anything but a regular file of at most
``max_bytes`` is refused with ValueError.
"""

from __future__ import annotations

import os
import stat

__all__ = ["read_text"]


def read_text(path: str, max_bytes: int) -> str:
    """The UTF-8 text of the regular file ``path``, its byte order mark removed.

    Raises:
        ValueError: not a regular file, or over ``max_bytes``.
        OSError: it cannot be opened or read.
        UnicodeDecodeError: not UTF-8.
    """
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise ValueError(f"{path} is not a regular file")
        if info.st_size > max_bytes:
            raise ValueError(f"{path} is too big to read")
        chunks = []
        left = max_bytes + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 16))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > max_bytes:
        raise ValueError(f"{path} is too big to read")
    return data.decode("utf-8").removeprefix("\ufeff")
