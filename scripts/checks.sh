#!/usr/bin/env bash
# The checks `npm test` runs before the tests: type-check, lint, format and build, all at
# once. Each is one process on one core (the build's esbuild excepted), so on two cores
# they take about half the time they took one after the other. Each one's output is kept
# and printed when it fails; the script fails if any did.
set -u
cd "$(dirname "$0")/.."
logs="$(mktemp -d)"
trap 'rm -rf "$logs"' EXIT
checks=(typecheck lint format:check)
# The build is left out when nothing it reads changed since the last one finished (`npm ci`'s
# prepare has just built a clean clone): dist/.built is touched at the end of every build.
inputs=(src scripts bin package.json package-lock.json tsconfig.json tsconfig.build.json)
if [ -f dist/.built ] && [ -z "$(find "${inputs[@]}" -newer dist/.built -print -quit 2>/dev/null)" ]; then
  echo "npm run build: up to date (nothing in ${inputs[*]} is newer than dist/.built)"
else
  checks+=(build)
fi
pids=()
for check in "${checks[@]}"; do
  npm run --silent "$check" >"$logs/${check/:/-}.log" 2>&1 &
  pids+=($!)
done
status=0
for index in "${!checks[@]}"; do
  check="${checks[$index]}"
  if wait "${pids[$index]}"; then
    echo "npm run $check: ok"
  else
    status=1
    echo "npm run $check failed:"
    cat "$logs/${check/:/-}.log"
  fi
done
exit $status
