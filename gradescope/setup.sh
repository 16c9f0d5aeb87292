#!/usr/bin/env bash
# Gradescope runs this once, as root on its Ubuntu image, when it builds the autograder. It
# installs SWI-Prolog, bubblewrap and python3 from the image's own archive and copies `crib`,
# shipped beside it in the zip (`cargo xtask dist`: one binary for any x86-64 Linux with
# glibc 2.17 or newer), into /usr/local/bin. No Rust, no compiler, nothing from outside the
# distribution's archive. The image's SWI-Prolog (Ubuntu 22.04: 8.4.2, 24.04: 9.0.4) lies
# within the versions crib's marks are proven on (`cargo xtask compat`: 8.2.4 to 9.2.9);
# crib grade says so in every result, and warns in the output when it does not.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
if [ ! -f "$here/crib" ]; then
    echo "setup.sh: no crib binary beside setup.sh in the autograder zip;" \
        "make the zip with cargo xtask dist" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y --no-install-recommends swi-prolog-nox bubblewrap python3
install -m 0755 "$here/crib" /usr/local/bin/crib
swipl --version
crib grade --help > /dev/null
