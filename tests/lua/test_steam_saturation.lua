-- Volumes started exactly on the saturation line (x0 = 0 and x0 = 1) at 201
-- pressures from 1 kPa to 22 MPa, as issue 47 found them: closed by a shut
-- source and a sink of infinite inertance, each must read back its start
-- pressure and the saturation temperature at t = 0 (17 of 201 read the
-- triple point, 611 Pa and 273.15 K, before: the (rho, u) inverse's root at
-- the end of its bracket), and the drum boiler started as saturated liquid
-- runs. The inverses themselves on every boundary: tests/unit/test_if97_bounds.c.
local lied = require "lied"
local tf = require "lied.thermofluid"
local T = require "tests.testing"
local steam = tf.steam

local n, bad = 0, 0
for i = 0, 200 do
  local p0 = 1e3 * (22e6 / 1e3) ^ (i / 200)
  for _, x0 in ipairs { 0, 1 } do
    local M = lied.model "Closed" {
      src = tf.MassFlowSource { m_flow = 0, T0 = 300, p0 = p0, medium = tf.steam },
      v = tf.Volume { V = 1, p0 = p0, x0 = x0, medium = tf.steam },
      snk = tf.Sink { p0 = p0, medium = tf.steam, L = 1e9 },
      connect = { { "src.outlet", "v.inlet" }, { "v.outlet", "snk.inlet" } },
    }
    local r = lied.build(M):run { stop = 1e-3, dt = 1e-3, solver = "euler", vars = "v.p,v.T" }
    local p, Tv, Ts = T.column(r, "v.p")[1], T.column(r, "v.T")[1], steam:Tsat(p0)
    n = n + 1
    if math.abs(p - p0) > 1e-6 * p0 or math.abs(Tv - Ts) > 1e-6 then
      bad = bad + 1
      if bad < 10 then
        print(string.format("p0 = %.17g, x0 = %d: p %.17g, T %.17g (Tsat %.17g)", p0, x0, p, Tv, Ts))
      end
    end
  end
end
T.eq(bad, 0, string.format("%d volumes started on the saturation line read back p0 and Tsat(p0)", n))

-- the example: (rho, u) of the saturated liquid at 3 MPa
local st = steam:state_rhou(821.89486554082544, 1004721.2680379564)
T.near(st.p, 3e6, 1, "state_rhou of the saturated liquid at 3 MPa: p")
T.near(st.T, 507.00844500625, 1e-6, "... T")
T.near(st.x, 0, 1e-9, "... x")

-- the drum boiler started as saturated liquid and as saturated vapour
for _, x0 in ipairs { 0, 1 } do
  local drum = dofile((os.getenv("LIED_SRC") or ".") .. "/examples/drum_boiler.lua")
  local r = lied.build(drum, { ["drum.x0"] = x0 }):run { stop = 1, vars = "drum.p" }
  T.near(T.column(r, "drum.p")[1], 3e6, 1e-3, "drum boiler, x0 = " .. x0 .. ": p at t = 0")
  local t = T.column(r, "time")
  T.eq(t[#t], 1, "drum boiler, x0 = " .. x0 .. ": runs to t = 1")
end
