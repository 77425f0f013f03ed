"""Which Host headers a served world answers: DNS-rebinding protection for every door.

A page on another site can make a browser send requests to 127.0.0.1 under a
host name the attacker controls (DNS rebinding). A served world therefore
answers only requests whose Host header names a loopback address, the address
it is bound to (for a wildcard bind, this machine's names and addresses), or a
name the operator allowed. The web UI and the Slack API check it here; MCP
hands the same names to the SDK's own protection.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterable

__all__ = ["LOOPBACK", "bare_host", "host_names", "is_loopback"]

LOOPBACK = ("127.0.0.1", "localhost", "::1")
WILDCARD = ("0.0.0.0", "::", "")


def is_loopback(host: str) -> bool:
    """Whether binding `host` serves this machine only (``localhost``, 127.0.0.0/8, ``::1``)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:  # a host name: it may resolve to any interface
        return False


def host_names(host: str, allowed: Iterable[str] = ()) -> list[str]:
    """The names (lower case, IPv6 in brackets, no port) clients may use in the Host header
    to reach a server bound to `host`, plus the `allowed` ones."""
    names = {*LOOPBACK, host}
    if host in WILDCARD:  # every interface: this machine's names and addresses
        names = {*LOOPBACK, socket.gethostname(), socket.getfqdn(), *_own_addresses()}
    bare = {n.strip("[]").lower() for n in (*names, *allowed)} - {""}
    return sorted(f"[{n}]" if ":" in n else n for n in bare)


def bare_host(header: str) -> str:
    """The host of a Host header without its port: ``[::1]:8000`` -> ``[::1]``."""
    header = header.strip().lower()
    if header.startswith("["):
        return header.partition("]")[0] + "]"
    return header.partition(":")[0]


def _own_addresses() -> set[str]:
    """This machine's addresses: its host name's, and the one it routes out by."""
    found: set[str] = set()
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None)
        found.update(str(info[4][0]).split("%")[0] for info in infos)
    except OSError:  # the host name does not resolve
        pass
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # UDP: picks a route, sends nothing
            found.add(probe.getsockname()[0])
    except OSError:  # no route out
        pass
    return found
