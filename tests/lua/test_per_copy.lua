-- Per-copy parameters and start values: lied.array(E, n, per) with
-- functions of the index, lists and numbers, nested arrays, overrides of one
-- copy ("crab[2].body2.m") and of all, built:value of a parameter; the copies
-- keep replicated scheduling, chunks and lane forms (the structure is the
-- same) and give the bits of the same model written without arrays; errors.
local lied = require "lied"
local T = require "tests.testing"
local mech = require "lied.mechanics"
local CraneCrab = require "cranecrab"

-- ---- values ---------------------------------------------------------------
local Ens = lied.model "Ens" {
  parameters = { n = 5, dm = 0.1 },
  crab = lied.array(CraneCrab, lied.param "n", {
    ["body2.m"] = function(i, p) return 0.5 + p.dm * i end,
    ["revolute2.phi"] = { 0.1, 0.2, 0.3, 0.4, 0.5 },
    ["body1.I"] = 0.2,
  }),
}
local b = lied.build(Ens)
for i = 1, 5 do
  T.near(b:value(string.format("crab[%d].body2.m", i)), 0.5 + 0.1 * i, 1e-15, "body2.m of copy " .. i)
  T.eq(b:value(string.format("crab[%d].revolute2.phi", i)), ({ 0.1, 0.2, 0.3, 0.4, 0.5 })[i],
    "phi start of copy " .. i)
  T.eq(b:value(string.format("crab[%d].body1.I", i)), 0.2, "uniform per-copy value")
end
local v, unit = b:value("crab[3].body2.m")
T.eq(unit, "kg", "built:value of a parameter: its unit")
T.eq(select(1, b:value("crab[2].prismatic1.e"))[1], 1, "built:value of a vector parameter")

-- overrides: one copy, all copies (replaces the function), the enclosing
-- parameter the function reads
b = lied.build(Ens, { ["crab[2].body2.m"] = 3, ["crab.body1.m"] = 2, dm = 0.2 })
T.eq(b:value("crab[2].body2.m"), 3, "--set crab[2].body2.m")
T.near(b:value("crab[3].body2.m"), 0.5 + 0.2 * 3, 1e-15, "the function sees dm = 0.2")
T.eq(b:value("crab[1].body1.m"), 2, "--set crab.body1.m: every copy")
T.raises(function() lied.build(Ens, { n = 3 }) end,
  { "test_per_copy.lua:14: crab.revolute2.phi: a list of per-copy values needs 3 values (one per copy), got 5" },
  "a list for another n")
b = lied.build(Ens, { ["crab.body2.m"] = 0.7 })
for i = 1, 5 do T.eq(b:value(string.format("crab[%d].body2.m", i)), 0.7, "--set crab.body2.m replaces the function") end

-- a model parameter per copy: the children's expressions follow it
local Crab2 = lied.model "Crab2" {
  parameters = { m2 = 0.5 },
  body = mech.Body { m = lied.param "m2", I = 0.1 },
  extra = mech.Body { m = function(p) return 2 * p.m2 end, I = 0.1 },
  fixed = mech.Fixed {},
  fixed2 = mech.Fixed {},
  connect = { { "fixed.frame_b", "extra.frame_a" }, { "fixed2.frame_b", "body.frame_a" } },
}
local E2 = lied.model "E2" {
  e = lied.array(Crab2, 4, { m2 = function(i) return i end }),
}
b = lied.build(E2, { ["e[3].m2"] = 10 })
for i, m2 in ipairs { 1, 2, 10, 4 } do
  T.eq(b:value(string.format("e[%d].body.m", i)), m2, "model parameter per copy " .. i)
  T.eq(b:value(string.format("e[%d].extra.m", i)), 2 * m2, "function of a per-copy parameter " .. i)
end

-- nested arrays: one index per level, outermost first
local Row = lied.model "Row" {
  parameters = { k = 0 },
  cell = lied.array(mech.Body { I = 0.1 }, 3, { m = function(i, j, p) return 10 * i + j + p.k end }),
  fixed = lied.array(mech.Fixed {}, 3),
  connect = { { "fixed[1].frame_b", "cell[1].frame_a" }, { "fixed[2].frame_b", "cell[2].frame_a" },
              { "fixed[3].frame_b", "cell[3].frame_a" } },
}
local Grid = lied.model "Grid" { row = lied.array(Row, 2, { k = { 0.5, 0.25 } }) }
b = lied.build(Grid, { ["row.cell[2].m"] = 99 })
for i = 1, 2 do
  for j = 1, 3 do
    local want = j == 2 and 99 or 10 * i + j + (i == 1 and 0.5 or 0.25)
    T.eq(b:value(string.format("row[%d].cell[%d].m", i, j)), want, string.format("grid m[%d][%d]", i, j))
  end
