"""``python -m tests.tasks.fingerprints --write`` stores every template-level's
fingerprint again (the machinery is `officegym.tasks.fingerprints`)."""

import sys

from officegym.tasks.fingerprints import main

if __name__ == "__main__":
    main(sys.argv[1:])
