#!/usr/bin/env bash
# Installs the system packages the tests use (as root, with apt-get) when they
# are missing; otherwise says loudly which tests will be skipped and why.
# Run by `npm test` before the suite, so a fresh machine runs every test.
set -u
declare -A package_of=([git]=git [tmux]=tmux [rg]=ripgrep [bwrap]=bubblewrap [redis-server]=redis-server [chromium]=chromium)
declare -A used_by=(
  [git]="checkpoints, worktrees and every end-to-end test"
  [tmux]="the terminal UI tests in a real terminal"
  [rg]="search_files through the system ripgrep fallback"
  [bwrap]="the OS sandbox tests"
  [redis-server]="the task queue (fleet) tests"
  [chromium]="the browser_action tests"
)
missing=()
for tool in "${!package_of[@]}"; do
  command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
[ ${#missing[@]} -eq 0 ] && exit 0

packages=()
for tool in "${missing[@]}"; do packages+=("${package_of[$tool]}"); done
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing system packages for the tests: ${packages[*]}"
  log="${TMPDIR:-/tmp}/cairn-apt.log"
  if ! (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${packages[@]}") >"$log" 2>&1; then
    echo "warning: apt-get install failed (see $log)"
  fi
fi
for tool in "${missing[@]}"; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "WARNING: '$tool' (Debian package ${package_of[$tool]}) is missing: skipping ${used_by[$tool]}. Install it to run them."
  fi
done
exit 0
