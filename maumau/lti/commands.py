"""``maumau lti keys`` and ``maumau lti rotate``: the tool's key pair in the class server's database."""

from __future__ import annotations

import argparse
import json
from typing import Any

__all__ = ["add_commands"]


def add_commands(commands: Any) -> None:
    lti = commands.add_parser("lti", help="the LTI 1.3 tool's keys (docs: Launch maumau from Moodle or Canvas)",
                              description="The LTI tool's RSA key pair, kept in the class server's database.")
    lti.add_argument("action", choices=["keys", "rotate"],
                     help="keys: print the public key set (JSON) an LMS may ask to be pasted; rotate: a new key "
                          "signs from now on (the old one stays published for a day)")
    lti.add_argument("--db", default="class.sqlite", help="the class server's database (default class.sqlite)")
    lti.set_defaults(func=cmd_lti)


def cmd_lti(args: argparse.Namespace, con: Any) -> int:
    from ..extras import need
    from .keys import ToolKeys

    for module in ("jwt", "cryptography"):  # MissingModule: the command line says what to install
        need(module, f"maumau lti {args.action}")
    try:
        keys = ToolKeys(args.db)
        if args.action == "rotate":
            kid, _ = keys.rotate()
            con.say(f"a new key ({kid}) signs from now on; the one before stays published for a day")
            return 0
        con.say(json.dumps(keys.jwks(), indent=2))
    except Exception as err:  # noqa: BLE001  a database that cannot be opened: say why, once
        con.error(f"cannot use the keys in {args.db}: {err}")
        return 1
    return 0
