-- Explicit invalid values are refused, never read as "the default" (issue
-- 47, item 9): an empty solver name or variable list (Lua API, lied.simulate,
-- the command line; the embedding API in tests/embed/test_embed.c), and
-- per-copy lists with keys other than 1..n (a string key, 0, n + 1, a
-- fraction, a boolean, beyond a hole), as docs/robustness.md says such tables
-- are refused. (per-copy lists are read in one place, init.lua percopy_at,
-- for every parameter, vectors included.)
local lied = require "lied"
local T = require "tests.testing"
local S = require "lied.signals"
local src = (os.getenv("LIED_SRC") or ".")
local Osc = dofile(src .. "/tests/models/osc.lua")

local empty_solver = "the solver name is empty (available: euler, heun, rk3, rk4"
local empty_vars = "the variable list is empty"
for _, opts in ipairs {
  { solver = "" }, { solver = "", out = "none" }, { vars = "" }, { vars = "  " }, { vars = "", out = "none" },
  { vars = ",," }, { vars = " , " }, { vars = ",", out = "none" },
} do
  local what = opts.solver and empty_solver or empty_vars
  T.raises(function() return lied.build(Osc):run(opts) end, { what }, "model:run " .. what, "usage")
  T.raises(function()
    local o = { set = {} }
    for k, v in pairs(opts) do o[k] = v end
    return lied.simulate(Osc, o)
  end, { what }, "lied.simulate " .. what, "usage")
end
T.raises(function() return lied.core.check_run_options { vars = "" } end, { empty_vars },
  "check_run_options: an empty list")
-- the command line: a usage error, status 2
for _, a in ipairs { '--solver ""', "--solver ''", '--vars ""', '--vars " "', '--vars ",,"', '--vars " , "' } do
  local code, _, err = T.sh(string.format("%s run %s/tests/models/osc.lua %s --out none", T.lied, src, a))
  T.eq(code, 2, "lied run " .. a .. ": status")
  T.check(err:find(a:find("solver") and empty_solver or empty_vars, 1, true), "lied run " .. a .. ": " .. err)
end
-- the default is still the default
T.check(lied.build(Osc):run { stop = 0.1 } ~= nil, "no solver, no vars: the defaults")

-- per-copy lists: keys 1..n only
local function per(list)
  return function()
    return lied.build(lied.model "E" { b = lied.array(S.Constant, 4, { k = list }) })
  end
end
T.raises(per { 1, 2, 3, 4, x = 5 }, { "b.k: a list of per-copy values takes the keys 1..4 only, got the key \"x\"" },
  "a string key")
T.raises(per { [0] = 9, 1, 2, 3, 4 }, { "takes the keys 1..4 only, got the key 0" }, "key 0")
T.raises(per { 1, 2, 3, 4, [1.5] = 2 }, { "got the key 1.5" }, "a fractional key")
T.raises(per { 1, 2, 3, 4, [true] = 1 }, { "got the key true" }, "a boolean key")
T.raises(per { 1, 2, 3, 4, [6] = 6 }, { "b.k: a list of per-copy values" }, "a hole and a key beyond it")
-- the same list without the extra key builds
T.check(per { 1, 2, 3, 4 }() ~= nil, "a list of 1..n builds")
T.done()
