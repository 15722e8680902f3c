-- Structural, parameter and run-time errors of undirected thermofluid models
-- (lied.undirected): each must fail with a message that says what is wrong
-- and where.
local lied = require "lied"
local tfu = require "lied.undirected"
local tf = require "lied.thermofluid"
local T = require "tests.testing"

local function fails(model, pats, what)
  T.raises(function() lied.build(model) end, pats, what)
end
local drop = tfu.PressureDrop { L = 1e3 }

-- Two junctions joined by two parallel pipes and no volume between: the explicit states
-- of the two directions form a cycle.
fails(lied.model "Parallel" {
  a = tfu.BoundaryRear {}, s = tfu.Junction { n_rear = 1, n_fore = 2 }, p1 = drop, p2 = drop,
  j = tfu.Junction { n_rear = 2, n_fore = 1 }, out = drop, b = tfu.BoundaryFore {},
  connect = { { "a.fore", "s.rear[1]" }, { "s.fore[1]", "p1.rear" }, { "s.fore[2]", "p2.rear" },
              { "p1.fore", "j.rear[1]" }, { "p2.fore", "j.rear[2]" }, { "j.fore[1]", "out.rear" },
              { "out.fore", "b.rear" } },
}, { "flow loop without a volume: ", "s", "j" }, "parallel pipes between two junctions")

-- The same with a volume in one branch builds.
T.check(pcall(lied.build, lied.model "ParallelVolume" {
  a = tfu.BoundaryRear {}, s = tfu.Junction { n_rear = 1, n_fore = 2 }, p1 = drop, p2 = drop,
  v = tfu.Volume {}, p3 = drop,
  j = tfu.Junction { n_rear = 2, n_fore = 1 }, out = drop, b = tfu.BoundaryFore {},
  connect = { { "a.fore", "s.rear[1]" }, { "s.fore[1]", "p1.rear" }, { "s.fore[2]", "p2.rear" },
              { "p1.fore", "v.rear" }, { "v.fore", "p3.rear" }, { "p3.fore", "j.rear[1]" },
              { "p2.fore", "j.rear[2]" }, { "j.fore[1]", "out.rear" }, { "out.fore", "b.rear" } },
}), "parallel branches with a volume in one build")

-- A segment without inertance.
fails(lied.model "NoL" {
  a = tfu.BoundaryRear {}, d = tfu.PressureDrop {}, b = tfu.BoundaryFore {},
  connect = { { "a.fore", "d.rear" }, { "d.fore", "b.rear" } },
}, { "flow path without inertance (give one of its elements an inertance L > 0)", "a.dm_flow" },
  "segment without inertance")

-- One fore feeding two rears.
fails(lied.model "Branch" {
  a = tfu.BoundaryRear {}, p1 = drop, p2 = drop, b1 = tfu.BoundaryFore {}, b2 = tfu.BoundaryFore {},
  connect = { { "a.fore", "p1.rear" }, { "a.fore", "p2.rear" }, { "p1.fore", "b1.rear" },
              { "p2.fore", "b2.rear" } },
}, { "branching is not allowed", "a.fore", "use a Junction" }, "branching")

-- An unconnected rear.
fails(lied.model "Open" {
  a = tfu.BoundaryRear {}, p1 = drop,
  connect = { { "a.fore", "p1.rear" } },
}, { "p1.fore" }, "unconnected fore port")

-- Directed and undirected ports do not connect directly.
fails(lied.model "Mixed" {
  src = tf.Source {}, p1 = drop, b = tfu.BoundaryFore {},
  connect = { { "src.outlet", "p1.rear" }, { "p1.fore", "b.rear" } },
}, { "src.outlet", "p1.rear", "ConnectInletFore" }, "directed outlet to an undirected rear")

-- Two fores (two segment starts) cannot be connected: a fore meets a rear.
fails(lied.model "ForeFore" {
  a = tfu.BoundaryRear {}, c = tfu.BoundaryRear {},
  connect = { { "a.fore", "c.fore" } },
}, { "a.fore", "c.fore" }, "fore to fore")

-- Parameters.
local function init_fails(cls, pats, what)
  fails(lied.model "One" { x = cls }, pats, what)
end
fails(lied.model "J0" {
  j = tfu.Junction { n_rear = 2, n_fore = 0 },
}, { "j", "a Junction needs a fore port (n_fore >= 1)" }, "junction without a fore port")
fails(lied.model "J9" {
  j = tfu.Junction { n_rear = 5, n_fore = 4 },
}, { "a Junction has 2 to 8 ports: n_rear + n_fore = 9" }, "junction with too many ports")
init_fails(tfu.Volume { use_rear = 0, use_fore = 0 }, { "x", "a Volume needs a port" }, "volume without ports")
init_fails(tfu.VolumeN { n_rear = 0, n_fore = 0 }, { "a VolumeN needs a port" }, "VolumeN without ports")
init_fails(tfu.Volume { medium = tfu.liquid { beta = 0 } }, { "a Volume needs a compressible medium" },
  "incompressible volume")
