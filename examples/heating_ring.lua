-- examples/heating_ring.lua: a district-heating ring fed by two plants; one of
-- them fails and flow reverses in part of the ring (lied.undirected,
-- docs/thermofluid.md "Undirected examples").
--
-- A supply ring S1 - S2 - S3 - S4 - S1 and a return ring R1 - R2 - R3 - R4 - R1,
-- each of four pipe sections (n_cells cells of a PressureDrop and a Volume, and a
-- last drop), with Junctions at the nodes. Plant A takes water from R1, pumps it
-- through its boiler (a Volume heated by Q_A) into S1; plant B likewise from R3
-- to S3. Consumers at the nodes 2 and 4 draw from the supply ring through a
-- valve into a Volume that gives off their load (Q < 0) and back into the return
-- ring. At t_fail plant B fails: its pump stops and its burner goes out (Step
-- signals). Its pump, standing, becomes a resistance between S3 and R3, and the
-- supply pressure pushes water backwards through plant B into the return ring:
-- its flow reverses, and so do the ring sections near S3, which plant A now
-- feeds from the other side.
--   lied run examples/heating_ring.lua --vars 'pumpB.m_flow,sec23.drop[1].m_flow,cons2.T' --interval 100
--   lied examples/heating_ring.lua heating_ring.png
local lied = require "lied"
local tfu = require "lied.undirected"
local sig = lied.library "signals"

local function area(p) return math.pi * p.d * p.d / 4 end

-- A pipe section of n cells: rear -> drop[1] -> vol[1] -> ... -> drop[n] -> vol[n] -> out -> fore;
-- each drop holds its cell's friction (dp_ref per cell at 1 m/s) and inertance dx/A.
local function cell_drop(frac)
  return tfu.PressureDrop {
    dp_ref = function(p) return p.dp_ref * frac end,
    v_ref = function(p) return area(p) end,
    L = function(p) return frac * p.l / p.n / area(p) end,
  }
end
local Section = lied.model "Section" {
  parameters = { n = 4, l = 400, d = 0.15, dp_ref = 5000, p0 = 3e5, T0 = 340 },
  -- the volumes at the cells' centres: half a cell's drop at either end
  drop = lied.array(cell_drop(1), lied.param "n", { dp_ref = function(i, p) return i == 1 and p.dp_ref / 2 or p.dp_ref end,
                                                   L = function(i, p) return (i == 1 and 0.5 or 1) * p.l / p.n / area(p) end }),
  vol = lied.array(tfu.Volume {
    V = function(p) return area(p) * p.l / p.n end,
    p0 = lied.param "p0", T0 = lied.param "T0",
  }, lied.param "n"),
  out = cell_drop(0.5),
  connect = {
    lied.each(1, lied.param "n", { "drop[i].fore", "vol[i].rear" }),
    lied.each(1, function(p) return p.n - 1 end, { "vol[i].fore", "drop[i+1].rear" }),
    lied.each(lied.param "n", lied.param "n", { "vol[i].fore", "out.rear" }),
  },
  ports = { rear = "drop[1].rear", fore = "out.fore" },
}

local function section(p0, T0)
  return Section { n = lied.param "n_cells", l = lied.param "l", d = lied.param "d", p0 = p0, T0 = T0 }
end
-- A branch's element into a node: a drop with a short pipe's inertance.
local function link(dp_ref)
  return tfu.PressureDrop { dp_ref = dp_ref, v_ref = 0.01, L = 1e3 }
end

