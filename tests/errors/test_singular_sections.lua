-- Linear sections that become singular during a run, or whose residual no
-- tearing variable reaches (docs/robustness.md): the message names the time,
-- the tearing variables, the section's components and what the domain says
-- to change (its connector's singular_error, as at build), on every path that
-- reports one: the dense probe, the sparse probe (a large section, and a small
-- one forced sparse), the implicit solvers, steady and linearize; and it says
-- when the matrix is not the cause (residuals too large for the probes).
local lied = require "lied"
local rot = require "lied.rotational"
local mech = require "lied.mechanics"
local S = require "lied.signals"
local T = require "tests.testing"

local ROT_HINT = "shaft without inertia, or a motion prescribed twice (a node whose torque "
  .. "balance has no inertia: give it an Inertia J > 0 or couple it rigidly to one, which a "
  .. "slipping or free clutch does not; a gear or a stuck clutch between two prescribed motions "
  .. "(Speed, Fixed), or a stuck brake on one: remove one of them, or put an Inertia and a "
  .. "Spring between them)"

local function has(err, pats, what)
  err = tostring(err)
  for _, p in ipairs(pats) do
    T.check(err:find(p, 1, true), string.format("%s: %q in %q", what, p, err))
  end
end
local function lacks(err, p, what)
  T.check(not tostring(err):find(p, 1, true), string.format("%s: no %q in %q", what, p, tostring(err)))
end
-- the time the message names
local function time_of(err)
  return tonumber(tostring(err):match("^at t = ([^:]+):"))
end

-- A massless node (J = 0) beside a clutch that starts stuck: a torque of 1 N.m drives the
-- engine (J = 0.3) and, through the clutch, a damper (d = 1) on the node; the clutch holds
-- d w until it reaches its static limit mu cgeo fn = 0.5 N.m at w = 0.5 rad/s, t = 0.3 ln 2
-- (w = 1 - exp(-t/0.3)), then slips, and the node's torque balance has no inertia left.
-- Built fine (the clutch stuck), it fails at that time.
local function clutch_def(engine)
  local def = {
    drive = rot.Torque { tau = 1 }, clutch = rot.Clutch {}, one = S.Constant { k = 1 },
    node = rot.Inertia { J = 0 }, d = rot.Damper {}, g = rot.Fixed {},
    connect = {
      { "drive.flange", engine .. ".flange_a" }, { engine .. ".flange_b", "clutch.flange_a" },
      { "node.flange_a", "clutch.flange_b" }, { "one.y", "clutch.f_normalized" },
      { "node.flange_b", "d.flange_b" }, { "g.flange", "d.flange_a" },
    },
  }
  return def
end
local t_slip = 0.3 * math.log(2)

local function run_err(built, opts)
  local res, _, err = built:run(opts)
  T.check(res and err, "the run fails and keeps its rows")
  return tostring(err)
end

-- the dense probe (3x3), explicit and implicit solvers
local def = clutch_def("engine")
def.engine = rot.Inertia { J = 0.3 }
local Clutch = lied.model "Top"(def)
for _, solver in ipairs { "rk4", "dopri45", "esdirk23" } do
  local err = run_err(lied.build(Clutch), { stop = 1, solver = solver, out = "none" })
  has(err, { "singular linear section (pivot 3 of 3); tearing variables: engine.a, clutch.tau, "
    .. "node.a; section of clutch, engine, node; " .. ROT_HINT }, "clutch, dense, " .. solver)
  T.near(time_of(err), t_slip, 1e-3, "clutch, dense, " .. solver .. ": the time it slips")
end
-- the same section forced sparse: the same members and hint
do
  local err = run_err(lied.build(Clutch, nil, nil, { sparse = "always" }), { stop = 1, out = "none" })
  has(err, { "singular linear section (3 tearing variables, solved sparsely); tearing variables: ",
    "engine.a", "node.a", "; section of clutch, engine, node; " .. ROT_HINT }, "clutch, forced sparse")
  T.near(time_of(err), t_slip, 1e-9, "clutch, forced sparse: the time it slips")
end

-- a section large enough to be solved sparsely: 13 shafts in a row coupled by 12 gears,
-- then the clutch and the massless node (27 tearing variables); the components shown are
-- the first 12 and how many more
do
  local n = 13
  local d = clutch_def("s1")
  d.connect[2] = { "s" .. n .. ".flange_b", "clutch.flange_a" }
  for i = 1, n do d["s" .. i] = rot.Inertia { J = 0.3 / n } end
  for i = 1, n - 1 do
    d["k" .. i] = rot.IdealGear {}
    table.insert(d.connect, { "s" .. i .. ".flange_b", "k" .. i .. ".flange_a" })
    table.insert(d.connect, { "s" .. (i + 1) .. ".flange_a", "k" .. i .. ".flange_b" })
  end
  local Chain = lied.model "Chain"(d)
  T.eq(lied.build(Chain):info().sparse_sections, 1, "the chain's section is solved sparsely")
  for _, solver in ipairs { "rk4", "esdirk23" } do
    -- a fresh build: a run of the same built model would start where this one ended
    local err = run_err(lied.build(Chain), { stop = 1, solver = solver, out = "none" })
    has(err, { "singular linear section (27 tearing variables, solved sparsely); tearing "
      .. "variables: ", ", ...; section of clutch, k1, k10, k11, k12, k2, k3, k4, k5, k6, k7, k8 "
      .. "and 15 more; " .. ROT_HINT }, "chain, sparse, " .. solver)
    T.near(time_of(err), t_slip, 1e-3, "chain, sparse, " .. solver .. ": the time it slips")
  end
end

-- steady and linearize meet the section at the start (the clutch free: no normal force)
do
  local d = clutch_def("engine")
  d.engine = rot.Inertia { J = 0.3, w = 10 }
  d.one = S.Constant { k = 0 }
  local b = lied.build(lied.model "Free"(d))
  for _, what in ipairs { "steady", "linearize" } do
    T.raises(function() return b[what](b) end, { what .. ": at t = 0: singular linear section",
      "tearing variables: engine.a, clutch.tau, node.a; section of clutch, engine, node; "
      .. ROT_HINT }, what .. " of a free clutch beside a massless node")
  end
end

-- a residual no tearing variable reaches, found when the model is built: a gear between
-- two speed sources, whose accelerations are known without it
T.raises(function()
  return lied.build(lied.model "Top" {
    va = rot.Speed { w_ref = 2, w = 2 }, vb = rot.Speed { w_ref = 1, w = 1 },
    gear = rot.IdealGear { ratio = 2 },
    connect = { { "va.flange", "gear.flange_a" }, { "vb.flange", "gear.flange_b" } } })
end, { "gear: residual res does not depend on the tearing variables (tearing pair tau, res of "
  .. "IdealGear); it reads va, vb; " .. ROT_HINT }, "a gear between two speed sources", "model")
-- the same for a planar joint with nothing below it
T.raises(function()
  return lied.build(lied.model "Top" { f = mech.Fixed {}, r = mech.Revolute {},
    connect = { { "f.frame_b", "r.frame_a" } } })
end, { "r: residual res does not depend on the tearing variables (tearing pair a, res of "
  .. "Revolute); planar joint without inertia (a joint whose frame_b side carries "
  .. "no Body: put one somewhere below it; springs and dampers alone do not hold it)" },
  "a joint without a body", "model")

-- not the structure: a chain of two crane crabs pushed and integrated at a step far too
-- large diverges; at t = 1.5 the residuals reach 1e26, the probes' unit steps are lost in
-- their rounding, and the matrix comes out 0. The message says so, not that a joint lacks
-- inertia.
do
  local Chain = dofile("examples/crab_chain.lua")
  local err = run_err(lied.build(Chain, { n = 2, ["crab[1].prismatic1.v"] = 1 }),
    { stop = 5, dt = 0.5, solver = "rk4", out = "none" })
  has(err, { "at t = 1.5: singular linear section (pivot 1 of 2); tearing variables: "
    .. "crab[2].revolute2.a, crab[2].prismatic1.a; section of crab[2].prismatic1, crab[2].body1, "
    .. "crab[2].revolute2, crab[2].rod2, crab[2].body2; its residuals at zero tearing variables "
    .. "reach ", "so large that the probes' unit steps are lost in their rounding: the matrix may "
    .. "not be singular" }, "a diverged crab chain")
  lacks(err, "planar joint without inertia", "a diverged crab chain")
end

T.done()
