"""``bertstudio`` with no arguments opens the app; with a subcommand it runs the CLI."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] in ("gui", "app") or (argv[0].startswith("--") and argv[0] in ("--project",)):
        from bertstudio.app import main as app_main

        return app_main(argv[1:] if argv and argv[0] in ("gui", "app") else argv)
    from bertstudio.cli import main as cli_main

    return cli_main(argv)


if __name__ == "__main__":
    sys.exit(main())
