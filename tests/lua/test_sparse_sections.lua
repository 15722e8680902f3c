-- Large linear sections solved sparsely (docs/architecture.md, "Sparse linear
-- sections"): the same trajectories as the dense probe, for a section with a
-- constant matrix (a district-heating network) and one whose matrix changes
-- every evaluation (a chain of pendulums); the schedule's statistics; bad
-- schedule options.
local lied = require "lied"
local T = require "tests.testing"
local mech = require "lied.mechanics"

-- The cases (T.case) run on their own; the builds they share are made first.

-- every recorded column of two results agrees to rel (relative to the
-- column's largest magnitude, absolute below 1e-12) at every row
local function same_runs(a, b, rel, what)
  local names = a:names()
  T.check(#names > 0 and a:nrows() > 2, what .. ": rows recorded")
  T.eq(a:nrows(), b:nrows(), what .. ": rows")
  local worst, at = 0, ""
  for _, nm in ipairs(names) do
    local ca, cb = T.column(a, nm), T.column(b, nm)
    local scale = 0
    for r = 1, #ca do scale = math.max(scale, math.abs(ca[r])) end
    for r = 1, #ca do
      local d = math.abs(ca[r] - cb[r]) / math.max(scale, 1e-12 / rel)
      if not (d <= worst) then worst, at = d, nm end
    end
  end
  T.check(worst <= rel, string.format("%s: sparse and dense agree to %.3g (worst %s)", what, worst, at))
end

-- 1. The district network: n + 1 tearing variables, constant matrix
local District = dofile("examples/district_heating.lua")
local n = 40
local sparse = lied.build(District, { n = n })
local dense = lied.build(District, { n = n }, nil, { sparse = false })
if T.case("district") then
  local si, di = sparse:info(), dense:info()
  T.eq(si.tearing_pairs, n + 1, "district: tearing pairs")
  T.eq(si.sparse_sections, 1, "district: one sparse section")
  T.eq(di.sparse_sections, 0, "district: sparse = false solves densely")
  T.check(si.sparse_unknowns > n + 1, "district: cut member outputs are unknowns too")
  T.check(si.sparse_colours >= 2 and si.sparse_colours < si.sparse_unknowns,
    "district: columns probed by colour: " .. si.sparse_colours)
  -- the flow derivatives' blocks (sup, split, the house's three, join, ret: 7
  -- per house) read only tearing variables and each other: restored, not run,
  -- in the pass at zero unknowns (Debug and sanitizer builds check that pass
  -- against the whole one bit for bit at every evaluation)
  T.check(si.sparse_fixed_members >= 7 * n,
    "district: fixed members of the constant section: " .. si.sparse_fixed_members)
  T.check(si.sparse_nonzeros < si.sparse_unknowns * 12,
    string.format("district: a sparse matrix (%d nonzeros for %d unknowns)", si.sparse_nonzeros,
      si.sparse_unknowns))
  -- KLU's AMD order: the factors' entries per unknown do not grow with the
  -- network (17.7 at 40 houses, 18.0 at 400); in the planner's numbering
  -- (tearing variables first, then the cuts) they would grow with n
  -- (docs/architecture.md, "Sparse linear sections")
  local big = lied.build(District, { n = 10 * n }):info()
  local f1 = si.sparse_factor_nonzeros / si.sparse_unknowns
  local f2 = big.sparse_factor_nonzeros / big.sparse_unknowns
  T.check(f1 > 1 and f2 < 19 and math.abs(f2 - f1) < 0.05 * f1,
    string.format("district: factor entries per unknown %.2f at n = %d, %.2f at %d", f1, n, f2, 10 * n))
  local opts = { stop = 30, solver = "esdirk23", tol = 1e-7, interval = 1,
                 vars = "pump.m_flow,house[*].valve.m_flow,house[*].room.T,vol.p,join[1].T" }
  local rs, ss = sparse:run(opts)
  local rd = dense:run(opts)
  same_runs(rs, rd, 1e-6, "district, esdirk23 at tol 1e-7")
  T.check(ss.factorisations <= 2, "district: the constant matrix factorised once per run: " ..
    ss.factorisations)
  -- the flows are what the pump and the valves make of them (not zeros)
  local m = T.column(rs, "pump.m_flow")
  T.check(m[#m] > 0.1, "district: the pump delivers: " .. m[#m])
  -- an explicit solver, a few steps (the evaluations themselves)
  local eopts = { stop = 0.05, solver = "rk4", dt = 1e-3, interval = 0.005,
                  vars = "pump.m_flow,house[*].valve.m_flow,split[*].m_flow1" }
  same_runs(sparse:run(eopts), dense:run(eopts), 1e-12, "district, rk4")
end

-- 1b. Implicit solvers on the sparse formulation (docs/solvers.md): Newton
-- over the states, the section's unknowns and the explicit cuts, whose
-- Jacobian is sparse (few colours), against the dense-section build, whose
-- Jacobian over the states alone is dense (a colour per state). esdirk23
-- (order 2) at tol 1e-7: at 1e-9 it takes ten times the steps (62,000 on
-- each formulation, 8 s of an optimised build's 12) through the same paths,
-- and the two formulations agree to 3e-9 at either tolerance.
local esdirk_tol = { esdirk23 = 1e-7 }
local function district_implicit(solver)
  local o = { stop = 120, solver = solver, tol = esdirk_tol[solver] or 1e-9, interval = 10,
              vars = "pump.m_flow,house[*].valve.m_flow,house[*].room.T" }
  local a, sa = sparse:run(o)
  local b, sb = dense:run(o)
  same_runs(a, b, 2e-5, "district, " .. solver)
  T.check(sa.colours < 80 and sb.colours >= 4 * n,
    string.format("district, %s: %d colours on the sparse formulation, %d on the states", solver,
      sa.colours, sb.colours))
  -- the sparse formulation's matrices are made and used: Newton converges
  -- as on the states (a solver whose Jacobian is never taken would still
  -- agree above, in many more steps of functional iteration)
  T.check(sa.jacobians > 0 and sa.lu > 0, string.format("district, %s: %d Jacobians, %d " ..
    "factorisations on the sparse formulation", solver, sa.jacobians, sa.lu))
  T.check(sa.steps <= 1.5 * sb.steps + 10 and sa.newton <= 1.5 * sb.newton + 10,
    string.format("district, %s: %d steps and %d Newton iterations on the sparse formulation, " ..
      "%d and %d on the states", solver, sa.steps, sa.newton, sb.steps, sb.newton))
end
if T.case("district_esdirk23") then district_implicit("esdirk23") end
if T.case("district_cvode") then district_implicit("cvode") end

-- info(true) reports the pattern the implicit solvers use: that of the
-- sparse formulation (the states' own Jacobian is dense: listing it cost
-- n^2 time and memory), with the colours a run takes; the dense build's
-- info the states' pattern
if T.case("district_info") then
  local _, st = sparse:run { stop = 1, solver = "esdirk23", tol = 1e-6, out = "none" }
  local js, jd = sparse:info(true).jacobian, dense:info(true).jacobian
  T.eq(js.colours, st.colours, "district: info's colours are those of the implicit run")
  T.eq(js.nnz, st.jac_nnz, "district: info's nonzeros are those of the implicit run")
  T.check(js.section_unknowns > 0 and js.unknowns == sparse:info().states + js.section_unknowns + js.cuts,
    string.format("district: %d unknowns = states + %s section unknowns + %s cuts", js.unknowns,
      tostring(js.section_unknowns), tostring(js.cuts)))
  T.check(jd.section_unknowns == nil and jd.unknowns == dense:info().states and jd.colours >= 4 * n,
    string.format("district, dense sections: the states' pattern, %d colours", jd.colours))
end

-- 2. A chain of pendulums hanging from one another: one section of n
-- joint accelerations whose matrix depends on the angles
local function pendulums(k)
  local def = { fixed = mech.Fixed {}, connect = {} }
  local prev = "fixed.frame_b"
  for i = 1, k do
    def["j" .. i] = mech.Revolute { phi = 0.3 * math.sin(i), w = 0 }
    def["rod" .. i] = mech.FixedTranslation { r = { 0.2, 0 } }
    def["b" .. i] = mech.Body { m = 0.1 + 0.01 * i, I = 0.01 }
    local c = def.connect
    c[#c + 1] = { prev, "j" .. i .. ".frame_a" }
    c[#c + 1] = { "j" .. i .. ".frame_b", "rod" .. i .. ".frame_a" }
    c[#c + 1] = { "rod" .. i .. ".frame_b", "b" .. i .. ".frame_a" }
    prev = "rod" .. i .. ".frame_b"
  end
  return lied.model("Pendulums" .. k)(def)
end
local P = pendulums(30)
local ps, pd = lied.build(P), lied.build(P, nil, nil, { sparse = false })
if T.case("pendulums") then
  T.eq(ps:info().sparse_sections, 1, "pendulums: one sparse section")
  T.eq(ps:info().constant_sections, 0, "pendulums: the matrix depends on the angles")
  T.eq(ps:info().sparse_fixed_members, 0, "pendulums: no member restored (not a constant section)")
  local popts = { stop = 0.2, solver = "rk4", dt = 1e-3, interval = 0.01, vars = "j*.phi,j*.w" }
  local a, sa = ps:run(popts)
  local b = pd:run(popts)
  same_runs(a, b, 1e-9, "pendulums, rk4")
  T.check(sa.factorisations >= 800, "pendulums: factorised every evaluation: " .. sa.factorisations)
end

-- the implicit solvers on the pendulums' sparse formulation (a section
-- whose matrix changes with the angles); esdirk23 at 1e-7 as above (40,000
-- steps at 1e-9, 4,000 at 1e-7, agreement 3e-10 at both). With lied's
-- assertions on (T.checked: sanitizer builds) 0.1 s: the same swing's
-- first third, every path of the longer run (Jacobians refreshed as the
-- angles move, step-size changes, rejections), a third of the steps.
local function pendulums_implicit(solver)
  local o = { stop = T.checked and 0.1 or 0.3, solver = solver, tol = esdirk_tol[solver] or 1e-9,
              dt = solver == "beuler" and 1e-3 or nil,
              interval = 0.01, vars = "j*.phi,j*.w" }
  local x, sx = ps:run(o)
  local y, sy = pd:run(o)
  same_runs(x, y, solver == "beuler" and 1e-8 or 1e-5, "pendulums, " .. solver)
  T.check(sx.colours < sy.colours, string.format("pendulums, %s: %d colours on the sparse " ..
    "formulation, %d on the states", solver, sx.colours, sy.colours))
  T.check(sx.jacobians > 0 and sx.steps <= 1.5 * sy.steps + 10,
    string.format("pendulums, %s: %d Jacobians, %d steps on the sparse formulation, %d steps " ..
      "on the states", solver, sx.jacobians, sx.steps, sy.steps))
end
if T.case("pendulums_beuler") then pendulums_implicit("beuler") end
if T.case("pendulums_esdirk23") then pendulums_implicit("esdirk23") end
if T.case("pendulums_cvode") then pendulums_implicit("cvode") end

-- 2b. Wide sums (a cold plate adding the heat of every cell on it, a
-- group's node adding its cells' currents inside the section) become trees
-- of partial sums in the sparse formulation (sched/aug.h): no row wider
-- than a few entries, few colours, and the implicit solvers' trajectories
-- those of the dense-section build (whose Jacobian is over the states)
local Battery = dofile("examples/battery_pack.lua")
local function battery_implicit(solver)
  local q = { s = 4, g = 2, p = 12 }
  local bs = lied.build(Battery, q, nil, { sparse = "always" })
  local bd = lied.build(Battery, q, nil, { sparse = false })
  local j = bs:info(true).jacobian
  T.check(j.max_row <= 12 and j.colours <= 16, string.format("battery: rows of at most %d, %d " ..
    "colours (one row of 101 entries and 101 colours before the trees)", j.max_row, j.colours))
  T.check(j.partial_sums >= 2 * 12 + 4 * 12 and j.partial_sums <= j.cuts,
    "battery: the partial sums are unknowns: " .. j.partial_sums)
  local o = { stop = 20, solver = solver, tol = 1e-8, interval = 2,
              vars = "meter.v,module[*].plate.T,module[*].group[*].cell[*].T,module[*].group[*].cell[*].SoC" }
  local a, sa = bs:run(o)
  local b, sb = bd:run(o)
  same_runs(a, b, solver == "cvode" and 1e-7 or 1e-10, "battery, " .. solver)
  T.eq(sa.colours, j.colours, "battery, " .. solver .. ": the run's colours are info's")
  T.check(sb.colours > 10 * sa.colours and sa.jacobians > 0, string.format("battery, %s: %d " ..
    "colours on the states, %d on the sparse formulation, %d Jacobians", solver, sb.colours,
    sa.colours, sa.jacobians))
end
if T.case("battery_esdirk23") then battery_implicit("esdirk23") end
if T.case("battery_cvode") then battery_implicit("cvode") end

-- 3. Small sections forced sparse (schedule option sparse = "always"): the
-- cut and colour logic on every kind of member, against the dense probe;
-- the debug and sanitizer builds also check each probed matrix column by
-- column (LIED_ASSERT, spprobe.c)
if T.case("small") then
  local small = {
    { pendulums(3), { stop = 0.3, solver = "rk4", dt = 1e-3, interval = 0.01,
                      vars = "j*.phi,j*.w" } },
    { pendulums(8), { stop = 0.3, solver = "dopri45", tol = 1e-9, interval = 0.01,
                      vars = "j*.phi,b*.frame_a.fx" } },
    { dofile("examples/vessels.lua"), { stop = 20, solver = "rk4", dt = 0.01, interval = 1,
                                         vars = "t1.level,t2.level,p1.m_flow,p2.m_flow" } },
    { dofile("examples/heated_loop.lua"), { stop = 40, solver = "rk4", dt = 0.01, interval = 1,
                                            vars = "pump.m_flow,heated.drop.m_flow,mix.T" } },
    { dofile("examples/cranecrab.lua"), { stop = 2, solver = "rk4", dt = 1e-3, interval = 0.05,
                                          vars = "prismatic1.s,revolute2.phi,body2.frame_a.fx" } },
  }
  for i, c in ipairs(small) do
    local bs = lied.build(c[1], nil, nil, { sparse = "always" })
    local bd = lied.build(c[1], nil, nil, { sparse = false })
    T.check(bs:info().sparse_sections >= 1, "small " .. i .. ": solved sparsely")
    same_runs(bs:run(c[2]), bd:run(c[2]), 1e-10, "small " .. i)
end

-- 4. Options (in the case "small")
T.raises(function() lied.build(P, nil, nil, { sparse = 1 }) end,
  "schedule option sparse must be true or false", "sparse = 1", "usage")
T.raises(function() lied.build(P, nil, nil, { dense = true }) end,
  "unknown schedule option dense", "unknown option", "usage")
T.raises(function() lied.simulate(P, { schedule = { skew = "no" } }) end,
  "schedule option skew must be true or false", "simulate", "usage")
end

T.done()