local HeatingRing = lied.model "HeatingRing" {
  doc = "a district-heating ring of supply and return lines, two plants, two consumers; plant B fails at t_fail",
  parameters = { n_cells = 4, l = 400, d = 0.15, omega = 157, Q_A = 4e5, Q_B = 3e5, Q_2 = -3.5e5,
                 Q_4 = -2.5e5, t_fail = 600 },
  -- the rings: S1 -> S2 -> S3 -> S4 -> S1 and R1 -> R2 -> R3 -> R4 -> R1 (nominal directions)
  sec12 = section(4e5, 350), sec23 = section(4e5, 350), sec34 = section(4e5, 350), sec41 = section(4e5, 350),
  ret12 = section(2e5, 330), ret23 = section(2e5, 330), ret34 = section(2e5, 330), ret41 = section(2e5, 330),
  S1 = tfu.Junction { n_rear = 2, n_fore = 1 }, S2 = tfu.Junction { n_rear = 1, n_fore = 2 },
  S3 = tfu.Junction { n_rear = 2, n_fore = 1 }, S4 = tfu.Junction { n_rear = 1, n_fore = 2 },
  R1 = tfu.Junction { n_rear = 1, n_fore = 2 }, R2 = tfu.Junction { n_rear = 2, n_fore = 1 },
  R3 = tfu.Junction { n_rear = 1, n_fore = 2 }, R4 = tfu.Junction { n_rear = 2, n_fore = 1 },
  -- plants: return -> pump -> boiler -> link -> supply
  pumpA = tfu.Pump { k_p = 1e7, V_r = 1.2e-3, omega = lied.param "omega", L = 1e3 },
  boilerA = tfu.Volume { V = 1, p0 = 3e5, T0 = 350, Q = lied.param "Q_A" },
  outA = link(1e4),
  pumpB = tfu.Pump { k_p = 1e7, V_r = 1.2e-3, omega_from_input = 1, L = 1e3 },
  boilerB = tfu.Volume { V = 1, p0 = 3e5, T0 = 350, Q_from_input = 1 },
  outB = link(1e4),
  speedB = sig.Step { offset = lied.param "omega", height = function(p) return -p.omega end, t0 = lied.param "t_fail" },
  burnerB = sig.Step { offset = lied.param "Q_B", height = function(p) return -p.Q_B end, t0 = lied.param "t_fail" },
  -- consumers: supply -> valve -> heat exchanger volume (load Q < 0) -> link -> return
  valve2 = link(1e5), cons2 = tfu.Volume { V = 1, p0 = 3e5, T0 = 335, Q = lied.param "Q_2" }, back2 = link(1e4),
  valve4 = link(1e5), cons4 = tfu.Volume { V = 1, p0 = 3e5, T0 = 335, Q = lied.param "Q_4" }, back4 = link(1e4),
  connect = {
    -- supply ring
    { "S1.fore[1]", "sec12.rear" }, { "sec12.fore", "S2.rear[1]" },
    { "S2.fore[1]", "sec23.rear" }, { "sec23.fore", "S3.rear[1]" },
    { "S3.fore[1]", "sec34.rear" }, { "sec34.fore", "S4.rear[1]" },
    { "S4.fore[1]", "sec41.rear" }, { "sec41.fore", "S1.rear[1]" },
    -- return ring
    { "R1.fore[1]", "ret12.rear" }, { "ret12.fore", "R2.rear[1]" },
    { "R2.fore[1]", "ret23.rear" }, { "ret23.fore", "R3.rear[1]" },
    { "R3.fore[1]", "ret34.rear" }, { "ret34.fore", "R4.rear[1]" },
    { "R4.fore[1]", "ret41.rear" }, { "ret41.fore", "R1.rear[1]" },
    -- plants A (R1 -> S1) and B (R3 -> S3)
    { "R1.fore[2]", "pumpA.rear" }, { "pumpA.fore", "boilerA.rear" }, { "boilerA.fore", "outA.rear" },
    { "outA.fore", "S1.rear[2]" },
    { "R3.fore[2]", "pumpB.rear" }, { "pumpB.fore", "boilerB.rear" }, { "boilerB.fore", "outB.rear" },
    { "outB.fore", "S3.rear[2]" },
    { "speedB.y", "pumpB.omega_in" }, { "burnerB.y", "boilerB.Q_in" },
    -- consumers at 2 and 4
    { "S2.fore[2]", "valve2.rear" }, { "valve2.fore", "cons2.rear" }, { "cons2.fore", "back2.rear" },
    { "back2.fore", "R2.rear[2]" },
    { "S4.fore[2]", "valve4.rear" }, { "valve4.fore", "cons4.rear" }, { "cons4.fore", "back4.rear" },
    { "back4.fore", "R4.rear[2]" },
  },
  experiment = { start = 0, stop = 1500, solver = "dopri45", tol = 1e-7, interval = 10,
                 vars = "pumpA.m_flow,pumpB.m_flow,sec12.drop[1].m_flow,sec23.drop[1].m_flow,sec34.drop[1].m_flow," ..
                        "sec41.drop[1].m_flow,cons2.T,cons4.T,boilerA.T,boilerB.T,S3.p,R3.p" },
}

lied.main(HeatingRing, { plot = { "pumpA.m_flow", "pumpB.m_flow", "sec23.drop[1].m_flow", "sec34.drop[1].m_flow" } })
return HeatingRing
