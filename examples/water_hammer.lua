-- examples/water_hammer.lua: a valve at the end of a long pipe closes fast and
-- sends a pressure wave back up the pipe (lied.undirected, docs/thermofluid.md
-- "Undirected streams").
--   res (BoundaryRear, p_res) -> vol[1] -> vol[2] -> ... -> vol[N] -> valve -> out (BoundaryFore, p_out)
-- The pipe (length l, diameter d) is N cells of length dx = l/N: cell i is a
-- Volume vol[i] of water (its compressibility beta gives the pressure wave its
-- speed a = 1/sqrt(rho0*beta), 1494 m/s for tf.water) holding the inertance
-- of the segment to the next cell (L_fore = dx/A); the reservoir's segment and
-- the valve's hold half a cell's (dx/(2A)), so that the inertances add up to
-- l/A and the compliances to l*A*rho0*beta: the volumes sit at the cells'
-- centres. No friction in the pipe (add it with a PressureDrop per cell): the
-- flow at rest is set by the open valve (dp_ref at m_flow_ref). The valve's
-- opening falls linearly from 1 to 0 in t_close from t = t0; the flow stops
-- and the pressure at the valve rises by Joukowsky's rho*a*v0, the wave runs
-- to the reservoir and back, and the pressure at the valve alternates with
-- the period 4*l/a. The closed valve's leakage makes the model stiff: an
-- implicit solver takes it, cvode where lied has it (4,527 steps for N = 20
-- over 6 s at tol 1e-8), else esdirk23 (81,285 steps at 1e-6).
--   lied run examples/water_hammer.lua --vars 'vol[50].p,valve.m_flow' --interval 0.1
--   lied examples/water_hammer.lua water_hammer.png
local lied = require "lied"
local tfu = require "lied.undirected"
local sig = lied.library "signals"

local has_cvode = false
for _, s in ipairs(lied.core.solvers()) do has_cvode = has_cvode or s.name == "cvode" end

local function area(p) return math.pi * p.d * p.d / 4 end
local function dx(p) return p.l / p.N end

local WaterHammer = lied.model "WaterHammer" {
  doc = "a reservoir, a pipe of N undirected cells and a valve closing in t_close",
  parameters = { N = 50, l = 1000, d = 0.2, p_res = 2e6, p_out = 1e5, T = 293.15,
                 dp_valve = 1.9e6, m_valve = 15.64, t0 = 0.1, t_close = 0.05 },
  -- at rest before t0: every segment carries the flow m_valve that the open valve
  -- passes at p_res - p_out = dp_valve, the pipe is at p_res (no friction)
  res = tfu.BoundaryRear { p0 = lied.param "p_res", T0 = lied.param "T", m_flow = lied.param "m_valve",
                           L = function(p) return dx(p) / 2 / area(p) end },
  vol = lied.array(tfu.Volume {
    V = function(p) return area(p) * dx(p) end,
    T0 = lied.param "T",
    p0 = lied.param "p_res",
    m_flow = lied.param "m_valve",
    -- the water is at one temperature: a cell's flow reversing switches its
    -- upwind enthalpy between neighbours that differ by p/rho only, a kink
    -- of the energy the pressure wave hardly feels; declared (kinks = 1),
    -- cvode ends a step at each of the ringing's 2,965 reversals (32,839
    -- steps instead of 6,775 over 6 s at tol 1e-8, half the error): a
    -- tighter tolerance without them is cheaper and more accurate
    -- (docs/thermofluid.md, "Undirected examples")
    kinks = 0,
  }, lied.param "N", {
    -- the segment after each cell: a whole cell's inertance, half for the last
    L_fore = function(i, p) return (i < p.N and dx(p) or dx(p) / 2) / area(p) end,
  }),
  valve = tfu.Valve { dp_ref = lied.param "dp_valve", m_flow_ref = lied.param "m_valve",
                      leakage = 1e-3 },
  opening = sig.Ramp { offset = 1, height = -1, t0 = lied.param "t0", duration = lied.param "t_close" },
  out = tfu.BoundaryFore { p0 = lied.param "p_out", T0 = lied.param "T" },
  connect = {
    { "res.fore", "vol[1].rear" },
    lied.each(1, function(p) return p.N - 1 end, { "vol[i].fore", "vol[i+1].rear" }),
    lied.each(lied.param "N", lied.param "N", { "vol[i].fore", "valve.rear" }),
    { "valve.fore", "out.rear" }, { "opening.y", "valve.opening" },
  },
  experiment = { start = 0, stop = 6, solver = has_cvode and "cvode" or "esdirk23",
                 tol = has_cvode and 1e-8 or 1e-6, interval = 1e-3,
                 vars = "vol[*].p,valve.m_flow,res.m_flow" },
}

lied.main(WaterHammer, { plot = { "vol[50].p", "vol[25].p", "vol[1].p" } })
return WaterHammer
