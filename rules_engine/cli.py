"""``python -m rules_engine score|check|classify FILE`` (SPEC 4.5).

FILE holds one JSON request or a list of them; ``-`` reads standard input. The answer is
printed as JSON. Exit status: 0 success; 1 a list in which some items were bad (their
answers are ``{"error": ...}``); 2 bad input (message on stderr); 3 internal error.
Never a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence

from rules_engine import api, json_text
from rules_engine.errors import RulesError
from rules_engine.i18n import t

EXIT_OK, EXIT_SOME_BAD, EXIT_BAD_INPUT, EXIT_INTERNAL = 0, 1, 2, 3


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m rules_engine",
        description="Score match records, rule on plays and classify card sets.",
    )
    parser.add_argument("action", choices=api.ACTIONS, help="what to do with the request")
    parser.add_argument("file", help="a JSON file with one request or a list; - for stdin")
    return parser


def read_json(path: str) -> object:
    """Parse the JSON in ``path`` (``-``: stdin); RulesError with a readable reason."""
    name = "standard input" if path == "-" else path
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8-sig") as handle:
                text = handle.read()
    except OSError as err:
        raise RulesError(
            t("cannot read {path}: {strerror}", path=path, strerror=err.strerror or err), "file"
        ) from None
    except UnicodeDecodeError:
        raise RulesError(t("{name} is not UTF-8 text", name=name), "file") from None
    if not text.strip():
        raise RulesError(t("{name} is empty: expected a JSON object or a list", name=name), "file")
    return json_text.loads(text, name, "file")


def run(action: str, path: str, out=None, err=None) -> int:
    """Do ``action`` on the request in ``path``, print the answer, return the exit status."""
    out = out or sys.stdout
    err = err or sys.stderr
    try:
        result = api.answer(action, read_json(path))
    except RulesError as error:
        where = f" (field: {error.field})" if error.field else ""
        print(f"error: {error.message}{where}", file=err)
        return EXIT_BAD_INPUT
    except Exception as error:  # never a traceback for the user
        print(f"internal error: {type(error).__name__}: {error}", file=err)
        return EXIT_INTERNAL
    try:
        print(json.dumps(result, ensure_ascii=False, indent=2), file=out)
        out.flush()
    except BrokenPipeError:  # the reader went away (e.g. `| head`): nothing left to say
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return EXIT_SOME_BAD if api.has_errors(result) else EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    return run(args.action, args.file)
