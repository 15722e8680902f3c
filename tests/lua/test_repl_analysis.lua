-- test_repl_analysis.lua: the REPL's analysis commands (steady, linearize,
-- params, sweep, compare, value, plot of expressions), what the prompt
-- prints (results, tables, help(library)), and the defects of the issue
-- "Analysis at the prompt": set(path, nil), plot{results[1], ...}, the
-- message for a variable not recorded, memory = true with out = "none",
-- exit status and messages of piped sessions.
local T = require "tests.testing"

local tmp = os.tmpname()
os.remove(tmp)
assert(os.execute("mkdir -p " .. tmp))
local function session(text, env)
  local f = assert(io.open(tmp .. "/s.lua", "w"))
  f:write(text)
  f:close()
  return T.sh(string.format("%s HOME=%s %s <%s/s.lua", env or "", tmp, T.lied, tmp))
end

-- ---- analysis at the prompt --------------------------------------------------------
local code, out, err = session([[
load "examples/vessels.lua"
steady()
s = steady{fixed = "t1.level"}
print("fixed", s.states["t1.level"], s.states["t3.level"])
print("at", steady{at = 50}.states["t2.level"])
params "p1.*"
set("p1.L", 2000)
params "p1.L"
set("p1.L", nil)
params "p1.L"
set("stop", 20)
set("stop", nil)
load "examples/mass_spring.lua"
l = linearize()
l
print("eig", l.eigenvalues[1][2], l.eigenvalues[2][2])
load "examples/vessels.lua"
results
sw = sweep{["p1.L"] = {1000, 4000}, run = {stop = 30}}
results
compare()
print("value", value("t1.level", 0), value(results[1], "t1.level", 0))
plot{"t1.level + t2.level + t3.level", runs = sw, text = true, width = 70, height = 18}
plot{results[1], "t1.level", text = true, width = 70, height = 18}
help(require "lied.thermofluid")
{1, 2, x = 3}
r = run{out = "none", memory = true, stop = 5}
print("rows", r:nrows())
]])
T.eq(code, 0, "analysis session exit status; stderr: " .. err)
T.check(out:find("t1.level   1.16666666667      m", 1, true), "steady levels: " .. out)
T.check(out:find("fixed\t2.0\t2.0", 1, true) or out:find("fixed\t2\t2", 1, true), "steady with a fixed state")
local at = tonumber(out:match("\nat\t([%d%.e%-]+)"))
T.near(at, 3.5 / 3, 1e-8, "steady from a transient")
T.check(out:find("p1.L       1000 ", 1, true), "params shows p1.L with its value: " .. out)
T.check(out:match("p1.L  2000%s+1/m%s+set"), "params marks the override")
T.check(out:find("Vessels: p1.L=2000\nVessels: no overrides", 1, true) or out:find("no overrides", 1, true),
  "set(path, nil) removes the override")
T.check(out:find("Vessels: stop=20\nVessels: no overrides", 1, true), "set(\"stop\", nil) removes the run option")
T.check(out:find("eigenvalues: 0 - 2i, 0 + 2i", 1, true), "linearize prints the eigenvalues: " .. out)
local e1, e2 = out:match("\neig\t([%d%.e%-]+)\t([%d%.e%-]+)")
T.near(tonumber(e1), -2, 1e-10, "eigenvalue -2i")
T.near(tonumber(e2), 2, 1e-10, "eigenvalue +2i")
T.check(out:find("no results yet", 1, true), "results before any run")
T.check(out:find("run 1: p1.L=1000, ", 1, true) and out:find("run 2: p1.L=4000, ", 1, true), "sweep runs labelled")
T.check(out:match("1%s+501%s+6%s+30%s+run 1: p1.L=1000"), "results as a table: " .. out)
T.check(out:find("largest difference per variable", 1, true), "compare")
T.check(out:find("\nvalue\t2.0\t2.0", 1, true) or out:find("\nvalue\t2\t2", 1, true), "value at t = 0")
T.check(out:find("t1.level + t2.level + t3.level (p1.L=1000)", 1, true), "expression plot with sweep labels")
T.check(out:find("TankIn ", 1, true) and out:find("classes", 1, true), "help(library) lists classes")
T.check(not out:find("table: 0x", 1, true), "no table addresses printed")
T.check(out:find("{1, 2, x = 3}", 1, true), "a table shows its contents")
T.check(out:find("\nrows\t", 1, true) and not out:find("\nrows\t0\n", 1, true), "memory = true with out = none keeps rows")