end

-- vector parameters per copy: a list of lists, or a function returning a
-- list; the class's init runs per copy (Prismatic normalises e)
local function sliders(per)
  return lied.model "V" {
    f = lied.array(mech.Fixed {}, 2),
    p = lied.array(mech.Prismatic {}, 2, per),
    b = lied.array(mech.Body {}, 2),
    connect = { lied.each(1, 2, { "f[i].frame_b", "p[i].frame_a" }, { "p[i].frame_b", "b[i].frame_a" }) },
  }
end
b = lied.build(sliders { e = { { 1, 0 }, { 0, 2 } } })
T.eq(b:value("p[2].e")[2], 1, "a list of vectors: copy 2's e, normalised by init")
T.eq(b:value("p[1].e")[1], 1, "a list of vectors: copy 1's e")
b = lied.build(sliders { e = function(i) return { 3, 4 * (i - 1) } end })
T.near(b:value("p[2].e")[1], 0.6, 1e-15, "a function returning a vector, normalised per copy")
T.eq(b:value("p[1].e")[1], 1, "copy 1: {3, 0} normalised")
T.raises(function() lied.build(sliders { e = function(i) return { i } end }) end,
  { "p[1]: parameter e must be a list of 2 numbers, got a table of 1 values" }, "a vector of the wrong length")
b = lied.build(sliders {}, { ["p[2].e"] = { 0, 1 } })
T.eq(b:value("p[2].e")[2], 1, "--set of one copy's vector parameter")
T.eq(b:value("p[1].e")[1], 1, "the other copy keeps the default")

