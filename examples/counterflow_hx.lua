-- examples/counterflow_hx.lua: two water streams through a counter-flow heat
-- exchanger. The hot stream (T_hot_in, m_hot) enters side a, the cold stream
-- (T_cold_in, m_cold) side b from the other end; the exchanger has the
-- conductance UA, discretised into N cells per stream. From a uniform start
-- at the cold inlet temperature the outlets settle to the steady state that
-- the effectiveness-NTU solution gives (docs/thermofluid.md, "Heat
-- exchangers"); the finer the cells, the closer.
--   lied run examples/counterflow_hx.lua --set N=200   outlet temperatures
--   lied examples/counterflow_hx.lua [plot.png]         simulate and plot
local lied = require "lied"
local tf = require "lied.thermofluid"

local CounterFlow = lied.model "CounterFlow" {
  doc = "water against water in a counter-flow heat exchanger",
  parameters = { T_hot_in = 353.15, m_hot = 0.1, T_cold_in = 293.15, m_cold = 0.15,
                 UA = 2000, N = 50 },
  hot_in = tf.MassFlowSource { m_flow = lied.param "m_hot", T0 = lied.param "T_hot_in",
                               p0 = 2e5 },
  cold_in = tf.MassFlowSource { m_flow = lied.param "m_cold", T0 = lied.param "T_cold_in",
                                p0 = 2e5 },
  hx = tf.CounterFlowHX { UA = lied.param "UA", N = lied.param "N", V_a = 1e-3, V_b = 1e-3,
                          T0_a = lied.param "T_cold_in", T0_b = lied.param "T_cold_in" },
  hot_out = tf.Sink { p0 = 2e5 },
  cold_out = tf.Sink { p0 = 2e5 },
  connect = {
    { "hot_in.outlet", "hx.inlet_a" }, { "hx.outlet_a", "hot_out.inlet" },
    { "cold_in.outlet", "hx.inlet_b" }, { "hx.outlet_b", "cold_out.inlet" },
  },
  experiment = { stop = 300, solver = "dopri45", tol = 1e-8, interval = 1,
                 vars = "hot_out.T,cold_out.T,hx.Q_flow" },
}

lied.main(CounterFlow, { plot = { "hot_out.T", "cold_out.T" } })
return CounterFlow
