#!/bin/bash
# Safety: the TCP sink listens on loopback unless an address is given; titles
# and file names passed to gnuplot cannot inject commands.
. "$(dirname "$0")/lib.sh" "$@"

# -- TCP: the listening socket's local address, from /proc/net/tcp ----------
# listen_addr PORT: the hex local address of the socket listening on PORT
listen_addr() {
  local hexport; hexport=$(printf '%04X' "$1")
  awk -v p=":$hexport" '$4 == "0A" && substr($2, length($2) - 4) == p { print substr($2, 1, 8); exit }' \
    /proc/net/tcp
}
tcp_case() { # SPEC EXPECTED_HEX_ADDR DESCRIPTION
  local spec=$1 want=$2 what=$3 port=${1##*:} addr=""
  "$LIED" run tests/models/osc.lua --out "tcp:$spec" --clients 1 >"$tmp/tcp.out" 2>"$tmp/tcp.err" &
  local pid=$!
  pids+=("$pid")
  wait_for '[ -n "$(listen_addr "$port")" ] || ! kill -0 $pid 2>/dev/null'
  addr=$(listen_addr "$port")
  if [ "$addr" = "$want" ]; then ok; else bad "$what: listening on '$addr', expected $want"; fi
  # be the client it waits for, then it finishes
  timeout 300 bash -c "exec 3<>/dev/tcp/127.0.0.1/$port && cat <&3" >"$tmp/rows" 2>/dev/null
  wait "$pid"; local rc=$?
  [ $rc -eq 0 ] && grep -q "^time," "$tmp/rows" && ok || bad "$what: run rc $rc, rows: $(head -2 "$tmp/rows")"
}
if [ -r /proc/net/tcp ]; then
  base=$((20000 + RANDOM % 20000))
  tcp_case "$base" 0100007F "tcp:PORT listens on 127.0.0.1 only"
  tcp_case "0.0.0.0:$((base + 1))" 00000000 "tcp:0.0.0.0:PORT listens on every address when asked"
  tcp_case "localhost:$((base + 2))" 0100007F "tcp:localhost:PORT"
fi
# the TCP spec is validated before anything listens
"$LIED" run tests/models/osc.lua --out "tcp:70000" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "the port must be a number from 0 to 65535" "$tmp/err" && ok || bad "bad port: $(cat "$tmp/err")"

# -- gnuplot: a title and a file name with quotes, newlines, backslashes ----
# A fake gnuplot first on PATH records the script it gets, then runs the
# real one (when installed) in an empty directory: no stray file may appear.
real=$(command -v gnuplot)
mkdir -p "$tmp/bin" "$tmp/sandbox" "$tmp/out"
cat >"$tmp/bin/gnuplot" <<GP
#!/bin/bash
if [ "\$1" = "-e" ]; then echo "dumb png pngcairo svg"; exit 0; fi
cat >"$tmp/script.gp"
cd "$tmp/sandbox" || exit 1
if [ -n "$real" ]; then exec "$real" <"$tmp/script.gp"; fi
GP
chmod +x "$tmp/bin/gnuplot"
cat >"$tmp/plot.lua" <<'LUA'
local osc = dofile("tests/models/osc.lua")
local res = lied.build(osc):run { stop = 0.5, dt = 0.01, vars = "j.s" }
local evil = "a'b\"c\\d\nsystem('touch PWNED1')\r\n'; system(\"touch PWNED2\"); print '\0x`touch PWNED3`"
local out = arg[1]
lied.plot(res, { "j.s" }, { file = out .. "/it's \\ \"ok\" $(touch PWNED4).png", title = evil })
-- a file name with a line break is refused, nothing runs
local ok, err = pcall(lied.plot, res, { "j.s" }, { file = out .. "/x\nsystem('touch PWNED5')\n.png" })
assert(not ok and err:find("must not contain control characters", 1, true), tostring(err))
print("plotted")
LUA
PATH="$tmp/bin:$PATH" "$LIED" "$tmp/plot.lua" "$tmp/out" >"$tmp/plot.out" 2>"$tmp/plot.err"
rc=$?
[ $rc -eq 0 ] && grep -q plotted "$tmp/plot.out" && ok || bad "plot script: rc $rc: $(cat "$tmp/plot.err")"
# the script: the title is one line, a single-quoted string with doubled quotes
title=$(grep "^set title" "$tmp/script.gp")
want="set title 'a''b\"c\\d system(''touch PWNED1'')  ''; system(\"touch PWNED2\"); print '' x\`touch PWNED3\`'"
[ "$title" = "$want" ] && ok || bad "title line: [$title] expected [$want]"
grep -q "^set output '$tmp/out/it''s \\\\ \"ok\" \$(touch PWNED4).png'$" "$tmp/script.gp" && ok \
  || bad "output line: $(grep '^set output' "$tmp/script.gp")"
[ "$(grep -c "PWNED" "$tmp/script.gp")" -eq 2 ] && ok || bad "PWNED only in the title and file lines"
# nothing ran: no stray file anywhere, the plot exists (with a real gnuplot)
stray=$(find "$tmp" . -maxdepth 3 -name 'PWNED*' 2>/dev/null)
[ -z "$stray" ] && ok || bad "stray files: $stray"
if [ -n "$real" ]; then
  [ -s "$tmp/out/it's \\ \"ok\" \$(touch PWNED4).png" ] && ok || bad "plot file written: $(ls "$tmp/out")"
  [ -z "$(ls -A "$tmp/sandbox")" ] && ok || bad "gnuplot's directory stays empty: $(ls -A "$tmp/sandbox")"
fi

finish