-- integer parameters per copy: read back as integers; one that changes the
-- ports (Add's n: inputs u1 .. un) is refused for the copy that differs
local sig = require "lied.signals"
local function adders(per)
  return lied.model "I" {
    c = lied.array(sig.Constant { k = 1 }, 2),
    add = lied.array(sig.Add {}, 2, per),
    connect = { lied.each(1, 2, { "c[i].y", "add[i].u1" }, { "c[i].y", "add[i].u2" }) },
  }
end
b = lied.build(adders { n = { 2, 2 } })
local pl = b:params("add[2].n")
T.check(#pl == 1 and pl[1].value == 2 and math.type(pl[1].value) == "integer", "an integer parameter reads as an integer")
T.raises(function() lied.build(adders { n = { 2, 3 } }) end,
  { "add[2]: with its per-copy parameter values, Add declares another structure than for the other copies" },
  "a per-copy integer that adds a port")

-- components with time events (a Ramp's corners) keep them per copy: each
-- copy's own start time and height
local Ramps = lied.model "Ramps" {
  r = lied.array(sig.Ramp { duration = 0.25 }, 3, { t0 = { 0.1, 0.3, 0.5 }, height = function(i) return i end }),
}
local rr = lied.build(Ramps):run { solver = "rk4", stop = 1, dt = 0.05, interval = 0.05, vars = "r[*].y", progress = false }
local function at(name, t)
  local tc, yc = T.column(rr, "time"), T.column(rr, name)
  for k = 1, #tc do if math.abs(tc[k] - t) < 1e-9 then return yc[k] end end
end
T.eq(at("r[1].y", 0.1), 0, "ramp 1 starts at 0.1")
T.near(at("r[2].y", 0.55), 2, 1e-12, "ramp 2 reaches its height 2 at 0.55")
T.near(at("r[3].y", 0.75), 3, 1e-12, "ramp 3 reaches 3 at 0.75")
T.eq(at("r[3].y", 0.5), 0, "ramp 3 still 0 at its start 0.5")

-- ---- the same bits as the model without arrays, and the fast path kept ----
local phis, ms = { 0.3, -0.2, 0.7 }, { 0.4, 0.9, 1.3 }
local Arr = lied.model "Arr" {
  crab = lied.array(CraneCrab, 3, { ["revolute2.phi"] = phis, ["body2.m"] = ms,
                                    ["prismatic1.v"] = function(i) return 0.1 * i end }),
}
local flat = {}
for i = 1, 3 do
  flat["c" .. i] = CraneCrab { revolute2 = { phi = phis[i] }, body2 = { m = ms[i] },
                               prismatic1 = { v = 0.1 * i } }
end
local Flat = lied.model "Flat" (flat)
local ba, bf = lied.build(Arr), lied.build(Flat)
local ia = ba:info()
T.eq(ia.copies, 3, "per-copy values keep replicated scheduling")
T.check(ia.chunked and ia.lanes, "per-copy values keep chunks and lane forms")
T.eq(bf:info().copies, 0, "the model without arrays is scheduled whole")
local opts = { solver = "rk4", stop = 1, dt = 1e-3, interval = 0.1, progress = false }
local ra, sa = ba:run(opts)
local rf = bf:run(opts)
T.check(sa.fused and sa.lanes, "per-copy model: fused steps in lane form")
for i = 1, 3 do
  for _, var in ipairs { "revolute2.phi", "revolute2.w", "prismatic1.s", "prismatic1.v" } do
    local ca, cf = T.column(ra, string.format("crab[%d].%s", i, var)), T.column(rf, string.format("c%d.%s", i, var))
    local same = #ca == #cf
    for k = 1, #ca do same = same and ca[k] == cf[k] end
    T.check(same, string.format("crab[%d].%s: the bits of c%d", i, var, i))
  end
end
-- a second run starts again from each copy's own start values
local ra2 = ba:run(opts)
T.eq(T.column(ra2, "crab[2].revolute2.phi")[1], phis[2], "a second run starts from copy 2's start value")
T.eq(T.column(ra2, "crab[3].revolute2.phi")[#T.column(ra2, "crab[3].revolute2.phi")],
  T.column(ra, "crab[3].revolute2.phi")[#T.column(ra, "crab[3].revolute2.phi")], "second run: same bits")

-- uniform per-copy values: the copies are the prototype's
local Uni = lied.model "Uni" {
  crab = lied.array(CraneCrab, 40, { ["body2.m"] = function() return 0.5 end }),
}
local bu = lied.build(Uni)
local iu = bu:info()
T.eq(iu.copies, 40, "uniform per-copy values: replicated")
T.check(iu.chunked and iu.lanes, "uniform per-copy values: chunked, lane forms")
local _, su = bu:run { solver = "rk4", stop = 0.01, dt = 1e-3, out = "none", progress = false }
T.check(su.fused and su.lanes, "uniform per-copy values: fused lane steps")

-- ---- the command line and the REPL ------------------------------------------------
local file = os.tmpname() .. ".lua"
local f = assert(io.open(file, "w"))
f:write([[
local lied = require "lied"
return lied.model "Ens" {
  parameters = { n = 4 },
  crab = lied.array(require "cranecrab", lied.param "n", { ["body2.m"] = function(i) return 0.5 * i end }),
}
]])
f:close()
local code, out = T.sh(string.format("%s params %s 'crab[*].body2.m' --set 'crab[3].body2.m=0.6'", T.lied, file))
T.eq(code, 0, "lied params --set crab[3].body2.m")
T.check(out:find("crab[2].body2.m  1 ", 1, true) and out:find("crab[3].body2.m  0.6 ", 1, true)
  and out:find("crab[4].body2.m  2 ", 1, true), "lied params: per-copy values and the override: " .. out)
local err
code, out, err = T.sh(string.format("%s run %s --set 'crab[7].body2.m=0.6' --stop 0.01", T.lied, file))
T.eq(code, 1, "--set crab[7] of 4: model error")
T.check(err:find("--set crab[7].body2.m: index 7 out of range: crab has 4 copies", 1, true), "message: " .. err)
code, out, err = T.sh(string.format("%s run %s --set 'crab[-1].body2.m=0.6' --stop 0.01", T.lied, file))
T.eq(code, 1, "--set crab[-1]: model error")
T.check(err:find("--set crab[-1].body2.m: bad index [-1] (indices are whole numbers from 1)", 1, true),
  "the command line passes the path on as written: " .. err)
code, out = T.sh(string.format([[printf 'load "%s"\nset("crab[2].body2.m", 9)\nparams("crab[*].body2.m")\n' | %s]], file, T.lied))
T.eq(code, 0, "REPL set of one copy")
T.check(out:find("crab[2].body2.m  9 ", 1, true) and out:find("crab[1].body2.m  0.5 ", 1, true),
  "REPL: set one copy: " .. out)
os.remove(file)

-- ---- errors ---------------------------------------------------------------------
T.raises(function() lied.build(Ens, { ["crab[9].body2.m"] = 1 }) end,
  { "--set crab[9].body2.m: index 9 out of range: crab has 5 copies" }, "index out of range")
T.raises(function() lied.build(Ens, { ["crab[0].body2.m"] = 1 }) end,
  { "index 0 out of range" }, "index 0")
T.raises(function() lied.build(Ens, { ["crab[x].body2.m"] = 1 }) end,
  { "--set crab[x].body2.m: bad index [x]" }, "bad index")
do -- a per-copy value that is not a number names its copy; a NaN reads "nan"
  local th = require "lied.thermal"
  local function caps(C) return lied.model "Caps" { c = lied.array(th.HeatCapacitor { C = 10 }, 3, { C = C }) } end
  T.raises(function() lied.build(caps(function(i) return i == 2 and "x" or 1 end)) end,
    { "c.C (copy [2]) must be a number, got the string \"x\"" }, "a string from a per-copy function")
  T.raises(function() lied.build(caps({ 1, nil, 3 })) end, { "c.C (copy [2]) must be a number, got nil" },
    "a hole in a list of per-copy values")
  T.raises(function() lied.build(caps(function() return 0 / 0 end)) end,
    { "c[1]: parameter C = nan [J/K] must be finite" }, "NaN from a per-copy function")
end
T.raises(function() lied.build(Ens, { ["crab[-1].body2.m"] = 1 }) end,
  { "--set crab[-1].body2.m: bad index [-1]" }, "negative index")
T.raises(function() lied.build(Ens, { ["crab[1.5].body2.m"] = 1 }) end,
  { "--set crab[1.5].body2.m: bad index [1.5]" }, "a dot inside the brackets")
T.raises(function() lied.build(Ens, { ["crab[2.body2.m"] = 1 }) end,
  { "--set crab[2.body2.m: bad index [2 " }, "an unclosed bracket")
T.raises(function() lied.build(Ens, { ["crab[99999999999999999999].body2.m"] = 1 }) end,
  { "--set crab[99999999999999999999].body2.m: index 99999999999999999999 out of range: crab has 5 copies" },
  "an index beyond 2^63")
T.raises(function() lied.build(Ens, { ["crab[1].body2[1].m"] = 1 }) end,
  { "'body2' is not an array" }, "index on a scalar")
T.raises(function() lied.build(Ens, { ["crab[1].body2.mm"] = 1 }) end,
  { "no such parameter in model Ens" }, "unknown parameter of one copy")
T.raises(function() lied.build(Ens, { ["crab[1].body2.m"] = -1 }) end,
  { "crab[1].body2: parameter m = -1 [kg] must be > 0" }, "value out of range for one copy")
T.raises(function() lied.build(Ens, { ["crab[1].body2.m"] = "2" }) end,
  { "crab[1].body2.m must be a number" }, "a string")
T.raises(function()
  lied.build(lied.model "L" { c = lied.array(mech.Body {}, 3, { m = { 1, 2 } }) })
end, { "test_per_copy.lua:", "c.m: a list of per-copy values needs 3 values (one per copy), got 2" },
  "list of the wrong length")
T.raises(function()
  lied.build(lied.model "L" { c = lied.array(mech.Body {}, 3, { mm = 1 }) })
end, { "test_per_copy.lua:", ": c: per-copy parameter 'mm': Body has no such parameter (did you mean 'm'?)" }, "unknown key")
T.raises(function()
  lied.build(lied.model "L" { c = lied.array(mech.Body {}, 3, { m = function(i) return -i end }) })
end, { "c[1]: parameter m = -1 [kg] must be > 0" }, "a function's value out of range names the copy")
T.raises(function()
  lied.build(lied.model "L" { c = lied.array(mech.Body {}, 3, { m = function(i) error("boom " .. i) end }) })
end, { "c.m (copy [1]):", "boom 1" }, "an error in the function names the copy")
T.raises(function()
  lied.build(lied.model "L" { c = lied.array(mech.Body {}, 3, { m = function() return "x" end }) })
end, { "c.m (copy [1]) must be a number, got the string \"x\"" }, "a function returning a string names the copy")
T.raises(function() lied.array(mech.Body {}, 3, { m = true }) end,
  { "per-copy parameter m must be a number, a function (i, p) or a list of values, got boolean true" },
  "a boolean")
T.raises(function() lied.array(mech.Body {}, 3, { ["a..b"] = 1 }) end,
  { "per-copy parameter names are parameters of the element or dotted paths" }, "bad key")
T.raises(function() lied.array(mech.Body {}, 3, 7) end, { "per must be a table" }, "per not a table")
-- a parameter that selects structure (T_D > 0 adds a state) cannot differ
local Slide = lied.model "Slide" {
  fixed = mech.Fixed {},
  p = mech.Prismatic { e = { 1, 0 } },
  body = mech.Body {},
  connect = { { "fixed.frame_b", "p.frame_a" }, { "p.frame_b", "body.frame_a" } },
}
T.raises(function()
  lied.build(lied.model "S" { s = lied.array(Slide, 3, { ["p.T_D"] = function(i) return i == 2 and 0.1 or 0 end }) })
end, { "s[2].p: with its per-copy parameter values, Prismatic declares another structure than for the other copies",
       "a parameter that selects structure takes one value for every copy" }, "structure differs")
-- an array size cannot be per copy
local Inner = lied.model "Inner" { parameters = { k = 2 }, b = lied.array(mech.Body {}, lied.param "k") }
T.raises(function() lied.build(lied.model "O" { o = lied.array(Inner, 2, { k = { 1, 2 } }) }) end,
  { "o.b: an array size cannot differ between copies" }, "per-copy array size")

T.done()
