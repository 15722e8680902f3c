-- bench/media_steam.lua - n independent evaporators with water and steam,
-- for the lane forms of the media's property routines (bench/media_lanes,
-- bench/README.md, docs/media.md "Lane forms"): water boiled by superheated
-- steam in a CounterFlowHX of 8 cells per stream (IAPWS-IF97 on both sides:
-- liquid, two-phase and vapour cells). Copy i has its own flows.
--   lied run bench/media_steam.lua --set n=256 --out none --stats [--no-lanes]
local lied = require "lied"
local tf = require "lied.thermofluid"

local Evap = lied.model "Evap" {
  parameters = { m_w = 0.01, m_s = 0.05 },
  hot = tf.MassFlowSource { m_flow = lied.param "m_s", T0 = 700, p0 = 1e6, medium = tf.steam },
  water = tf.MassFlowSource { m_flow = lied.param "m_w", T0 = 350, p0 = 2e5, medium = tf.steam },
  hx = tf.CounterFlowHX { N = 8, UA = 400, V_a = 1e-2, V_b = 2e-4, T0_a = 600, T0_b = 380,
                          p0_a = 1e6, p0_b = 2e5, medium_a = tf.steam, medium_b = tf.steam },
  out_a = tf.Sink { p0 = 1e6, medium = tf.steam },
  out_b = tf.Sink { p0 = 2e5, medium = tf.steam },
  connect = { { "hot.outlet", "hx.inlet_a" }, { "hx.outlet_a", "out_a.inlet" },
              { "water.outlet", "hx.inlet_b" }, { "hx.outlet_b", "out_b.inlet" } },
}

local Bench = lied.model "MediaSteam" {
  doc = "n evaporators with water and steam",
  parameters = { n = 64 },
  e = lied.array(Evap, lied.param "n", {
    m_w = function(i) return 0.004 + 1e-4 * (i % 40) end,
    m_s = function(i) return 0.04 + 5e-4 * (i % 40) end,
  }),
  experiment = { stop = 2, dt = 0.005, solver = "rk4" },
}

lied.main(Bench)
return Bench
