-- test_repl.lua: a scripted REPL session on the vessels (load, run, set, run,
-- plot both runs to a PNG and as text, replot, save, errors), tab completion
-- and the progress bar.
local T = require "tests.testing"
local lied = require "lied"

local tmp = os.tmpname()
os.remove(tmp)
assert(os.execute("mkdir -p " .. tmp))
local function path(name) return tmp .. "/" .. name end
local function slurp(p)
  local f = io.open(p, "rb")
  if not f then return nil end
  local s = f:read("a")
  f:close()
  return s
end

local have_gnuplot = require("lied.plot").available()
T.check(have_gnuplot, "gnuplot is installed (tests/deps.sh installs gnuplot-nox)")

-- ---- the scripted session (stdin, not a terminal) ----------------------------
local session = string.format([[
load "examples/vessels.lua"
r1 = run()
set("p1.L", 4000)
r2 = run()
plot{"t1.level", "t2.level", runs = "all", file = %q}
plot{"t1.level", runs = "all", text = true, width = 90, height = 25}
set("p9.L", 1)
set("stop", "abc")
print("levels", r1:column("t1.level")[51], r2:column("t1.level")[51])
save(%q)
for i = 1, 2 do
  print("loop", i)
end
error("deliberate failure")
#results, results[2] == r2
replot{runs = 2, text = true, width = 60, height = 20, title = "it's run 2"}
clear()
print("after clear", #results)
]], path("vessels.png"), path("run2.mat"))
local f = assert(io.open(path("session.lua"), "w"))
f:write(session)
f:close()
local code, out, err = T.sh(string.format("HOME=%s %s <%s", tmp, T.lied, path("session.lua")))
T.eq(code, 1, "session exit status: 1 after errors (a piped session is a script)")
T.check(out:find("examples/vessels.lua: model Vessels", 1, true), "load prints the model: " .. out:sub(1, 200))
T.check(out:find("run 1: Vessels to t = 300,", 1, true), "run 1 summary")
T.check(out:find("Vessels: p1.L=4000", 1, true), "set reports the override")
T.check(out:find("run 2: Vessels to t = 300,", 1, true), "run 2 summary")
T.check(out:find("plot written to " .. path("vessels.png"), 1, true), "plot to file reported")

-- the PNG: signature and a plausible size for a 900x600 plot with two runs
local png = slurp(path("vessels.png")) or ""
T.eq(png:sub(1, 8), "\137PNG\r\n\26\n", "PNG signature")
T.check(#png > 10000 and #png < 2000000, "PNG size " .. #png)

-- the text plot: a frame with ticks, labels, the legend of both runs, curves
local plot_lines = {}
local in_plot = false
for line in out:gmatch("[^\n]*") do
  if line:find("+-----", 1, true) then in_plot = true end
  if in_plot then plot_lines[#plot_lines + 1] = line end
  if line:find("time [s]", 1, true) then in_plot = false end
end
local text = table.concat(plot_lines, "\n")
T.check(#plot_lines >= 15, "text plot has rows: " .. #plot_lines)
T.check(out:find("t1.level [m] (run 1)", 1, true), "legend of run 1")
T.check(out:find("t1.level [m] (run 2: p1.L=4000)", 1, true), "legend of run 2 with its override")
-- the key is below the frame, not over the curves
T.check(not text:find("(run 1)", 1, true), "legend outside the frame")
T.check(text:find("time [s]", 1, true), "x label with unit")
T.check(text:find("%|%-%+") or text:find("%+%-|"), "tick marks on the axes")
local _, stars = text:gsub("%*", "")
local _, hashes = text:gsub("#", "")
T.check(stars > 40 and hashes > 40, string.format("two curves drawn (%d *, %d #)", stars, hashes))
T.check(text:find("300", 1, true) and text:find(" 0 ", 1, true), "x tick labels 0 .. 300")

-- clear() forgets the results
T.check(out:find("2 results forgotten\nafter clear\t0", 1, true), "clear() empties results[]")

-- set() of an unknown parameter fails and the session goes on
T.check(err:find("--set p9.L: no such parameter", 1, true), "bad set message: " .. err)
-- a run option of the wrong type is refused when set, naming the option
T.check(err:find("option stop must be a number, got string", 1, true), "set stop abc: " .. err)
-- the two runs differ: the override reached the model
local l1, l2 = out:match("levels\t([%d%.e%-]+)\t([%d%.e%-]+)")
T.check(l1 and l2 and tonumber(l1) ~= tonumber(l2), "runs differ: " .. tostring(l1) .. " " .. tostring(l2))
T.check(tonumber(l1) < 2 and tonumber(l1) > 1, "t1.level drains from 2 m")
-- multi-line chunk, error with traceback, then expressions still print
T.check(out:find("loop\t1\nloop\t2\n", 1, true), "multi-line chunk")
-- (the error names its line of the input: line 14 of the session)
T.check(err:find("stdin:14: deliberate failure", 1, true) and not err:find("stack traceback:", 1, true),
  "a user's error without a traceback: " .. err)
T.check(out:find("\n2\ttrue\n", 1, true), "bare expression prints its values")
T.check(out:find("it's run 2", 1, true), "title with a quote reaches gnuplot")
T.check(out:find("saved 501 rows to " .. path("run2.mat"), 1, true), "save reports rows")
local mat = slurp(path("run2.mat")) or ""
T.check(#mat > 501 * 7 * 8, "saved MAT file holds the rows: " .. #mat)

-- a missing model file is an error, not the end of the session
code, out, err = T.sh(string.format("printf 'load \"nope.lua\"\\nprint(\"alive\")\\n' | HOME=%s %s",
  tmp, T.lied))
T.eq(code, 1, "a bad load fails the piped session")
T.check(err:find("cannot open nope.lua", 1, true), "bad load message: " .. err)
T.check(out:find("alive", 1, true), "session goes on")

-- an x-y plot: x label with the x variable and its unit
code, out = T.sh(string.format([[printf 'load "examples/vessels.lua"\nrun()\nplot{x = "t1.level", y = "t2.level", text = true}\n' | %s]], T.lied))
T.eq(code, 0, "x-y plot session")
T.check(out:find("t1.level [m]", 1, true) and out:find("t2.level [m]", 1, true), "x-y plot labels: " .. out)

-- without gnuplot: a clear message saying how to install it
code, out, err = T.sh(string.format([[printf 'load "examples/vessels.lua"\nrun()\nplot()\nprint("alive")\n' | PATH=/nonexistent %s]], T.lied))
T.check(err:find("gnuplot is not installed", 1, true) and err:find("apt-get install gnuplot", 1, true),
  "missing gnuplot message: " .. err)
T.check(out:find("alive", 1, true), "session goes on without gnuplot")

-- HOME unusable: the session still works (history is only for terminals,
-- but the variable must not matter)
code, out = T.sh(string.format("echo '1+2' | HOME=/nonexistent/dir %s", T.lied))
T.eq(code, 0, "bad HOME")
T.check(out:find("^3\n"), "expression with bad HOME: " .. out)

-- ---- completion (lied.repl.complete, in this process) -------------------------
local repl = require "lied.repl"
repl.install(_G)
local function has(list, x)
  for _, v in ipairs(list) do if v == x then return true end end
  return false
end
local c = repl.complete("", "lied.sim", "")
T.check(has(c, "lied.simulate"), "completes fields of a table")
c = repl.complete("x = ", "pri", "")
T.check(has(c, "print"), "completes globals")
c = repl.complete("", "rep", "")
T.check(has(c, "replot") and has(c, "repeat"), "completes commands and keywords")
io.stdout:write("(load:) ")
repl.load("tests/models/osc.lua")
c = repl.complete("plot(", "j.", '"')
T.check(has(c, "j.s") and has(c, "j.v") and has(c, "j.flange_a."), "completes variable names, one level at a time")
T.check(not has(c, "j.flange_a.f"), "stops at the next level")
c = repl.complete("plot(", "j.flange_a.", '"')
T.check(has(c, "j.flange_a.f"), "completes the next level")
c = repl.complete("plot(", "ti", '"')
T.check(has(c, "time"), "completes time")
local _, mode = repl.complete("load(", "tests/mo", '"')
T.eq(mode, "files", "file names inside load(\"...\")")
-- readline passes the line with the opening quote (tests/cli/test_repl_pty.sh
-- drives the real callback)
_, mode = repl.complete('load("', "tests/mo", '"')
T.eq(mode, "files", "file names after the quote")
_, mode = repl.complete('plot{"j.s", file = "', "x", '"')
T.eq(mode, "files", "file names in file = \"...\"")
c = repl.complete("steady{", "fi", "")
T.check(has(c, "fixed"), "options of steady{...}")
c = repl.complete("linearize{at = 1, ", "out", "")
T.check(has(c, "outputs"), "options of linearize{...}")
local res = repl.run { stop = 0.5 }
c = repl.complete("", "res:col", "")
_G.res = res
c = repl.complete("", "res:col", "")
T.check(has(c, "res:column"), "completes methods of a userdata")

-- ---- progress bar -----------------------------------------------------------
local script = path("progress.lua")
f = assert(io.open(script, "w"))
f:write([[
local m = dofile("tests/models/osc.lua")
local b = lied.build(m)
b:run{stop = 5, dt = 1e-4, interval = 0.5, progress = true, progress_delay = 0, out = "none"}
b:run{stop = 5, dt = 1e-4, interval = 0.5, out = "none"}
]])
f:close()
code, out, err = T.sh(T.lied .. " " .. script)
T.eq(code, 0, "progress run")
T.check(err:find("[########################] 100%  t = 5 / 5", 1, true), "bar at 100%: " .. err:sub(1, 300))
T.check(err:find("x real time", 1, true), "bar shows the rate")
local _, bars = err:gsub("%] 100%%", "")
T.eq(bars, 1, "the second run (progress auto, stderr not a terminal) is quiet")

os.execute("rm -rf " .. tmp)
T.done()
