-- The Lua declaration layer: classes as userdata, models, nested composites,
-- arrays, parameters and overrides, names generated and resolved on demand.
local lied = require "lied"
local tl = require "lied.testlib"
local T = require "tests.testing"

-- C classes are userdata with a named metatable, __tostring and docs
T.eq(getmetatable(tl.Mass).__name, "lied.Class", "__name of a class")
T.check(tostring(tl.Mass):find("testlib.Mass", 1, true), "__tostring of a class")
T.eq(tl.Mass.name, "Mass", "class name")
T.eq(tl.Mass.params[1].name, "m", "class parameter list")
T.eq(tl.Mass.params[1].unit, "kg", "parameter unit")
local doc = lied.describe(tl.Slider)
T.check(doc:find("spring stiffness", 1, true) and doc:find("N/m", 1, true), "describe a class")

-- a reusable oscillator with a parameter and exposed ports
local Osc = lied.model "Osc" {
  parameters = { k = 4, s0 = 1 },
  j = tl.Slider { k = lied.param "k", s = function(p) return p.s0 * 2 end },
  b = tl.Mass { m = 1 },
  connect = { { "j.flange_b", "b.flange_a" } },
  ports = { flange_a = "j.flange_a" },
}
T.check(tostring(Osc):find("Osc", 1, true), "model tostring")

local Top = lied.model "Top" {
  parameters = { n = 5, kk = 9 },
  g = tl.Ground {},
  single = Osc { k = lied.param "kk" },
  osc = lied.array(Osc { s0 = 0.5 }, lied.param "n"),
  connect = { { "g.flange_b", "single.flange_a" } },
}
-- array elements are connected one by one through a second model level
local Wrap = lied.model "Wrap" {
  g = tl.Ground {},
  o = Osc {},
  connect = { { "g.flange_b", "o.flange_a" } },
}
local Many = lied.model "Many" {
  parameters = { n = 4 },
  w = lied.array(Wrap, lied.param "n"),
}

T.raises(function() lied.build(Top) end, { "unconnected", "osc[1].j.flange_a" },
  "array elements must be connected")

local built = lied.build(Many)
local info = built:info()
T.eq(info.components, 12, "components of 4 wrapped oscillators")
T.eq(info.sections, 4, "one section per oscillator")
T.eq(info.section_batches, 1, "identical sections batched together")
T.eq(info.states, 8, "states")
T.eq(built:value("w[3].o.j.s"), 2, "start value from a parameter function")
T.raises(function() built:value("w[5].o.j.s") end, "out of range", "index range")
T.raises(function() built:value("w.o.j.s") end, "is an array of 4", "missing index")
T.raises(function() built:value("w[1].o.j.q") end, "no variable 'q'", "unknown variable")
T.raises(function() built:value("w[1].o.j.sx") end, "did you mean 's'", "suggestion")
T.raises(function() built:value("w[1].x.j.s") end, "no component 'x'", "unknown component")
T.eq(#built:vars("w[*].o.j.s"), 4, "glob over an array")
T.eq(built:vars("w[2].o.j.*")[1].name, "w[2].o.j.flange_a.s", "names in declaration order")
T.eq(built:vars("w[2].o.j.*")[4].name, "w[2].o.j.flange_a.f", "port variables in connector order")
-- a pattern skips the components under which no name can match (the walk of
-- names): the same list as testing every name
do
  local all = built:vars()
  for _, pat in ipairs { "w[2].o.j.*", "w[*].o.j.s", "*.s", "w[?].*", "w[1]*", "*", "w[3].o.j.flange_a.f", "x*", "" } do
    local want = {}
    for _, v in ipairs(all) do
      if lied.core.glob(pat, v.name) then want[#want + 1] = v.name end
    end
    local got = {}
    for _, v in ipairs(built:vars(pat)) do got[#got + 1] = v.name end
    T.eq(table.concat(got, ","), table.concat(want, ","), "vars('" .. pat .. "'): the names of vars() that match")
  end
end

-- --set style overrides, nested parameters, class-call overrides
local b2 = lied.build(Many, { n = 7, ["w.o.k"] = 16 })
T.eq(b2:info().components, 21, "--set n")
local d = b2:derivatives()
T.near(d["w[7].o.j.v"], -16 * 2, 1e-12, "--set of a nested model parameter")
T.raises(function() lied.build(Many, { nope = 1 }) end, "no such parameter", "--set unknown")
local b3 = lied.build(Many { n = 2 })
T.eq(b3:info().components, 6, "class call overrides a parameter")
T.raises(function() return Many { zz = 1 } end, "no parameter or child 'zz'", "bad override")

-- an array of size 0 is allowed and empty
local b4 = lied.build(Many, { n = 0 })
T.eq(b4:info().components, 0, "empty array")

-- results: names, units, columns; runs start from the start values every time
local r1 = built:run { stop = 1, dt = 0.01, interval = 0.5, vars = "w[1].o.j.s" }
local r2 = built:run { stop = 1, dt = 0.01, interval = 0.5, vars = "w[1].o.j.s" }
T.eq(r1:nrows(), 3, "rows at the output interval")
T.eq(T.column(r1, "w[1].o.j.s")[3], T.column(r2, "w[1].o.j.s")[3], "second run starts afresh")
T.near(T.column(r1, "w[1].o.j.s")[3], 2 * math.cos(2), 1e-7, "oscillator solution")
T.eq(r1:units()["w[1].o.j.s"], "m", "units")
T.check(tostring(r1):find("3 rows", 1, true), "result tostring")

-- lied.simulate with the experiment defaults
local Exp = Wrap { experiment = { stop = 0.5, dt = 0.01 } }
local sim = lied.simulate(Exp)
local res, stats = sim:run()
T.eq(stats.steps, 50, "experiment defaults")
T.check(tostring(sim):find("finished", 1, true), "simulation tostring")
T.eq(res:names()[1], "o.j.s", "default records the states")
T.done()