-- ---- errors: messages alone, exit status 1 --------------------------------------------
code, out, err = session([[
load "examples/vessels.lua"
run{stop = 10}
plot("t1.levl")
plot("p1.dp")
steady{fixed = {"t9.level"}}
linearize{inputs = {"p1.Lx"}}
sweep{["p1.L"] = {}}
set("p1.L", nil)
nil + 1
print("alive")
]])
T.eq(code, 1, "errors make a piped session exit 1")
T.check(out:find("alive", 1, true), "the session goes on after errors")
T.check(err:find("'t1.levl' was not recorded (did you mean 't1.level'?)", 1, true), "suggestion: " .. err)
T.check(err:find("p1.dp exists in model Vessels but was not recorded", 1, true)
  and err:find('run{vars = "p1.dp"}', 1, true), "how to record a variable: " .. err)
T.check(err:find("steady: fixed: t9.level", 1, true), "unknown fixed state")
T.check(err:find("has no parameter 'Lx' (did you mean 'L'?)", 1, true), "unknown input")
T.check(err:find("sweep: p1.L must be a non-empty list", 1, true), "bad sweep")
T.check(err:find("set: 'p1.L' is not overridden", 1, true), "removing an override that is not there")
T.check(not err:find("stack traceback", 1, true), "no traceback for user errors: " .. err)
T.check(not err:find("lied/repl.lua", 1, true) and not err:find("lied/analysis.lua", 1, true),
  "no position in lied's sources: " .. err)

-- the last chunk fails: exit 1; an unfinished chunk at the end is a syntax error
code, out, err = session('print("one")\nerror("boom")\n')
T.eq(code, 1, "last chunk fails")
T.check(err:find("stdin:2: boom", 1, true) and not err:find("traceback", 1, true), "message alone: " .. err)
code, out, err = session('print("one")\nfor i = 1, 2 do\nprint(i)\n')
T.eq(code, 1, "unfinished chunk at the end")
T.check(err:find("'end' expected", 1, true), "unfinished chunk reported: " .. err)
code = session('print("fine")\n')
T.eq(code, 0, "a clean session exits 0")
-- debug = true: tracebacks
code, out, err = session('debug = true\nerror("boom")\n')
T.check(err:find("stack traceback", 1, true), "debug = true shows tracebacks: " .. err)
code, out, err = session('error("boom")\n', "LIED_DEBUG=1")
T.check(err:find("stack traceback", 1, true), "LIED_DEBUG shows tracebacks")

-- an internal error (raised in lied's own Lua code) keeps its traceback
code, out, err = session('require("lied.repl").complete(nil, "", "x")\n')
T.check(err:find("lied/repl.lua:", 1, true) and err:find("stack traceback", 1, true),
  "internal errors show a traceback: " .. err)

-- a plot to a missing directory: a message, no image bytes on the terminal
code, out, err = session([[
load "examples/vessels.lua"
run{stop = 5}
plot{"t1.level", file = "]] .. tmp .. [[/missing-dir/x.png"}
]])
T.eq(code, 1, "plot to a missing directory fails")
T.check(err:find("cannot write the plot", 1, true) and err:find("No such file or directory", 1, true), "message: " .. err)
T.check(#out < 400 and not out:find("PNG", 1, true), "no image on standard output: " .. #out .. " bytes")
code, out, err = T.sh(T.lied .. " examples/vessels.lua " .. tmp .. "/missing-dir/p.png")
T.eq(code, 1, "lied FILE.lua missing-dir/p.png")
T.check(#out < 400 and err:find("cannot write the plot", 1, true), "script plot message: " .. err)

-- NO_COLOR: a text plot without colour escapes even on a terminal (script(1))
if os.execute("command -v script >/dev/null") then
  local f = assert(io.open(tmp .. "/c.lua", "w"))
  f:write('load "examples/vessels.lua"\nrun{stop = 5}\nplot{"t1.level", text = true, width = 60, height = 15}\n')
  f:close()
  local cmd = "cd %s && %s TERM=xterm script -qec '%s < %s/c.lua' /dev/null"
  local _, colour = T.sh(string.format(cmd, os.getenv("LIED_SRC") or ".", "", T.lied, tmp))
  local _, plain = T.sh(string.format(cmd, os.getenv("LIED_SRC") or ".", "NO_COLOR=1", T.lied, tmp))
  T.check(colour:find("\27%[") ~= nil, "colour on a terminal")
  T.check(plain:find("\27%[") == nil, "NO_COLOR: no escapes")
end
os.execute("rm -rf " .. tmp)
T.done()
