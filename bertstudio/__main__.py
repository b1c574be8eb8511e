"""``bertstudio`` with no arguments opens the app; with a subcommand it runs the CLI."""

from __future__ import annotations

import sys


# The app's own options (bertstudio/app.py): given first, they open the app, as no arguments do
# ("bertstudio --locale zh_CN", as the README says, went to the command line's parser and failed)
APP_OPTIONS = ("--project", "--locale")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] in ("gui", "app") or argv[0].split("=", 1)[0] in APP_OPTIONS:
        from bertstudio.app import main as app_main

        return app_main(argv[1:] if argv and argv[0] in ("gui", "app") else argv)
    from bertstudio.cli import main as cli_main

    code = cli_main(argv)
    if "torch" in sys.modules and sys.getprofile() is None and sys.gettrace() is None:  # not under a profiler
        exit_now(code)
    return code


def gui_main() -> int:
    """The app with no console window: Windows' ``bertstudio-gui.exe`` (a [project.gui-scripts]
    entry). Started from Explorer or a shortcut, the console script opens a console, and closing
    it ended the app and its training. Such a process has no standard streams (None), and a
    library that writes a warning or a progress bar to one raised; they go to the null device,
    and what nobody caught, which was printed there, goes to the log file (logsetup.py)."""
    from bertstudio.logsetup import guard_streams, log_uncaught

    guard_streams()
    log_uncaught()
    from bertstudio.app import main as app_main

    return app_main(sys.argv[1:])


def exit_now(code: int) -> None:
    """End the process without the interpreter's teardown, which with torch, transformers and
    datasets loaded took 1.8 s after a run had written everything (freeing every module and
    object in C; measured with a 32-sentence run): the exit handlers run (temporary folders
    are removed, weakref finalizers called), logging and the standard streams are flushed,
    then ``os._exit``. Only for the command line, once its command has returned: every file
    bertstudio writes is written and closed by then (the writes are atomic and synchronous)."""
    import atexit
    import logging
    import os

    try:
        atexit._run_exitfuncs()
        logging.shutdown()
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
    except BaseException:  # noqa: BLE001 - a failing handler or a closed pipe: then exit the usual way
        return
    os._exit(code)


if __name__ == "__main__":
    sys.exit(main())
