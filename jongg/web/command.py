"""`jongg serve`: the web table, from the command line. Imports nothing of
the web extra until it is run, so `jongg` works without it and `jongg
serve` says how to install it."""

from __future__ import annotations

import argparse
import contextlib
import ipaddress
import sys
from pathlib import Path

from jongg.api import Diagnostic, UsageError
from jongg.runtime.agents.registry import UnknownAgent, agent_maker

from . import INSTALL, missing


def default_data() -> Path:
    from platformdirs import user_data_dir

    return Path(user_data_dir("jongg")) / "web"


def local(host: str) -> bool:
    """Whether an address is this machine's alone."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def cmd_serve(args: argparse.Namespace) -> int:
    lacking = missing()
    if lacking:
        raise UsageError([Diagnostic(None, f"serve: the web table needs {', '.join(lacking)}, "
                                           "not installed here", hint=f"install it: {INSTALL}")])
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port: give 0 to 65535 (0: any free port), not {args.port}")
    if args.pace < 0 or args.pace > 60:
        raise UsageError(f"--pace: give 0 to 60 seconds, not {args.pace:g}")
    for flag, value in (("--most-tables", args.most_tables),
                        ("--most-per-address", args.most_per_address)):
        if not 1 <= value <= 100_000:
            raise UsageError(f"{flag}: give 1 to 100000, not {value}")
    agents = [a.strip() for a in (args.agents or "").split(",") if a.strip()]
    for name in agents:
        try:
            agent_maker(name)
        except UnknownAgent as error:
            raise UsageError(f"--agents: {error}") from None
    from .hall import Hall
    from .limits import Limits
    from .server import application, bind, run
    from .store import Store, StoreError

    data = Path(args.data) if args.data else default_data()
    try:
        store = Store(data)
        store.lock()
    except OSError as error:
        raise UsageError(f"--data: {data}: {error.strerror or error}") from None
    except StoreError as error:
        raise UsageError(f"--data: {error}") from None
    try:
        sock = bind(args.host, args.port)
    except OSError as error:
        raise UsageError(f"--host {args.host} --port {args.port}: cannot listen there: "
                         f"{error.strerror or error}") from None
    hall = Hall(store, pace=args.pace, agents=agents,
                limits=Limits(args.most_tables, args.most_per_address))
    for note in hall.resume_all():
        print(f"jongg: {note}", file=sys.stderr)
    port = sock.getsockname()[1]
    shown = f"[{args.host}]" if ":" in args.host else args.host
    live = len(hall.tables)
    print(f"jongg serve: http://{shown}:{port}/ (tables kept in {data}; "
          f"{live} unfinished table{'s' if live != 1 else ''} taken up)", flush=True)
    if not local(args.host):
        print("jongg: warning: listening beyond this machine: anyone who can reach "
              f"{args.host}:{port} may open tables here", file=sys.stderr, flush=True)
    with contextlib.suppress(KeyboardInterrupt):
        run(application(hall, local=local(args.host)), sock)
    return 0
