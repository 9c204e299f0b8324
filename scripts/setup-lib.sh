#!/usr/bin/env bash
# Helpers of scripts/setup.sh: say what a step does, and keep saying it while it runs.

wb_say() { echo "workbench setup: $*" >&2; }

# wb_step LABEL LOG COMMAND...: run COMMAND with its output in the file LOG. While it runs, say
# every ${WB_HEARTBEAT:-10} s how long it has taken and the last line of its log (what it is
# doing); at the end say how long it took, or show the end of the log when it failed.
# Returns the command's status.
wb_step() {
  local label=$1 log=$2 start=$SECONDS beat rc=0
  shift 2
  wb_say "$label ..."
  : >"$log"
  ( while sleep "${WB_HEARTBEAT:-10}"; do
      last=$(tail -n 1 "$log" 2>/dev/null | tr -d '\r' | cut -c1-90)
      wb_say "  $label: $((SECONDS - start)) s${last:+ ($last)}"
    done ) &
  beat=$!
  "$@" >"$log" 2>&1 || rc=$?
  kill "$beat" 2>/dev/null || true
  wait "$beat" 2>/dev/null || true
  if [ "$rc" = 0 ]; then
    wb_say "  $label: done in $((SECONDS - start)) s"
  else
    wb_say "  $label: failed (status $rc); the end of its log $log:"
    tail -n 30 "$log" >&2
  fi
  return "$rc"
}
