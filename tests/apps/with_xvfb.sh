#!/bin/sh
# Runs a command on a private virtual X server (Xvfb, one 1280x800x24 screen) and returns
# the command's exit status. Xvfb picks a free display number itself (-displayfd), so that
# parallel tests (and other programs' X servers on the machine) cannot race for one, as
# `xvfb-run -a` can.
set -u
dir=$(mktemp -d "${TMPDIR:-/tmp}/texstream-xvfb.XXXXXX") || exit 1
Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp 3>"$dir/display" 2>"$dir/log" &
server=$!
tries=0
while [ ! -s "$dir/display" ]; do
  if ! kill -0 "$server" 2>/dev/null || [ "$tries" -ge 200 ]; then
    echo "with_xvfb.sh: Xvfb did not start:" >&2
    cat "$dir/log" >&2
    kill "$server" 2>/dev/null
    rm -rf "$dir"
    exit 1
  fi
  tries=$((tries + 1))
  sleep 0.05
done
DISPLAY=":$(cat "$dir/display")" "$@"
status=$?
kill "$server" 2>/dev/null
wait "$server" 2>/dev/null
rm -rf "$dir"
exit "$status"
