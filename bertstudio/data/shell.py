"""A path (or any word) as the user's shell reads it, for the commands bertstudio prints to paste:
POSIX shells take shlex's single quotes; Windows' cmd.exe does not, so there a word is double-quoted
the way the C runtime splits a command line (subprocess.list2cmdline). A plain word stays bare."""

from __future__ import annotations

import os
import shlex
import subprocess


def shell_quote(word: str | os.PathLike[str]) -> str:
    text = os.fspath(word)
    if os.name == "nt":
        return subprocess.list2cmdline([text])
    return shlex.quote(text)
