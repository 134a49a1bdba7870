#!/usr/bin/env bash
# The real-browser tests (docs/explanation/jupyter-notes.md, "Real JupyterLab in headless Chromium"):
# JupyterLab with galata's test configuration on a free localhost port with a token, then
# Playwright for Python drives Debian's /usr/bin/chromium:
#   table   drive_table.py: tests/browser/table.ipynb, clicks on the card table;
#   course  drive_course.py: every notebook of notebooks/ (a copy), Run All, no error, no stderr,
#           every widget rendered, screenshots in $MM_OUT/course (COURSE_NOTEBOOKS=01,03 for some).
#   classroom  drive_classroom.py: no JupyterLab; the class table server in-process, its own pages
#           (a seat plays a hand, the projector, the lobby), screenshots in $MM_OUT/classroom.
#   hub     drive_hub.py: the class table's pages on a real JupyterHub (tests/classroom/test_hub.py's hub, needs
#           configurable-http-proxy in .venv/chp): the hub's OAuth login, a seat, the teacher by group.
#   league  drive_league.py: no JupyterLab; the class league's page (a bot entered by its form, the
#           standings in en/de/hu, a replay), screenshots in $MM_OUT/league.
# Usage: run.sh [table] [course] [classroom] [hub] [league]  (all when none is named: classroom, hub, league,
# table, course).
# Needs the .venv with jupyterlab and playwright (make browser-test installs them).
# Screenshots and the server log go to $MM_OUT (default .tmp-home/browser).
set -euo pipefail
cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../.."
TESTS=("$@")
[ ${#TESTS[@]} -gt 0 ] || TESTS=(classroom hub league table course)
LAB_TESTS=()
RUN_CLASSROOM=0
RUN_HUB=0
RUN_LEAGUE=0
for t in "${TESTS[@]}"; do
    case $t in
        table|course) LAB_TESTS+=("$t") ;;
        classroom) RUN_CLASSROOM=1 ;;
        hub) RUN_HUB=1 ;;
        league) RUN_LEAGUE=1 ;;
        *) echo "run.sh: unknown test '$t' (table, course, classroom, hub, league)" >&2; exit 2 ;;
    esac
done

PYBIN=${PYBIN:-.venv/bin/python}
OUT=${MM_OUT:-$PWD/.tmp-home/browser}
rm -rf "$OUT" && mkdir -p "$OUT/root" "$OUT/home"
cp tests/browser/table.ipynb "$OUT/root/"

# Nothing is written to the real home; hash order fixed for the kernel too.
export HOME="$OUT/home" XDG_CONFIG_HOME="$OUT/home/.config" XDG_CACHE_HOME="$OUT/home/.cache" \
       XDG_DATA_HOME="$OUT/home/.local/share" XDG_STATE_HOME="$OUT/home/.local/state" \
       IPYTHONDIR="$OUT/home/.ipython" MPLCONFIGDIR="$OUT/home/.config/matplotlib" JUPYTER_PLATFORM_DIRS=1 \
       JUPYTER_CONFIG_DIR="$OUT/home/.jupyter" JUPYTER_DATA_DIR="$OUT/home/.local/share/jupyter" \
       JUPYTER_RUNTIME_DIR="$OUT/home/.local/share/jupyter/runtime" PYTHONHASHSEED=0

# No "Jupyter news?" notification over the screenshots.
SETTINGS="$JUPYTER_CONFIG_DIR/lab/user-settings/@jupyterlab/apputils-extension"
mkdir -p "$SETTINGS" && echo '{"fetchNews": "false"}' >"$SETTINGS/notification.jupyterlab-settings"
# Every cell in the DOM (no windowing), so that every output is rendered and can be checked.
NOTEBOOK_SETTINGS="$JUPYTER_CONFIG_DIR/lab/user-settings/@jupyterlab/notebook-extension"
mkdir -p "$NOTEBOOK_SETTINGS" && echo '{"windowingMode": "none"}' >"$NOTEBOOK_SETTINGS/tracker.jupyterlab-settings"

SECONDS=0
if [ "$RUN_LEAGUE" = 1 ]; then  # the class league's page: its own server too
    MM_OUT="$OUT" "$PYBIN" tests/browser/drive_league.py
    echo "browser test 'league' passed in $SECONDS s"
    if [ "$RUN_CLASSROOM" = 0 ] && [ ${#LAB_TESTS[@]} -eq 0 ]; then
        exit 0
    fi
fi
if [ "$RUN_CLASSROOM" = 1 ]; then  # its own server, in its own process: no JupyterLab needed
    MM_OUT="$OUT" "$PYBIN" tests/browser/drive_classroom.py
    echo "browser test 'classroom' passed in $SECONDS s"
fi
if [ "$RUN_HUB" = 1 ]; then  # a JupyterHub of its own (and configurable-http-proxy): no JupyterLab needed
    MM_OUT="$OUT" "$PYBIN" tests/browser/drive_hub.py
    echo "browser test 'hub' passed in $SECONDS s"
fi
if [ ${#LAB_TESTS[@]} -eq 0 ]; then
    echo "browser tests (${TESTS[*]}) passed in ${SECONDS} s; screenshots in $OUT"
    exit 0
fi

MM_PORT=$("$PYBIN" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
MM_TOKEN=$("$PYBIN" -c 'import secrets; print(secrets.token_hex(16))')
export MM_PORT MM_TOKEN MM_ROOT="$OUT/root" MM_OUT="$OUT" MM_URL="http://127.0.0.1:$MM_PORT"

# Its own process group (setsid), so that the trap ends the server and the kernels it started.
setsid "$PYBIN" -m jupyter lab --config="$PWD/tests/browser/jupyter_server_config.py" >"$OUT/lab.log" 2>&1 &
SERVER=$!
stop_server() {
    kill -TERM -- "-$SERVER" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$SERVER" 2>/dev/null || return 0; sleep 0.1; done
    kill -KILL -- "-$SERVER" 2>/dev/null || true
}
trap stop_server EXIT

"$PYBIN" - <<'PY'
import os, sys, time, urllib.request
url = f"{os.environ['MM_URL']}/api/status?token={os.environ['MM_TOKEN']}"
for _ in range(240):
    try:
        urllib.request.urlopen(url, timeout=2).read()
        sys.exit(0)
    except OSError:
        time.sleep(0.25)
sys.exit("JupyterLab did not start; see lab.log")
PY

for t in "${LAB_TESTS[@]}"; do
    START=$SECONDS
    "$PYBIN" "tests/browser/drive_$t.py"
    echo "browser test '$t' passed in $((SECONDS - START)) s"
done
echo "browser tests (${TESTS[*]}) passed in ${SECONDS} s (JupyterLab start included); screenshots in $OUT"
