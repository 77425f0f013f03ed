"""``python -m officegym.mcp_wrappers ...`` is ``officegym mcp ...``."""

import sys

from officegym.cli import main

main(args=["mcp", *sys.argv[1:]], prog_name="python -m officegym.mcp_wrappers")
