-- lied.sweep (docs/analysis.md, docs/distributed.md "Sweeps") in one
-- process: the results are those of separate runs (same bits) and follow the
-- mass on a spring's closed form; `each` values come back as returned
-- (integers, floats to the bit, strings, booleans, nested tables); `out`
-- writes what res:save writes; every bad input is an error naming it. The
-- same sweeps under mpirun: tests/mpi/test_mpi.sh.
local lied = require "lied"
local T = require "tests.testing"
local M = dofile("examples/mass_spring.lua")

-- ---- results: the runs of the points, in point order ---------------------------
local run = { stop = 2, interval = 0.5 }
local s = lied.sweep(M, { k = { 1, 4, 9 }, m = { 1, 4 }, run = run })
T.eq(#s, 6, "3 x 2 points")
T.eq(s.labels[1], "k=1 m=1", "labels: keys sorted, grid order (last key fastest)")
T.eq(s.labels[2], "k=1 m=4", "second point")
T.eq(s.labels[6], "k=9 m=4", "last point")
T.eq(s.points[4].k, 4, "points[4].k")
T.eq(s.points[4].m, 4, "points[4].m")
T.eq(s.files, nil, "no files without out")
for i, p in ipairs(s.points) do
  local r1 = s[i]
  local r2 = lied.build(M, { k = p.k, m = p.m }):run { stop = 2, interval = 0.5, dt = 1e-3,
    vars = "slider.s,slider.v" } -- the model's experiment, then run
  local a, b = T.column(r1, "slider.s"), T.column(r2, "slider.s")
  T.eq(#a, #b, "rows of point " .. i)
  local same = #a == 5
  for j = 1, #a do same = same and string.pack("<d", a[j]) == string.pack("<d", b[j]) end
  T.check(same, "point " .. i .. ": the bits of a separate run")
  -- s(t) = 1 + 0.2 cos(w t), w = sqrt(k / m) (rk4, dt = 1e-3)
  local w = math.sqrt(p.k / p.m)
  T.near(a[5], 1 + 0.2 * math.cos(w * 2), 1e-9, "closed form at point " .. i)
end
-- set applies to every point, the point's own values win
local s2 = lied.sweep(M, { k = { 4 }, set = { m = 4, k = 100 }, run = run })
T.near(T.column(s2[1], "slider.s")[5], 1 + 0.2 * math.cos(2), 1e-9, "set m = 4 with k = 4 (w = 1)")
-- mode = "list" pairs the values
local s3 = lied.sweep(M, { k = { 1, 9 }, m = { 1, 9 }, mode = "list", run = run })
T.eq(#s3, 2, "list mode: 2 points")
T.eq(s3.labels[2], "k=9 m=9", "list mode pairs")

-- ---- each: what comes back -------------------------------------------------------
local nan = 0 / 0
local e = lied.sweep(M, { k = { 1, 4 }, run = run, each = function(res, point, i)
  local c = T.column(res, "slider.s")
  return { i = i, k = point.k, last = c[#c], neg = -0.0, tiny = 5e-324, name = "p" .. i,
           flag = i == 2, nested = { { 1, 2.5 }, x = { y = "z" } }, nan = nan }
end })
T.eq(e[1].i, 1, "integer back")
T.eq(math.type(e[2].i), "integer", "still an integer")
T.eq(e[2].k, 4, "the point's value")
T.eq(string.pack("<d", e[2].last), string.pack("<d", T.column(s[3], "slider.s")[5]), "a float to the bit")
T.eq(string.pack("<d", e[1].neg), string.pack("<d", -0.0), "-0.0")
T.eq(e[1].tiny, 5e-324, "a subnormal")
T.check(e[1].nan ~= e[1].nan, "NaN")
T.eq(e[1].name, "p1", "string")
T.eq(e[2].flag, true, "boolean")
T.eq(e[1].flag, false, "false")
T.eq(e[1].nested[1][2], 2.5, "nested list")
T.eq(e[1].nested.x.y, "z", "nested table")
T.eq(e.labels[2], "k=4", "labels with each")
local en = lied.sweep(M, { k = { 1, 4 }, run = run, each = function() return nil end })
T.eq(en[1], nil, "each may return nil")
T.eq(#en.labels, 2, "labels are complete")

-- ---- out: files of the points, as res:save writes them -----------------------------
local dir = os.tmpname()
os.remove(dir)
os.execute("mkdir -p " .. dir)
local so = lied.sweep(M, { k = { 1, 4 }, run = run, out = dir .. "/k%03d.csv" })
T.eq(so[2], dir .. "/k002.csv", "s[i] is the file")
T.eq(so.files[1], dir .. "/k001.csv", "files[1]")
s[3]:save(dir .. "/ref.csv") -- point 3 of the grid is k = 4, m = 1
local function slurp(p) local f = io.open(p, "rb"); local x = f and f:read("a"); if f then f:close() end; return x end
T.check(slurp(dir .. "/k002.csv") ~= nil, "the file exists")
T.eq(slurp(dir .. "/k002.csv"), slurp(dir .. "/ref.csv"), "the bytes res:save writes")
local sm = lied.sweep(M, { k = { 4 }, run = run, out = dir .. "/k%d.mat",
  each = function(res) return res:nrows() end })
T.eq(sm[1], 5, "each with out: the values")
T.eq(sm.files[1], dir .. "/k1.mat", "and the files")
T.check(slurp(dir .. "/k1.mat") ~= nil, "a MAT file")
os.execute("rm -rf " .. dir)

-- ---- bad inputs ------------------------------------------------------------------------
local function bad(spec, pats, kind, model)
  T.raises(function() lied.sweep(model or M, spec) end, pats, table.concat(type(pats) == "table" and pats or { pats }, " "), kind)
end
T.raises(function() lied.sweep({}, { k = { 1 } }) end, "lied.sweep(model, {...}): expected a model, got table", "not a model", "usage")
T.raises(function() lied.sweep(M, 3) end, "expected a table, got number", "spec not a table", "usage")
bad({ run = run }, "sweep: no parameter to sweep", "usage")
bad({ k = {} }, "sweep: k must be a non-empty list of values, got table", "usage")
bad({ k = 4 }, "sweep: k must be a non-empty list of values, got number", "usage")
bad({ k = { 1, "x" } }, "sweep: k[2] must be a number, got string", "usage")
bad({ k = { 1 }, m = { 1, 2 }, mode = "list" }, "mode = \"list\" needs lists of equal length (k has 1, m 2)", "usage")
bad({ k = { 1 }, mode = "grd" }, "sweep: mode must be \"grid\" or \"list\", got grd", "usage")
bad({ k = { 1 }, run = 5 }, "sweep: run must be a table of run options, got number", "usage")
bad({ k = { 1 }, run = { stopp = 1 } }, "stopp", "usage")
bad({ k = { 1 }, run = { out = "x.csv" } }, "sweep: run = {out = ...}: give out = \"p%d.csv\" and set = {...} to the sweep itself", "usage")
bad({ k = { 1 }, run = { set = { m = 2 } } }, "sweep: run = {set = ...}", "usage")
bad({ k = { 1 }, set = 2 }, "sweep: set must be a table of overrides, got number", "usage")
bad({ k = { 1 }, each = 2 }, "sweep: each must be a function(res, point, i), got number", "usage")
bad({ k = { 1 }, out = 2 }, "sweep: out must be a file name pattern with %d", "usage")
bad({ k = { 1 }, out = "p.csv" }, "sweep: out = 'p.csv' needs one %d (or %03d) for the point's number and no other %", "usage")
bad({ k = { 1 }, out = "p%d_%d.csv" }, "needs one %d", "usage")
bad({ k = { 1 }, out = "p%s.csv" }, "needs one %d", "usage")
bad({ k = { 1 }, out = "p%d.txt" }, "sweep: out = 'p%d.txt': use a .csv or .mat file name", "usage")
local ran = false
bad({ k = { 1, 2 }, out = "/nonexistent/dir/p%d.csv", run = run, each = function() ran = true end },
  "sweep: out: cannot write /nonexistent/dir/p1.csv: No such file or directory", "model")
T.check(not ran, "an output that cannot be written is found before any point runs")
bad({ nosuch = { 1, 2 } }, { "sweep: point 1 (nosuch=1): ", "nosuch" })
bad({ m = { 1, -1 }, run = run }, { "sweep: point 2 (m=-1): ", "must be > 0" }, "model")
bad({ k = { 1, 2 }, run = run, each = function(_, _, i) if i == 2 then error("no good", 0) end end },
  "sweep: each: point 2 (k=2): no good")
bad({ k = { 1 }, run = run, each = function() return { f = print } end },
  "sweep: each: point 1 (k=1): a function cannot be returned (numbers, strings, booleans and tables of them)", "usage")
bad({ k = { 1 }, run = run, each = function() local t = {}; t.t = t; return t end },
  "sweep: each: point 1 (k=1): the value holds a table inside itself", "usage")
bad({ bad = { 0, 2 } }, "sweep: point 2 (bad=2): at t = 0.70599999999999996: state g[2].int.x became inf",
  "model", dofile("tests/mpi/growth.lua"))
local many = {}
for i = 1, 101 do many[i] = i end
bad({ k = many, m = many }, "sweep: 10201 points; at most 10000", "usage")
T.done()
