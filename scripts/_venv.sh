# Sourced by scripts/play, test, bench, typecheck and new-plugin: make .venv if needed and install atoll.
# Usage: ensure_venv [EXTRAS]   (EXTRAS like "dev"; reinstalls only when pyproject.toml changed)
#
# The work is done by scripts/_venv.py, which scripts/play.py and scripts/test.py use on Windows too:
# one implementation for every platform (how atoll is installed, and why, is written there).

ensure_venv() {
  local root python
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  python="${PYTHON:-python3}"
  if ! command -v "$python" >/dev/null 2>&1; then
    echo "atoll needs Python 3.11 or newer; '$python' was not found (set PYTHON=/path/to/python3.11)" >&2
    return 1
  fi
  "$python" "$root/scripts/_venv.py" "${1:-}"
}
