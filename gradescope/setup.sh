#!/usr/bin/env bash
# Gradescope runs this once, as root on its Ubuntu image, when it builds the autograder. It
# installs SWI-Prolog, bubblewrap and python3 from the image's own archive and copies `crib`,
# shipped beside it in the zip (`cargo xtask dist`: one binary for any x86-64 Linux with
# glibc 2.17 or newer), into /usr/local/bin. No Rust, no compiler, nothing from outside the
# distribution's archive. The image's SWI-Prolog (Ubuntu 22.04: 8.4.2, 24.04: 9.0.4) lies
# within the versions crib's marks are proven on (`cargo xtask compat`: 8.2.4 to 9.2.9);
# crib grade says so in every result, and warns in the output when it does not.
#
# It then readies the course seed every submission's tests derive from (run_autograder):
# the zip's own `seed` (cargo xtask dist --course-seed FILE), else a fresh secret one made
# here, once, into $AUTOGRADER_ROOT/crib/seed (crib grade keeps a run's fresh seed in
# OUT/seed; it is copied from there). And it keeps that seed's salt-independent part of the
# tests in $AUTOGRADER_ROOT/crib/kept, by grading an empty file under the seed with one salt
# (`crib grade --seed-file SEED --seed-salt setup --kept-dir DIR`), so that each submission's
# run draws its own tests from it in milliseconds rather than in half a second of CPU. The
# directory is root's alone (0700), as the seed must be, and outside the submission; the
# kept part is read back only by this very crib binary (crates/testset/src/kept.rs).
# Neither step is fatal: without them run_autograder grades with a fresh seed per run, or
# makes the kept part on its first run.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="${AUTOGRADER_ROOT:-/autograder}"
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
course="$root/crib"
install -d -m 0700 "$course" "$course/kept"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
: > "$scratch/empty.pl"
seed="$here/seed"
if [ ! -f "$seed" ]; then
    seed="$course/seed"
    if [ ! -f "$seed" ]; then
        if crib grade --no-lint --out "$scratch/fresh" "$scratch/empty.pl" > /dev/null; then
            install -m 0600 "$scratch/fresh/seed" "$seed"
        else
            echo "setup.sh: warning: no course seed made; each run gets a fresh seed" >&2
        fi
    fi
fi
if [ -f "$seed" ]; then
    crib grade --no-lint --seed-file "$seed" --seed-salt setup --kept-dir "$course/kept" \
        --out "$scratch/warm" "$scratch/empty.pl" > /dev/null \
        || echo "setup.sh: warning: the course seed's tests are not kept yet" >&2
fi
