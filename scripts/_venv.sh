# Sourced by scripts/play, scripts/test and scripts/bench: make .venv if needed and install atoll.
# Usage: ensure_venv [EXTRAS]   (EXTRAS like "dev"; reinstalls only when pyproject.toml changed)

ensure_venv() {
  local extras="${1:-}"
  local root
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  local venv="$root/.venv"
  local python="${PYTHON:-python3}"
  if ! command -v "$python" >/dev/null 2>&1; then
    echo "atoll needs Python 3.11 or newer; '$python' was not found (set PYTHON=/path/to/python3.11)" >&2
    return 1
  fi
  if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
    echo "atoll needs Python 3.11 or newer; $("$python" --version) found (set PYTHON=...)" >&2
    return 1
  fi
  if [ ! -x "$venv/bin/python" ]; then
    echo "making $venv ..." >&2
    "$python" -m venv "$venv"
  fi
  local hash stamp
  hash="$(sha256sum "$root/pyproject.toml" | cut -c1-16)"
  stamp="$venv/.installed-$hash${extras:+-$extras}"
  # an install with extras serves a plain request too
  if [ ! -f "$stamp" ] && { [ -n "$extras" ] || ! compgen -G "$venv/.installed-$hash*" >/dev/null; }; then
    echo "installing atoll${extras:+ with [$extras]} into $venv (first time takes a minute) ..." >&2
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade pip >&2
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -e "$root${extras:+[$extras]}" >&2
    rm -f "$venv"/.installed-*
    touch "$stamp"
  fi
}
