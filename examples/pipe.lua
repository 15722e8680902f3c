-- examples/pipe.lua: a water pipe discretised into n cells, the thermofluid
-- benchmark of bench/chain. Cell i is a PressureDrop drop[i] (the friction and
-- the inertance of a pipe section of length dx and diameter d) followed by a
-- Volume vol[i] (the section's water, mass and energy balance); a last drop
-- drop[n+1] leads to the sink:
--   src -> drop[1] -> vol[1] -> drop[2] -> ... -> vol[n] -> drop[n+1] -> sink
-- The source holds p_in and T_in (hot water), the sink p_out. The cells start
-- at rest, at T0, with the pressure falling linearly from p_in to p_out; the
-- flow accelerates and the hot front travels down the pipe (upwind cells, so
-- it smears by about one cell per cell travelled).
--   lied run examples/pipe.lua --stop 20 --interval 5 --vars vol[1].T,vol[8].T,drop[1].m_flow
--   lied run examples/pipe.lua --set n=65536 --stop 0.1 --out none --stats
-- bench/flat_pipe.c is the same model as one hand-written right-hand side.
local lied = require "lied"
local tf = require "lied.thermofluid"

local function area(p) return math.pi * p.d * p.d / 4 end

local Pipe = lied.model "Pipe" {
  doc = "a water pipe of n cells (PressureDrop + Volume each) from a hot source at p_in to a sink at p_out",
  parameters = { n = 16, d = 0.1, dx = 10, dp_ref = 1000, p_in = 1.2e5, p_out = 1e5,
                 T_in = 353.15, T0 = 293.15 },
  src = tf.Source { p0 = lied.param "p_in", T0 = lied.param "T_in" },
  -- dp_ref at 1 m/s through the cross-section; inertance = length / area
  drop = lied.array(tf.PressureDrop {
    dp_ref = lied.param "dp_ref",
    v_ref = function(p) return area(p) * 1.0 end,
    L = function(p) return p.dx / area(p) end,
  }, function(p) return p.n + 1 end),
  vol = lied.array(tf.Volume {
    V = function(p) return area(p) * p.dx end,
    T0 = lied.param "T0",
  }, lied.param "n", {
    p0 = function(i, p) return p.p_in - (p.p_in - p.p_out) * i / (p.n + 1) end,
  }),
  sink = tf.Sink { p0 = lied.param "p_out" },
  connect = {
    { "src.outlet", "drop[1].inlet" },
    lied.each(1, lied.param "n",
      { "drop[i].outlet", "vol[i].inlet" },
      { "vol[i].outlet", "drop[i+1].inlet" }),
    lied.each(function(p) return p.n + 1 end, function(p) return p.n + 1 end,
      { "drop[i].outlet", "sink.inlet" }),
  },
  experiment = { start = 0, stop = 200, dt = 1e-3, solver = "rk4", interval = 1,
                 vars = "vol[*].T,drop[1].m_flow" },
}

lied.main(Pipe, { plot = { "vol[1].T", "vol[4].T", "vol[8].T", "vol[12].T", "vol[16].T" } })
return Pipe
