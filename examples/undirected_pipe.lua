-- examples/undirected_pipe.lua: examples/pipe.lua in undirected form (lied.undirected,
-- docs/thermofluid.md "Undirected streams"), the benchmark of bench/undirected_pipe.
-- Cell i is a PressureDrop drop[i] (the friction of a pipe section of length
-- dx and diameter d) followed by a Volume vol[i] (the section's water, mass
-- and energy balance); a last drop drop[n+1] leads to the boundary at the end:
--   src -> drop[1] -> vol[1] -> drop[2] -> ... -> vol[n] -> drop[n+1] -> sink
-- vol[i] owns the flow through drop[i+1] and holds that segment's inertance
-- (L_fore = dx/A; src the first's, the drops none): then the linear section
-- of a segment is the owner's own two blocks and everything else is
-- explicit, so the arrays run in lane form (docs/thermofluid.md, "Lane forms
-- of the undirected cells").
-- src (BoundaryRear) holds p_in and T_in (hot water), sink (BoundaryFore) p_out
-- and T_out. The same geometry, laws and start as examples/pipe.lua, but the
-- flow may run either way: with p_out > p_in the sink's water fills the pipe
-- from the other end. Each vol[i] owns the flow of the segment after it.
--   lied run examples/undirected_pipe.lua --stop 20 --interval 5 --vars 'vol[1].T,vol[8].T,drop[1].m_flow'
--   lied run examples/undirected_pipe.lua --set p_in=1e5 --set p_out=1.2e5 --stop 20 --interval 5 --vars 'vol[16].T,drop[1].m_flow'
local lied = require "lied"
local tfu = require "lied.undirected"

local function area(p) return math.pi * p.d * p.d / 4 end

local Pipe = lied.model "UndirectedPipe" {
  doc = "a water pipe of n undirected cells (PressureDrop + Volume each) between two boundaries",
  parameters = { n = 16, d = 0.1, dx = 10, dp_ref = 1000, p_in = 1.2e5, p_out = 1e5,
                 T_in = 353.15, T_out = 313.15, T0 = 293.15 },
  -- inertance = length / area, at the owner of each segment
  src = tfu.BoundaryRear { p0 = lied.param "p_in", T0 = lied.param "T_in",
                           L = function(p) return p.dx / area(p) end },
  -- dp_ref at 1 m/s through the cross-section
  drop = lied.array(tfu.PressureDrop {
    dp_ref = lied.param "dp_ref",
    v_ref = function(p) return area(p) * 1.0 end,
  }, function(p) return p.n + 1 end),
  vol = lied.array(tfu.Volume {
    V = function(p) return area(p) * p.dx end,
    L_fore = function(p) return p.dx / area(p) end,
    T0 = lied.param "T0",
  }, lied.param "n", {
    p0 = function(i, p) return p.p_in - (p.p_in - p.p_out) * i / (p.n + 1) end,
  }),
  sink = tfu.BoundaryFore { p0 = lied.param "p_out", T0 = lied.param "T_out" },
  connect = {
    { "src.fore", "drop[1].rear" },
    lied.each(1, lied.param "n",
      { "drop[i].fore", "vol[i].rear" },
      { "vol[i].fore", "drop[i+1].rear" }),
    lied.each(function(p) return p.n + 1 end, function(p) return p.n + 1 end,
      { "drop[i].fore", "sink.rear" }),
  },
  experiment = { start = 0, stop = 200, dt = 1e-3, solver = "rk4", interval = 1,
                 vars = "vol[*].T,drop[1].m_flow" },
}

lied.main(Pipe, { plot = { "vol[1].T", "vol[4].T", "vol[8].T", "vol[12].T", "vol[16].T" } })
return Pipe