init_fails(tfu.Volume { x0 = 0.5 }, { "x0 = 0.5 needs a medium with two phases" }, "quality of a liquid")
init_fails(tfu.BoundaryRear { medium = { 9, 0, 0, 0, 0, 0 } }, { "medium kind 9 is unknown" }, "bad medium")
init_fails(tfu.BoundaryFore { T0 = 3000, medium = tfu.steam }, { "x", "state (p0, T0)" },
  "boundary state outside the steam tables")
init_fails(tfu.Valve { characteristic = 3 }, { "x", "characteristic" }, "valve characteristic")
init_fails(tfu.PressureDrop { v_ref = 0 }, { "x", "v_ref" }, "v_ref = 0")
init_fails(tfu.Volume { m_flow_reg = 0 }, { "x", "m_flow_reg" }, "m_flow_reg = 0")

-- A run leaving a medium's range: a steam boundary whose temperature input falls below
-- the tables names the component and the time.
do
  local sig = lied.library "signals"
  local M = lied.model "Cold" {
    a = tfu.BoundaryRear { T0_from_input = 1, medium = tfu.steam, p0 = 1e5 },
    T0 = sig.Ramp { offset = 400, height = -400, t0 = 0, duration = 1 },
    d = tfu.PressureDrop { L = 1e3, medium = tfu.steam },
    b = tfu.BoundaryFore { medium = tfu.steam, p0 = 1e5, T0 = 400 },
    connect = { { "T0.y", "a.T0_in" }, { "a.fore", "d.rear" }, { "d.fore", "b.rear" } },
    experiment = { stop = 1, dt = 1e-2, solver = "rk4" },
  }
  T.raises(function() lied.simulate(M):run() end, { "a: state (p0, T0_in)", "at t = " }, "steam boundary out of range")
end

-- The undirected two-phase exchangers: a refrigerant side that is no refrigerant, start
-- states without two phases or off the tables, no wall, too many cells; a cell leaving
-- the tables during a run (hot air over a nearly still refrigerant) is a fault naming the
-- component, the cell and the time.
do
  local R = tf.R134a
  local function one(hx, Ta)
    return lied.model "OneRHX" {
      src = tfu.BoundaryRear { p0 = 3e5, T0 = 280, L = 1e4, medium = R }, hx = hx,
      d = tfu.LinearQuadraticDrop { k1 = 1e9, medium = R },
      snk = tfu.BoundaryFore { p0 = 2.99e5, T0 = 280, L = 1e4, medium = R },
      air = tfu.BoundaryRear { p0 = 1.001e5, T0 = Ta or 300, L = 1e3, medium = tf.air },
      out = tfu.BoundaryFore { p0 = 1e5, medium = tf.air },
      connect = { { "src.fore", "hx.rear_a" }, { "hx.fore_a", "d.rear" }, { "d.fore", "snk.rear" },
                  { "air.fore", "hx.rear_b" }, { "hx.fore_b", "out.rear" } },
    }
  end
  local function hx(t)
    t.medium_b = tf.air
    if not t.medium_a then t.medium_a = R end
    return tfu.TwoPhaseCounterFlowHX(t)
  end
  fails(one(hx { medium_a = tf.water }), { "hx", "medium_a: the refrigerant side needs a medium with two phases" },
        "water as the refrigerant")
  fails(one(hx { p0_a = 5e6, x0_a = 0.5 }), { "hx", "x0_a = 0.5: p0_a = 5e+06 Pa has no two-phase states in R134a" },
        "x0_a above the critical pressure")
  fails(one(hx { p0_a = 1e5, T0_a = 100 }), { "hx: start state (p0_a, T0_a): R134a: p = 100000 Pa, T = 100 K" },
        "a start state below the table")
  fails(one(hx { C_w = 0 }), { "hx", "C_w" }, "no wall capacity")
  fails(one(tfu.TwoPhaseCrossFlowHX { N = 51, medium_a = R, medium_b = tf.air }), { "hx", "N" }, "too many cells")
  local Hot = one(hx { N = 4, V_a = 1e-4, UA_b = 5e4, C_w = 10, p0_a = 3e5, x0_a = 0.5 }, 600)
  T.raises(function() lied.simulate(Hot, { stop = 100, solver = "rk4", dt = 0.01 }):run() end,
    { "at t = ", ": hx: refrigerant cell " }, "a cell leaving the tables: a fault at a time")
end

T.done()
