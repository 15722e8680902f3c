-- bench/setup_children.lua: setup time of a composite with many direct
-- children, each phase timed on its own: N ground/slider/mass triples
-- (g<k>, s<k>, m<k>: mechanics Fixed, Prismatic, Body) as 3 N children of one
-- model, with 2 N connections written as strings (as a generator would).
--   lied bench/setup_children.lua N [N ...]      (default 8192 32768 131072)
-- prints one row per N: children, declare (lied.model), flatten
-- (lied.flatten), specs (lied.core.build minus instantiate and schedule:
-- the specs, parameters and connections handed to C), instantiate,
-- schedule, total, and microseconds per child for each phase.
local lied = require "lied"
local mech = require "lied.mechanics"

local clock = lied.core.clock

local function model(n)
  local def = { connect = {} }
  local c = def.connect
  for k = 1, n do
    local g, s, m = "g" .. k, "s" .. k, "m" .. k
    def[g] = mech.Fixed { y = 0.1 * k }
    def[s] = mech.Prismatic { e = { 1, 0 }, v = 0.001 * k }
    def[m] = mech.Body { m = 1, I = 0.1 }
    c[#c + 1] = { g .. ".frame_b", s .. ".frame_a" }
    c[#c + 1] = { s .. ".frame_b", m .. ".frame_a" }
  end
  return def
end

local ns = {}
for _, a in ipairs(arg or {}) do ns[#ns + 1] = math.tointeger(tonumber(a)) end
if #ns == 0 then ns = { 8192, 32768, 131072 } end
print(string.format("%9s %9s %8s %8s %8s %8s %8s %8s   %s", "N", "children", "declare", "flatten",
  "specs", "inst", "sched", "total", "us per child: declare flatten specs inst sched"))
for _, n in ipairs(ns) do
  local def = model(n)
  collectgarbage()
  local t0 = clock()
  local M = lied.model "Children" (def)
  local t1 = clock()
  local specs = lied.flatten(M)
  local t2 = clock()
  local b = lied.core.build(specs)
  local t3 = clock()
  local info = b:info()
  local ti, ts = info.t_instantiate, info.t_schedule
  local decl, flat, spec = t1 - t0, t2 - t1, (t3 - t2) - ti - ts
  local ch = 3 * n
  local us = function(x) return 1e6 * x / ch end
  print(string.format("%9d %9d %8.3f %8.3f %8.3f %8.3f %8.3f %8.3f   %.2f %.2f %.2f %.2f %.2f", n, ch,
    decl, flat, spec, ti, ts, t3 - t0, us(decl), us(flat), us(spec), us(ti), us(ts)))
  b, specs, M, def = nil, nil, nil, nil
  collectgarbage()
end
